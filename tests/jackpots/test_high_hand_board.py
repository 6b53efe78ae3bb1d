"""The High Hand on the display board (§637a.16(g)): the open period's pool as an estimate from the
drops, its high hand in words and cards and the time left; the pool and winners of the last period
announced; the player's name only when the posted rules allow it; a new hand on the next poll."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from jackpots.board.selectors import HighHandOnBoard, display_state
from jackpots.high_hand.models import HighHandPeriod
from jackpots.high_hand.selectors import shows_player_name
from jackpots.high_hand.services.slip import entry_record
from tables.models import Table
from tables.services import table_set_open
from tests.conftest import PIN
from tests.jackpots.high_hand_helpers import close_and_announce, log_round, open_period
from tests.pages import assert_no_inline_script_or_style
from tests.rake.factories import RULES, load, rules_text

# Its pools are announced by hand, with official money no count made (``close_and_announce``).
pytestmark = pytest.mark.pools_by_hand


def _entry(period: HighHandPeriod, table, *, dealer, actor, cards: str, seat: int, name: str) -> None:
    entry_record(
        jackpot=period.jackpot,
        table=table,
        seat=seat,
        player_name=name,
        player_phone="215-555-0100",
        id_type="License",
        id_number="PA-1",
        dealer=dealer,
        players_dealt_in=6,
        pot_cents=12_000,
        cards=cards,
        made_at=period.starts_at,
        actor=actor,
        pin=PIN,
        idempotency_key=f"board-{cards}-{seat}",
    )


def _panel(client) -> str:
    response = client.get(reverse("display:panel", args=["main"]))
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    return response.content.decode()


def _high_hand(room) -> HighHandOnBoard:
    board = next(jackpot.high_hand for jackpot in display_state(room=room).jackpots if jackpot.high_hand)
    assert board is not None
    return board


def test_the_board_shows_the_estimate_the_high_hand_and_the_time_left_and_a_new_hand_on_the_next_poll(
    rated_table, dealer, floorperson, client
) -> None:
    period = open_period(rated_table)
    log_round(rated_table, period.starts_at, dealer)
    log_round(rated_table, period.starts_at, dealer)
    panel = _panel(client)
    assert "$4.00" in panel and "Estimated pool · not counted yet" in panel
    assert "No qualifying hand yet: a full house or better" in panel
    board = _high_hand(rated_table.room)
    assert board.minutes_left is not None and 0 < board.minutes_left <= 60
    # "23 min left", or "1 h 00 min left" in the first minute of an hourly period
    assert board.time_left in panel and "min left" in board.time_left

    _entry(period, rated_table, dealer=dealer, actor=floorperson, cards="Kh Kd Kc 2s 2d", seat=4, name="Ken King")
    panel = _panel(client)  # what the board shows at its next poll, every 5 seconds
    assert "Full house, kings full of twos" in panel and "Table T1 · seat 4" in panel
    assert 'aria-label="king of hearts"' in panel and panel.count('class="board-card suit-') == 5
    assert "Ken King" not in panel  # the posted rules do not say the board may name the player
    assert shows_player_name(period) is False
    assert "No qualifying hand yet" not in panel

    _entry(period, rated_table, dealer=dealer, actor=floorperson, cards="Ks Kc Kh 2s 2c", seat=6, name="Tia Tie")
    panel = _panel(client)
    assert panel.count("Table T1 · seat 4") == 1
    assert "Current high hand · 2 tied" in panel and "Table T1 · seat 4" in panel and "Table T1 · seat 6" in panel
    assert_no_inline_script_or_style(_panel(client))


def test_the_board_shows_the_pool_and_winners_of_the_last_period_announced(
    rated_table, dealer, floorperson, finance, client
) -> None:
    earlier = open_period(rated_table, at=timezone.now() - timedelta(hours=1))
    _entry(earlier, rated_table, dealer=dealer, actor=floorperson, cards="Ah Ad Ac Kh Ks", seat=3, name="Ann Ace")
    _entry(earlier, rated_table, dealer=dealer, actor=floorperson, cards="As Ac Ah Kd Kc", seat=8, name="Tia Tie")
    close_and_announce(earlier, pool_cents=10_001, at=timezone.now(), actor=finance)

    board = _high_hand(rated_table.room)
    assert (board.open, board.last_pool_cents, board.last_rolled_over) == (True, 10_001, False)
    assert [(w.table, w.seat, w.name, w.amount) for w in board.winners] == [
        ("T1", 3, None, "$50.01"),
        ("T1", 8, None, "$50.00"),
    ]
    panel = _panel(client)
    assert "pool <strong>$100.01</strong>" in panel
    assert "Won by table T1 · seat 3 · Full house, aces full of kings · $50.01" in panel
    assert "Ann Ace" not in panel and "Tia Tie" not in panel
    assert "No qualifying hand yet" in panel  # the period open now has none


def test_the_last_period_without_a_qualifying_hand_rolled_over(rated_table, finance, client) -> None:
    earlier = open_period(rated_table, at=timezone.now() - timedelta(hours=1))
    close_and_announce(earlier, pool_cents=2_500, at=timezone.now(), actor=finance)
    board = _high_hand(rated_table.room)
    assert (board.last_rolled_over, board.winners, board.estimated_cents) == (True, (), 2_500)
    panel = _panel(client)
    assert "No qualifying hand: rolled into the next period" in panel
    assert "$25.00" in panel  # the estimate of the period open now: what rolled into it


def test_names_are_shown_when_the_posted_rules_allow_them(room, manager, dealer, floorperson, finance, client) -> None:
    load(
        rules_text(
            jackpots=[
                {**item, "show_player_name": True} if item["code"] == "hh" else item for item in RULES["jackpots"]
            ]
        )
    )
    table = table_set_open(table=Table.objects.get(number="T1"), is_open=True, actor=floorperson)
    earlier = open_period(table, at=timezone.now() - timedelta(hours=1))
    _entry(earlier, table, dealer=dealer, actor=floorperson, cards="Ah Ad Ac Kh Ks", seat=3, name="Ann Ace")
    close_and_announce(earlier, pool_cents=1_000, at=timezone.now(), actor=finance)
    period = HighHandPeriod.objects.get(jackpot=earlier.jackpot, status="open")
    _entry(period, table, dealer=dealer, actor=floorperson, cards="Kh Kd Kc 2s 2d", seat=4, name="Ken King")
    assert shows_player_name(period) is True

    panel = _panel(client)

    assert "Table T1 · seat 4 · Ken King" in panel
    assert "Won by table T1 · seat 3 · Ann Ace" in panel


def test_no_period_open_says_so(rated_table, client) -> None:
    panel = _panel(client)
    assert "No period open" in panel and "Estimated pool" not in panel


@pytest.mark.parametrize(
    ("minutes", "words"),
    [(23, "23 min left"), (1, "1 min left"), (65, "1 h 05 min left"), (0, "closing"), (-2, "closing")],
)
def test_the_time_left_in_words(minutes: int, words: str) -> None:
    board: Any = HighHandOnBoard(open=True, minutes_left=minutes)
    assert board.time_left == words
