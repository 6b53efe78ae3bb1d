"""The Bad Beat's models: claims, their verification, distributions, shares and payments
(``claims``, §637a.15(f)-(g)); the adjustments of the displayed amount, the flags of a day without one
(§637a.15(h)) and the transfer of a discontinued fund (§637a.15(i)) (``display``); the admin's display
check and Bad Beat reports, pages listed with the models (``back_office``)."""

from jackpots.bad_beat.models.back_office import BadBeatDisplayCheck, BadBeatReport
from jackpots.bad_beat.models.claims import (
    CLAIM_STAGES,
    CLAIM_TRANSITIONS,
    BadBeatClaim,
    BadBeatClaimRound,
    BadBeatDecision,
    BadBeatDistribution,
    BadBeatPayment,
    BadBeatShare,
    ClaimStatus,
    DecisionOutcome,
    PayoutMethod,
    ShareName,
    hand_cards,
)
from jackpots.bad_beat.models.display import (
    DisplayAdjustment,
    DisplayAdjustmentLate,
    DisplayOverdue,
    FundTransfer,
    FundTransferStatus,
)

__all__ = [
    "CLAIM_STAGES",
    "CLAIM_TRANSITIONS",
    "BadBeatClaim",
    "BadBeatClaimRound",
    "BadBeatDecision",
    "BadBeatDisplayCheck",
    "BadBeatDistribution",
    "BadBeatPayment",
    "BadBeatReport",
    "BadBeatShare",
    "ClaimStatus",
    "DecisionOutcome",
    "DisplayAdjustment",
    "DisplayAdjustmentLate",
    "DisplayOverdue",
    "FundTransfer",
    "FundTransferStatus",
    "PayoutMethod",
    "ShareName",
    "hand_cards",
]
