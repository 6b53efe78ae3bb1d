"""What the next count of a box covers: its oldest count sheet not yet filled, and for a High Hand box
the qualifying period whose box content that is (§637a.16(d)).

'At the end of each qualifying period, a certificate holder shall count the accumulated contents of
each High Hand Jackpot payout box': the box is exchanged at each period's end, so a count covers one
period's box content (``jackpots.high_hand.services.periods.period_box_content``). A table closed before its period
ends has its box counted or carried then: the count takes what the open period's content holds so far,
fills no sheet, and the period's sheet asks only for what was dropped after it.
"""

from __future__ import annotations

from datetime import datetime

from jackpots.funds.models import JackpotKind
from jackpots.high_hand.models import HighHandPeriod, PeriodStatus

from ..models import Box, CountSheet
from .schedule import HIGH_HAND_COUNT_GRACE, sheets_create


def count_target(*, box: Box, now: datetime) -> tuple[CountSheet | None, HighHandPeriod | None]:
    """The sheet the next count of ``box`` fills (locked) and, for a High Hand box, the period whose
    box content it takes: the oldest sheet due and not counted nor carried yet; else, for a High Hand
    box, the period the schedule has not closed yet, without a sheet; else (None, None). Creates the sheets the schedule would
    have by now (it may be down). Inside the caller's transaction, after ``schedule_lock_shared``."""
    sheets_create(boxes=[box], after=now - HIGH_HAND_COUNT_GRACE, until=now)
    sheet = (
        CountSheet.objects.select_for_update(of=("self",))
        .filter(box=box, counts__isnull=True, transport_item__isnull=True, opens_at__lte=now)
        .select_related("period")
        .order_by("opens_at")
        .first()
    )
    if sheet is not None:
        return sheet, sheet.period
    if box.jackpot is not None and box.jackpot.kind == JackpotKind.HIGH_HAND:
        # The period the schedule has not closed yet (its end may have passed a moment ago).
        return None, (
            HighHandPeriod.objects.filter(jackpot=box.jackpot, status=PeriodStatus.OPEN, starts_at__lte=now)
            .order_by("-starts_at")
            .first()
        )
    return None, None
