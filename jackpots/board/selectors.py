"""Reads of the display board players see (§637a.15(h), §637a.16(g)): each fund of a room as the board
shows it, a Bad Beat's displayed amount and a High Hand's open period, high hand and last winners,
and the banked games' progressive meters."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import date, datetime

from django.db.models import OuterRef, Prefetch, Subquery
from django.utils import timezone

from casino_backoffice.core.clock import local, zone_of
from casino_backoffice.money import display_cents
from jackpots.bad_beat.selectors import fund_positions
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.high_hand.models import HighHandAward, HighHandEntry, HighHandPeriod, PeriodStatus
from jackpots.high_hand.selectors import estimated_pool_cents, period_drops, shows_player_name, slip_leader
from jackpots.progressive.selectors import MeterStanding, meters_standing
from tables.models import PokerRoom
from tables.selectors import gaming_day

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
        zone = zone_of(jackpot.room)
        board = HighHandOnBoard(open=False)
        period = current.get(jackpot.pk)
        if period is not None:
            entries = list(period.entries.all())
            leader = slip_leader(entries)
            board = replace(
                board,
                open=True,
                estimated_cents=estimated_pool_cents(period) or 0,
                ends_local=local(period.ends_at, zone),
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
                last_starts_local=local(last.starts_at, zone),
                last_ends_local=local(last.ends_at, zone),
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
        now_local=local(now, room),
        gaming_day_on=gaming_day(room=room, at=now),
        open_tables=sum(tables),
        total_tables=len(tables),
        jackpots=displayed_jackpots(room=room, at=now),
        meters=tuple(meters_standing(room=room, at=now)),
    )
