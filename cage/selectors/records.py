"""Reads of the record: the official record of each fund and of the poker revenue, the variances,
and the custody log of a gaming day."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db.models import BigIntegerField, Case, F, Q, QuerySet, Sum, When
from django.db.models.functions import Coalesce

from casino_backoffice.core.exports import Column, Kind
from casino_backoffice.ledger.models import Account, Transfer, TransferKind
from tables.models import PokerRoom

from ..models import (
    CageVerification,
    Count,
    CountStatus,
    MissingBox,
    Transport,
    Variance,
)


@dataclass(frozen=True)
class OfficialRow:
    account: Account
    gaming_day: date
    official_cents: int


def official_record(*, room: PokerRoom, start: date | None = None, end: date | None = None) -> list[OfficialRow]:
    """The finance department's official record (§637a.15(e), §637a.16(e)): what cage verifications
    made official, per fund (or poker revenue) and gaming day, less or plus finance's corrections of
    it, from the ledger: one aggregate over the transfers (``official_record_lines``)."""
    rows = list(
        official_record_lines(room=room, start=start, end=end)
        .values("official_account_id", "day")  # type: ignore[misc]  # annotations of official_record_lines
        .annotate(total=Sum("official_cents"))
        .order_by("day", "official_account_id")
    )
    accounts = Account.objects.in_bulk([row["official_account_id"] for row in rows])
    return [
        OfficialRow(
            account=accounts[row["official_account_id"]], gaming_day=row["day"], official_cents=int(row["total"])
        )
        for row in rows
    ]


# The official record line by line (its export): one row per transfer a verification made official,
# and one per correction finance posted (its official amount negative when the fund gave money back).
OFFICIAL_RECORD_COLUMNS: tuple[Column, ...] = (
    Column("gaming_day", Kind.DATE),
    Column("account"),
    Column("fund"),
    Column("official", Kind.MONEY),
    Column("verification", Kind.INTEGER),
    Column("seal"),
    Column("cashier"),
    Column("cashier_credential"),
    Column("verified_at", Kind.DATETIME),
    Column("transfer", Kind.INTEGER),
    Column("memo"),
)


def _gave_back() -> Q:
    # A correction that takes money off the official account credits it (the ledger's debit is where money goes).
    return Q(variance_correction__official_change_cents__lt=0)


def official_record_lines(*, room: PokerRoom, start: date | None = None, end: date | None = None) -> QuerySet[Transfer]:
    """Each ledger transfer a cage verification of ``room`` made official (§637a.15(e),
    §637a.16(e)), and each of finance's corrections of it (``VarianceCorrection``), by gaming day of
    the verification, in the order posted; annotated with ``day``, ``official_account_id`` and the
    signed ``official_cents``."""
    lines = Transfer.objects.filter(
        Q(kind=TransferKind.VERIFICATION, cage_verification__room=room) | Q(variance_correction__room=room)
    ).annotate(
        day=Coalesce("cage_verification__gaming_day", "variance_correction__gaming_day"),
        official_account_id=Case(
            When(_gave_back(), then=F("credit_id")), default=F("debit_id"), output_field=BigIntegerField()
        ),
        official_cents=Case(
            When(_gave_back(), then=-F("amount_cents")), default=F("amount_cents"), output_field=BigIntegerField()
        ),
    )
    if start is not None:
        lines = lines.filter(day__gte=start)
    if end is not None:
        lines = lines.filter(day__lte=end)
    return lines.order_by("day", "pk")


def official_record_rows_iter(
    *,
    room: PokerRoom,
    start: date | None = None,
    end: date | None = None,
    chunk_size: int = 2000,
) -> Iterator[tuple[Any, ...]]:
    """The rows of ``OFFICIAL_RECORD_COLUMNS``, read ``chunk_size`` at a time from a server-side
    cursor: an export of years of record streams in flat memory
    (``casino_backoffice.core.exports.csv_streaming_response``). A correction's row names finance's
    signer where a verification's names the cashier."""
    rows = (
        official_record_lines(room=room, start=start, end=end)
        .annotate(
            account_code=Case(When(_gave_back(), then=F("credit__code")), default=F("debit__code")),
            account_name=Case(When(_gave_back(), then=F("credit__name")), default=F("debit__name")),
            verification_id=Coalesce("cage_verification__id", "variance_correction__variance__verification_id"),
            signer=Coalesce("cage_verification__cashier__username", "variance_correction__corrected_by__username"),
            signer_credential=Coalesce(
                "cage_verification__cashier__credential_number",
                "variance_correction__corrected_by__credential_number",
            ),
            signed_at=Coalesce("cage_verification__verified_at", "variance_correction__corrected_at"),
        )
        .values_list(
            "day",
            "account_code",
            "account_name",
            "official_cents",
            "verification_id",
            "cage_verification__transport__seal",
            "signer",
            "signer_credential",
            "signed_at",
            "pk",
            "memo",
        )
    )
    yield from rows.iterator(chunk_size=chunk_size)


def variances(*, room: PokerRoom, unresolved_only: bool = False) -> QuerySet[Variance]:
    rows = Variance.objects.filter(room=room).select_related("box", "count", "verification", "explained_by")
    if unresolved_only:
        rows = rows.filter(unresolved_filter())
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
    for count in Count.objects.filter(box__room=room, gaming_day=day).select_related(
        "box", "counted_by", "witnessed_by"
    ):
        events.append(
            CustodyEvent(
                count.counted_at,
                count.box.code,
                f"counted ({count.get_place_display().lower()})",
                str(count.counted_by),
                f"count {count.pk}",
            )
        )
        if count.witnessed_by is not None and count.witnessed_at is not None:
            events.append(
                CustodyEvent(
                    count.witnessed_at,
                    count.box.code,
                    f"witnessed ({count.surveillance_reference})",
                    str(count.witnessed_by),
                    f"count {count.pk}",
                )
            )
    transports = (
        Transport.objects.filter(room=room, gaming_day=day)
        .select_related("carried_by", "accounted_by")
        .prefetch_related("items__box")
    )
    for transport in transports:
        for item in transport.items.all():
            events.append(
                CustodyEvent(
                    transport.carried_at,
                    item.box.code,
                    f"carried under seal {transport.seal} to the {transport.destination}",
                    str(transport.carried_by),
                    f"transport {transport.pk}",
                )
            )
            if transport.accounted_by is not None and transport.accounted_at is not None:
                events.append(
                    CustodyEvent(
                        transport.accounted_at,
                        item.box.code,
                        "accounted for at the cage",
                        str(transport.accounted_by),
                        f"transport {transport.pk}",
                    )
                )
    for missing in MissingBox.objects.filter(transport__room=room, transport__gaming_day=day).select_related(
        "box", "recorded_by"
    ):
        events.append(
            CustodyEvent(
                missing.recorded_at,
                missing.box.code,
                f"missing at the cage: {missing.reason}",
                str(missing.recorded_by),
                f"exception {missing.pk}",
            )
        )
    for verification in CageVerification.objects.filter(room=room, transport__gaming_day=day).select_related(
        "cashier", "transport"
    ):
        for item in verification.transport.items.select_related("box"):
            events.append(
                CustodyEvent(
                    verification.verified_at,
                    item.box.code,
                    "verified at the cage",
                    str(verification.cashier),
                    f"verification {verification.pk}",
                )
            )
    return sorted(events, key=lambda event: (event.at, event.box))


def unresolved_filter() -> Q:
    """Variances awaiting an explanation: over the threshold, unexplained, and not of a count a
    recount superseded (the recount stands instead)."""
    return Q(needs_explanation=True, explained_at__isnull=True) & ~Q(count__status=CountStatus.SUPERSEDED)
