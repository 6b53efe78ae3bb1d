"""Reads of the cage: boxes and what they hold (``boxes``), the official record, variances and the
custody log (``records``).

Every figure is a SQL aggregate over the ledger, never a sum in Python over rows.
"""

from .boxes import (
    BoxContent,
    BoxState,
    box_holds_cents,
    box_states,
    boxes_expected_queryset,
    boxes_with_expected,
    high_hand_contents_taken_whole,
    high_hand_next_counts,
    jackpot_expected_in_boxes,
)
from .records import (
    OFFICIAL_RECORD_COLUMNS,
    CustodyEvent,
    OfficialRow,
    custody_log,
    official_record,
    official_record_lines,
    official_record_rows_iter,
    unresolved_filter,
    variances,
)

__all__ = [
    "OFFICIAL_RECORD_COLUMNS",
    "BoxContent",
    "BoxState",
    "CustodyEvent",
    "OfficialRow",
    "box_holds_cents",
    "box_states",
    "boxes_expected_queryset",
    "boxes_with_expected",
    "custody_log",
    "high_hand_contents_taken_whole",
    "high_hand_next_counts",
    "jackpot_expected_in_boxes",
    "official_record",
    "official_record_lines",
    "official_record_rows_iter",
    "unresolved_filter",
    "variances",
]
