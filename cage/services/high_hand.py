"""The pool of a High Hand period made official by the cage (§637a.16(g)): 'When the qualifying period
has ended, the contribution amount collected during the qualifying period shall be counted, verified
and taken to the main cage or satellite cage in accordance with subsections (d) and (e). The pooled
contribution amounts from all Poker tables that participated in the qualifying period shall then be
announced and displayed.'

A closed period's official contributions are what the cage verifications of its count sheets' counts
(one sheet per High Hand box of the period, ``cage.services.schedule``) made official in the fund,
less what a signed correction reversed of those transfers, once every sheet is counted and verified;
then ``jackpots.high_hand.services.period_announce`` announces the pool and awards it or rolls it over. (The
counts alone would still count a verification that finance reversed before the announcement, and
the pool would be more than the fund holds.)
"""

from __future__ import annotations

import logging
from datetime import datetime
from zoneinfo import ZoneInfo

from django.db import transaction
from django.db.models import Q, QuerySet, Sum

from casino_backoffice.ledger.exceptions import BelowZero
from casino_backoffice.ledger.models import Account, AccountKind, Transfer, TransferKind
from casino_backoffice.ledger.selectors import account_balances
from jackpots.high_hand.accounts import period_content_suffix
from jackpots.high_hand.models import HighHandPeriod, PeriodStatus
from jackpots.high_hand.services import period_announce, period_wait
from tables.models import PokerRoom

from ..models import (
    Count,
    CountPlace,
    CountSheet,
    CountStatus,
    SheetKind,
    TransportItem,
    TransportStatus,
    VarianceCorrection,
)
from ._common import verification_transfer_key

logger = logging.getLogger(__name__)


def period_sheet_key(period: HighHandPeriod) -> str:
    """The key of a period's count sheets: its start by the room's wall clock (``schedule.sheets_due``)."""
    return f"period:{period.starts_at.astimezone(ZoneInfo(period.room.timezone)).strftime('%Y-%m-%dT%H:%M')}"


def _official_contributions(counts: QuerySet[Count]) -> int:
    """What the cage verifications of these counts made official, net of the reversals of it and of
    finance's corrections of the official record for their boxes (``VarianceCorrection``)."""
    keys = []
    for count in counts.select_related("box", "transport_item__transport__verification"):
        if count.place == CountPlace.CAGE:
            keys.append(count.idempotency_key)  # a count made at the cage carries its transfer's key
        else:
            verification = count.transport_item.transport.verification
            keys.append(verification_transfer_key(verification_id=verification.pk, part=count.box.code))
    posted = Transfer.objects.filter(kind=TransferKind.VERIFICATION, idempotency_key__in=keys)
    made_official = posted.aggregate(total=Sum("amount_cents"))["total"] or 0
    reversed_ = Transfer.objects.filter(reverses__in=posted).aggregate(total=Sum("amount_cents"))["total"] or 0
    corrected = (
        VarianceCorrection.objects.filter(count__in=counts).aggregate(total=Sum("official_change_cents"))["total"] or 0
    )
    return made_official - reversed_ + corrected


def period_counts(*, period: HighHandPeriod) -> QuerySet[Count]:
    """The counts of the period's box contents (§637a.16(d)), but those a recount superseded (the
    recount took their place); a count of a sheet made before counts named their period is known by
    its sheet's key."""
    return Count.objects.exclude(status=CountStatus.SUPERSEDED).filter(
        Q(period=period)
        | Q(
            period__isnull=True,
            sheet__period__isnull=True,
            sheet__kind=SheetKind.PERIOD,
            sheet__box__jackpot=period.jackpot,
            sheet__key=period_sheet_key(period),
        )
    )


def period_contributions_uncounted(*, period: HighHandPeriod) -> int:
    """What the period's box contents at every table still hold by the ledger: contributions of its
    rounds (§637a.16(c)) not yet taken out by a count or a transport (§637a.16(d))."""
    stamp = period_content_suffix(period=period)
    contents = Account.objects.filter(
        code__startswith=f"table:{period.room.code}:", code__endswith=stamp, kind=AccountKind.JACKPOT_BOX
    )
    balances = account_balances(accounts=list(contents))
    return sum(balances.values())


def high_hand_pools_settle(*, room: PokerRoom, at: datetime) -> int:
    """Announce, in order, each closed period of the room whose boxes are all counted and verified;
    inside the schedule's transaction. Returns how many were announced."""
    announced = 0
    for period in (
        HighHandPeriod.objects.filter(room=room, status=PeriodStatus.CLOSED)
        .select_related("room")
        .order_by("jackpot", "starts_at")
    ):
        # The period's sheets; one made before sheets named their period is known by its key.
        sheets = CountSheet.objects.filter(
            Q(period=period) | Q(period__isnull=True, box__jackpot=period.jackpot, key=period_sheet_key(period)),
            kind=SheetKind.PERIOD,
        )
        counts = period_counts(period=period)
        if not (sheets.exists() or counts.exists()) or sheets.exclude(counts__status=CountStatus.VERIFIED).exists():
            continue
        if (
            counts.exclude(status=CountStatus.VERIFIED).exists()
            or TransportItem.objects.filter(period=period).exclude(transport__status=TransportStatus.VERIFIED).exists()
        ):
            continue  # a box content of the period carried or counted, not verified yet
        uncounted = period_contributions_uncounted(period=period)
        if uncounted:
            # Contributions of the period sit in a box content no sheet of it counted (a table that
            # collected without a sheet): announcing now would leave them out of its pool.
            if period_wait(period=period, contributions_cents=0, uncounted_cents=uncounted):
                logger.error("High Hand %s is not announced: %s uncounted", period, uncounted)
            continue
        contributions = _official_contributions(counts)
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
