"""Reads of the cage: boxes and what they hold, the official record, variances, the custody log.

Every figure is a SQL aggregate over the ledger, never a sum in Python over rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import BigIntegerField, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Cast

from casino_backoffice.ledger.models import Account, Transfer, TransferKind
from casino_backoffice.ledger.selectors import account_balances
from jackpots.models import Jackpot
from tables.models import PokerRoom

from .models import Box, CageVerification, Count, MissingBox, Transport, Variance


@dataclass(frozen=True)
class BoxContent:
    box: Box
    expected_cents: int


def boxes_with_expected(*, boxes: QuerySet[Box]) -> list[BoxContent]:
    """Each box with its expected content: what logged rounds and verified time charges put in since
    its last count (its ledger balance: a count or a transport empties it into custody)."""
    rows = list(boxes.select_related("room", "table", "jackpot", "account"))
    balances = account_balances(accounts=[box.account for box in rows])
    return [BoxContent(box=box, expected_cents=balances[box.account_id]) for box in rows]


def jackpot_expected_in_boxes(*, jackpots: list[Jackpot]) -> dict[int, int]:
    """Expected money in the boxes of each jackpot, keyed by jackpot id."""
    boxes = list(Box.objects.filter(jackpot__in=jackpots).only("id", "jackpot_id", "account_id"))
    balances = account_balances(accounts=[Account(pk=box.account_id) for box in boxes])
    totals = dict.fromkeys((jackpot.pk for jackpot in jackpots), 0)
    for box in boxes:
        assert box.jackpot_id is not None
        totals[box.jackpot_id] += balances[box.account_id]
    return totals


@dataclass(frozen=True)
class OfficialRow:
    account: Account
    gaming_day: date
    official_cents: int


def official_record(*, room: PokerRoom, start: date | None = None, end: date | None = None) -> list[OfficialRow]:
    """The finance department's official record (§637a.15(e), §637a.16(e)): what cage verifications
    made official, per fund (or poker revenue) and gaming day, from the ledger."""
    verification_day = CageVerification.objects.filter(pk=Cast(OuterRef("reference_id"), BigIntegerField())).values("gaming_day")[:1]
    transfers = (
        Transfer.objects.filter(kind=TransferKind.VERIFICATION, credit__code=f"room:{room.code}:custody")
        .annotate(day=Subquery(verification_day))
    )
    if start is not None:
        transfers = transfers.filter(day__gte=start)
    if end is not None:
        transfers = transfers.filter(day__lte=end)
    rows = list(transfers.values("debit_id", "day").annotate(total=Sum("amount_cents")).order_by("day", "debit_id"))
    accounts = Account.objects.in_bulk([row["debit_id"] for row in rows])
    return [OfficialRow(account=accounts[row["debit_id"]], gaming_day=row["day"], official_cents=int(row["total"])) for row in rows]


def variances(*, room: PokerRoom, unresolved_only: bool = False) -> QuerySet[Variance]:
    rows = Variance.objects.filter(room=room).select_related("box", "count", "verification", "explained_by")
    if unresolved_only:
        rows = rows.filter(needs_explanation=True, explained_at__isnull=True)
    return rows.order_by("-found_at", "-pk")


@dataclass(frozen=True)
class CustodyEvent:
    at: datetime
    box: str
    step: str
    person: str
    document: str


def custody_log(*, room: PokerRoom, day: date) -> list[CustodyEvent]:
    """Who held each box when, from the table to the cage, on one gaming day: every step a signed
    event (count, witness, custody, accounting, missing-box exception, verification)."""
    events: list[CustodyEvent] = []
    for count in Count.objects.filter(box__room=room, gaming_day=day).select_related("box", "counted_by", "witnessed_by"):
        events.append(CustodyEvent(count.counted_at, count.box.code, f"counted ({count.get_place_display().lower()})", str(count.counted_by), f"count {count.pk}"))
        if count.witnessed_by is not None and count.witnessed_at is not None:
            events.append(CustodyEvent(count.witnessed_at, count.box.code, f"witnessed ({count.surveillance_reference})", str(count.witnessed_by), f"count {count.pk}"))
    transports = Transport.objects.filter(room=room, gaming_day=day).select_related("carried_by", "accounted_by").prefetch_related("items__box")
    for transport in transports:
        for item in transport.items.all():
            events.append(CustodyEvent(transport.carried_at, item.box.code, f"carried under seal {transport.seal} to the {transport.destination}", str(transport.carried_by), f"transport {transport.pk}"))
            if transport.accounted_by is not None and transport.accounted_at is not None:
                events.append(CustodyEvent(transport.accounted_at, item.box.code, "accounted for at the cage", str(transport.accounted_by), f"transport {transport.pk}"))
    for missing in MissingBox.objects.filter(transport__room=room, transport__gaming_day=day).select_related("box", "recorded_by"):
        events.append(CustodyEvent(missing.recorded_at, missing.box.code, f"missing at the cage: {missing.reason}", str(missing.recorded_by), f"exception {missing.pk}"))
    for verification in CageVerification.objects.filter(room=room, transport__gaming_day=day).select_related("cashier", "transport"):
        for item in verification.transport.items.select_related("box"):
            events.append(CustodyEvent(verification.verified_at, item.box.code, "verified at the cage", str(verification.cashier), f"verification {verification.pk}"))
    return sorted(events, key=lambda event: (event.at, event.box))


def unresolved_filter() -> Q:
    return Q(needs_explanation=True, explained_at__isnull=True)
