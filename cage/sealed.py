"""What the cage's signed documents may change after they are inserted, and how (``Seal``): the
status transitions its services make and the columns they set once. A trigger per table refuses every
other change and every DELETE, on PostgreSQL and SQLite alike (``casino_backoffice.core.immutable``;
migration ``0010_seal_signed_documents``). The other documents of the cage are insert-only."""

from __future__ import annotations

from casino_backoffice.core.immutable import Seal

from .models import CountStatus, TransportStatus, VerificationStatus

# counted -> witnessed (count_witness) -> in_transit (transport_create) -> verified (cage_verify); a count
# still at the table (counted or witnessed) -> superseded by a supervisor's recount (count_recount).
COUNT = Seal(
    table="cage_count",
    moves={
        "status": {
            CountStatus.COUNTED: frozenset({CountStatus.WITNESSED, CountStatus.SUPERSEDED}),
            CountStatus.WITNESSED: frozenset({CountStatus.IN_TRANSIT, CountStatus.SUPERSEDED}),
            CountStatus.IN_TRANSIT: frozenset({CountStatus.VERIFIED}),
        }
    },
    set_once=("witnessed_by_id", "witnessed_at", "surveillance_reference"),
)

# in_transit -> accounted (transport_account, uncounted boxes) -> verified; a container of table counts
# in_transit -> verified (cage_verify).
TRANSPORT = Seal(
    table="cage_transport",
    moves={
        "status": {
            TransportStatus.IN_TRANSIT: frozenset({TransportStatus.ACCOUNTED, TransportStatus.VERIFIED}),
            TransportStatus.ACCOUNTED: frozenset({TransportStatus.VERIFIED}),
        }
    },
    set_once=("accounted_by_id", "accounted_at"),
)

# cage_verify inserts a verification verified and, in the same transaction, marks it awaiting an
# explanation when a variance needs one; the last explanation (verification_explain) verifies it.
CAGE_VERIFICATION = Seal(
    table="cage_cageverification",
    moves={
        "status": {
            VerificationStatus.VERIFIED: frozenset({VerificationStatus.VARIANCE_UNRESOLVED}),
            VerificationStatus.VARIANCE_UNRESOLVED: frozenset({VerificationStatus.VERIFIED}),
        }
    },
)

# A variance is explained once (verification_explain); a later correction is a VarianceCorrection.
VARIANCE = Seal(table="cage_variance", set_once=("explanation", "explained_by_id", "explained_at"))

SEALS = (COUNT, TRANSPORT, CAGE_VERIFICATION, VARIANCE)
