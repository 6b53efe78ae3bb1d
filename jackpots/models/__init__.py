"""The jackpot funds of each room, what pots drop into them, and the documents that pay them out.

``funds``: the funds and each round's drops. ``bad_beat``: claims, their verification, distributions,
shares and payments (§637a.15(f)-(g)). ``display``: adjustments of the displayed amount and the
flags of a day without one (§637a.15(h)), and the transfer of a discontinued fund (§637a.15(i)).
``progressive``: the banked games' meters, wagers, winning hands, Envy Bonuses, validations,
payments and resets (§655a.12, §657a.12). ``back_office``: the admin's display check and Bad Beat reports, pages listed with the models.
"""

from .back_office import BadBeatDisplayCheck, BadBeatReport
from .bad_beat import (
    BadBeatClaim,
    BadBeatDecision,
    BadBeatDistribution,
    BadBeatPayment,
    BadBeatShare,
    ClaimStatus,
    DecisionOutcome,
    PaymentPlace,
    PayoutMethod,
    ShareName,
)
from .display import DisplayAdjustment, DisplayAdjustmentLate, DisplayOverdue, FundTransfer, FundTransferStatus
from .funds import Jackpot, JackpotKind, RoundDrop
from .high_hand import (
    HighHandAward,
    HighHandAwardPayment,
    HighHandEntry,
    HighHandPeriod,
    HighHandUnclaimed,
    HighHandVoid,
    PeriodStatus,
)
from .progressive import (
    EnvyBonus,
    FundingReason,
    MeterFunding,
    PayoutPlace,
    ProgressiveHand,
    ProgressiveMeter,
    ProgressivePayment,
    ProgressiveRound,
    ProgressiveValidation,
    ProgressiveWager,
    WagerCountException,
    WagerCountExplanation,
)

__all__ = [
    "BadBeatClaim",
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
    "EnvyBonus",
    "FundTransfer",
    "FundTransferStatus",
    "FundingReason",
    "HighHandAward",
    "HighHandAwardPayment",
    "HighHandEntry",
    "HighHandPeriod",
    "HighHandUnclaimed",
    "HighHandVoid",
    "Jackpot",
    "JackpotKind",
    "MeterFunding",
    "PaymentPlace",
    "PayoutMethod",
    "PayoutPlace",
    "PeriodStatus",
    "ProgressiveHand",
    "ProgressiveMeter",
    "ProgressivePayment",
    "ProgressiveRound",
    "ProgressiveValidation",
    "ProgressiveWager",
    "RoundDrop",
    "ShareName",
    "WagerCountException",
    "WagerCountExplanation",
]
