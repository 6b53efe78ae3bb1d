"""The official record read from the ledger: per fund and gaming day, and line by line for its
export, streamed from a server-side cursor."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.models import ProtectedError
from django.test.utils import CaptureQueriesContext

from cage.models import Box, CageVerification
from cage.selectors import OFFICIAL_RECORD_COLUMNS, official_record, official_record_rows_iter
from cage.services import boxes_sync, cage_verify, count_record, count_witness, notice_record, transport_create
from casino_backoffice.core.exports import csv_chunks
from casino_backoffice.ledger.models import Transfer, TransferKind
from tests.conftest import PIN


def _verified(table, dealer, floorperson, security, cashier, key, seal: str, counted: dict[str, int]):
    boxes_sync(room=table.room)
    notice_record(
        room=table.room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key()
    )
    counts = []
    for code, cents in counted.items():
        count = count_record(
            box=Box.objects.get(room=table.room, code=code),
            counted_cents=cents,
            actor=dealer,
            pin=PIN,
            idempotency_key=key(),
        )
        counts.append(count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-1"))
    transport = transport_create(
        room=table.room, seal=seal, counts=counts, actor=security, pin=PIN, idempotency_key=key()
    )
    return cage_verify(
        transport=transport, counted=sum(counted.values()), actor=cashier, pin=PIN, idempotency_key=key()
    )


def test_the_official_record_line_by_line_adds_up_to_the_record_by_fund_and_day(
    closed_table, dealer, floorperson, security, cashier, key
) -> None:
    verification = _verified(
        closed_table, dealer, floorperson, security, cashier, key, "S-1", {"T1-bb": 300, "T1-hh": 600, "T1-drop": 1400}
    )

    rows = list(official_record_rows_iter(room=closed_table.room, chunk_size=2))

    # In the order posted: the verification posts its boxes by code (T1-bb, T1-drop, T1-hh).
    assert [(r[1], r[3], r[4], r[5], r[6], r[7]) for r in rows] == [
        ("jackpot:main:bb:fund", 300, verification.pk, "S-1", cashier.username, cashier.credential_number),
        ("room:main:revenue", 1400, verification.pk, "S-1", cashier.username, cashier.credential_number),
        ("jackpot:main:hh:fund", 600, verification.pk, "S-1", cashier.username, cashier.credential_number),
    ]
    assert all(len(row) == len(OFFICIAL_RECORD_COLUMNS) and row[0] == verification.gaming_day for row in rows)
    by_fund = {(r.account.code, r.gaming_day): r.official_cents for r in official_record(room=closed_table.room)}
    assert by_fund == {(r[1], r[0]): r[3] for r in rows}
    assert official_record(room=closed_table.room, start=verification.gaming_day.replace(year=2100)) == []
    assert list(official_record_rows_iter(room=closed_table.room, end=verification.gaming_day.replace(year=2000))) == []


def test_the_official_record_export_reads_nothing_until_it_is_sent(
    closed_table, dealer, floorperson, security, cashier, key
) -> None:
    _verified(closed_table, dealer, floorperson, security, cashier, key, "S-2", {"T1-drop": 1500})

    with CaptureQueriesContext(connection) as queries:
        chunks = csv_chunks(OFFICIAL_RECORD_COLUMNS, official_record_rows_iter(room=closed_table.room))
        assert len(queries) == 0
        text = b"".join(chunks).decode()

    assert len(queries) >= 1
    header, line = text.splitlines()
    assert header.startswith("gaming_day,account,fund,official,verification,seal,cashier")
    assert ",room:main:revenue," in line and ",15.00," in line


def test_a_verification_whose_transfers_are_posted_is_never_deleted(
    closed_table, dealer, floorperson, security, cashier, key
) -> None:
    verification = _verified(closed_table, dealer, floorperson, security, cashier, key, "S-3", {"T1-drop": 1500})
    posted = Transfer.objects.filter(kind=TransferKind.VERIFICATION).count()

    with pytest.raises(ProtectedError, match="never deleted"), transaction.atomic():
        verification.delete()

    assert CageVerification.objects.filter(pk=verification.pk).exists()
    assert Transfer.objects.filter(kind=TransferKind.VERIFICATION).count() == posted == 1
    field = CageVerification._meta.get_field("transfers")
    assert field.clone().remote_field.related_query_name == "cage_verification"
