"""Reads of the High Hand Jackpot for its back office and reports (§637a.16): the High Hand Tracking
Slip of a period (f) with its voids, awards and every signature, and the history of a fund's periods
over a range of gaming days (their pools (g), winners, payments (h), roll-overs and uncollected awards
(i)).

Everything here reads, in a fixed number of queries whatever the number of rows;
``jackpots.high_hand.exports`` turns these into CSV and XLSX, the admin into pages and a PDF.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery

from casino_backoffice.money import display_cents
from casino_backoffice.staff.selectors import SignatureLine, signature_key, signature_lines
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.reports import (
    card_words,
    contribution_words,
    game_words,
    id_number_masked,
    maximum_contribution_cents,
    minimum_pot_words,
)
from jackpots.funds.selectors import jackpot_rule_of_version, tables_listing
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandAwardPayment,
    HighHandEntry,
    HighHandPeriod,
    HighHandUnclaimed,
    HighHandVoid,
    PeriodStatus,
)
from jackpots.high_hand.rules import TIE_RULE, HighHandRule, Period
from jackpots.high_hand.selectors import unclaimed_next_period
from tables.models import PokerRoom, RulesVersion
from tables.selectors import gaming_day_bounds, rules_version_in_effect


def id_words(id_type: str, id_number: str) -> str:
    """'Driver's license, number ending in 5678'."""
    return f"{id_type}, number ending in {id_number[-4:]}" if len(id_number) > 4 else f"{id_type}, number not shown"


# --- An award and what became of it ---------------------------------------------------------------


def award_state(award: HighHandAward) -> str:
    """'paid', 'not collected: to approve', 'not collected: moved', or 'to collect' (its payment and
    unclaimed transfer read from the award: select them with it)."""
    if getattr(award, "payment", None) is not None:
        return "paid"
    unclaimed = getattr(award, "unclaimed", None)
    if unclaimed is not None:
        return "not collected: moved" if unclaimed.approved_by_id else "not collected: to approve"
    return "to collect"


def unclaimed_words(destination: str) -> str:
    """Where the posted rules send an award not collected in time (§637a.16(i)), in words."""
    if destination == "next_period":
        return "into the pool of the qualifying period open when its time limit ended"
    if destination == "fund":
        return "back into the fund, added to the pool of the next period to close"
    return destination


def unclaimed_into(unclaimed: HighHandUnclaimed) -> HighHandPeriod | None:
    """The period an uncollected award went into, or would go into if approved now: under
    ``next_period`` the period open when its time limit ended (``unclaimed_next_period``); under
    ``fund`` none until the next period closes after the approval (``unclaimed_approve``)."""
    if unclaimed.into_period_id is not None:
        return unclaimed.into_period
    if unclaimed.destination == "next_period":
        return unclaimed_next_period(unclaimed)
    return None


# --- The Tracking Slip (§637a.16(f)) -------------------------------------------------------------


@dataclass(frozen=True)
class SlipLine:
    """One entry of the slip with its number on the slip, its signatures and what became of it."""

    number: int
    entry: HighHandEntry
    verified_by: SignatureLine | None  # §637a.16(f)(5): the floorperson or above who verified and recorded it
    void: HighHandVoid | None
    voided_by: SignatureLine | None
    award: HighHandAward | None

    @property
    def cards_in_words(self) -> str:
        return card_words(self.entry.cards)

    @property
    def id_number_masked(self) -> str:
        return id_number_masked(self.entry.id_number)

    @property
    def payment(self) -> HighHandAwardPayment | None:
        return getattr(self.award, "payment", None) if self.award is not None else None

    @property
    def unclaimed(self) -> HighHandUnclaimed | None:
        return getattr(self.award, "unclaimed", None) if self.award is not None else None


@dataclass
class TrackingSlip:
    """The High Hand Tracking Slip of one qualifying period: every entry in the order recorded, with
    the five items of §637a.16(f), the player's identification (b)(7), the players dealt in and the
    pot (the posted minimums), the voids with their reasons, the awards and their payments, and every
    signature (name, role, Board credential number, time)."""

    period: HighHandPeriod
    rule: HighHandRule | None
    lines: list[SlipLine]
    signatures: list[tuple[str, SignatureLine]] = field(default_factory=list)  # (step, signature)

    @property
    def jackpot(self) -> Jackpot:
        return self.period.jackpot

    @property
    def awards(self) -> list[SlipLine]:
        return [line for line in self.lines if line.award is not None]

    @property
    def high_hand(self) -> SlipLine | None:
        """The period's highest hand not voided (the first recorded among equals)."""
        standing = [line for line in self.lines if line.void is None]
        return max(standing, key=lambda line: (line.entry.strength, -line.number), default=None)

    @property
    def minimums(self) -> str:
        """The posted minimums a hand met to be recorded, in words."""
        if self.rule is None:
            return ""
        return (
            f"{self.rule.minimum.minimum} or better; at least {self.rule.minimum.min_players_dealt} players dealt "
            f"in; a pot of at least {display_cents(self.rule.contribution.min_pot_cents)}"
        )


def tracking_slip(*, period: HighHandPeriod) -> TrackingSlip:
    """The Tracking Slip of ``period`` (§637a.16(f)): three queries whatever its length."""
    period = HighHandPeriod.objects.select_related("room", "jackpot", "rules_version").get(pk=period.pk)
    rule = jackpot_rule_of_version(version=period.rules_version, code=period.jackpot.code)
    entries = list(
        HighHandEntry.objects.filter(period=period)
        .select_related(
            "table",
            "dealer",
            "recorded_by",
            "void__voided_by",
            "award__payment__paid_by",
            "award__unclaimed__approved_by",
            "award__unclaimed__into_period",
        )
        .order_by("recorded_at", "pk")
    )
    voids = {entry.pk: entry.void for entry in entries if hasattr(entry, "void")}
    awards = {entry.pk: entry.award for entry in entries if hasattr(entry, "award")}
    steps: list[tuple[str, object]] = []
    for number, entry in enumerate(entries, start=1):
        steps.append((f"Entry {number} verified and recorded", entry))
        if entry.pk in voids:
            steps.append((f"Entry {number} voided", voids[entry.pk]))
    for number, entry in enumerate(entries, start=1):
        award = awards.get(entry.pk)
        payment = getattr(award, "payment", None)
        unclaimed = getattr(award, "unclaimed", None)
        if payment is not None:
            steps.append((f"Award of entry {number} paid at the cage", payment))
        if unclaimed is not None and unclaimed.approved_by_id:
            steps.append((f"Award of entry {number} not collected: transfer approved", unclaimed))
    lines_by = signature_lines(document for _, document in steps)
    signatures = [(step, line) for step, document in steps for line in lines_by.get(signature_key(document), [])]

    def first(document: object | None) -> SignatureLine | None:
        found = lines_by.get(signature_key(document), []) if document is not None else []
        return found[0] if found else None

    lines = [
        SlipLine(
            number=number,
            entry=entry,
            verified_by=first(entry),
            void=voids.get(entry.pk),
            voided_by=first(voids.get(entry.pk)),
            award=awards.get(entry.pk),
        )
        for number, entry in enumerate(entries, start=1)
    ]
    return TrackingSlip(
        period=period, rule=rule if isinstance(rule, HighHandRule) else None, lines=lines, signatures=signatures
    )


# --- The history of a fund's periods -------------------------------------------------------------

# A period's status in a list's column; its page says it in full.
STATUS_SHORT = {
    PeriodStatus.OPEN: "open",
    PeriodStatus.CLOSED: "closed, to count",
    PeriodStatus.AWARDED: "awarded",
    PeriodStatus.ROLLED_OVER: "rolled over",
}


@dataclass(frozen=True)
class PeriodRow:
    """One period of the history: its pool, its slip in numbers, its winners and where its money went."""

    period: HighHandPeriod
    entries: int
    voids: int
    high_hand: str  # the best hand not voided, in words; "" without one
    awards: tuple[HighHandAward, ...]
    unclaimed_in: tuple[HighHandUnclaimed, ...]  # uncollected awards of earlier periods moved into this pool
    rolled_into: HighHandPeriod | None  # the period a rolled-over pool went into

    @property
    def status(self) -> str:
        return STATUS_SHORT[PeriodStatus(self.period.status)]

    @property
    def unclaimed_in_cents(self) -> int:
        return sum(unclaimed.award.amount_cents for unclaimed in self.unclaimed_in)

    @property
    def rolled_over_in_cents(self) -> int:
        """What rolled in from periods without a qualifying hand (the rest of ``rolled_in_cents``)."""
        return self.period.rolled_in_cents - self.unclaimed_in_cents

    @property
    def awarded_cents(self) -> int:
        return sum(award.amount_cents for award in self.awards)

    @property
    def paid_cents(self) -> int:
        return sum(award.amount_cents for award in self.awards if award_state(award) == "paid")

    @property
    def unclaimed_cents(self) -> int:
        """Awards not collected in time, their transfer prepared or approved (§637a.16(i))."""
        return sum(award.amount_cents for award in self.awards if award_state(award).startswith("not collected"))

    @property
    def to_collect_cents(self) -> int:
        return sum(award.amount_cents for award in self.awards if award_state(award) == "to collect")

    @property
    def rolled_over_cents(self) -> int | None:
        """The pool that rolled into the next period, there being no qualifying hand (§637a.16(h))."""
        return self.period.pool_cents if self.period.status == PeriodStatus.ROLLED_OVER else None

    @property
    def winners(self) -> str:
        """'Pat Winner (T1 seat 3, Full house, aces full of kings) $123.45; ...'."""
        return "; ".join(
            f"{award.entry.player_name} ({award.entry.table.number} seat {award.entry.seat}, {award.entry.words}) "
            f"{display_cents(award.amount_cents)}"
            for award in self.awards
        )


@dataclass(frozen=True)
class PeriodHistory:
    """The periods of a High Hand fund that started on the gaming days ``start`` to ``end``, in order,
    with their totals."""

    jackpot: Jackpot
    start: date
    end: date
    starts_at: datetime
    ends_at: datetime
    rows: tuple[PeriodRow, ...]

    def _sum(self, values: list[int | None]) -> int:
        return sum(value or 0 for value in values)

    def totals(self) -> list[tuple[str, int]]:
        """The money of the range in one column."""
        rows = self.rows
        return [
            ("Contributions made official", self._sum([row.period.contributions_cents for row in rows])),
            ("Rolled in from periods without a qualifying hand", self._sum([row.rolled_over_in_cents for row in rows])),
            ("Uncollected awards moved into a pool", self._sum([row.unclaimed_in_cents for row in rows])),
            ("Pools announced", self._sum([row.period.pool_cents for row in rows])),
            ("Awarded", self._sum([row.awarded_cents for row in rows])),
            ("Paid at the cage", self._sum([row.paid_cents for row in rows])),
            ("Still to collect", self._sum([row.to_collect_cents for row in rows])),
            ("Not collected in time", self._sum([row.unclaimed_cents for row in rows])),
            ("Rolled over to the next period", self._sum([row.rolled_over_cents for row in rows])),
        ]


def periods_with_counts(periods: QuerySet[HighHandPeriod]) -> QuerySet[HighHandPeriod]:
    """``periods`` with ``entry_count``, ``void_count`` and ``high_hand_words`` (the best entry not
    voided, the first recorded among equals) annotated, in the same query."""
    best = (
        HighHandEntry.objects.filter(period=OuterRef("pk"), void__isnull=True)
        .order_by("-strength", "recorded_at", "pk")
        .values("words")[:1]
    )
    return periods.annotate(
        entry_count=Count("entries", distinct=True),
        void_count=Count("entries__void", distinct=True),
        high_hand_words=Subquery(best),
    )


def period_history(*, jackpot: Jackpot, start: date, end: date) -> PeriodHistory:
    """Every period of ``jackpot`` that started on the gaming days ``start`` to ``end`` (§637a.16):
    its pool (contributions, rolled in), entries, winners, awards, payments, roll-over, uncollected
    awards and close note. Four queries at most whatever the number of periods (``jackpot`` with its room)."""
    starts_at, _ = gaming_day_bounds(room=jackpot.room, day=start)
    _, ends_at = gaming_day_bounds(room=jackpot.room, day=end)
    periods = list(
        periods_with_counts(
            HighHandPeriod.objects.filter(jackpot=jackpot, starts_at__gte=starts_at, starts_at__lt=ends_at)
        )
        .select_related("jackpot", "room")
        .order_by("starts_at")
    )
    awards: dict[int, list[HighHandAward]] = {period.pk: [] for period in periods}
    for award in (
        HighHandAward.objects.filter(period__in=periods)
        .select_related("entry__table", "payment__paid_by", "unclaimed__approved_by")
        .order_by("entry__recorded_at", "pk")
    ):
        awards[award.period_id].append(award)
    unclaimed_in: dict[int, list[HighHandUnclaimed]] = {period.pk: [] for period in periods}
    for unclaimed in HighHandUnclaimed.objects.filter(into_period__in=periods).select_related("award__period"):
        assert unclaimed.into_period_id is not None
        unclaimed_in[unclaimed.into_period_id].append(unclaimed)
    following = (
        HighHandPeriod.objects.filter(jackpot=jackpot, starts_at__gte=periods[-1].ends_at).order_by("starts_at").first()
        if periods and periods[-1].status == PeriodStatus.ROLLED_OVER
        else None
    )
    rows = []
    for index, period in enumerate(periods):
        rolled_into = None
        if period.status == PeriodStatus.ROLLED_OVER:
            rolled_into = periods[index + 1] if index + 1 < len(periods) else following
        rows.append(
            PeriodRow(
                period=period,
                entries=period.entry_count,  # type: ignore[attr-defined]
                voids=period.void_count,  # type: ignore[attr-defined]
                high_hand=period.high_hand_words or "",  # type: ignore[attr-defined]
                awards=tuple(awards[period.pk]),
                unclaimed_in=tuple(unclaimed_in[period.pk]),
                rolled_into=rolled_into,
            )
        )
    return PeriodHistory(jackpot=jackpot, start=start, end=end, starts_at=starts_at, ends_at=ends_at, rows=tuple(rows))


def awards_filter_state(state: str) -> Q:
    """The awards of a state as a filter: 'to_collect', 'paid', 'unclaimed'."""
    return {
        "to_collect": Q(payment__isnull=True, unclaimed__isnull=True),
        "paid": Q(payment__isnull=False),
        "unclaimed": Q(unclaimed__isnull=False),
    }[state]


# --- The posted High Hand rules (§637a.16(b)) -----------------------------------------------------

# The statements §637a.16(b)(6) and (7) require the posted rules to include, in the words posted.
PRESENCE_STATEMENT = "You do not need to be present at the end of the qualifying period to win."
IDENTIFICATION_STATEMENT = "Valid identification must be presented for your hand to qualify."

_UNCLAIMED_WORDS = {
    "next_period": (
        "An award not collected within the time limit goes into the pool of the qualifying period open when "
        "the time limit ends (§637a.16(i))."
    ),
    "fund": (
        "An award not collected within the time limit stays in the High Hand fund and is added to the next "
        "qualifying period's pool when that period closes (§637a.16(i))."
    ),
}


def _clock(moment: time) -> str:
    return moment.strftime("%H:%M")


def period_words(period: Period, *, day_starts: time) -> str:
    """A period as the room posts it, by its clock: "every hour from 10:00", "every 30 minutes from
    06:00", "every 2 hours from 00:00", "each gaming day from 06:00" (a day from the gaming day's
    start), "every 24 hours from 03:00"."""
    minutes, start = period.every_minutes, _clock(period.first_starts)
    if minutes == 24 * 60:
        return f"each gaming day from {start}" if period.first_starts == day_starts else f"every 24 hours from {start}"
    if minutes == 60:
        return f"every hour from {start}"
    if minutes % 60 == 0:
        return f"every {minutes // 60} hours from {start}"
    return f"every {minutes} minutes from {start}"


def _period_spans(period: Period) -> str:
    """The first periods of a day, so a player can tell which one a hand falls in."""
    if period.every_minutes == 24 * 60:
        return f"each runs from {_clock(period.first_starts)} to {_clock(period.first_starts)} the next day"
    step = timedelta(minutes=period.every_minutes)
    first = datetime.combine(date.min, period.first_starts)
    starts = [_clock((first + step * n).time()) for n in range(3)]
    return f"{starts[0]} to {starts[1]}, then {starts[1]} to {starts[2]}, and so on around the clock"


@dataclass(frozen=True)
class PostedHighHand:
    """A High Hand fund's posted rules (§637a.16(b)) under one rules version, in words: every
    statement (b)(1)-(7) requires, and where an award not collected goes (§637a.16(i))."""

    jackpot: Jackpot
    version: RulesVersion
    rule: HighHandRule
    tables: dict[str, str]  # table number -> the game's name
    time_zone: str
    day_starts: time

    def _period(self, period: Period) -> str:
        words = period_words(period, day_starts=self.day_starts)
        return f"{words[:1].upper()}{words[1:]}, by the room's clock ({self.time_zone}): {_period_spans(period)}."

    @property
    def qualifying_period(self) -> str:
        """(b)(1): the qualifying periods."""
        return self._period(self.rule.period)

    @property
    def collection_period(self) -> str:
        """(b)(1): the collection periods; a pot's contribution goes to the period its hand ended in."""
        words = self._period(self.rule.collection_period)
        if self.rule.collection_period == self.rule.period:
            words += " These are the qualifying periods."
        return f"{words} The contribution from a pot goes to the pool of the period in which its hand ended."

    @property
    def contribution(self) -> str:
        """(b)(2): the method of calculation and its base (after the rake, §637a.16(c))."""
        return contribution_words(self.rule.contribution)

    @property
    def maximum_contribution_cents(self) -> int:
        return maximum_contribution_cents(self.rule.contribution)

    @property
    def minimum_pot(self) -> str:
        """(b)(3)."""
        return minimum_pot_words(self.rule.contribution)

    @property
    def min_players(self) -> str:
        """(b)(4)."""
        return f"At least {self.rule.minimum.min_players_dealt} players must be dealt into the hand for it to qualify."

    @property
    def qualifying_hand(self) -> str:
        """§637a.16(f), (h): a full house or better, in the evaluator's words; the highest wins."""
        return (
            f'A full house or better: at least "{self.rule.minimum.minimum}" (§637a.16(f)). The highest Qualifying '
            "High Hand made during the qualifying period wins its pool."
        )

    @property
    def no_full_house(self) -> str:
        """§637a.16(h): a period without a full house rolls its pool over."""
        return (
            "If no player makes a full house during a qualifying period, its contributions are added to the next "
            "qualifying period's pool (§637a.16(h))."
        )

    @property
    def ties(self) -> str:
        """(b)(5): how tied Qualifying High Hands divide the award."""
        return TIE_RULE

    @property
    def time_limit(self) -> str:
        """(b)(6): the time limit to collect."""
        days = self.rule.claim_within_days
        return (
            f"An award must be collected within {days} day{'s' if days != 1 else ''} of the end of the qualifying "
            "period it was won in."
        )

    @property
    def presence(self) -> str:
        """(b)(6): the statement that a player need not be present at the end of the period."""
        return PRESENCE_STATEMENT

    @property
    def identification(self) -> str:
        """(b)(7): the statement that valid identification is presented for a hand to qualify."""
        return IDENTIFICATION_STATEMENT

    @property
    def unclaimed(self) -> str:
        """§637a.16(i): where an award not collected within the time limit goes."""
        return _UNCLAIMED_WORDS[self.rule.unclaimed]

    @property
    def board(self) -> str:
        """What the display board shows of the current high hand (the rules' ``show_player_name``)."""
        if self.rule.show_player_name:
            return "The display in the poker area shows the current high hand with the player's name, table and seat."
        return "The display in the poker area shows the current high hand by table and seat, without the player's name."


@dataclass(frozen=True)
class PostedHighHandRules:
    """The High Hand rules a room posts, from the rules version in effect at ``at``."""

    room: PokerRoom
    at: datetime
    version: RulesVersion | None
    high_hands: tuple[PostedHighHand, ...]


def posted_high_hand_rules(*, room: PokerRoom, at: datetime) -> PostedHighHandRules:
    """Every High Hand of the rules version in effect in ``room`` at ``at``, in the file's order, as
    posted (§637a.16(b)): the collection and qualifying periods (1), the maximum contribution and its
    method (2), the minimum pot (3), the players dealt in (4), the qualifying hand (f), how ties divide
    (5), the time limit with the statement that a player need not be present (6), the statement on
    identification (7), and where an award not collected goes (§637a.16(i)). Periods are in the
    room's time zone as that version states it."""
    version = rules_version_in_effect(room=room, at=at)
    if version is None:
        return PostedHighHandRules(room=room, at=at, version=None, high_hands=())
    codes = [item["code"] for item in version.content.get("jackpots", []) if item.get("kind") == JackpotKind.HIGH_HAND]
    funds = {jackpot.code: jackpot for jackpot in Jackpot.objects.filter(room=room, code__in=codes)}
    high_hands = []
    for code in codes:
        rule = jackpot_rule_of_version(version=version, code=code)
        if not isinstance(rule, HighHandRule) or code not in funds:
            continue
        high_hands.append(
            PostedHighHand(
                jackpot=funds[code],
                version=version,
                rule=rule,
                tables={
                    number: game_words(game)
                    for number, game in sorted(tables_listing(version=version, code=code).items())
                },
                time_zone=version.content["timezone"],
                day_starts=time.fromisoformat(version.content["gaming_day_starts"]),
            )
        )
    return PostedHighHandRules(room=room, at=at, version=version, high_hands=tuple(high_hands))


@dataclass(frozen=True)
class HighHandNotice:
    """The notice at one table offering a High Hand (§637a.16(b)): the High Hands it offers."""

    number: str
    game: str
    offers: tuple[PostedHighHand, ...]


def high_hand_notices(*, rules: PostedHighHandRules) -> list[HighHandNotice]:
    """One notice per table that offers a High Hand under the rules in effect, by table number."""
    if rules.version is None:
        return []
    games = {entry["number"]: entry["game"] for entry in rules.version.content.get("tables", [])}
    offers: dict[str, list[PostedHighHand]] = defaultdict(list)
    for high_hand in rules.high_hands:
        for number in high_hand.tables:
            offers[number].append(high_hand)
    return [
        HighHandNotice(number=number, game=game_words(games[number]), offers=tuple(offers[number]))
        for number in sorted(offers)
    ]
