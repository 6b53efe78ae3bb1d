"""Two cashiers verifying one transport at once post it once (real PostgreSQL connections)."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from cage.exceptions import WrongStatus
from cage.models import Box, CageVerification
from cage.services import boxes_sync, cage_verify, count_record, count_witness, notice_record, transport_create
from casino_backoffice.ledger.models import Transfer, TransferKind
from casino_backoffice.ledger.selectors import ledger_total
from casino_backoffice.staff.roles import Role
from tests.conftest import PIN


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_verifications_of_one_transport_post_once(
    closed_table, dealer, floorperson, security, make_staff, key
) -> None:
    boxes_sync(room=closed_table.room)
    notice_record(
        room=closed_table.room, notified="J. Smith", method="radio", actor=floorperson, pin=PIN, idempotency_key=key()
    )
    counts = []
    for code, cents in (("T1-bb", 300), ("T1-hh", 600), ("T1-drop", 1500)):
        count = count_record(
            box=Box.objects.get(code=code), counted_cents=cents, actor=dealer, pin=PIN, idempotency_key=key()
        )
        counts.append(count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-3"))
    transport = transport_create(
        room=closed_table.room, seal="C-1", counts=counts, actor=security, pin=PIN, idempotency_key=key()
    )
    cashiers = [make_staff(Role.CAGE_CASHIER), make_staff(Role.CAGE_CASHIER)]
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def verify(cashier) -> None:
        try:
            start.wait(timeout=30)
            cage_verify(transport=transport, counted=2400, actor=cashier, pin=PIN, idempotency_key=f"v-{cashier.pk}")
            outcomes.append("verified")
        except WrongStatus:
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=verify, args=(cashier,)) for cashier in cashiers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["refused", "verified"]
    assert CageVerification.objects.count() == 1
    assert Transfer.objects.filter(kind=TransferKind.VERIFICATION).count() == 3
    assert ledger_total() == 0
