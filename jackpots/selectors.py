"""Reads about jackpot funds: the rules in effect for a fund, each fund's position (official,
owed, available, displayed, pending), the High Hand's periods and Tracking Slips, and the display
board."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum
from django.utils import timezone

from casino_backoffice.core.checker import Checker
from casino_backoffice.ledger.models import Account
from casino_backoffice.ledger.selectors import account_balances
from casino_backoffice.money import display_cents
from tables.models import PokerRoom, RulesVersion, Table
from tables.selectors import gaming_day, rules_version_in_effect

from .accounts import jackpot_fund_account
from .exceptions import BadBeatNotOffered
from .models import (
    BadBeatClaim,
    BadBeatDecision,
    BadBeatShare,
    ClaimStatus,
    DecisionOutcome,
    DisplayAdjustment,
    HighHandAward,
    HighHandEntry,
    HighHandPeriod,
    HighHandUnclaimed,
    Jackpot,
    JackpotKind,
    PeriodStatus,
    RoundDrop,
)
from .progressive_selectors import MeterStanding, meters_standing
from .rules import BadBeatRule, HighHandRule, JackpotRule, jackpot_rule_parse

# --- The rules in effect for a fund ---------------------------------------------------------------

_rules: dict[tuple[int, str], JackpotRule | None] = {}
_rules_lock = threading.Lock()


def jackpot_rule_of_version(*, version: RulesVersion, code: str) -> JackpotRule | None:
    """A fund's posted rules in a rules version (None when the version does not name it), read from
    the version's canonical content by the jackpots' own parser; cached (versions never change)."""
    key = (version.pk, code)
    if key not in _rules:
        item = next((item for item in version.content.get("jackpots", []) if item.get("code") == code), None)
        parsed = jackpot_rule_parse(Checker(), f"jackpots ({code})", item, stored=True) if item is not None else None
        with _rules_lock:
            _rules[key] = parsed[0] if parsed is not None else None
    return _rules[key]


def tables_listing(*, version: RulesVersion, code: str) -> dict[str, str]:
    """The tables of a rules version that list fund ``code``: {table number: game}."""
    return {
        entry["number"]: entry["game"]
        for entry in version.content.get("tables", [])
        if code in (entry.get("jackpots") or [])
    }


@dataclass(frozen=True)
class BadBeatAtTable:
    """A Bad Beat as the rules in effect offer it at a table: the version, the fund's rules, the game."""

    version: RulesVersion
    rule: BadBeatRule
    game: str


def bad_beat_at_table(*, jackpot: Jackpot, table: Table, at: datetime) -> BadBeatAtTable:
    """The posted Bad Beat rules of ``jackpot`` at ``table`` at ``at`` (§637a.15(b)), or
    ``BadBeatNotOffered`` saying why not: no rules in effect, not a Bad Beat, the table does not
    offer it, or no hand of it is one the evaluator checks at the table's game."""
    if jackpot.kind != JackpotKind.BAD_BEAT:
        raise BadBeatNotOffered(f"Jackpot {jackpot.code} is a {jackpot.get_kind_display()} fund, not a Bad Beat.")
    if table.room_id != jackpot.room_id:
        raise BadBeatNotOffered(f"Table {table.number} is not in the room of jackpot {jackpot.code}.")
    version = rules_version_in_effect(room=table.room, at=at)
    if version is None:
        raise BadBeatNotOffered(f"No rules of room {table.room.code} were in effect at {at.isoformat()}.")
    rule = jackpot_rule_of_version(version=version, code=jackpot.code)
    listing = tables_listing(version=version, code=jackpot.code)
    if not isinstance(rule, BadBeatRule) or table.number not in listing:
        raise BadBeatNotOffered(
            f"Table {table.number} did not offer the {jackpot.name} ({jackpot.code}) under rules version "
            f"{version.number} in effect at {at.isoformat()}."
        )
    game = listing[table.number]
    if not rule.hands_for(game):
        raise BadBeatNotOffered(f"No Bad Beat hand of {jackpot.code} applies to {game} at table {table.number}.")
    return BadBeatAtTable(version=version, rule=rule, game=game)


def jackpot_collecting(*, jackpot: Jackpot, at: datetime) -> bool:
    """Whether a table collects for the fund under the rules in effect at ``at`` (§637a.15(c), (i))."""
    version = rules_version_in_effect(room=jackpot.room, at=at)
    return version is not None and bool(tables_listing(version=version, code=jackpot.code))


# --- Each fund's position -------------------------------------------------------------------------


@dataclass(frozen=True)
class FundPosition:
    """Where a fund stands.

    ``official_cents``: the fund's balance in the ledger, what cage verifications made official less
    what was paid and transferred (§637a.15(e)). ``owed_cents``: what verified claims still owe from
    it (verified, not yet paid). ``available_cents``: the difference, the current payout amount the
    display must show (§637a.15(h)(1)). ``displayed_cents``: what the latest display adjustment that
    took effect set, signed by finance and by the floorperson or above who witnessed it (None: never
    adjusted). ``pending``: a claim was verified after that adjustment was set (§637a.15(f)(1): 'pending
    adjustment due to a Bad Beat payout'), so an adjustment awaiting its witness leaves it pending.
    """

    jackpot: Jackpot
    official_cents: int
    owed_cents: int
    displayed_cents: int | None
    pending: bool

    @property
    def available_cents(self) -> int:
        return self.official_cents - self.owed_cents

    @property
    def display_matches(self) -> bool:
        """§637a.15(h)(2): the amount the finance department keeps corresponds to the amount displayed."""
        return self.displayed_cents == self.available_cents


def fund_positions(*, jackpots: Iterable[Jackpot]) -> dict[int, FundPosition]:
    """The position of each fund, in a fixed number of queries however many funds."""
    funds = list(jackpots)
    ids = [jackpot.pk for jackpot in funds]
    codes = {jackpot.pk: jackpot_fund_account(jackpot=jackpot).code for jackpot in funds}
    accounts = {account.code: account for account in Account.objects.filter(code__in=codes.values())}
    balances = account_balances(accounts=accounts.values())
    open_claims = {"claim__status__in": (ClaimStatus.VERIFIED, ClaimStatus.DISTRIBUTED)}
    committed = (
        BadBeatDecision.objects.filter(claim__jackpot=OuterRef("pk"), outcome=DecisionOutcome.VERIFIED, **open_claims)
        .values("claim__jackpot")
        .annotate(total=Sum("payout_cents"))
        .values("total")
    )
    paid = (
        BadBeatShare.objects.filter(
            distribution__claim__jackpot=OuterRef("pk"),
            distribution__claim__status=ClaimStatus.DISTRIBUTED,
            payment__isnull=False,
        )
        .values("distribution__claim__jackpot")
        .annotate(total=Sum("amount_cents"))
        .values("total")
    )
    # What the display shows: the latest adjustment that took effect, with both signatures (§637a.15(h)(1)).
    latest = DisplayAdjustment.objects.filter(jackpot=OuterRef("pk"), witnessed_at__isnull=False).order_by(
        "-adjusted_at", "-id"
    )
    verified = BadBeatDecision.objects.filter(claim__jackpot=OuterRef("pk"), outcome=DecisionOutcome.VERIFIED).order_by(
        "-decided_at"
    )
    # One query for every fund: what verified claims committed and what was paid of it, the latest
    # adjustment and the latest verification.
    display = {
        row["pk"]: row
        for row in Jackpot.objects.filter(pk__in=ids)
        .annotate(
            committed=Subquery(committed),
            paid=Subquery(paid),
            displayed=Subquery(latest.values("amount_cents")[:1]),
            adjusted_at=Subquery(latest.values("adjusted_at")[:1]),
            verified_at=Subquery(verified.values("decided_at")[:1]),
        )
        .values("pk", "committed", "paid", "displayed", "adjusted_at", "verified_at")
    }
    positions = {}
    for jackpot in funds:
        account = accounts.get(codes[jackpot.pk])
        row = display[jackpot.pk]
        verified_at, adjusted_at = row["verified_at"], row["adjusted_at"]
        positions[jackpot.pk] = FundPosition(
            jackpot=jackpot,
            official_cents=balances[account.pk] if account is not None else 0,
            owed_cents=(row["committed"] or 0) - (row["paid"] or 0),
            displayed_cents=row["displayed"],
            pending=verified_at is not None and (adjusted_at is None or verified_at > adjusted_at),
        )
    return positions


def fund_position(*, jackpot: Jackpot) -> FundPosition:
    return fund_positions(jackpots=[jackpot])[jackpot.pk]


def jackpot_ids_by_code(*, room: PokerRoom) -> dict[str, int]:
    """The id of each fund of the room by its code (the code the rules files name it by)."""
    return dict(Jackpot.objects.filter(room=room).values_list("code", "pk"))


# --- The High Hand's periods and Tracking Slips -------------------------------------------------------


def period_drops() -> Subquery:
    """The fund's drops from the pots of rounds that ended in the period (an annotation of periods)."""
    drops = (
        RoundDrop.objects.filter(
            jackpot=OuterRef("jackpot"),
            round__ended_at__gte=OuterRef("starts_at"),
            round__ended_at__lt=OuterRef("ends_at"),
        )
        .values("jackpot")
        .annotate(total=Sum("amount_cents"))
        .values("total")
    )
    return Subquery(drops)


def high_hand_periods() -> QuerySet[HighHandPeriod]:
    """High Hand periods with what each page and the API show of them, in a fixed number of queries
    however many periods: ``drops_cents`` (the expected contributions, see ``estimated_pool_cents``),
    the slip's entries with their voids and tables in the order recorded, and the awards with their
    entries and payments."""
    return (
        HighHandPeriod.objects.select_related("room", "jackpot", "rules_version")
        .annotate(drops_cents=period_drops())
        .prefetch_related(
            Prefetch(
                "entries",
                queryset=HighHandEntry.objects.select_related("table", "void__voided_by", "recorded_by").order_by(
                    "recorded_at", "pk"
                ),
            ),
            Prefetch(
                "awards",
                queryset=HighHandAward.objects.select_related("entry__table", "payment").order_by(
                    "entry__recorded_at", "pk"
                ),
            ),
        )
    )


def estimated_pool_cents(period: HighHandPeriod) -> int | None:
    """What the period's pool is expected to be before it is counted: the fund's drops from the pots
    of rounds that ended in the period, plus what rolled into it (§637a.16(h)). None once the pool is
    official (§637a.16(g)): then the pool is what was counted and verified. ``period`` comes from
    ``high_hand_periods`` (its ``drops_cents``)."""
    if period.pool_cents is not None:
        return None
    return (getattr(period, "drops_cents", None) or 0) + period.rolled_in_cents


def slip_leader(entries: Iterable[HighHandEntry]) -> HighHandEntry | None:
    """The period's high hand among its entries: the best not voided, the first recorded among equals
    (as ``jackpots.services.current_high_hand``, without a query when the entries are prefetched)."""
    standing = [entry for entry in entries if not hasattr(entry, "void")]
    if not standing:
        return None
    return min(standing, key=lambda entry: (-entry.strength, entry.recorded_at, entry.pk))


def shows_player_name(period: HighHandPeriod) -> bool:
    """Whether the display may show the player's name, as the period's posted rules say."""
    rule = jackpot_rule_of_version(version=period.rules_version, code=period.jackpot.code)
    return isinstance(rule, HighHandRule) and rule.show_player_name


# --- The display board ----------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardHand:
    """A hand as the board shows it: in words and cards, where it was made; the player's name only when
    the posted rules allow it (None otherwise)."""

    words: str
    cards: tuple[str, ...]
    table: str
    seat: int
    name: str | None
    amount_cents: int | None = None

    @property
    def amount(self) -> str:
        return display_cents(self.amount_cents or 0)


@dataclass(frozen=True)
class HighHandOnBoard:
    """A High Hand fund on the board.

    ``estimated_cents``: the open period's pool as expected, not counted yet (``estimated_pool_cents``);
    ``leader``: its high hand, ``tied`` the other players' hands that equal it. ``last_*``: the last period whose
    pool was announced (§637a.16(g): 'announced and displayed'), its winners, or None when it rolled
    over (§637a.16(h))."""

    open: bool
    estimated_cents: int = 0
    ends_local: datetime | None = None
    minutes_left: int | None = None
    leader: BoardHand | None = None
    tied: tuple[BoardHand, ...] = ()
    last_pool_cents: int | None = None
    last_starts_local: datetime | None = None
    last_ends_local: datetime | None = None
    last_rolled_over: bool = False
    winners: tuple[BoardHand, ...] = ()

    @property
    def estimated(self) -> str:
        return display_cents(self.estimated_cents)

    @property
    def last_pool(self) -> str:
        return display_cents(self.last_pool_cents or 0)

    @property
    def time_left(self) -> str:
        """'23 min left', '1 h 05 min left'; 'closing' once its end has passed (the schedule closes it)."""
        if self.minutes_left is None:
            return ""
        if self.minutes_left <= 0:
            return "closing"
        hours, minutes = divmod(self.minutes_left, 60)
        return f"{hours} h {minutes:02d} min left" if hours else f"{minutes} min left"


@dataclass(frozen=True)
class DisplayedJackpot:
    name: str
    kind: str
    amount_cents: int
    pending: bool = False
    high_hand: HighHandOnBoard | None = None

    @property
    def amount(self) -> str:
        return display_cents(self.amount_cents)


def _board_hand(entry: HighHandEntry, *, named: bool, amount_cents: int | None = None) -> BoardHand:
    return BoardHand(
        words=entry.words,
        cards=tuple(entry.cards.split()),
        table=entry.table.number,
        seat=entry.seat,
        name=entry.player_name if named else None,
        amount_cents=amount_cents,
    )


def high_hands_on_board(*, jackpots: list[Jackpot], at: datetime) -> dict[int, HighHandOnBoard]:
    """Each High Hand fund as the board shows it at ``at``, in a fixed number of queries however many
    funds and periods: the open periods with their drops and entries, and the last announced ones with
    their awards."""
    ids = [jackpot.pk for jackpot in jackpots if jackpot.kind == JackpotKind.HIGH_HAND]
    if not ids:
        return {}
    current: dict[int, HighHandPeriod] = {}
    open_periods = (
        HighHandPeriod.objects.filter(jackpot__in=ids, status=PeriodStatus.OPEN, starts_at__lte=at)
        .select_related("jackpot", "rules_version")
        .annotate(drops_cents=period_drops())
        .prefetch_related(Prefetch("entries", queryset=HighHandEntry.objects.select_related("table", "void")))
    )
    for found in open_periods:
        if found.jackpot_id not in current or found.starts_at > current[found.jackpot_id].starts_at:
            current[found.jackpot_id] = found
    latest = HighHandPeriod.objects.filter(jackpot=OuterRef("pk"), announced_at__isnull=False).order_by(
        "-starts_at", "-pk"
    )
    last_ids = Jackpot.objects.filter(pk__in=ids).annotate(last=Subquery(latest.values("pk")[:1])).values("last")
    announced = {
        period.jackpot_id: period
        for period in HighHandPeriod.objects.filter(pk__in=last_ids)
        .select_related("jackpot", "rules_version")
        .prefetch_related(
            Prefetch(
                "awards",
                queryset=HighHandAward.objects.select_related("entry__table").order_by("entry__recorded_at", "pk"),
            )
        )
    }
    shown = {}
    for jackpot in (jackpot for jackpot in jackpots if jackpot.pk in ids):
        zone = ZoneInfo(jackpot.room.timezone)
        board = HighHandOnBoard(open=False)
        period = current.get(jackpot.pk)
        if period is not None:
            entries = list(period.entries.all())
            leader = slip_leader(entries)
            board = replace(
                board,
                open=True,
                estimated_cents=estimated_pool_cents(period) or 0,
                ends_local=period.ends_at.astimezone(zone),
                minutes_left=math.ceil((period.ends_at - at).total_seconds() / 60),
            )
            if leader is not None:
                named = shows_player_name(period)
                # Each other player tied with the high hand, once: the same player at the same seat may be
                # on the slip twice with equal hands.
                places = {(leader.table_id, leader.seat, leader.player_name)}
                tied = []
                for entry in entries:
                    place = (entry.table_id, entry.seat, entry.player_name)
                    if hasattr(entry, "void") or entry.strength != leader.strength or place in places:
                        continue
                    places.add(place)
                    tied.append(_board_hand(entry, named=named))
                board = replace(board, leader=_board_hand(leader, named=named), tied=tuple(tied))
        last = announced.get(jackpot.pk)
        if last is not None:
            named = shows_player_name(last)
            board = replace(
                board,
                last_pool_cents=last.pool_cents,
                last_starts_local=last.starts_at.astimezone(zone),
                last_ends_local=last.ends_at.astimezone(zone),
                last_rolled_over=last.status == PeriodStatus.ROLLED_OVER,
                winners=tuple(
                    _board_hand(award.entry, named=named, amount_cents=award.amount_cents)
                    for award in last.awards.all()
                ),
            )
        shown[jackpot.pk] = board
    return shown


def displayed_jackpots(*, room: PokerRoom, at: datetime | None = None) -> tuple[DisplayedJackpot, ...]:
    """Each fund of the room as players see it.

    A Bad Beat shows only what its latest display adjustment that took effect set (§637a.15(h)(1): a
    finance employee adjusts the displayed amount in the presence of a floorperson or above, who signs
    too; nothing else moves it), with 'pending adjustment' from the verification of a claim until an
    adjustment set after it takes effect (§637a.15(f)(1)). A High Hand shows its open
    period: the pool as estimated from the drops (labelled an estimate: it is not counted yet), the
    high hand so far and the time left; and the pool and winners of the last period announced once
    its boxes were counted and verified (§637a.16(g)). Its ``amount_cents`` is the estimate.
    """
    at = at or timezone.now()
    jackpots = list(Jackpot.objects.filter(room=room).select_related("room").order_by("kind", "code"))
    positions = fund_positions(jackpots=[jackpot for jackpot in jackpots if jackpot.kind == JackpotKind.BAD_BEAT])
    high_hands = high_hands_on_board(jackpots=jackpots, at=at)
    shown = []
    for jackpot in jackpots:
        if jackpot.kind == JackpotKind.BAD_BEAT:
            position = positions[jackpot.pk]
            shown.append(
                DisplayedJackpot(
                    name=jackpot.name,
                    kind=jackpot.get_kind_display(),
                    amount_cents=position.displayed_cents or 0,
                    pending=position.pending,
                )
            )
        else:
            board = high_hands[jackpot.pk]
            shown.append(
                DisplayedJackpot(
                    name=jackpot.name,
                    kind=jackpot.get_kind_display(),
                    amount_cents=board.estimated_cents,
                    high_hand=board,
                )
            )
    return tuple(shown)


@dataclass(frozen=True)
class DisplayState:
    """What the display board of a room shows."""

    room: PokerRoom
    now_local: datetime
    gaming_day_on: date
    open_tables: int
    total_tables: int
    jackpots: tuple[DisplayedJackpot, ...] = ()
    notices: tuple[str, ...] = ()
    # The banked games' progressive meters, live from the ledger (§655a.12(c), §657a.12(d)).
    meters: tuple[MeterStanding, ...] = ()


def display_state(*, room: PokerRoom) -> DisplayState:
    now = timezone.now()
    tables = list(room.tables.values_list("is_open", flat=True))
    return DisplayState(
        room=room,
        now_local=now.astimezone(ZoneInfo(room.timezone)),
        gaming_day_on=gaming_day(room=room, at=now),
        open_tables=sum(tables),
        total_tables=len(tables),
        jackpots=displayed_jackpots(room=room, at=now),
        meters=tuple(meters_standing(room=room, at=now)),
    )


def local_time(at: datetime, zone: str) -> str:
    """A moment as the room's clock reads it, for a refusal or a notice: '2026-11-30 21:14 EST'."""
    return at.astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M %Z")


# --- The Bad Beat queues --------------------------------------------------------------------------


def payouts_to_deliver(*, room: PokerRoom) -> list[BadBeatClaim]:
    """The verified Bad Beats of a room not yet paid in full, oldest first: the queue of security and
    finance (§637a.15(f)(2): 'Notify a representative from the security department or finance
    department to deliver to the Poker table the applicable amount'). A claim still awaiting its
    distribution is listed too, so that who delivers sees it coming; a claim verified when the fund held
    nothing official (a payout of $0.00) has nothing to deliver and is not."""
    return list(
        BadBeatClaim.objects.filter(room=room, status__in=(ClaimStatus.VERIFIED, ClaimStatus.DISTRIBUTED))
        .exclude(decision__payout_cents=0)
        .select_related("jackpot", "table", "decision", "distribution")
        .prefetch_related("distribution__shares__payment")
        .order_by("opened_at", "pk")
    )


def claims_to_decide(*, room: PokerRoom) -> list[BadBeatClaim]:
    """The claims of a room awaiting the shift supervisor, oldest first."""
    return list(
        BadBeatClaim.objects.filter(room=room, status=ClaimStatus.CLAIMED)
        .select_related("jackpot", "table", "opened_by")
        .order_by("opened_at", "pk")
    )


def adjustments_to_witness(*, room: PokerRoom) -> list[DisplayAdjustment]:
    """Display adjustments of a room that no floorperson or above has signed as witness yet, each the
    latest of its fund: one that finance set again since is superseded and never takes effect."""
    newer = DisplayAdjustment.objects.filter(jackpot=OuterRef("jackpot")).filter(
        Q(adjusted_at__gt=OuterRef("adjusted_at")) | Q(adjusted_at=OuterRef("adjusted_at"), pk__gt=OuterRef("pk"))
    )
    return list(
        DisplayAdjustment.objects.filter(room=room, witnessed_by__isnull=True)
        .exclude(Exists(newer))
        .select_related("jackpot", "adjusted_by")
        .order_by("adjusted_at", "pk")
    )


# --- Uncollected High Hand awards (§637a.16(i)) ------------------------------------------------------


def unclaimed_next_period(unclaimed: HighHandUnclaimed) -> HighHandPeriod | None:
    """Where an award not collected in time goes under the posted destination ``next_period``: 'into
    the pool of the qualifying period open when the time limit ends' (the rules' words, §637a.16(i)),
    the period whose bounds hold ``collect_by``; once that period's pool is announced (finance approved
    after it), the first period after it not announced yet. Never a period that ended before the time
    limit. None when no such period is open or closed yet."""
    award = unclaimed.award
    return (
        HighHandPeriod.objects.filter(
            jackpot_id=award.period.jackpot_id,
            ends_at__gt=award.collect_by,
            status__in=(PeriodStatus.OPEN, PeriodStatus.CLOSED),
        )
        .order_by("starts_at")
        .first()
    )
