"""Every write of the cage: boxes, notices, counts, transports, verifications, variances, the close
of a gaming day and the schedule. One function per action, each its own transaction."""

from __future__ import annotations

from .boxes import boxes_sync
from .counts import count_record, count_witness, counts_witness, notice_record
from .explanations import variance_explain, verification_explain
from .gaming_days import gaming_day_close
from .recounts import count_recount
from .schedule import schedule_run
from .transports import missing_box_record, transport_account, transport_create
from .verification import cage_verify

__all__ = [
    "boxes_sync",
    "cage_verify",
    "count_record",
    "count_recount",
    "count_witness",
    "counts_witness",
    "gaming_day_close",
    "missing_box_record",
    "notice_record",
    "schedule_run",
    "transport_account",
    "transport_create",
    "variance_explain",
    "verification_explain",
]
