"""The history of a High Hand fund's periods over a range of gaming days: their pools (§637a.16(g)),
winners, payments (h), roll-overs and uncollected awards (i)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery

from casino_backoffice.money import display_cents
from jackpots.funds.models import Jackpot
from jackpots.high_hand.models import HighHandAward, HighHandEntry, HighHandPeriod, HighHandUnclaimed, PeriodStatus
from jackpots.high_hand.reports.slip import award_state
from tables.selectors import gaming_day_bounds

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
