"""The cage's checks of the records (``ledger.invariants``): what each signed count and cage
verification says moved is exactly what the ledger moved.

- A count at a closed table took out of its box what the box held by the ledger at the count (its
  ``expected_cents``) into custody (§637a.15(d)(1)); its variance moves apart, from or to the
  variance account.
- A cage verification made official exactly its ``official_cents``: the transfers it posted into
  the funds and poker revenue add up to it (§637a.15(e), the finance department's official record).
"""

from __future__ import annotations

from casino_backoffice.ledger.invariants import documents_moved
from casino_backoffice.ledger.models import TransferKind

from .models import CageVerification, Count, CountPlace


def cage_invariants() -> list[str]:
    return documents_moved(
        Count.objects.filter(place=CountPlace.TABLE),
        kind=TransferKind.COUNT,
        expected=lambda count: count.expected_cents,
        says="Count {pk} (what its box held)",
    ) + documents_moved(
        CageVerification.objects.all(),
        kind=TransferKind.VERIFICATION,
        expected=lambda verification: verification.official_cents,
        says="Cage verification {pk} (made official)",
    )
