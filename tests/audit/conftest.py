"""The audit's fixtures: a Bad Beat paid from a counted and verified box to its patrons."""

from __future__ import annotations

import pytest

from cage.models import Box
from cage.services import boxes_sync, cage_verify, count_record, count_witness, notice_record, transport_create
from jackpots.bad_beat.services.claims import claim_verify
from jackpots.bad_beat.services.payouts import distribution_prepare, share_pay
from tests.conftest import PIN


@pytest.fixture
def paid_bad_beat(closed_table, make_claim, dealer, floorperson, security, cashier, supervisor, finance, key):
    """T1's 3 rounds dropped $3.00 into its Bad Beat box; counted, carried, verified; a claim paid in six
    shares, the first two at the table by security, the other four at the cage by the cashier."""
    room = closed_table.room
    boxes_sync(room=room)
    box = Box.objects.get(room=room, code="T1-bb")
    notice_record(room=room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key())
    count = count_record(box=box, counted_cents=300, actor=dealer, pin=PIN, idempotency_key=key())
    count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-12 14:02")
    transport = transport_create(room=room, seal="S-1", counts=[count], actor=security, pin=PIN, idempotency_key=key())
    cage_verify(transport=transport, counted=300, actor=cashier, pin=PIN, idempotency_key=key())
    claim = make_claim()
    claim_verify(claim=claim, actor=supervisor, pin=PIN)
    distribution = distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key=key())
    for share in distribution.shares.order_by("position"):
        payer = security if share.position <= 2 else cashier
        share_pay(share=share, id_type="License", id_number="PA-12345", actor=payer, pin=PIN, idempotency_key=key())
    return claim
