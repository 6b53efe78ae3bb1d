"""The tablet page of the progressive meters: a supervisor resets a meter after a 100% payout and
explains a wager count exception."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.pages import pin_typo, refused_page
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.funds.floor import floor_rooms
from jackpots.progressive.floor.forms import ExplainForm, ResetForm
from jackpots.progressive.models import ProgressiveMeter, ProgressiveValidation, WagerCountException
from jackpots.progressive.selectors import MeterStanding, meters_standing
from jackpots.progressive.services.meters import meter_reset
from jackpots.progressive.services.rounds import wager_count_explain
from tables.selectors import visible_to

METERS_TEMPLATE = "jackpots/floor/progressive_meters.html"


# --- The meters: resets and wager count exceptions ------------------------------------------------


@dataclass
class MeterRow:
    standing: MeterStanding
    validated: bool
    form: ResetForm | None  # a reset when pending and validated


@dataclass
class ExceptionRow:
    exception: WagerCountException
    form: ExplainForm | None


def _meters_page(
    request: HttpRequest,
    *,
    reset: tuple[int, ResetForm] | None = None,
    explain: tuple[int, ExplainForm] | None = None,
) -> HttpResponse:
    rooms = floor_rooms(request.user)
    standing = [meter for room in rooms for meter in meters_standing(room=room)]
    waiting = [meter.pending.pk for meter in standing if meter.pending is not None]
    validated = set(ProgressiveValidation.objects.filter(hand_id__in=waiting).values_list("hand_id", flat=True))
    rows = []
    for meter in standing:
        ok = meter.pending is not None and meter.pending.pk in validated
        form = None
        if ok:
            form = (
                reset[1] if reset and reset[0] == meter.meter.pk else ResetForm(auto_id=f"id_meter{meter.meter.pk}_%s")
            )
        rows.append(MeterRow(meter, ok, form))
    may_explain = may(acting_user(request), Action.PROGRESSIVE_EXPLAIN)
    exceptions = [
        ExceptionRow(
            exception,
            (
                explain[1]
                if explain and explain[0] == exception.pk
                else ExplainForm(auto_id=f"id_exception{exception.pk}_%s")
            )
            if may_explain
            else None,
        )
        for exception in WagerCountException.objects.filter(explanation__isnull=True, round__meter__room__in=rooms)
        .select_related("round__table", "round__meter", "round__recorded_by")
        .order_by("recorded_at", "id")
    ]
    return render(request, METERS_TEMPLATE, {"meters": rows, "exceptions": exceptions})


@login_required
def meters_page(request: HttpRequest) -> HttpResponse:
    """A supervisor's view of each meter: its amount, 'Pending reset' with the 100% payout it waits on,
    and the reset with the PIN once that payout is validated (§655a.12(c)(3), §657a.12(d)(3)); and the
    wager count exceptions still to explain (§655a.8(b), §657a.8(b))."""
    if (refusal := refused_page(request, METERS_TEMPLATE, Action.PROGRESSIVE_RESET)) is not None:
        return refusal
    return _meters_page(request)


@login_required
@require_POST
def reset_page(request: HttpRequest, meter_id: int) -> HttpResponse:
    if (refusal := refused_page(request, METERS_TEMPLATE, Action.PROGRESSIVE_RESET)) is not None:
        return refusal
    meter = visible_to(request.user, ProgressiveMeter.objects.select_related("room")).filter(pk=meter_id).first()
    if meter is None:
        messages.error(request, f"There is no progressive meter {meter_id}.")
        return redirect("floor:progressive-meters")
    form = ResetForm(request.POST, auto_id=f"id_meter{meter.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"{meter.name} was not reset: correct what is marked below.{pin_typo(form)}")
        return _meters_page(request, reset=(meter.pk, form))
    try:
        funding = meter_reset(meter=meter, actor=acting_user(request), pin=form.cleaned_data["pin"])
    except DomainError as refused:
        messages.error(request, f"{meter.name} was not reset. {refused.message}")
        return _meters_page(request, reset=(meter.pk, form))
    messages.success(request, f"{meter.name} reset: {display_cents(funding.amount_cents)} put on the meter and signed.")
    return redirect("floor:progressive-meters")


@login_required
@require_POST
def explain_page(request: HttpRequest, exception_id: int) -> HttpResponse:
    if (refusal := refused_page(request, METERS_TEMPLATE, Action.PROGRESSIVE_EXPLAIN)) is not None:
        return refusal
    exception = (
        visible_to(request.user, WagerCountException.objects.select_related("round__table"))
        .filter(pk=exception_id)
        .first()
    )
    if exception is None:
        messages.error(request, f"There is no wager count exception {exception_id}.")
        return redirect("floor:progressive-meters")
    where = f"The exception of round {exception.round_id} at table {exception.round.table.number}"
    form = ExplainForm(request.POST, auto_id=f"id_exception{exception.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"{where} was not explained: correct what is marked below.{pin_typo(form)}")
        return _meters_page(request, explain=(exception.pk, form))
    try:
        wager_count_explain(
            exception=exception,
            explanation=form.cleaned_data["explanation"],
            actor=acting_user(request),
            pin=form.cleaned_data["pin"],
        )
    except DomainError as refused:
        messages.error(request, f"{where} was not explained. {refused.message}")
        return _meters_page(request, explain=(exception.pk, form))
    messages.success(request, f"{where} is explained and signed.")
    return redirect("floor:progressive-meters")
