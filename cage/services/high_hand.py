"""The pool of a High Hand period made official by the cage (§637a.16(g)): 'When the qualifying period
has ended, the contribution amount collected during the qualifying period shall be counted, verified
and taken to the main cage or satellite cage in accordance with subsections (d) and (e). The pooled
contribution amounts from all Poker tables that participated in the qualifying period shall then be
announced and displayed.'

A closed period's official contributions are what the cage verifications of its count sheets' counts
(one sheet per High Hand box of the period, ``cage.services.schedule``) made official in the fund,
less what a signed correction reversed of those transfers, once every sheet is counted and verified;
then ``jackpots.services.period_announce`` announces the pool and awards it or rolls it over. (The
counts alone would still count a verification that finance reversed before the announcement, and
the pool would be more than the fund holds.)
"""

from __future__ import annotations

import logging
from datetime import datetime
from zoneinfo import ZoneInfo

from django.db import transaction
from django.db.models import QuerySet, Sum

from casino_backoffice.ledger.exceptions import BelowZero
from casino_backoffice.ledger.models import Transfer, TransferKind
from jackpots.models import HighHandPeriod, PeriodStatus
from jackpots.services import period_announce, period_wait
from tables.models import PokerRoom

from ..models import CountPlace, CountSheet, CountStatus, SheetKind
from ._common import verification_transfer_key

logger = logging.getLogger(__name__)


def period_sheet_key(period: HighHandPeriod) -> str:
    """The key of a period's count sheets: its start by the room's wall clock (``schedule.sheets_due``)."""
    return f"period:{period.starts_at.astimezone(ZoneInfo(period.room.timezone)).strftime('%Y-%m-%dT%H:%M')}"


def _official_contributions(sheets: QuerySet[CountSheet]) -> int:
    """What the verifications of these sheets' counts made official, net of the reversals of it."""
    keys = []
    for sheet in sheets.select_related("box", "count__transport_item__transport__verification"):
        count = sheet.count
        if count.place == CountPlace.CAGE:
            keys.append(count.idempotency_key)  # a count made at the cage carries its transfer's key
        else:
            verification = count.transport_item.transport.verification
            keys.append(verification_transfer_key(verification_id=verification.pk, part=sheet.box.code))
    posted = Transfer.objects.filter(kind=TransferKind.VERIFICATION, idempotency_key__in=keys)
    made_official = posted.aggregate(total=Sum("amount_cents"))["total"] or 0
    reversed_ = Transfer.objects.filter(reverses__in=posted).aggregate(total=Sum("amount_cents"))["total"] or 0
    return made_official - reversed_


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
        contributions = _official_contributions(sheets)
        try:
            with transaction.atomic():
                if (
                    period_announce(period=period, contributions_cents=contributions, at=at).status
                    != PeriodStatus.CLOSED
                ):
                    announced += 1
        except BelowZero as refused:
            # The pool is more than the fund holds: a correction took back, after a period rolled over
            # into this one (or after its award), money its pool counts. The period waits, closed, for
            # finance to put the fund right, saying why on its page; the schedule goes on for every
            # other fund and room.
            if period_wait(period=period, contributions_cents=contributions):
                logger.error("High Hand %s is not announced: %s", period, refused.message)
    return announced
