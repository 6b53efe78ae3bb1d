"""Every write about jackpot funds. Contributions are posted by ``rake`` with each round (rake owns
what leaves a pot); the Bad Beat's claims, decisions, distributions and payments, the display
adjustments and the transfer of a discontinued fund are here."""

from .claims import SeatedHand, SeatedPlayer, claim_deny, claim_evaluate, claim_open, claim_verify
from .display import (
    display_adjust,
    display_late_flag,
    display_overdue_flag,
    display_witness,
    fund_transfer_approve,
    fund_transfer_prepare,
)
from .funds import jackpot_register
from .high_hand import (
    award_pay,
    current_high_hand,
    entry_record,
    entry_void,
    period_announce,
    period_box_content,
    period_wait,
    periods_run,
    unclaimed_approve,
    unclaimed_prepare,
)
from .payouts import LEFTOVER_RULE, distribution_prepare, distribution_split, payment_places, share_pay
from .progressive import (
    SeatWager,
    meter_reset,
    progressive_hand_record,
    progressive_pay,
    progressive_register,
    progressive_round_record,
    progressive_validate,
    wager_count_explain,
)

__all__ = [
    "LEFTOVER_RULE",
    "SeatWager",
    "SeatedHand",
    "SeatedPlayer",
    "award_pay",
    "claim_deny",
    "claim_evaluate",
    "claim_open",
    "claim_verify",
    "current_high_hand",
    "display_adjust",
    "display_late_flag",
    "display_overdue_flag",
    "display_witness",
    "distribution_prepare",
    "distribution_split",
    "entry_record",
    "entry_void",
    "fund_transfer_approve",
    "fund_transfer_prepare",
    "jackpot_register",
    "meter_reset",
    "payment_places",
    "period_announce",
    "period_box_content",
    "period_wait",
    "periods_run",
    "progressive_hand_record",
    "progressive_pay",
    "progressive_register",
    "progressive_round_record",
    "progressive_validate",
    "share_pay",
    "unclaimed_approve",
    "unclaimed_prepare",
    "wager_count_explain",
]
