"""Reads about the High Hand: its periods with what each page and the API show of them, the expected
pool, the slip's leader, and where an award not collected in time goes (§637a.16(i))."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import OuterRef, Prefetch, QuerySet, Subquery, Sum

from jackpots.funds.models import RoundDrop
from jackpots.funds.selectors import jackpot_rule_of_version
from jackpots.high_hand.models import HighHandAward, HighHandEntry, HighHandPeriod, HighHandUnclaimed, PeriodStatus
from jackpots.high_hand.rules import HighHandRule

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
    (as ``jackpots.high_hand.services.slip.current_high_hand``, without a query when the entries are prefetched)."""
    standing = [entry for entry in entries if not hasattr(entry, "void")]
    if not standing:
        return None
    return min(standing, key=lambda entry: (-entry.strength, entry.recorded_at, entry.pk))


def shows_player_name(period: HighHandPeriod) -> bool:
    """Whether the display may show the player's name, as the period's posted rules say."""
    rule = jackpot_rule_of_version(version=period.rules_version, code=period.jackpot.code)
    return isinstance(rule, HighHandRule) and rule.show_player_name


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
