"""Fixtures of the cage tests: a room with rules, T1 (bb and hh boxes) with logged rounds, closed."""

from __future__ import annotations

import itertools

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
