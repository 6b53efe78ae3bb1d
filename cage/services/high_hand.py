"""The cage's part of a High Hand period's pool (§637a.16(g)): the period's count sheets and counts,
and what the cage verifications of its count sheets' counts (one sheet per High Hand box of the
period, ``cage.services.schedule``) made official in the fund, less what a signed correction reversed
of those transfers, once every sheet is counted and verified (``period_contributions_counted``). The
jackpots settle the pool from that answer (``jackpots.high_hand.services.settlement``, through the setting
``HIGH_HAND_CONTRIBUTIONS_COUNTED``). (The counts alone would still count a verification that finance
reversed before the announcement, and the pool would be more than the fund holds.)
"""

from __future__ import annotations

from django.db.models import Q, QuerySet, Sum

from casino_backoffice.core.clock import local
from casino_backoffice.ledger.models import Transfer, TransferKind
from jackpots.high_hand.models import HighHandPeriod

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


def period_sheet_key(period: HighHandPeriod) -> str:
    """The key of a period's count sheets: its start by the room's wall clock (``schedule.sheets_due``)."""
    return f"period:{local(period.starts_at, period.room).strftime('%Y-%m-%dT%H:%M')}"


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


def period_contributions_counted(*, period: HighHandPeriod) -> int | None:
    """What the cage verifications of a closed period's counts made official (``_official_contributions``),
    once every count sheet of the period is counted and verified and every box content of it counted or
    carried is verified; None until then, or when the period has neither a sheet nor a count. The
    jackpots' settlement of the period's pool (``jackpots.high_hand.services.settlement``) reads it through the
    setting ``HIGH_HAND_CONTRIBUTIONS_COUNTED``."""
    # The period's sheets; one made before sheets named their period is known by its key.
    sheets = CountSheet.objects.filter(
        Q(period=period) | Q(period__isnull=True, box__jackpot=period.jackpot, key=period_sheet_key(period)),
        kind=SheetKind.PERIOD,
    )
    counts = period_counts(period=period)
    if not (sheets.exists() or counts.exists()) or sheets.exclude(counts__status=CountStatus.VERIFIED).exists():
        return None
    if (
        counts.exclude(status=CountStatus.VERIFIED).exists()
        or TransportItem.objects.filter(period=period).exclude(transport__status=TransportStatus.VERIFIED).exists()
    ):
        return None  # a box content of the period carried or counted, not verified yet
    return _official_contributions(counts)
