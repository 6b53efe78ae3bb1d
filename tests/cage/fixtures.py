"""Fixtures of the cage tests: a room with rules, T1 (bb and hh boxes) with logged rounds, closed."""

from __future__ import annotations

import itertools
from datetime import datetime

import pytest

from casino_backoffice.staff.roles import Role
from rake.services import round_record
from tables.models import Table
from tables.services import table_set_open
from tests.rake import factories

_keys = itertools.count(1)


@pytest.fixture
def security(make_staff):
    return make_staff(Role.SECURITY)


@pytest.fixture
def key():
    """A new idempotency key each call."""
    return lambda: f"k-{next(_keys)}"


@pytest.fixture
def log_rounds(dealer):
    """Log ``n`` rounds of ``pot_cents`` at an open table: each $120 pot drops $1.00 bb and $2.00 hh."""

    def log(table: Table, n: int, pot_cents: int = 12000) -> None:
        for _ in range(n):
            round_record(
                table=table,
                ended_at=factories.recently(),
                players_dealt_in=9,
                pot_cents=pot_cents,
                uncalled_bet_cents=0,
                flop_dealt=True,
                voided=False,
                actor=dealer,
                idempotency_key=f"round-{next(_keys)}",
            )

    return log


@pytest.fixture
def closed_table(rated_table, log_rounds, floorperson) -> Table:
    """T1 after 3 rounds of $120 (rake $5.00 each, bb $1.00 each, hh $2.00 each), closed for the count."""
    log_rounds(rated_table, 3)
    return table_set_open(table=rated_table, is_open=False, actor=floorperson)


@pytest.fixture
def witnessed_counts(closed_table, dealer, floorperson, key) -> list:
    """T1's three boxes counted as expected (bb $3.00, hh $6.00, drop $15.00) and witnessed, after the
    notice to compliance that the Bad Beat box needs."""
    from cage.models import Box
    from cage.services import boxes_sync, count_record, count_witness, notice_record
    from tests.conftest import PIN

    boxes_sync(room=closed_table.room)
    notice_record(
        room=closed_table.room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key()
    )
    counts = []
    for code, cents in (("T1-bb", 300), ("T1-hh", 600), ("T1-drop", 1500)):
        count = count_record(
            box=Box.objects.get(code=code), counted_cents=cents, actor=dealer, pin=PIN, idempotency_key=key()
        )
        counts.append(count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-3"))
    return counts


@pytest.fixture
def night(rated_table, dealer, floorperson, security, cashier, supervisor):
    """T1 (hh, hourly from 10:00 under the tests' rules) with helpers to play a night: ``rounds(at, n)``
    logs $120 pots ($2.00 each for the High Hand), ``hand(cards, at, seat)`` records a Tracking Slip
    entry, ``count()`` carries every High Hand box to the cage and counts and verifies each as expected."""
    from cage.models import Box
    from cage.services import boxes_sync, cage_verify, transport_account, transport_create
    from jackpots.funds.models import Jackpot
    from jackpots.high_hand.services.slip import entry_record
    from tests.conftest import PIN

    room = rated_table.room
    boxes_sync(room=room)
    jackpot = Jackpot.objects.get(room=room, code="hh")

    def rounds(at: datetime, n: int = 1) -> None:
        # A $120 pot: rake $5.00, then 5% of the $115.00 left is $5.75, capped at $2.00 for the High Hand.
        for _ in range(n):
            round_record(
                table=rated_table,
                ended_at=at,
                players_dealt_in=9,
                pot_cents=12_000,
                uncalled_bet_cents=0,
                flop_dealt=True,
                voided=False,
                actor=dealer,
                idempotency_key=f"night-round-{next(_keys)}",
                # A night played in the past is logged late: a shift supervisor signs for it (issue 24).
                late_entry_by=supervisor,
                pin=PIN,
            )

    def hand(cards: str, at: datetime, seat: int):
        return entry_record(
            jackpot=jackpot,
            table=rated_table,
            seat=seat,
            player_name=f"Player {seat}",
            player_phone="215-555-0100",
            id_type="License",
            id_number=f"PA-{seat:04d}",
            dealer=dealer,
            players_dealt_in=8,
            pot_cents=9_000,
            cards=cards,
            made_at=at,
            actor=floorperson,
            pin=PIN,
            idempotency_key=f"night-hand-{next(_keys)}",
        )

    def count_high_hand_boxes():
        """Security carries every High Hand box to the cage, a floorperson accounts for them, the cashier
        counts each (what the ledger expects) and verifies."""
        boxes = list(Box.objects.filter(room=room, jackpot=jackpot).select_related("account"))
        transport = transport_create(
            room=room, seal=f"S-{next(_keys)}", boxes=boxes, actor=security, pin=PIN, idempotency_key=f"t-{next(_keys)}"
        )
        # What each box carried holds of one period, by the ledger: counted as expected.
        counted = {item.box.code: item.expected_cents for item in transport.items.select_related("box")}
        transport_account(transport=transport, box_codes=list(counted), actor=floorperson, pin=PIN)
        return cage_verify(
            transport=transport, counted=counted, actor=cashier, pin=PIN, idempotency_key=f"v-{next(_keys)}"
        )

    return rounds, hand, count_high_hand_boxes
