"""The pool of a High Hand period made official by the cage (§637a.16(g)): 'When the qualifying period
has ended, the contribution amount collected during the qualifying period shall be counted, verified
and taken to the main cage or satellite cage in accordance with subsections (d) and (e). The pooled
contribution amounts from all Poker tables that participated in the qualifying period shall then be
announced and displayed.'

A closed period's official contributions are the counts of its count sheets (one per High Hand box of
the period, ``cage.services.schedule``) once every one of them is verified at the cage; then
``jackpots.services.period_announce`` announces the pool and awards it or rolls it over.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.db.models import Sum

from jackpots.models import HighHandPeriod, PeriodStatus
from jackpots.services import period_announce
from tables.models import PokerRoom

from ..models import CountSheet, CountStatus, SheetKind


def period_sheet_key(period: HighHandPeriod) -> str:
    """The key of a period's count sheets: its start by the room's wall clock (``schedule.sheets_due``)."""
    return f"period:{period.starts_at.astimezone(ZoneInfo(period.room.timezone)).strftime('%Y-%m-%dT%H:%M')}"


def high_hand_pools_settle(*, room: PokerRoom, at: datetime) -> int:
    """Announce, in order, each closed period of the room whose boxes are all counted and verified;
    inside the schedule's transaction. Returns how many were announced."""
    announced = 0
    for period in (
        HighHandPeriod.objects.filter(room=room, status=PeriodStatus.CLOSED)
        .select_related("room")
        .order_by("jackpot", "starts_at")
    ):
        sheets = CountSheet.objects.filter(
            box__jackpot=period.jackpot, kind=SheetKind.PERIOD, key=period_sheet_key(period)
        )
        if not sheets.exists() or sheets.exclude(count__status=CountStatus.VERIFIED).exists():
            continue
        contributions = sheets.aggregate(total=Sum("count__counted_cents"))["total"] or 0
        if period_announce(period=period, contributions_cents=contributions, at=at).status != PeriodStatus.CLOSED:
            announced += 1
    return announced
