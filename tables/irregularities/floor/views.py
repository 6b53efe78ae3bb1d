"""Tablet pages of irregularities (§637a.18, §655a.5(b), §655a.13, §657a.5(b), §657a.13).

*Report an irregularity*: a dealer or floorperson picks an open table of their rooms, then reports what
went wrong there and signs (``irregularity_report``). *Rule*: a floorperson or above rules in words on
each irregularity of their rooms still awaiting its ruling and signs (``irregularity_rule``); a dispute
is a poker shift supervisor's (§637a.18(a): 'the decision of the Poker shift supervisor is final'),
never the reporter's. *The day's log*: the gaming day's irregularities, ruled or not. The services check
every rule; a refusal is shown on the form and nothing is recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models.functions import Length
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.pages import pin_typo, refused_page
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, may

from ...models import Round, Table
from ...selectors import gaming_day, visible_to
from ..house_kinds import kind_in_effect, kinds_at
from ..models import Irregularity
from ..selectors import irregularities_of_the_day, irregularities_unruled
from ..services import irregularity_report, irregularity_rule
from .forms import ReportForm, RulingForm

REPORT_TEMPLATE = "tables/irregularities/floor/report.html"
RULE_TEMPLATE = "tables/irregularities/floor/rule.html"
LOG_TEMPLATE = "tables/irregularities/floor/log.html"
# The table's rounds the report offers: the latest of its gaming day.
ROUNDS_OFFERED = 20


# --- Report ---------------------------------------------------------------------------------------


def _open_tables(user: Any) -> list[Table]:
    tables = Table.objects.filter(is_open=True).select_related("room")
    return list(visible_to(user, tables).order_by("room__code", Length("number"), "number"))


def _report_form(table: Table, data: Any = None) -> ReportForm:
    now = timezone.now()
    rounds = Round.objects.filter(table=table, gaming_day=gaming_day(room=table.room, at=now)).order_by(
        "-ended_at", "-pk"
    )[:ROUNDS_OFFERED]
    return ReportForm(data, table=table, kinds=kinds_at(table=table, at=now), rounds=list(rounds))


@login_required
def report_tables(request: HttpRequest) -> HttpResponse:
    """The open tables of the person's rooms: the table where it happened is picked first, so the form
    offers that table's kinds and rounds."""
    if (refusal := refused_page(request, REPORT_TEMPLATE, Action.IRREGULARITY_REPORT)) is not None:
        return refusal
    return render(request, REPORT_TEMPLATE, {"tables": _open_tables(request.user)})


@login_required
def report_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """The report at one open table: its kinds (each with its provision at the table's game), its recent
    rounds on the room's clock, the cause, the notice to compliance, the cards involved, the words and
    the PIN. A refusal records nothing and keeps what was entered."""
    if (refusal := refused_page(request, REPORT_TEMPLATE, Action.IRREGULARITY_REPORT)) is not None:
        return refusal
    table = next((table for table in _open_tables(request.user) if table.pk == table_id), None)
    if table is None:
        messages.error(request, "That table is not an open table of your rooms: pick one below.")
        return redirect("floor:irregularity-report")
    if request.method != "POST":
        return render(request, REPORT_TEMPLATE, {"table": table, "form": _report_form(table)})
    form = _report_form(table, request.POST)
    if not form.is_valid():
        messages.error(request, f"Nothing was reported: correct what is marked below.{pin_typo(form)}")
        return render(request, REPORT_TEMPLATE, {"table": table, "form": form})
    try:
        reported = irregularity_report(
            table=table, actor=acting_user(request), pin=form.cleaned_data["pin"], **form.service_arguments()
        )
    except DomainError as refused:
        messages.error(request, f"Nothing was reported. {refused.message}")
        return render(request, REPORT_TEMPLATE, {"table": table, "form": form})
    messages.success(
        request,
        f"Irregularity {reported.pk} at table {table.number} ({reported.get_kind_display()}, {reported.section}) "
        "is on the record, signed by you; a floorperson or above rules on it.",
    )
    return redirect("floor:irregularity-report")


# --- Rule -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RulingRow:
    """An irregularity awaiting its ruling, with the form the person may sign, or why they may not."""

    irregularity: Irregularity
    label: str
    dispute: bool
    form: RulingForm | None
    not_yours: str = ""


def _ruling_row(irregularity: Irregularity, *, user: User, bound: tuple[int, RulingForm] | None) -> RulingRow:
    found = kind_in_effect(irregularity.kind, room=irregularity.room, at=irregularity.occurred_at)
    dispute = found is not None and found.rule.ruled_by_supervisor
    label = found.label if found is not None else irregularity.kind
    if irregularity.reported_by_id == user.pk:
        why = "You reported it: another floorperson or above rules on it."
        return RulingRow(irregularity, label, dispute, None, why)
    if dispute and not may(user, Action.DISPUTE_RULE):
        why = "Awaiting a shift supervisor: the poker shift supervisor's decision is final (§637a.18(a))."
        return RulingRow(irregularity, label, dispute, None, why)
    form = bound[1] if bound is not None and bound[0] == irregularity.pk else None
    return RulingRow(irregularity, label, dispute, form or RulingForm(auto_id=f"id_i{irregularity.pk}_%s"))


def _ruling_rows(user: User, bound: tuple[int, RulingForm] | None = None) -> list[RulingRow]:
    return [_ruling_row(found, user=user, bound=bound) for found in irregularities_unruled(user=user)]


@login_required
def rule_page(request: HttpRequest) -> HttpResponse:
    """Each irregularity of the person's rooms awaiting its ruling, oldest first, whatever its gaming
    day: the floorperson or above rules in words and signs."""
    if (refusal := refused_page(request, RULE_TEMPLATE, Action.IRREGULARITY_RULE)) is not None:
        return refusal
    return render(request, RULE_TEMPLATE, {"rows": _ruling_rows(acting_user(request))})


@login_required
@require_POST
def rule_sign(request: HttpRequest, irregularity_id: int) -> HttpResponse:
    if (refusal := refused_page(request, RULE_TEMPLATE, Action.IRREGULARITY_RULE)) is not None:
        return refusal
    user = acting_user(request)
    irregularity = (
        visible_to(user, Irregularity.objects.select_related("room", "table")).filter(pk=irregularity_id).first()
    )
    if irregularity is None:
        messages.error(request, f"There is no irregularity {irregularity_id} in your rooms.")
        return redirect("floor:irregularity-rule")
    form = RulingForm(request.POST, auto_id=f"id_i{irregularity.pk}_%s")
    if not form.is_valid():
        messages.error(
            request, f"Irregularity {irregularity.pk} was not ruled: correct what is marked.{pin_typo(form)}"
        )
        return render(request, RULE_TEMPLATE, {"rows": _ruling_rows(user, (irregularity.pk, form))})
    try:
        irregularity_rule(
            irregularity=irregularity,
            ruling=form.cleaned_data["ruling"],
            actor=user,
            pin=form.cleaned_data["pin"],
            idempotency_key=form.cleaned_data["idempotency_key"],
        )
    except DomainError as refused:
        messages.error(
            request, f"Irregularity {irregularity.pk} was not ruled; nothing was recorded. {refused.message}"
        )
        return render(request, RULE_TEMPLATE, {"rows": _ruling_rows(user, (irregularity.pk, form))})
    messages.success(
        request, f"Irregularity {irregularity.pk} at table {irregularity.table.number} is ruled, signed by you."
    )
    return redirect("floor:irregularity-rule")


# --- The day's log --------------------------------------------------------------------------------


@login_required
def log_page(request: HttpRequest) -> HttpResponse:
    """The gaming day's irregularities of the person's rooms, ruled or not, newest first, each with its
    provision, cards, reporter and ruling; ``?day=YYYY-MM-DD`` for another gaming day."""
    if (refusal := refused_page(request, LOG_TEMPLATE, Action.IRREGULARITIES_READ)) is not None:
        return refusal
    day = None
    if asked := request.GET.get("day", ""):
        try:
            day = date.fromisoformat(asked)
        except ValueError:
            messages.error(request, f"{asked!r} is not a day (YYYY-MM-DD): today's gaming day is shown.")
    rows = list(irregularities_of_the_day(user=request.user, day=day))
    return render(request, LOG_TEMPLATE, {"rows": rows, "day": day})
