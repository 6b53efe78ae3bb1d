"""The progressive meters of the banked games in the admin (§655a.12, §657a.12): each meter with its
amount by the ledger and whether it is pending a reset, the rounds that played into it with their
Progressive Payout Wagers and the chips collected, the count exceptions and their explanations, the
winning hands with their Envy Bonuses, the validations, the payments at the cage and the meter's
initial and reset amounts; all read-only, read by the back office (``Action.PROGRESSIVE_READ`` for
those who work in the admin, ``Action.BACK_OFFICE_USE``).

A cage cashier pays a validated payout that may not be paid from the table inventory here
(§655a.11(i)(4)(i)(D), §657a.11(e)(4)), on a page that shows what is signed and asks for the patron's
identification and the PIN; ``progressive_pay`` checks every rule and a refusal shows its message.

The paytable returns: for each banked table of the rules in effect, the paytables it selected and its
meter's, line by line, with every hand counted (``casino_backoffice.poker.returns``, which enumerates
each kind of hand once per process).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from casino_backoffice.core.admin import ReadOnlyAdmin, ReadOnlyInline, signatures_html
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.money import display_cents, display_percent
from casino_backoffice.poker.paytables import PayoutKind, Paytable
from casino_backoffice.poker.returns import (
    NOT_SETTLED_BY_CARDS,
    PaytableReturn,
    paytable_return,
    percent,
    return_with_meter,
)
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from tables.games import Game
from tables.models import PokerRoom
from tables.selectors import rules_version_in_effect

from ..exports import credential, person
from ..high_hand_reports import id_number_masked
from ..models import (
    EnvyBonus,
    MeterFunding,
    PayoutPlace,
    ProgressiveHand,
    ProgressiveMeter,
    ProgressivePayment,
    ProgressiveRound,
    ProgressiveValidation,
    ProgressiveWager,
    WagerCountException,
)
from ..progressive_rules import PROGRESSIVE_GAMES, BankedTableRule, ProgressiveRule
from ..progressive_selectors import (
    MeterStanding,
    banked_table_of_version,
    meters_standing,
    progressive_rule_of_version,
)
from ..selectors import local_time
from ..services import progressive_pay
from ._common import SignForm, require, room_of, rooms, sign_page

CHANGE_LIST = "admin/jackpots/progressive/change_list.html"
# A meter's standing (amount, pending, tables, rules), kept on the meter read for a page.
STANDING = "_progressive_standing"


def may_read(user: Any) -> bool:
    """The progressive records in the back office: those who read them (the floor reads them on its
    tablets) and work in the admin."""
    return may(user, Action.PROGRESSIVE_READ) and may(user, Action.BACK_OFFICE_USE)


def _require_read(request: HttpRequest) -> None:
    require(request, Action.PROGRESSIVE_READ)
    require(request, Action.BACK_OFFICE_USE)


def _local(moment: Any, zone: str) -> str:
    return local_time(moment, zone) if moment else ""


def _who(user: Any) -> str:
    return f"{person(user)} ({credential(user)})"


def _link(name: str, pk: int, words: str) -> str:
    return format_html('<a href="{}">{}</a>', reverse(f"admin:jackpots_{name}_change", args=[pk]), words)


def _round_words(round_: ProgressiveRound) -> str:
    """'T11, 2026-11-30 21:14 EST' (the round's table and meter's room selected)."""
    return f"{round_.table.number}, {_local(round_.ended_at, round_.meter.room.timezone)}"


def _hand_words(hand: ProgressiveHand) -> str:
    return f"{hand.words}, {hand.round.table.number} seat {hand.seat}"


def paid_words(hand: ProgressiveHand) -> str:
    """What became of a hand's payout (its validation and payment selected with it)."""
    if not hand.amount_cents:
        return "no payout"
    validation = getattr(hand, "validation", None)
    payment = getattr(hand, "payment", None)
    if hand.place == PayoutPlace.TABLE:
        return "paid at the table" if validation is not None else "to validate, then the table"
    if payment is not None:
        return "paid at the cage"
    return "to pay at the cage" if validation is not None else "to validate, then the cage"


def payable_at_cage(hand: ProgressiveHand) -> bool:
    return paid_words(hand) == "to pay at the cage"


class ProgressiveAdmin(ReadOnlyAdmin):
    """Progressive documents and money rows: read by the back office, never added, changed nor
    deleted here; the services are their only writers."""

    change_list_template = CHANGE_LIST

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) and may_read(request.user)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        related = self.list_select_related
        queryset = super().get_queryset(request)
        return queryset.select_related(*related) if isinstance(related, list | tuple) else queryset


# --- Meters and the paytable returns ----------------------------------------------------------------


class FundingInline(ReadOnlyInline):
    model = MeterFunding
    fields = readonly_fields = ("funded_at", "reason", "amount", "after", "rules_version_number", "funded_by_shown")
    # An inline's heading is set in capitals: its words carry no citation (§655a.12(c)(3) would read §655A.12(C)(3)).
    verbose_name_plural = "Initial and reset amounts funded by the house"

    def get_queryset(self, request: HttpRequest) -> QuerySet[MeterFunding]:
        return (
            super()
            .get_queryset(request)
            .select_related("after_hand__round__table", "rules_version", "funded_by", "meter__room")
        )

    @admin.display(description="Amount")
    def amount(self, funding: MeterFunding) -> str:
        return display_cents(funding.amount_cents)

    @admin.display(description="After the payout of")
    def after(self, funding: MeterFunding) -> str:
        hand = funding.after_hand
        return _link("progressivehand", hand.pk, _hand_words(hand)) if hand else "—"

    @admin.display(description="Rules version")
    def rules_version_number(self, funding: MeterFunding) -> str:
        return str(funding.rules_version.number) if funding.rules_version else "—"

    @admin.display(description="Funded by (credential)")
    def funded_by_shown(self, funding: MeterFunding) -> str:
        return _who(funding.funded_by)


@admin.register(ProgressiveMeter)
class ProgressiveMeterAdmin(ProgressiveAdmin):
    """Every meter of every room with its amount (the ledger's balance of the meter), 'Pending reset'
    after a 100% payout until a supervisor resets it, the tables the rules in effect link to it, its
    rate of progression and its initial and reset amounts (§655a.12(c)(3), §657a.12(d)(3))."""

    list_display = ["name", "code", "room", "game_words", "amount", "state", "tables", "rate", "reset"]
    list_filter = ["room"]
    list_select_related = ["room"]
    fieldsets = [
        ("The meter", {"fields": ["room", "code", "name", "game_words", "created_at"]}),
        ("Now", {"fields": ["amount", "state", "tables"]}),
        (
            "As posted in the rules in effect",
            {"fields": ["paytable_words", "rate", "initial", "reset", "wager_sizes", "rules_links"]},
        ),
    ]
    readonly_fields = [
        "game_words",
        "amount",
        "state",
        "tables",
        "paytable_words",
        "rate",
        "initial",
        "reset",
        "wager_sizes",
        "rules_links",
    ]
    inlines = [FundingInline]

    def get_changelist_instance(self, request: HttpRequest) -> Any:
        """Each meter of the page with its standing, read once per room on the page (the amounts, the
        pending payouts and the rules in effect in a fixed number of queries)."""
        changelist = super().get_changelist_instance(request)
        meters = list(changelist.result_list)
        by_room: dict[int, dict[int, MeterStanding]] = {}
        for meter in meters:
            if meter.room_id not in by_room:
                standings = meters_standing(room=meter.room)
                by_room[meter.room_id] = {standing.meter.pk: standing for standing in standings}
            setattr(meter, STANDING, by_room[meter.room_id].get(meter.pk))
        return changelist

    def _standing(self, meter: ProgressiveMeter) -> MeterStanding | None:
        if not hasattr(meter, STANDING):
            found = [s for s in meters_standing(room=meter.room) if s.meter.pk == meter.pk]
            setattr(meter, STANDING, found[0] if found else None)
        standing: MeterStanding | None = getattr(meter, STANDING)
        return standing

    def _rule(self, meter: ProgressiveMeter) -> ProgressiveRule | None:
        standing = self._standing(meter)
        return standing.rule if standing else None

    @admin.display(description="Game", ordering="game")
    def game_words(self, meter: ProgressiveMeter) -> str:
        return Game(meter.game).label

    @admin.display(description="Amount (ledger)")
    def amount(self, meter: ProgressiveMeter) -> str:
        standing = self._standing(meter)
        return display_cents(standing.amount_cents) if standing else "—"

    @admin.display(description="State")
    def state(self, meter: ProgressiveMeter) -> str:
        standing = self._standing(meter)
        if standing is None or standing.pending is None:
            return "Standing"
        pending = standing.pending
        return format_html(
            '<strong style="white-space: nowrap">Pending reset</strong> after {}',
            _link("progressivehand", pending.pk, f"{pending.round.table.number} seat {pending.seat}"),
        )

    @admin.display(description="Linked tables")
    def tables(self, meter: ProgressiveMeter) -> str:
        standing = self._standing(meter)
        return ", ".join(standing.tables) if standing and standing.tables else "none"

    @admin.display(description="Rate of progression")
    def rate(self, meter: ProgressiveMeter) -> str:
        rule = self._rule(meter)
        return display_percent(rule.rate_bp) if rule else "not in the rules in effect"

    @admin.display(description="Reset amount")
    def reset(self, meter: ProgressiveMeter) -> str:
        rule = self._rule(meter)
        return display_cents(rule.reset_cents) if rule else "—"

    @admin.display(description="Initial amount")
    def initial(self, meter: ProgressiveMeter) -> str:
        rule = self._rule(meter)
        return display_cents(rule.initial_cents) if rule else "—"

    @admin.display(description="Progressive paytable")
    def paytable_words(self, meter: ProgressiveMeter) -> str:
        rule = self._rule(meter)
        return f"{paytable_title(rule.paytable)} ({rule.paytable.section})" if rule else "—"

    @admin.display(description="Wager sizes accepted")
    def wager_sizes(self, meter: ProgressiveMeter) -> str:
        rule = self._rule(meter)
        return " and ".join(display_cents(cents) for cents in rule.wagers_cents) if rule else "—"

    @admin.display(description="Records")
    def rules_links(self, meter: ProgressiveMeter) -> str:
        return format_html(
            '<a href="{}?meter__id__exact={}">Rounds</a> · <a href="{}?round__meter__id__exact={}">Hands</a> · '
            '<a href="{}?room={}">Paytable returns</a>',
            reverse("admin:jackpots_progressiveround_changelist"),
            meter.pk,
            reverse("admin:jackpots_progressivehand_changelist"),
            meter.pk,
            reverse("admin:jackpots_progressivemeter_returns"),
            meter.room.code,
        )

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.returns_view)
        return [path("returns/", view, name="jackpots_progressivemeter_returns"), *super().get_urls()]

    def returns_view(self, request: HttpRequest) -> HttpResponse:
        """The paytable returns of each banked table of a room's rules in effect (``?room=``)."""
        _require_read(request)
        choices = rooms()
        room = room_of(request, choices)
        now = timezone.now()
        returns = room_returns(room=room, at=now) if room is not None else None
        context = {
            **self.admin_site.each_context(request),
            "title": f"Paytable returns of {room.name}" if room else "Paytable returns",
            "opts": self.model._meta,
            "rooms": choices,
            "room": room,
            "returns": returns,
            "zone": room.timezone if room else "",
            "printed_at": _local(now, room.timezone) if room else "",
            "not_settled": NOT_SETTLED_WORDS,
        }
        return TemplateResponse(request, "admin/jackpots/progressive/returns.html", context)


# --- The returns of the paytables ---------------------------------------------------------------------

_LETTERED = {
    "three_card_bonus_": "Three Card Bonus, paytable {}",
    "crazy4_queens_up_": "Queens Up, paytable {}",
    "crazy4_progressive_": "Progressive Payout Wager, paytable {}",
}
_TITLES = {
    "mississippi_stud": "Mississippi Stud wager",
    "mississippi_stud_progressive": "Progressive Payout Wager",
    "crazy4_super_bonus": "Super Bonus",
}

# The wagers this page cannot show, and why: the player's cards alone do not settle them.
NOT_SETTLED_WORDS: list[tuple[str, str]] = [
    (
        "The Mississippi Stud wager (Ante and the 3rd, 4th and 5th Street Wagers, §655a.12(a))",
        "the player decides at each street to wager one, two or three times the Ante or fold "
        "(§655a.11(b), (d), (f)): its return depends on how the player plays, not on the paytable alone.",
    ),
    (
        "Crazy 4 Poker's Ante, Play and Super Bonus Wagers (§657a.12(a)-(b))",
        "they are settled against the dealer's hand: below a straight the Super Bonus is returned or lost by that "
        "comparison (§657a.11(c)(3)), so its return depends on the dealer's hand and on the player's decision to "
        "play or fold.",
    ),
]


def paytable_title(paytable: Paytable) -> str:
    """A paytable by the name the regulation gives it: 'Three Card Bonus, paytable A'."""
    if paytable.name in _TITLES:
        return _TITLES[paytable.name]
    for prefix, words in _LETTERED.items():
        if paytable.name.startswith(prefix):
            return words.format(paytable.name.removeprefix(prefix).upper())
    if "_envy_" in paytable.name:
        *letter, dollars = paytable.name.split("_envy_")[1].split("_")
        table = f" (progressive paytable {letter[0].upper()})" if letter else ""
        return f"Envy Bonus{table}, ${dollars} Progressive Payout Wager"
    return paytable.name


@dataclass(frozen=True)
class LineShown:
    hand: str
    payout: str
    hands: str
    probability: str
    one_in: str
    contribution: str


@dataclass(frozen=True)
class MeterReturn:
    wager: str
    returned: str
    house_edge: str


@dataclass(frozen=True)
class PaytableShown:
    """A paytable line by line beside every hand its wager can see (``PaytableReturn``)."""

    title: str
    section: str
    lines: list[LineShown]
    hands_total: str
    losing_hands: str
    losing_probability: str
    exact_return: str | None
    house_edge: str | None
    fixed_return: str | None = None
    with_meter: tuple[MeterReturn, ...] = ()
    envy_return: str | None = None
    wager: str = ""


@dataclass(frozen=True)
class TableShown:
    number: str
    game: str
    rule: BankedTableRule
    min_wager: str
    max_wager: str
    cap: str | None
    meter_code: str | None
    meter_name: str
    paytables: list[PaytableShown]


@dataclass(frozen=True)
class MeterShown:
    code: str
    name: str
    game: str
    amount: str
    pending: bool
    rate: str
    reset: str
    tables: list[str]
    progressive: PaytableShown
    envy: list[PaytableShown]


@dataclass(frozen=True)
class RoomReturns:
    version_number: int | None
    tables: list[TableShown]
    meters: list[MeterShown]


def _lines(result: PaytableReturn, contribution: Any) -> list[LineShown]:
    total = result.hands_total
    return [
        LineShown(
            hand=line.line.hand,
            payout=str(line.line.payout),
            hands=f"{line.hands:,}",
            probability=percent(line.probability, places=6),
            one_in=f"1 in {round(Fraction(total, line.hands)):,}" if line.hands else "never",
            contribution=contribution(line),
        )
        for line in result.lines
    ]


def _shown(paytable: Paytable, contribution: Any = None, **extra: Any) -> PaytableShown:
    result = paytable_return(paytable)
    exact, edge = result.exact_return, result.house_edge

    def returned(line: Any) -> str:
        if line.returned is not None:
            return percent(line.returned)
        return "share of the meter" if line.line.payout.kind is PayoutKind.METER else "—"

    return PaytableShown(
        title=paytable_title(paytable),
        section=paytable.section,
        lines=_lines(result, contribution or returned),
        hands_total=f"{result.hands_total:,}",
        losing_hands=f"{result.losing_hands:,}",
        losing_probability=percent(Fraction(result.losing_hands, result.hands_total), places=6),
        exact_return=percent(exact) if exact is not None else None,
        house_edge=percent(edge) if edge is not None else None,
        **extra,
    )


def _progressive_shown(rule: ProgressiveRule, amount_cents: int) -> PaytableShown:
    """The meter's paytable: the return of its fixed lines, and with the meter's lines at the amount
    the meter reads now, for each wager size it accepts (``return_with_meter``)."""
    result = paytable_return(rule.paytable)
    with_meter = []
    for cents in rule.wagers_cents:
        returned = return_with_meter(result, meter_cents=amount_cents, wager_cents=cents)
        with_meter.append(MeterReturn(display_cents(cents), percent(returned), percent(1 - returned)))
    return _shown(rule.paytable, fixed_return=percent(result.fixed_return), with_meter=tuple(with_meter))


def _envy_shown(rule: ProgressiveRule, wager_cents: int) -> PaytableShown:
    """An Envy Bonus schedule pays fixed dollars for another player's qualifying hand: each line's
    probability times its bonus, as a share of the receiver's wager, for each other player's hand."""
    paytable = rule.envy_paytable(wager_cents=wager_cents)
    result = paytable_return(paytable)

    def share(line: Any) -> Fraction:
        return line.probability * Fraction(line.line.payout.amount_cents, wager_cents)

    total = sum((share(line) for line in result.lines), Fraction(0))
    return _shown(
        paytable,
        contribution=lambda line: percent(share(line)),
        envy_return=percent(total),
        wager=display_cents(wager_cents),
    )


def room_returns(*, room: PokerRoom, at: Any) -> RoomReturns:
    """The returns of every banked table of the room's rules in effect at ``at`` and of the meters
    they play into; each kind of hand is enumerated once per process (``paytable_return`` keeps it)."""
    version = rules_version_in_effect(room=room, at=at)
    if version is None:
        return RoomReturns(version_number=None, tables=[], meters=[])
    standings = {standing.meter.code: standing for standing in meters_standing(room=room, at=at)}
    tables = []
    for entry in version.content.get("tables", []):
        if entry.get("game") not in PROGRESSIVE_GAMES:
            continue
        rule = banked_table_of_version(version=version, number=entry["number"])
        if rule is None:
            continue
        game = entry["game"]
        cap = rule.cap_cents(game)
        meter_rule = progressive_rule_of_version(version=version, code=rule.progressive) if rule.progressive else None
        tables.append(
            TableShown(
                number=entry["number"],
                game=Game(game).label,
                rule=rule,
                min_wager=display_cents(rule.min_wager_cents) if rule.min_wager_cents is not None else "not posted",
                max_wager=display_cents(rule.max_wager_cents) if rule.max_wager_cents is not None else "not posted",
                cap=display_cents(cap) if cap is not None else None,
                meter_code=rule.progressive,
                meter_name=meter_rule.name if meter_rule else "",
                paytables=[
                    _shown(paytable) for paytable in rule.paytables(game) if paytable.name not in NOT_SETTLED_BY_CARDS
                ],
            )
        )
    meters = []
    for code in sorted({table.meter_code for table in tables if table.meter_code}):
        meter_rule = progressive_rule_of_version(version=version, code=code)
        standing = standings.get(code)
        if meter_rule is None or standing is None:
            continue
        meters.append(
            MeterShown(
                code=code,
                name=meter_rule.name,
                game=Game(meter_rule.game).label,
                amount=display_cents(standing.amount_cents),
                pending=standing.is_pending,
                rate=display_percent(meter_rule.rate_bp),
                reset=display_cents(meter_rule.reset_cents),
                tables=[table.number for table in tables if table.meter_code == code],
                progressive=_progressive_shown(meter_rule, standing.amount_cents),
                envy=[_envy_shown(meter_rule, cents) for cents in meter_rule.wagers_cents],
            )
        )
    return RoomReturns(version_number=version.number, tables=tables, meters=meters)


# --- Rounds, their wagers and the count exceptions ------------------------------------------------------


class WagerInline(ReadOnlyInline):
    model = ProgressiveWager
    fields = readonly_fields = ("seat", "amount")
    verbose_name_plural = "Progressive Payout Wagers accepted, by seat (seat 1 dealt first)"

    @admin.display(description="Wager")
    def amount(self, wager: ProgressiveWager) -> str:
        return display_cents(wager.amount_cents)


class HandInline(ReadOnlyInline):
    model = ProgressiveHand
    fields = readonly_fields = ("seat", "hand_link", "line", "payout", "amount", "place", "state")
    verbose_name_plural = "Hands recorded, in the dealer's order (from the highest seat down)"

    def get_queryset(self, request: HttpRequest) -> QuerySet[ProgressiveHand]:
        return super().get_queryset(request).select_related("round__table", "validation", "payment")

    @admin.display(description="Hand")
    def hand_link(self, hand: ProgressiveHand) -> str:
        return _link("progressivehand", hand.pk, f"{hand.words} ({hand.cards})")

    @admin.display(description="Amount")
    def amount(self, hand: ProgressiveHand) -> str:
        return display_cents(hand.amount_cents)

    @admin.display(description="Paid")
    def state(self, hand: ProgressiveHand) -> str:
        return paid_words(hand)


class CountFilter(admin.SimpleListFilter):
    title = "wager count"
    parameter_name = "count"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("exception", "Exception"), ("unexplained", "Exception to explain"), ("match", "Counts match")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "exception":
            return queryset.filter(count_exception__isnull=False)
        if self.value() == "unexplained":
            return queryset.filter(count_exception__isnull=False, count_exception__explanation__isnull=True)
        if self.value() == "match":
            return queryset.filter(count_exception__isnull=True)
        return queryset


def _exception_words(exception: WagerCountException | None) -> str:
    if exception is None:
        return "—"
    explanation = getattr(exception, "explanation", None)
    return "explained" if explanation is not None else "to explain"


@admin.register(ProgressiveRound)
class ProgressiveRoundAdmin(ProgressiveAdmin):
    """Every round of a banked table that played into a meter, newest first: the Progressive Payout
    Wagers the system accepted and the chips the dealer collected (§655a.8(b), §657a.8(b)), what went
    to the meter at the rate of progression and the house's share, to the cent."""

    list_display = [
        "ended",
        "table_number",
        "meter_code",
        "counts",
        "wagers_cents",
        "increment_cents",
        "house_cents",
        "exception",
    ]
    list_display_links = ["ended"]
    list_filter = [CountFilter, "meter__room", ("meter", admin.RelatedOnlyFieldListFilter), "gaming_day"]
    list_select_related = ["meter__room", "table", "count_exception__explanation"]
    search_fields = ["table__number"]
    date_hierarchy = "ended_at"
    totals = ["wagers_cents", "increment_cents", "house_cents"]
    fieldsets = [
        (
            "The round",
            {"fields": ["meter", "table", "rules_version", "ended_at", "gaming_day", "community_cards"]},
        ),
        (
            "Wagers and chips (§655a.8(b), §657a.8(b))",
            {"fields": ["wagers_accepted", "chips_collected", "exception_link"]},
        ),
        # The money fields by their displays (``MoneyAdmin``), as fieldsets name them.
        ("The money", {"fields": ["wagers_money", "increment", "house"]}),
        ("Recorded", {"fields": ["recorded_by", "recorded_at"]}),
    ]
    readonly_fields = ["exception_link", "wagers_money", "increment", "house"]
    inlines = [WagerInline, HandInline]

    def get_ordering(self, request: HttpRequest) -> list[str]:
        return ["-ended_at", "-id"]

    @admin.display(description="Ended", ordering="ended_at")
    def ended(self, round_: ProgressiveRound) -> str:
        return _local(round_.ended_at, round_.meter.room.timezone)

    @admin.display(description="Table", ordering="table__number")
    def table_number(self, round_: ProgressiveRound) -> str:
        return round_.table.number

    @admin.display(description="Meter", ordering="meter__code")
    def meter_code(self, round_: ProgressiveRound) -> str:
        return round_.meter.code

    @admin.display(description="Wagers accepted / chips")
    def counts(self, round_: ProgressiveRound) -> str:
        words = f"{round_.wagers_accepted} / {round_.chips_collected}"
        return words if round_.counts_match else format_html("<strong>{}</strong>", words)

    @admin.display(description="Count exception")
    def exception(self, round_: ProgressiveRound) -> str:
        return _exception_words(getattr(round_, "count_exception", None))

    @admin.display(description="Count exception")
    def exception_link(self, round_: ProgressiveRound) -> str:
        exception = getattr(round_, "count_exception", None)
        if exception is None:
            return "none: the chips collected equal the wagers accepted"
        return _link("wagercountexception", exception.pk, _exception_words(exception))


@admin.register(WagerCountException)
class WagerCountExceptionAdmin(ProgressiveAdmin):
    """Each round whose chips collected differ from the wagers the system accepted (§655a.8(b),
    §657a.8(b)), with the supervisor's signed explanation once given."""

    list_display = ["recorded", "round_link", "wagers_accepted", "chips_collected", "explanation", "explained_by"]
    list_filter = ["round__meter__room", ("round__meter", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["round__table", "round__meter__room", "explanation__explained_by"]
    date_hierarchy = "recorded_at"
    fields = [
        "round_link",
        "wagers_accepted",
        "chips_collected",
        "recorded_at",
        "explanation",
        "explained_by",
        "signed_by",
    ]
    readonly_fields = ["round_link", "explanation", "explained_by", "signed_by"]

    @admin.display(description="Recorded", ordering="recorded_at")
    def recorded(self, exception: WagerCountException) -> str:
        return _local(exception.recorded_at, exception.round.meter.room.timezone)

    @admin.display(description="Round", ordering="round__ended_at")
    def round_link(self, exception: WagerCountException) -> str:
        return _link("progressiveround", exception.round_id, _round_words(exception.round))

    @admin.display(description="Explanation")
    def explanation(self, exception: WagerCountException) -> str:
        explained = getattr(exception, "explanation", None)
        return explained.explanation if explained is not None else "not explained yet"

    @admin.display(description="Explained by (credential)")
    def explained_by(self, exception: WagerCountException) -> str:
        explained = getattr(exception, "explanation", None)
        if explained is None:
            return "—"
        return (
            f"{_who(explained.explained_by)} at {_local(explained.explained_at, exception.round.meter.room.timezone)}"
        )

    @admin.display(description="Signatures")
    def signed_by(self, exception: WagerCountException) -> str:
        explained = getattr(exception, "explanation", None)
        return signatures_html(explained) if explained is not None else "none"


# --- Hands, Envy Bonuses, validations and payments ------------------------------------------------------


class EnvyInline(ReadOnlyInline):
    model = EnvyBonus
    fields = readonly_fields = ("seat", "wager", "line", "amount")
    verbose_name_plural = "Envy Bonuses to the other players, by their wager"

    @admin.display(description="Receiver's wager")
    def wager(self, bonus: EnvyBonus) -> str:
        return display_cents(bonus.wager_cents)

    @admin.display(description="Envy Bonus")
    def amount(self, bonus: EnvyBonus) -> str:
        return display_cents(bonus.amount_cents)


class PaidFilter(admin.SimpleListFilter):
    title = "payout"
    parameter_name = "paid"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("cage", "To pay at the cage"), ("validate", "To validate"), ("paid", "Paid")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        pays = queryset.filter(amount_cents__gt=0)
        if self.value() == "cage":
            return pays.filter(place=PayoutPlace.CAGE, validation__isnull=False, payment__isnull=True)
        if self.value() == "validate":
            return pays.filter(validation__isnull=True)
        if self.value() == "paid":
            return pays.filter(validation__isnull=False).exclude(place=PayoutPlace.CAGE, payment__isnull=True)
        return queryset


class PayForm(SignForm):
    patron_name = forms.CharField(
        label="Patron's name",
        max_length=120,
        widget=forms.TextInput(attrs={"size": 30, "autocomplete": "off"}),
    )
    id_type = forms.CharField(
        label="Identification presented",
        max_length=60,
        help_text="The kind of document, such as Driver's license or Passport.",
        widget=forms.TextInput(attrs={"size": 30, "autocomplete": "off"}),
    )
    id_number = forms.CharField(
        label="Its number",
        max_length=60,
        help_text="As printed on the document presented.",
        widget=forms.TextInput(attrs={"size": 30, "autocomplete": "off"}),
    )


@admin.register(ProgressiveHand)
class ProgressiveHandAdmin(ProgressiveAdmin):
    """Every hand recorded: a winning Progressive Payout Hand or an Envy Bonus Qualifying Hand, its
    cards and the hand the evaluator made of them, the line and payout, the meter as it stood at the
    player's turn (§655a.12(c)(4), §657a.12(d)(4)), where it is paid, its validation and payment, and
    the Envy Bonuses it gave the other players. A cage cashier pays a validated payout through the cage
    here."""

    list_display = [
        "recorded",
        "table_seat",
        "hand_words",
        "line_shown",
        "meter_before_cents",
        "amount_cents",
        "validated",
        "paid",
    ]
    list_display_links = ["recorded"]
    list_filter = [
        PaidFilter,
        "place",
        "envy_qualifying",
        "round__meter__room",
        ("round__meter", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = ["round__table", "round__meter__room", "validation", "payment"]
    search_fields = ["round__table__number", "words"]
    date_hierarchy = "recorded_at"
    totals = ["amount_cents"]
    change_form_template = "admin/jackpots/progressive/hand_change_form.html"
    fieldsets = [
        ("The round", {"fields": ["round_link", "seat"]}),
        (
            "The hand (§655a.11(i)(4)(i)(A)-(B), §657a.11(e)(1)-(2))",
            {"fields": ["cards", "hand_cards", "words", "folded", "wager", "envy_qualifying", "light_confirmed"]},
        ),
        # The money fields by their displays (``MoneyAdmin``), as fieldsets name them.
        ("The payout", {"fields": ["line", "payout", "meter_share", "meter_before", "amount", "place"]}),
        ("Recorded by the dealer", {"fields": ["recorded_by", "recorded_at"]}),
        ("Validation (§655a.11(i)(4)(i)(C), §657a.11(e)(3))", {"fields": ["validation_shown"]}),
        ("Payment at the cage (§655a.11(i)(4)(i)(D), §657a.11(e)(4))", {"fields": ["paid", "payment_shown"]}),
    ]
    readonly_fields = [
        "round_link",
        "wager",
        "meter_share",
        "meter_before",
        "amount",
        "validation_shown",
        "paid",
        "payment_shown",
    ]
    inlines = [EnvyInline]

    def get_list_display(self, request: HttpRequest) -> Any:
        shown = list(super().get_list_display(request))
        return [*shown, "pay_link"] if may(request.user, Action.PROGRESSIVE_PAY) else shown

    def get_ordering(self, request: HttpRequest) -> list[str]:
        return ["-recorded_at", "-id"]

    @admin.display(description="Recorded", ordering="recorded_at")
    def recorded(self, hand: ProgressiveHand) -> str:
        return _local(hand.recorded_at, hand.round.meter.room.timezone)

    @admin.display(description="Table, seat", ordering="round__table__number")
    def table_seat(self, hand: ProgressiveHand) -> str:
        return f"{hand.round.table.number} seat {hand.seat}"

    @admin.display(description="Hand", ordering="strength")
    def hand_words(self, hand: ProgressiveHand) -> str:
        return format_html('{}<br><span style="white-space: nowrap">{}</span>', hand.words, hand.cards)

    @admin.display(description="Line, payout", ordering="line")
    def line_shown(self, hand: ProgressiveHand) -> str:
        if hand.line:
            return format_html('{}<br><span style="white-space: nowrap">{}</span>', hand.line, hand.payout)
        return "folded: Envy Bonuses only" if hand.folded else "Envy Bonuses only"

    @admin.display(description="Validated", boolean=True)
    def validated(self, hand: ProgressiveHand) -> bool:
        return getattr(hand, "validation", None) is not None

    @admin.display(description="Paid (where)", ordering="place")
    def paid(self, hand: ProgressiveHand) -> str:
        return paid_words(hand)

    @admin.display(description="Round")
    def round_link(self, hand: ProgressiveHand) -> str:
        return _link("progressiveround", hand.round_id, _round_words(hand.round))

    @admin.display(description="Share of the meter")
    def meter_share(self, hand: ProgressiveHand) -> str:
        return display_percent(hand.meter_bp) if hand.meter_bp else "—"

    @admin.display(description="Validated by")
    def validation_shown(self, hand: ProgressiveHand) -> str:
        validation = getattr(hand, "validation", None)
        if validation is None:
            return "not yet"
        return format_html(
            "{}{}", _local(validation.validated_at, hand.round.meter.room.timezone), signatures_html(validation)
        )

    @admin.display(description="Payment")
    def payment_shown(self, hand: ProgressiveHand) -> str:
        payment = getattr(hand, "payment", None)
        if payment is None:
            return "—"
        return format_html(
            "{} to {}, {} {}{}",
            _local(payment.paid_at, hand.round.meter.room.timezone),
            payment.patron_name,
            payment.id_type,
            id_number_masked(payment.id_number),
            signatures_html(payment),
        )

    @admin.display(description="", empty_value="")
    def pay_link(self, hand: ProgressiveHand) -> str:
        if not payable_at_cage(hand):
            return ""
        return format_html(
            '<a class="button" style="white-space: nowrap" href="{}">Pay at the cage…</a>',
            reverse("admin:jackpots_progressivehand_pay", args=[hand.pk]),
        )

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        hand = self.get_object(request, object_id)
        context: dict[str, Any] = {**(extra_context or {})}
        if hand is not None:
            context["subtitle"] = f"{hand.words} at {hand.round.table.number} seat {hand.seat}"
            if may(request.user, Action.PROGRESSIVE_PAY) and payable_at_cage(hand):
                context["pay_url"] = reverse("admin:jackpots_progressivehand_pay", args=[hand.pk])
        return super().change_view(request, object_id, form_url, context)

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.pay_view)
        return [path("<int:hand_id>/pay/", view, name="jackpots_progressivehand_pay"), *super().get_urls()]

    def pay_view(self, request: HttpRequest, hand_id: int) -> HttpResponse:
        """A cage cashier pays a validated payout that may not be paid from the table inventory, against
        the patron's identification, and signs (``progressive_pay``, §655a.11(i)(4)(i)(D),
        §657a.11(e)(4)). Once: a second payment, or any other refusal, shows the service's message."""
        require(request, Action.PROGRESSIVE_PAY)
        hand = get_object_or_404(
            ProgressiveHand.objects.select_related(
                "round__table", "round__meter__room", "validation__validated_by", "payment__paid_by"
            ),
            pk=hand_id,
        )
        zone = hand.round.meter.room.timezone
        form = PayForm(request.POST or None)
        error = ""
        if request.method == "POST" and form.is_valid():
            try:
                progressive_pay(
                    hand=hand,
                    patron_name=form.cleaned_data["patron_name"],
                    id_type=form.cleaned_data["id_type"],
                    id_number=form.cleaned_data["id_number"],
                    actor=acting_user(request),
                    pin=form.cleaned_data["pin"],
                    idempotency_key=form.cleaned_data["idempotency_key"],
                )
            except DomainError as refused:
                error = refused.message
            else:
                self.message_user(
                    request,
                    f"{hand.words} at {hand.round.table.number} seat {hand.seat} paid at the cage to "
                    f"{form.cleaned_data['patron_name'].strip()}: {display_cents(hand.amount_cents)}.",
                    messages.SUCCESS,
                )
                return redirect("admin:jackpots_progressivehand_change", hand.pk)
        state = paid_words(hand)
        validation = getattr(hand, "validation", None)
        facts: list[tuple[str, Any]] = [
            ("Meter", f"{hand.round.meter.name} ({hand.round.meter.code})"),
            ("Table and seat", f"{hand.round.table.number}, seat {hand.seat}"),
            ("Round ended", _local(hand.round.ended_at, zone)),
            ("Cards", hand.cards),
            ("Hand", hand.words),
            ("Line won", f"{hand.line}: {hand.payout}" if hand.line else "none"),
            ("Meter at the player's turn", display_cents(hand.meter_before_cents)),
            ("Amount", display_cents(hand.amount_cents)),
            ("Where it is paid", hand.get_place_display()),
            (
                "Validated",
                f"by {_who(validation.validated_by)} at {_local(validation.validated_at, zone)}"
                if validation is not None
                else "not yet",
            ),
            ("State", state),
        ]
        payment = getattr(hand, "payment", None)
        if payment is not None:
            facts.append(("Payment", f"{_local(payment.paid_at, zone)} by {_who(payment.paid_by)}"))
        back = ("Back to the hand", reverse("admin:jackpots_progressivehand_change", args=[hand.pk]))
        return sign_page(
            request,
            title=f"Pay the {hand.words} of {hand.round.table.number} seat {hand.seat} at the cage",
            facts=facts,
            rule=ProgressivePayment.PAYER.name,
            # Only a validated payout still to pay at the cage is paid; the page of any other says why not.
            form=form if state == "to pay at the cage" else None,
            submit_label="Sign the payment",
            back=back,
            error=error,
            note="Ask for the patron's identification and type their name and the document's kind and number as "
            "presented. The player's cards stay on the table until this documentation is completed "
            "(§655a.11(i)(4)(i)(D), §657a.11(e)(4)).",
            breadcrumbs=[("Progressive hands", reverse("admin:jackpots_progressivehand_changelist"))],
        )


@admin.register(EnvyBonus)
class EnvyBonusAdmin(ProgressiveAdmin):
    """Every Envy Bonus, by the receiver's wager (§655a.12(c)(5), §657a.12(d)(5)); paid at the table with
    the qualifying hand's validation."""

    list_display = ["hand_link", "table_seat", "wager_cents", "line", "amount_cents", "paid"]
    list_filter = ["hand__round__meter__room", ("hand__round__meter", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["hand__round__table", "hand__validation"]
    totals = ["amount_cents"]
    fields = ["hand_link", "seat", "wager_cents", "line", "amount_cents", "paid"]
    readonly_fields = ["hand_link", "paid"]

    def get_ordering(self, request: HttpRequest) -> list[str]:
        return ["-hand__recorded_at", "-seat"]

    @admin.display(description="For the qualifying hand", ordering="hand__recorded_at")
    def hand_link(self, bonus: EnvyBonus) -> str:
        return _link("progressivehand", bonus.hand_id, _hand_words(bonus.hand))

    @admin.display(description="To table, seat")
    def table_seat(self, bonus: EnvyBonus) -> str:
        return f"{bonus.hand.round.table.number} seat {bonus.seat}"

    @admin.display(description="Paid")
    def paid(self, bonus: EnvyBonus) -> str:
        return "at the table" if getattr(bonus.hand, "validation", None) is not None else "with the validation"


@admin.register(ProgressiveValidation)
class ProgressiveValidationAdmin(ProgressiveAdmin):
    """Every validation of a progressive payout by a floorperson or above, not the person who recorded
    the hand (§655a.11(i)(4)(i)(C), §657a.11(e)(3))."""

    list_display = ["validated", "hand_link", "amount", "place", "validated_by_shown"]
    list_filter = ["hand__round__meter__room", ("hand__round__meter", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["hand__round__table", "hand__round__meter__room", "validated_by"]
    date_hierarchy = "validated_at"
    fields = ["hand_link", "amount", "place", "hand_recorded_by", "validated_by", "validated_at", "signed_by"]
    readonly_fields = ["hand_link", "amount", "place", "signed_by"]

    @admin.display(description="Validated", ordering="validated_at")
    def validated(self, validation: ProgressiveValidation) -> str:
        return _local(validation.validated_at, validation.hand.round.meter.room.timezone)

    @admin.display(description="Hand", ordering="hand__recorded_at")
    def hand_link(self, validation: ProgressiveValidation) -> str:
        return _link("progressivehand", validation.hand_id, _hand_words(validation.hand))

    @admin.display(description="Amount", ordering="hand__amount_cents")
    def amount(self, validation: ProgressiveValidation) -> str:
        return display_cents(validation.hand.amount_cents)

    @admin.display(description="Paid", ordering="hand__place")
    def place(self, validation: ProgressiveValidation) -> str:
        return validation.hand.get_place_display()

    @admin.display(description="Validated by (credential)", ordering="validated_by")
    def validated_by_shown(self, validation: ProgressiveValidation) -> str:
        return _who(validation.validated_by)

    @admin.display(description="Signatures")
    def signed_by(self, validation: ProgressiveValidation) -> str:
        return signatures_html(validation)


@admin.register(ProgressivePayment)
class ProgressivePaymentAdmin(ProgressiveAdmin):
    """Every progressive payout paid through the cage, with the patron's identification (its number by
    its last four characters) and the cashier's signature."""

    list_display = ["paid", "hand_link", "patron_name", "id_type", "id_shown", "amount", "paid_by_shown"]
    list_filter = ["hand__round__meter__room", ("hand__round__meter", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["hand__round__table", "hand__round__meter__room", "paid_by"]
    search_fields = ["patron_name"]
    date_hierarchy = "paid_at"
    fields = ["hand_link", "patron_name", "id_type", "id_shown", "amount", "paid_by", "paid_at", "signed_by"]
    readonly_fields = ["hand_link", "id_shown", "amount", "signed_by"]

    @admin.display(description="Paid", ordering="paid_at")
    def paid(self, payment: ProgressivePayment) -> str:
        return _local(payment.paid_at, payment.hand.round.meter.room.timezone)

    @admin.display(description="Hand", ordering="hand__recorded_at")
    def hand_link(self, payment: ProgressivePayment) -> str:
        return _link("progressivehand", payment.hand_id, _hand_words(payment.hand))

    @admin.display(description="ID number")
    def id_shown(self, payment: ProgressivePayment) -> str:
        return id_number_masked(payment.id_number)

    @admin.display(description="Amount", ordering="hand__amount_cents")
    def amount(self, payment: ProgressivePayment) -> str:
        return display_cents(payment.hand.amount_cents)

    @admin.display(description="Paid by (credential)", ordering="paid_by")
    def paid_by_shown(self, payment: ProgressivePayment) -> str:
        return _who(payment.paid_by)

    @admin.display(description="Signatures")
    def signed_by(self, payment: ProgressivePayment) -> str:
        return signatures_html(payment)


@admin.register(MeterFunding)
class MeterFundingAdmin(ProgressiveAdmin):
    """The house's initial amount of each meter and its reset amount after each 100% payout, signed by a
    supervisor (§655a.12(c)(3), §657a.12(d)(3))."""

    list_display = ["funded", "meter", "reason", "amount_cents", "after", "funded_by_shown"]
    list_filter = ["reason", "meter__room", ("meter", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["meter__room", "after_hand__round__table", "funded_by"]
    date_hierarchy = "funded_at"
    totals = ["amount_cents"]
    fields = ["meter", "reason", "amount_cents", "after", "rules_version", "funded_by", "funded_at", "signed_by"]
    readonly_fields = ["after", "signed_by"]

    @admin.display(description="Funded", ordering="funded_at")
    def funded(self, funding: MeterFunding) -> str:
        return _local(funding.funded_at, funding.meter.room.timezone)

    @admin.display(description="After the payout of")
    def after(self, funding: MeterFunding) -> str:
        hand = funding.after_hand
        return _link("progressivehand", hand.pk, _hand_words(hand)) if hand else "—"

    @admin.display(description="Funded by (credential)", ordering="funded_by")
    def funded_by_shown(self, funding: MeterFunding) -> str:
        return _who(funding.funded_by)

    @admin.display(description="Signatures")
    def signed_by(self, funding: MeterFunding) -> str:
        return signatures_html(funding)
