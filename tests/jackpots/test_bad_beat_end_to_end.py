"""A Bad Beat walked from the pots to the adjusted display, on PostgreSQL, through the real cage:
rounds drop into the box, the box is counted and verified, a claim is verified, the display shows
'pending adjustment', finance distributes, security and the cage pay, finance adjusts the display in
the presence of a floorperson, and the display equals the finance record."""

from __future__ import annotations

from django.db import connection

from cage.models import Box
from cage.services import boxes_sync, cage_verify, count_record, count_witness, notice_record, transport_create
from casino_backoffice.ledger.selectors import ledger_total
from jackpots.bad_beat.models import BadBeatPayment, ClaimStatus
from jackpots.bad_beat.selectors import fund_position
from jackpots.bad_beat.services.claims import claim_verify
from jackpots.bad_beat.services.display import display_adjust, display_witness
from jackpots.bad_beat.services.payouts import distribution_prepare, share_pay
from jackpots.board.selectors import display_state
from jackpots.funds.models import Jackpot
from tables.services import table_set_open
from tests.conftest import PIN


def test_a_bad_beat_from_the_pot_to_the_adjusted_display(
    closed_table, make_claim, dealer, floorperson, security, cashier, supervisor, finance, log_rounds, key, client
) -> None:
    assert connection.vendor == "postgresql"
    room = closed_table.room
    boxes_sync(room=room)
    box = Box.objects.get(room=room, code="T1-bb")
    notice_record(room=room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key())
    count = count_record(box=box, counted_cents=300, actor=dealer, pin=PIN, idempotency_key=key())
    count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-12 14:02")
    transport = transport_create(room=room, seal="S-1", counts=[count], actor=security, pin=PIN, idempotency_key=key())
    cage_verify(transport=transport, counted=300, actor=cashier, pin=PIN, idempotency_key=key())
    bad_beat = Jackpot.objects.get(room=room, code="bb")
    display_witness(
        adjustment=display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key=key()),
        actor=floorperson,
        pin=PIN,
    )
    assert "$3.00" in client.get("/display/main/panel/").content.decode()

    claim = make_claim()
    claim_verify(claim=claim, actor=supervisor, pin=PIN)

    board = {jackpot.name: jackpot for jackpot in display_state(room=room).jackpots}
    assert (board["Bad Beat"].amount_cents, board["Bad Beat"].pending) == (300, True)
    assert "Pending adjustment" in client.get("/display/main/panel/").content.decode()

    distribution = distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key=key())
    shares = list(distribution.shares.order_by("position"))
    assert [share.amount_cents for share in shares] == [150, 75, 19, 19, 19, 18]
    for share in shares[:2]:
        share_pay(share=share, id_type="License", id_number="PA-1", actor=security, pin=PIN, idempotency_key=key())
    for share in shares[2:]:
        share_pay(share=share, id_type="License", id_number="PA-2", actor=cashier, pin=PIN, idempotency_key=key())
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.PAID
    assert BadBeatPayment.objects.filter(share__distribution=distribution).count() == 6

    adjustment = display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key=key())
    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)

    position = fund_position(jackpot=bad_beat)
    assert (position.official_cents, position.owed_cents, position.displayed_cents) == (0, 0, 0)
    assert position.display_matches and not position.pending
    panel = client.get("/display/main/panel/").content.decode()
    assert "Pending adjustment" not in panel
    # Rounds go on: their drops are expected money in the box, not the display, until counted and verified.
    log_rounds(table_set_open(table=closed_table, is_open=True, actor=floorperson), 2)
    assert fund_position(jackpot=bad_beat).official_cents == 0
    assert ledger_total() == 0
