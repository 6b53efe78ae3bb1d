"""What the jackpots' signed documents and High Hand periods may change after they are inserted, and
how (``Seal``): the status transitions their services make, the columns they set once, the amount
that only grows. A trigger per table refuses every other change and every DELETE, on PostgreSQL and
SQLite alike (``casino_backoffice.core.immutable``; migration ``0020_seal_signed_documents``)."""

from __future__ import annotations

from casino_backoffice.core.immutable import Seal
from jackpots.bad_beat.models import CLAIM_TRANSITIONS, FundTransferStatus
from jackpots.high_hand.models import PeriodStatus

# claimed -> verified | denied (claim_verify, claim_deny); verified -> distributed (distribution_prepare)
# -> paid (the last share paid): the claim's own table of transitions.
BAD_BEAT_CLAIM = Seal(table="jackpots_badbeatclaim", moves={"status": CLAIM_TRANSITIONS})

# Effective when a witness signs (display_witness): the witness, the verification it follows, once.
DISPLAY_ADJUSTMENT = Seal(
    table="jackpots_displayadjustment",
    set_once=("witnessed_by_id", "witnessed_at", "verification_id", "seconds_from_verification"),
)

# prepared -> approved, by whoever approves it (fund_transfer_approve), when its ledger transfer posts.
FUND_TRANSFER = Seal(
    table="jackpots_fundtransfer",
    moves={"status": {FundTransferStatus.PREPARED: frozenset({FundTransferStatus.APPROVED})}},
    set_once=("approved_by_id", "approved_at"),
)

# open -> closed (periods_run) -> awarded | rolled_over (period_announce): its close, contributions and
# pool written once; what rolls in from earlier pools and uncollected awards only grows; the note on
# why a closed period waits is rewritten until the announcement clears it.
HIGH_HAND_PERIOD = Seal(
    table="jackpots_highhandperiod",
    moves={
        "status": {
            PeriodStatus.OPEN: frozenset({PeriodStatus.CLOSED}),
            PeriodStatus.CLOSED: frozenset({PeriodStatus.AWARDED, PeriodStatus.ROLLED_OVER}),
        }
    },
    set_once=("closed_at", "close_note", "contributions_cents", "pool_cents", "announced_at"),
    grows=("rolled_in_cents",),
    notes=("waiting_note",),
)

# Approved once (unclaimed_approve); the period it went into, once (at approval, or at the next close).
HIGH_HAND_UNCLAIMED = Seal(
    table="jackpots_highhandunclaimed", set_once=("approved_by_id", "approved_at", "into_period_id")
)

SEALS = (BAD_BEAT_CLAIM, DISPLAY_ADJUSTMENT, FUND_TRANSFER, HIGH_HAND_PERIOD, HIGH_HAND_UNCLAIMED)
