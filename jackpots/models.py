"""The models of every jackpot product, imported here so that Django's app registry finds them (it reads
``jackpots.models``); each product keeps its own.

``jackpots.funds.models``: the funds and each round's drops. ``jackpots.bad_beat.models``: claims, their
verification, distributions, shares and payments (§637a.15(f)-(g)); the adjustments of the displayed
amount and the flags of a day without one (§637a.15(h)), and the transfer of a discontinued fund
(§637a.15(i)); the admin's display check and Bad Beat reports, pages listed with the models.
``jackpots.high_hand.models``: the periods, the Tracking Slip's entries, awards and unclaimed awards
(§637a.16). ``jackpots.progressive.models``: the banked games' meters, wagers, winning hands, Envy
Bonuses, validations, payments and resets (§655a.12, §657a.12).
"""

from jackpots.bad_beat.models import (
    BadBeatClaim,
    BadBeatDecision,
    BadBeatDisplayCheck,
    BadBeatDistribution,
    BadBeatPayment,
    BadBeatReport,
    BadBeatShare,
    ClaimStatus,
    DecisionOutcome,
    DisplayAdjustment,
    DisplayAdjustmentLate,
    DisplayOverdue,
    FundTransfer,
    FundTransferStatus,
    PayoutMethod,
    ShareName,
)
from jackpots.funds.models import Jackpot, JackpotKind, PaymentPlace, RoundDrop
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandAwardPayment,
    HighHandEntry,
    HighHandPeriod,
    HighHandUnclaimed,
    HighHandVoid,
    PeriodStatus,
)
from jackpots.progressive.models import (
    EnvyBonus,
    FundingReason,
    MeterFunding,
    PayoutPlace,
    ProgressiveHand,
    ProgressiveMeter,
    ProgressivePayment,
    ProgressiveRound,
    ProgressiveRoundVoid,
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
    "ProgressiveRoundVoid",
    "ProgressiveValidation",
    "ProgressiveWager",
    "RoundDrop",
    "ShareName",
    "WagerCountException",
    "WagerCountExplanation",
]
