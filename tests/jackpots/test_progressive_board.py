"""The display board shows each progressive meter live, and 'Pending' between a 100% payout and its
reset, in a fixed number of queries."""

from __future__ import annotations

import pytest

from jackpots.board.selectors import display_state
from jackpots.progressive.services.hands import progressive_validate
from jackpots.progressive.services.meters import meter_reset
from tests.conftest import PIN
from tests.jackpots.progressive_helpers import hand, play

pytestmark = pytest.mark.django_db


def _panel(client) -> str:
    return client.get("/display/main/panel/").content.decode()


def test_the_board_shows_each_meter_live_and_pending_until_the_reset(
    client, stud, crazy4, dealer, floorperson, supervisor
) -> None:
    panel = _panel(client)
    assert "Mississippi Stud Progressive" in panel and "$10,000.00" in panel and "$5,000.00" in panel
    assert "Tables T12 · T13" in panel and "Table T11<" in panel

    play(stud, dealer, {1: "5.00", 2: "1.00"})  # 15% of $6.00
    assert "$10,000.90" in _panel(client)

    round_ = play(crazy4, dealer, {4: "1.00"})
    aces = hand(round_, dealer, 4, "As Ah Ad Ac 9d")
    panel = _panel(client)
    assert "Pending" in panel and "Jackpot hit at table T12" in panel and "$5,000.20" not in panel

    progressive_validate(hand=aces, actor=floorperson, pin=PIN)
    meter_reset(meter=round_.meter, actor=supervisor, pin=PIN)
    panel = _panel(client)
    assert "Jackpot hit" not in panel and "$5,000.00" in panel


def test_the_board_reads_the_meters_in_the_same_queries_after_many_rounds(
    stud, crazy4, dealer, django_assert_max_num_queries
) -> None:
    play(stud, dealer, {1: "1.00"})
    room = stud.room
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        display_state(room=room)
    for _ in range(15):
        play(stud, dealer, {1: "1.00", 2: "5.00"})
        play(crazy4, dealer, {3: "1.00"})
    with django_assert_max_num_queries(len(few.captured_queries)):
        state = display_state(room=room)
    assert {m.meter.code: m.amount_cents for m in state.meters}["msp"] == 10_000_00 + 15 + 15 * 90
