"""The cage's checks of the records (``ledger.invariants``): what each signed count and cage
verification says moved is exactly what the ledger moved.

- A count at a closed table took out of its box what the box held by the ledger at the count (its
  ``expected_cents``) into custody (§637a.15(d)(1)); its variance moves apart, from or to the
  variance account. A recount moves only the difference it makes, between custody and the variance
  account.
- A cage verification made official exactly its ``official_cents``: the transfers it posted into
  the funds and poker revenue add up to it (§637a.15(e), the finance department's official record).
- An announced High Hand pool is its period's contributions (§637a.16(g)-(h)): what its counts made
  official differs from the drops of the rounds that ended in the period by no more than the
  variances its counts recorded, and the pool is those contributions plus what rolled in.
"""

from __future__ import annotations

from casino_backoffice.ledger.invariants import documents_moved
from casino_backoffice.ledger.models import TransferKind
from casino_backoffice.money import format_cents
from jackpots.high_hand.models import HighHandPeriod, PeriodStatus
from jackpots.high_hand.selectors import period_drops

from .models import CageVerification, Count, CountPlace
from .services.high_hand import period_counts


def cage_invariants() -> list[str]:
    return _moved()


def high_hand_pool_violations() -> list[str]:
    """Each announced High Hand period whose pool is not its own contributions (§637a.16(g)-(h))."""
    violations = []
    for period in (
        HighHandPeriod.objects.filter(
            status__in=(PeriodStatus.AWARDED, PeriodStatus.ROLLED_OVER), contributions_cents__isnull=False
        )
        .select_related("jackpot")
        .annotate(drops_cents=period_drops())  # the same sum the estimated pool is read from
    ):
        drops = period.drops_cents or 0
        variances = sum(abs(count.variance_cents) for count in period_counts(period=period))
        contributions = period.contributions_cents or 0
        if abs(contributions - drops) > variances:
            violations.append(
                f"High Hand {period} announced {format_cents(contributions)} of contributions; the rounds that "
                f"ended in it dropped {format_cents(drops)} and its counts recorded {format_cents(variances)} of variances."
            )
        if period.pool_cents != contributions + period.rolled_in_cents:
            violations.append(
                f"High Hand {period} announced a pool of {format_cents(period.pool_cents or 0)}, not its "
                f"contributions {format_cents(contributions)} plus {format_cents(period.rolled_in_cents)} rolled in."
            )
    return violations


def _moved() -> list[str]:
    return documents_moved(
        # A recount takes no money out of its box: the count it supersedes did (``count_recount``).
        Count.objects.filter(place=CountPlace.TABLE, supersedes__isnull=True),
        kind=TransferKind.COUNT,
        expected=lambda count: count.expected_cents,
        says="Count {pk} (what its box held)",
    ) + documents_moved(
        CageVerification.objects.all(),
        kind=TransferKind.VERIFICATION,
        expected=lambda verification: verification.official_cents,
        says="Cage verification {pk} (made official)",
    )
