"""The progressive meters of the banked games in the admin (§655a.12, §657a.12): each meter with its
amount by the ledger and whether it is pending a reset, the rounds that played into it with their
Progressive Payout Wagers and the chips collected, the count exceptions and their explanations; all
read-only, read by the back office (``Action.PROGRESSIVE_READ`` for those who work in the admin,
``Action.BACK_OFFICE_USE``). The hands, validations and payments are in ``progressive_payouts``.

The paytable returns page shows ``jackpots.progressive.reports.room_returns``.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from casino_backoffice.core.admin import ReadOnlyAdmin, ReadOnlyInline, signatures_html
from casino_backoffice.core.clock import ZONED, local_text
from casino_backoffice.money import display_cents, display_percent
from casino_backoffice.staff.permissions import Action, may
from jackpots.funds.admin import require, room_of, rooms
from jackpots.funds.exports import credential, person
from jackpots.progressive.models import (
    MeterFunding,
    PayoutPlace,
    ProgressiveHand,
    ProgressiveMeter,
    ProgressiveRound,
    ProgressiveWager,
    WagerCountException,
)
from jackpots.progressive.reports import NOT_SETTLED_WORDS, paytable_title, room_returns
from jackpots.progressive.rules import ProgressiveRule
from jackpots.progressive.selectors import MeterStanding, meters_standing
from tables.games import Game

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


def _who(user: Any) -> str:
    return f"{person(user)} ({credential(user)})"


def _link(name: str, pk: int, words: str) -> str:
    return format_html('<a href="{}">{}</a>', reverse(f"admin:jackpots_{name}_change", args=[pk]), words)


def _round_words(round_: ProgressiveRound) -> str:
    """'T11, 2026-11-30 21:14 EST' (the round's table and meter's room selected)."""
    return f"{round_.table.number}, {local_text(round_.ended_at, round_.meter.room.timezone, ZONED)}"


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
        choices = rooms(request)
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
            "printed_at": local_text(now, room.timezone, ZONED) if room else "",
            "not_settled": NOT_SETTLED_WORDS,
        }
        return TemplateResponse(request, "admin/jackpots/progressive/returns.html", context)


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


class VoidFilter(admin.SimpleListFilter):
    """Rounds voided after they were recorded (§655a.13, §657a.13), whose wagers were returned: left
    out, the totals are what the meters and the house's share kept."""

    title = "void"
    parameter_name = "void"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("standing", "Not voided"), ("voided", "Voided")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "standing":
            return queryset.filter(void__isnull=True)
        if self.value() == "voided":
            return queryset.filter(void__isnull=False)
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
        "voided",
    ]
    list_display_links = ["ended"]
    list_filter = [
        CountFilter,
        VoidFilter,
        "meter__room",
        ("meter", admin.RelatedOnlyFieldListFilter),
        "gaming_day",
    ]
    list_select_related = ["meter__room", "table", "count_exception__explanation", "void"]
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
        return local_text(round_.ended_at, round_.meter.room.timezone, ZONED)

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

    @admin.display(description="Voided", boolean=True)
    def voided(self, round_: ProgressiveRound) -> bool:
        return hasattr(round_, "void")

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
        return local_text(exception.recorded_at, exception.round.meter.room.timezone, ZONED)

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
        return f"{_who(explained.explained_by)} at {local_text(explained.explained_at, exception.round.meter.room.timezone, ZONED)}"

    @admin.display(description="Signatures")
    def signed_by(self, exception: WagerCountException) -> str:
        explained = getattr(exception, "explanation", None)
        return signatures_html(explained) if explained is not None else "none"
