"""Tablet pages of the rake app: log a round, the rake calculator and the verification of time charges."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.pages import refused_page
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.forms import SignWithPinForm
from casino_backoffice.staff.permissions import Action, may
from tables.models import Round, Table
from tables.selectors import visible_to

from ..exceptions import IdempotencyKeyReused
from ..models import TimeCharge
from ..selectors import PotBreakdown, pot_breakdown, rules_of_version, rules_version_number
from ..services import round_record, time_charge_verify
from .forms import PotForm, RoundLogForm


@dataclass(frozen=True)
class Takes:
    """What leaves a pot, each amount with the rule that set it, as the calculator and the round log show it."""

    table_number: str
    version_number: int
    rakeable: str
    lines: list[tuple[str, str, str]]  # (who takes, amount, rule)
    to_winner: str
    # A voided round has no winner: its pot goes back to the players who put it in (§637a.18(i)).
    voided: bool = False


def _takes_of_breakdown(breakdown: PotBreakdown) -> Takes:
    outcome = breakdown.outcome
    return Takes(
        table_number=breakdown.table.number,
        version_number=breakdown.version_number,
        rakeable=display_cents(outcome.rakeable_cents),
        lines=[("Rake", display_cents(outcome.rake_cents), outcome.rake_rule)]
        + [(breakdown.names[d.code], display_cents(d.amount_cents), d.rule) for d in outcome.drops],
        to_winner=display_cents(outcome.to_winner_cents),
    )


def takes_of_round(round_: Round) -> Takes:
    """The same lines for a recorded round, from what was recorded (its rake, drops and their rules)."""
    jackpots = rules_of_version(version_id=round_.rules_version_id).jackpots
    drops = sorted(round_.drops.all(), key=lambda d: d.position)
    rakeable = round_.pot_cents - round_.uncalled_bet_cents - round_.refund_cents
    refund = (
        [("Refunded to a player", display_cents(round_.refund_cents), "From the pot before the rake (§637a.18(k)(3))")]
        if round_.refund_cents
        else []
    )
    return Takes(
        table_number=round_.table.number,
        version_number=rules_version_number(version_id=round_.rules_version_id),
        rakeable=display_cents(rakeable),
        lines=refund
        + [("Rake", display_cents(round_.rake_cents), round_.rake_rule)]
        + [
            (
                jackpots[d.jackpot_code].name if d.jackpot_code in jackpots else d.jackpot_code,
                display_cents(d.amount_cents),
                d.rule,
            )
            for d in drops
        ],
        # A voided round returns the whole pot, the uncalled bet with it.
        to_winner=display_cents(
            round_.pot_cents if round_.voided else rakeable - round_.rake_cents - sum(d.amount_cents for d in drops)
        ),
        voided=round_.voided,
    )


@login_required
def calculator(request: HttpRequest) -> HttpResponse:
    """A dealer or floorperson enters a pot and sees the rake and each drop, with the rule for each."""
    if (refusal := refused_page(request, "rake/floor/calculator.html", Action.RAKE_CALCULATE)) is not None:
        return refusal
    form = PotForm(request.GET or None)
    takes = None
    error = None
    if request.GET and form.is_valid():
        data = form.cleaned_data
        try:
            breakdown = pot_breakdown(
                table=data["table"],
                pot_cents=data["pot"],
                uncalled_cents=data["uncalled_bet"],
                flop_dealt=data["flop_dealt"],
                players=2,
                at=timezone.now(),
            )
        except DomainError as refused:
            error = refused.message
        else:
            takes = _takes_of_breakdown(breakdown)
    return render(request, "rake/floor/calculator.html", {"form": form, "takes": takes, "error": error})


def usual_table_id(user: Any) -> int | None:
    """The open table a person most likely deals at next: the one they logged their last round at, or,
    later than that, the one they last opened (from the table's history); None when neither is open."""
    last_round = Round.objects.filter(created_by=user).order_by("-created_at", "-pk").values("table_id", "created_at")
    last_opened = (
        Table.history.filter(history_user=user, history_change_reason__startswith="opened by ")
        .order_by("-history_date")
        .values("id", "history_date")
    )
    candidates = [(row["created_at"], row["table_id"]) for row in last_round[:1]] + [
        (row["history_date"], row["id"]) for row in last_opened[:1]
    ]
    for _, table_id in sorted(candidates, reverse=True):
        if Table.objects.filter(pk=table_id, is_open=True).exists():
            return int(table_id)
    return None


@login_required
def round_log(request: HttpRequest) -> HttpResponse:
    """A dealer (or a floorperson or above) logs a round of play at an open table, as the rounds API
    does (``round_record``), and sees the rake and each drop recorded, with the rule for each.

    After recording, the page comes back (``?recorded=<round>``) with what the round took above a new
    form for the next round at the same table. A refused round records nothing and says why.
    """
    user = acting_user(request)
    if (refusal := refused_page(request, "rake/floor/round_log.html", Action.ROUND_RECORD)) is not None:
        return refusal
    if request.method == "POST":
        form = RoundLogForm(request.POST)
        if not form.is_valid():
            messages.error(request, "Nothing was recorded: correct what is marked below.")
        else:
            data = form.cleaned_data
            try:
                recorded = round_record(
                    table=data["table"],
                    ended_at=timezone.now(),
                    players_dealt_in=data["players_dealt_in"],
                    pot_cents=data["pot"],
                    uncalled_bet_cents=data["uncalled_bet"],
                    refund_cents=data["refund"],
                    flop_dealt=data["flop_dealt"],
                    voided=data["voided"],
                    actor=user,
                    idempotency_key=data["idempotency_key"],
                )
            except IdempotencyKeyReused:
                # The form was sent again (a second tap, a resend): the tablet dates a round when it
                # arrives, so the second sending differs from the first by its time and the service
                # refuses it. It records nothing; show the round the form did record.
                first = (
                    Round.objects.filter(idempotency_key=data["idempotency_key"]).values_list("pk", flat=True).first()
                )
                messages.info(
                    request,
                    f"Round {first} was already recorded by this form; it counts once. Log the next round below.",
                )
                return redirect(f"{reverse('floor:round-log')}?recorded={first}")
            except DomainError as refused:
                messages.error(request, f"Nothing was recorded. {refused.message}")
            else:
                round_ = recorded.round
                if recorded.replayed:
                    messages.info(
                        request,
                        f"Round {round_.pk} was already recorded by this form; it counts once. Log the next round below.",
                    )
                else:
                    messages.success(request, f"Round {round_.pk} recorded at table {data['table'].number}.")
                return redirect(f"{reverse('floor:round-log')}?recorded={round_.pk}")
        return render(request, "rake/floor/round_log.html", {"form": form, "takes": None})
    recorded_round = None
    if (recorded_id := request.GET.get("recorded", "")).isdigit():
        rounds = visible_to(request.user, Round.objects.select_related("table__room"))
        if not may(user, Action.ROUNDS_READ):  # a dealer sees the rake of the rounds they logged, no other
            rounds = rounds.filter(created_by=user)
        recorded_round = rounds.prefetch_related("drops").filter(pk=int(recorded_id)).first()
    table_id = recorded_round.table_id if recorded_round else usual_table_id(user)
    form = RoundLogForm(initial={"table": table_id} if table_id else {})
    return render(
        request,
        "rake/floor/round_log.html",
        {
            "form": form,
            "round": recorded_round,
            "takes": takes_of_round(recorded_round) if recorded_round else None,
            "can_void": may(user, Action.ROUND_VOID),
        },
    )


@login_required
def time_charges(request: HttpRequest) -> HttpResponse:
    """Time charges waiting for a floorperson's verification (§637a.17(b)(3)(v)), newest first: a read of
    the time charges, as ``GET /api/time-charges/`` is."""
    if (refusal := refused_page(request, "rake/floor/time_charges.html", Action.TIME_CHARGES_READ)) is not None:
        return refusal
    can_verify = may(acting_user(request), Action.TIME_CHARGE_VERIFY)
    pending = (
        visible_to(request.user, TimeCharge.objects.filter(verified_at__isnull=True))
        .select_related("table", "assessed_by")
        .order_by("-interval_starts_at")[:50]
    )
    # One form per charge, each with its own field ids.
    rows = [
        (charge, display_cents(charge.amount_cents), SignWithPinForm(auto_id=f"id_charge{charge.pk}_%s"))
        for charge in pending
    ]
    return render(request, "rake/floor/time_charges.html", {"rows": rows, "can_verify": can_verify})


@login_required
@require_POST
def time_charge_verify_page(request: HttpRequest, charge_id: int) -> HttpResponse:
    charge = get_object_or_404(visible_to(request.user, TimeCharge.objects.all()), pk=charge_id)
    form = SignWithPinForm(request.POST)
    if not form.is_valid():
        # Refused by the form, before any PIN check: a typo does not count toward the signing lock.
        if request.POST.get("pin", "").strip():
            messages.error(
                request,
                f"{' '.join(str(e) for e in form.errors['pin'])} Nothing was checked; it does not count as a wrong PIN.",
            )
        else:
            messages.error(request, "Enter your signing PIN to verify.")
    else:
        try:
            time_charge_verify(time_charge=charge, actor=acting_user(request), pin=form.cleaned_data["pin"])
        except DomainError as refused:
            messages.error(request, refused.message)
        else:
            messages.success(
                request,
                f"Time charge of {display_cents(charge.amount_cents)} at table {charge.table.number} verified; it is in the drop box.",
            )
    return redirect("floor:time-charges")
