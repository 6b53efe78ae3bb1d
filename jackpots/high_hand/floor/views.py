"""Tablet pages of the High Hand (§637a.16(f)): a floorperson or above records a verified hand on the
period's High Hand Tracking Slip, everyone who may read it follows the slip as it stands (the high
hand, ties, voided entries), and a shift supervisor voids a wrong entry with a reason.

Each page asks the one table of actions and roles first (``staff.permissions``); each action is a
service of ``jackpots.high_hand.services``, whose refusals the page shows in the same words, having changed
nothing and kept what the person entered.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.db.models.functions import Length
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.pages import pin_typo, refused_page
from casino_backoffice.core.idempotency import IdempotencyKeyReused
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, may
from casino_backoffice.staff.roles import Role
from jackpots.funds.floor import floor_rooms
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.selectors import jackpot_rule_of_version, tables_listing
from jackpots.high_hand.cards import best_five_words, dealt_words, game_label
from jackpots.high_hand.floor.forms import HighHandEntryForm, HighHandVoidForm
from jackpots.high_hand.models import HighHandEntry, HighHandPeriod, HighHandVoid, PeriodStatus
from jackpots.high_hand.rules import HighHandRule
from jackpots.high_hand.selectors import estimated_pool_cents, high_hand_periods, slip_leader
from jackpots.high_hand.services.slip import entry_record, entry_void
from tables.models import PokerRoom, Table
from tables.selectors import rules_version_in_effect, visible_to

RECORD_TEMPLATE = "jackpots/floor/high_hand_record.html"
SLIP_TEMPLATE = "jackpots/floor/high_hand_slip.html"

# The earlier periods the slip page links to, per fund, newest first.
EARLIER_PERIODS = 12


def _dealers() -> QuerySet[User]:
    """The dealers who may be named on the slip: every active dealer (staff belong to no one room)."""
    return User.objects.filter(groups__name=Role.DEALER.value, is_active=True).order_by(
        "first_name", "last_name", "username"
    )


def _open_periods(funds: list[Jackpot], at: datetime) -> dict[int, HighHandPeriod]:
    """The open period of each fund at ``at`` (the latest started, should the schedule lag)."""
    found: dict[int, HighHandPeriod] = {}
    for period in HighHandPeriod.objects.filter(
        jackpot__in=funds, status=PeriodStatus.OPEN, starts_at__lte=at
    ).order_by("starts_at"):
        found[period.jackpot_id] = period
    return found


# --- Record a hand --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Offer:
    """A table where a High Hand fund is offered now, with its game and the fund's open period."""

    jackpot: Jackpot
    table: Table
    game: str
    period: HighHandPeriod | None


def _offers(rooms: list[PokerRoom]) -> list[Offer]:
    """Each High Hand fund of each room and the tables that offer it under the rules in effect now."""
    now = timezone.now()
    funds = list(Jackpot.objects.filter(room__in=rooms, kind=JackpotKind.HIGH_HAND).order_by("room__code", "code"))
    tables = list(Table.objects.filter(room__in=rooms).order_by(Length("number"), "number"))
    periods = _open_periods(funds, now)
    offers = []
    for room in rooms:
        version = rules_version_in_effect(room=room, at=now)
        if version is None:
            continue
        for fund in (fund for fund in funds if fund.room_id == room.pk):
            if not isinstance(jackpot_rule_of_version(version=version, code=fund.code), HighHandRule):
                continue
            listing = tables_listing(version=version, code=fund.code)
            for table in (table for table in tables if table.room_id == room.pk and table.number in listing):
                offers.append(Offer(fund, table, table.game, periods.get(fund.pk)))
    return offers


@dataclass(frozen=True)
class Chosen:
    jackpot: Jackpot
    table: Table
    game: str
    period: HighHandPeriod | None

    @property
    def game_label(self) -> str:
        return game_label(self.game)

    @property
    def dealt(self) -> str:
        return dealt_words(self.game)

    @property
    def best_five(self) -> str:
        return best_five_words(self.game)


def _chosen(request: HttpRequest, values: Any) -> Chosen | None:
    """The fund and the table of the hand, as the page carries them; a message when they are not a High
    Hand offered at that table now."""
    jackpot_id, table_id = str(values.get("jackpot", "")), str(values.get("table", ""))
    if not (jackpot_id.isdigit() and table_id.isdigit()):
        return None
    jackpot = visible_to(request.user, Jackpot.objects.select_related("room")).filter(pk=int(jackpot_id)).first()
    table = visible_to(request.user, Table.objects.select_related("room")).filter(pk=int(table_id)).first()
    if jackpot is None or table is None:
        messages.error(request, "That fund or table is not there any more: pick again.")
        return None
    offer = next((o for o in _offers([jackpot.room]) if o.jackpot.pk == jackpot.pk and o.table.pk == table.pk), None)
    if offer is None:
        messages.error(request, f"Table {table.number} does not offer the {jackpot.name} under the rules in effect.")
        return None
    return Chosen(jackpot, table, offer.game, offer.period)


def _entry_form(chosen: Chosen, data: Any = None) -> HighHandEntryForm:
    return HighHandEntryForm(data, table=chosen.table, game=chosen.game, dealers=_dealers())


def _record_form_page(request: HttpRequest, chosen: Chosen, form: HighHandEntryForm) -> HttpResponse:
    leader = None
    if chosen.period is not None:
        leader = slip_leader(
            HighHandEntry.objects.filter(period=chosen.period).select_related("table", "void").order_by("pk")
        )
    return render(request, RECORD_TEMPLATE, {"form": form, "chosen": chosen, "leader": leader})


@login_required
def record_page(request: HttpRequest) -> HttpResponse:
    """A floorperson or above records a full house or better they verified at the table on the period's
    High Hand Tracking Slip and signs (§637a.16(f)): first the fund and the table, then the player, the
    dealer, the players dealt in, the pot, when it was made, and the cards on the card picker. Only a
    hand higher than the period's high hand, or equal to it (a tie), is recorded; a refusal names the
    rule, records nothing and keeps what was entered."""
    if (refusal := refused_page(request, RECORD_TEMPLATE, Action.HIGH_HAND_RECORD)) is not None:
        return refusal
    values = request.POST if request.method == "POST" else request.GET
    chosen = _chosen(request, values)
    if chosen is None:
        if request.method == "POST":
            messages.error(request, "Nothing was recorded: pick the fund and the table of the hand.")
            return redirect("floor:high-hand-record")
        return render(request, RECORD_TEMPLATE, {"offers": _offers(floor_rooms(request.user))})
    if request.method != "POST":
        return _record_form_page(request, chosen, _entry_form(chosen))
    form = _entry_form(chosen, request.POST)
    if not form.is_valid():
        messages.error(request, f"Nothing was recorded: correct what is marked below.{pin_typo(form)}")
        return _record_form_page(request, chosen, form)
    key = form.cleaned_data["idempotency_key"]
    first = HighHandEntry.objects.filter(idempotency_key=key).values_list("pk", "period_id").first()
    try:
        entry = entry_record(
            jackpot=chosen.jackpot,
            table=chosen.table,
            actor=acting_user(request),
            pin=form.cleaned_data["pin"],
            **form.service_arguments(),
        )
    except IdempotencyKeyReused:
        assert first is not None
        messages.info(request, f"Entry {first[0]} was already recorded by this form; it counts once.")
        return redirect("floor:high-hand-period", period_id=first[1])
    except DomainError as refused:
        messages.error(request, f"Nothing was recorded. {refused.message}")
        return _record_form_page(request, chosen, form)
    if first is not None:
        messages.info(request, f"Entry {entry.pk} was already recorded by this form; it counts once.")
    else:
        standing = "ties the period's high hand" if entry.tie else "is the period's high hand"
        messages.success(
            request,
            f"Recorded and signed: {entry.words} at table {chosen.table.number}, seat {entry.seat} "
            f"({entry.player_name}) {standing}.",
        )
    return redirect("floor:high-hand-period", period_id=entry.period_id)


# --- The slip -------------------------------------------------------------------------------------


@dataclass
class SlipRow:
    """A line of the slip as the page shows it."""

    number: int
    entry: HighHandEntry
    void: HighHandVoid | None
    leader: bool
    tied: bool
    form: HighHandVoidForm | None


@dataclass
class Slip:
    """A period's Tracking Slip as it stands."""

    period: HighHandPeriod
    rows: list[SlipRow]
    leader: HighHandEntry | None
    estimated_cents: int | None
    minutes_left: int | None
    may_void: bool

    @property
    def estimated(self) -> str:
        return display_cents(self.estimated_cents or 0)

    @property
    def ties(self) -> int:
        return sum(1 for row in self.rows if row.tied)


def _slip(
    period: HighHandPeriod, user: User, *, now: datetime, bound: tuple[int, HighHandVoidForm] | None = None
) -> Slip:
    """``period`` from ``high_hand_periods`` (entries prefetched)."""
    entries = list(period.entries.all())
    leader = slip_leader(entries)
    final = period.status in (PeriodStatus.AWARDED, PeriodStatus.ROLLED_OVER)
    may_void = may(user, Action.HIGH_HAND_VOID) and not final
    rows = []
    for number, entry in enumerate(entries, start=1):
        void = getattr(entry, "void", None)
        form = None
        if may_void and void is None and entry.recorded_by_id != user.pk:
            form = bound[1] if bound and bound[0] == entry.pk else HighHandVoidForm(auto_id=f"id_void{entry.pk}_%s")
        is_leader = leader is not None and entry.pk == leader.pk
        rows.append(
            SlipRow(
                number=number,
                entry=entry,
                void=void,
                leader=is_leader,
                tied=leader is not None and not is_leader and void is None and entry.strength == leader.strength,
                form=form,
            )
        )
    minutes_left = None
    if period.status == PeriodStatus.OPEN:
        minutes_left = max(0, math.ceil((period.ends_at - now).total_seconds() / 60))
    return Slip(
        period=period,
        rows=rows,
        leader=leader,
        estimated_cents=estimated_pool_cents(period),
        minutes_left=minutes_left,
        may_void=may_void,
    )


@dataclass
class FundSlips:
    """A High Hand fund on the slip page: the slip of its open period (or its latest), and the periods
    before it."""

    jackpot: Jackpot
    slip: Slip | None
    earlier: list[HighHandPeriod]


def _slip_page(request: HttpRequest, *, bound: tuple[int, HighHandVoidForm] | None = None) -> HttpResponse:
    user, now = acting_user(request), timezone.now()
    funds = list(
        Jackpot.objects.filter(room__in=floor_rooms(request.user), kind=JackpotKind.HIGH_HAND)
        .select_related("room")
        .order_by("room__code", "code")
    )
    shown = []
    for fund in funds:
        periods = list(
            HighHandPeriod.objects.filter(jackpot=fund, starts_at__lte=now)
            .order_by("-starts_at")
            .values_list("pk", flat=True)[: EARLIER_PERIODS + 1]
        )
        latest = high_hand_periods().filter(pk=periods[0]).first() if periods else None
        earlier = list(HighHandPeriod.objects.filter(pk__in=periods[1:]).order_by("-starts_at"))
        slip = _slip(latest, user, now=now, bound=bound) if latest is not None else None
        shown.append(FundSlips(fund, slip, earlier))
    return render(request, SLIP_TEMPLATE, {"funds": shown, "may_record": may(user, Action.HIGH_HAND_RECORD)})


def _period_page(
    request: HttpRequest, period_id: int, *, bound: tuple[int, HighHandVoidForm] | None = None
) -> HttpResponse:
    user = acting_user(request)
    period = visible_to(request.user, high_hand_periods()).filter(pk=period_id).first()
    if period is None:
        messages.error(request, f"There is no High Hand period {period_id}.")
        return redirect("floor:high-hand-slip")
    return render(
        request,
        SLIP_TEMPLATE,
        {
            "one": _slip(period, user, now=timezone.now(), bound=bound),
            "may_record": may(user, Action.HIGH_HAND_RECORD),
        },
    )


@login_required
def slip_page(request: HttpRequest) -> HttpResponse:
    """The High Hand Tracking Slip of each fund's current period as it stands (§637a.16(f)): every entry
    in the order recorded, the period's high hand highlighted, ties marked, voided entries struck
    through with the reason; the estimated pool and the time left. A shift supervisor voids a wrong
    entry here (not one they recorded)."""
    if (refusal := refused_page(request, SLIP_TEMPLATE, Action.HIGH_HAND_READ)) is not None:
        return refusal
    return _slip_page(request)


@login_required
def period_page(request: HttpRequest, period_id: int) -> HttpResponse:
    """One period's slip, current or past, with its pool and winners once announced."""
    if (refusal := refused_page(request, SLIP_TEMPLATE, Action.HIGH_HAND_READ)) is not None:
        return refusal
    return _period_page(request, period_id)


@login_required
@require_POST
def void_page(request: HttpRequest, entry_id: int) -> HttpResponse:
    """A shift supervisor voids a wrong entry with a reason and signs; the entry stays on the slip and
    the period's high hand falls back to the best entry left."""
    if (refusal := refused_page(request, SLIP_TEMPLATE, Action.HIGH_HAND_VOID)) is not None:
        return refusal
    entry = visible_to(request.user, HighHandEntry.objects.select_related("table")).filter(pk=entry_id).first()
    if entry is None:
        messages.error(request, f"There is no High Hand entry {entry_id}.")
        return redirect("floor:high-hand-slip")
    form = HighHandVoidForm(request.POST, auto_id=f"id_void{entry.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"Entry {entry.pk} was not voided: correct what is marked below.{pin_typo(form)}")
        return _period_page(request, entry.period_id, bound=(entry.pk, form))
    try:
        entry_void(
            entry=entry, reason=form.cleaned_data["reason"], actor=acting_user(request), pin=form.cleaned_data["pin"]
        )
    except DomainError as refused:
        messages.error(request, f"Entry {entry.pk} was not voided. {refused.message}")
        return _period_page(request, entry.period_id, bound=(entry.pk, form))
    leader = slip_leader(HighHandEntry.objects.filter(period_id=entry.period_id).select_related("table", "void"))
    now = (
        f"the period's high hand is now {leader.words} at table {leader.table.number}, seat {leader.seat}"
        if leader is not None
        else "the period has no high hand left"
    )
    messages.success(
        request, f"Entry {entry.pk} ({entry.words} at table {entry.table.number}, seat {entry.seat}) voided; {now}."
    )
    return redirect("floor:high-hand-period", period_id=entry.period_id)
