"""Reads of the High Hand Jackpot for its back office and reports (§637a.16): the High Hand Tracking
Slip of a period (f) with its voids, awards and every signature, and the history of a fund's periods
over a range of gaming days (their pools (g), winners, payments (h), roll-overs and uncollected awards
(i)).

Everything here reads, in a fixed number of queries whatever the number of rows;
``jackpots.high_hand.exports`` turns these into CSV and XLSX, the admin into pages and a PDF.

One module per report: an award's state and the Tracking Slip (``slip``), the history of a fund's
periods (``history``), the posted rules and the tables' notices (``posted``); this package names them
all.
"""

from jackpots.high_hand.reports.history import (
    STATUS_SHORT,
    PeriodHistory,
    PeriodRow,
    awards_filter_state,
    period_history,
    periods_with_counts,
)
from jackpots.high_hand.reports.posted import (
    IDENTIFICATION_STATEMENT,
    PRESENCE_STATEMENT,
    HighHandNotice,
    PostedHighHand,
    PostedHighHandRules,
    high_hand_notices,
    period_words,
    posted_high_hand_rules,
)
from jackpots.high_hand.reports.slip import (
    SlipLine,
    TrackingSlip,
    award_state,
    id_words,
    tracking_slip,
    unclaimed_into,
    unclaimed_words,
)

__all__ = [
    "IDENTIFICATION_STATEMENT",
    "PRESENCE_STATEMENT",
    "STATUS_SHORT",
    "HighHandNotice",
    "PeriodHistory",
    "PeriodRow",
    "PostedHighHand",
    "PostedHighHandRules",
    "SlipLine",
    "TrackingSlip",
    "award_state",
    "awards_filter_state",
    "high_hand_notices",
    "id_words",
    "period_history",
    "period_words",
    "periods_with_counts",
    "posted_high_hand_rules",
    "tracking_slip",
    "unclaimed_into",
    "unclaimed_words",
]
