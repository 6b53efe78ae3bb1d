"""The display board polls every few seconds: its state takes a fixed number of queries, however
many funds the room has and however long their histories (balances from checkpoints), however many
High Hand periods and entries."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from casino_backoffice.ledger.checkpoints import checkpoints_take
from casino_backoffice.ledger.models import Account, AccountKind, TransferKind
from casino_backoffice.ledger.services import account_open, transfer_post_atomic
from jackpots.bad_beat.services.display import display_adjust, display_witness
from jackpots.board.selectors import display_state
from jackpots.funds.accounts import jackpot_fund_account
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.services import jackpot_register
from jackpots.high_hand.models import HighHandPeriod
from jackpots.high_hand.services.slip import entry_record
from tables.models import Table
from tables.services import table_set_open
from tests.conftest import PIN
from tests.jackpots.high_hand_helpers import close_and_announce, log_round, open_period
from tests.rake.factories import RULES, load, rules_text

# Its pools are announced by hand, with official money no count made (``close_and_announce``).
pytestmark = pytest.mark.pools_by_hand

_keys = itertools.count(1)


def _official(*, fund: Account, source: Account, cents: int, times: int, actor) -> None:
    for _ in range(times):
        transfer_post_atomic(
            debit=fund,
            credit=source,
            amount_cents=cents,
            kind=TransferKind.VERIFICATION,
            idempotency_key=f"display-{next(_keys)}",
            actor=actor,
        )


def _fund(jackpot: Jackpot) -> Account:
    return account_open(
        code=jackpot_fund_account(jackpot=jackpot).code, name=f"{jackpot.name} fund", kind=AccountKind.FUND
    )


def _queries(room) -> tuple[int, dict[str, int]]:
    with CaptureQueriesContext(connection) as captured:
        state = display_state(room=room)
    return len(captured), {j.name: j.amount_cents for j in state.jackpots}


def _adjusted(jackpot: Jackpot, *, finance, floorperson, key: str) -> None:
    """Finance adjusts the display and the floorperson present witnesses it: it takes effect (§637a.15(h)(1))."""
    adjustment = display_adjust(jackpot=jackpot, actor=finance, pin=PIN, idempotency_key=key)
    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)


def test_the_display_state_takes_a_fixed_number_of_queries(
    room, finance, floorperson, django_assert_max_num_queries
) -> None:
    load()  # the room's rules: jackpots bb and hh
    # Where the official money comes from, as far as this test cares (a container may not go below zero).
    custody = account_open(code="test:cage", name="Test cage", kind=AccountKind.CAGE)
    bad_beat = Jackpot.objects.get(room=room, code="bb")
    _official(fund=_fund(bad_beat), source=custody, cents=100, times=2, actor=finance)
    _adjusted(bad_beat, finance=finance, floorperson=floorperson, key="display-adjust-1")
    few, amounts = _queries(room)
    assert amounts == {"Bad Beat": 200, "High Hand": 0}  # no High Hand period open yet

    # More funds, long histories, some of them behind checkpoints.
    for jackpot in (
        *Jackpot.objects.filter(room=room),
        jackpot_register(room=room, code="bb2", kind=JackpotKind.BAD_BEAT, name="Bad Beat 2"),
    ):
        _official(fund=_fund(jackpot), source=custody, cents=25, times=40, actor=finance)
    checkpoints_take(stride=30)
    _official(fund=_fund(bad_beat), source=custody, cents=1, times=3, actor=finance)
    for jackpot in Jackpot.objects.filter(room=room, kind=JackpotKind.BAD_BEAT):
        _adjusted(jackpot, finance=finance, floorperson=floorperson, key=f"display-adjust-{jackpot.code}")
    many, amounts = _queries(room)
    # A Bad Beat shows what its display adjustment set once witnessed (§637a.15(h)); a High Hand its open
    # period's estimated pool (none open here), never the fund's balance.
    assert amounts == {"Bad Beat": 1203, "Bad Beat 2": 1000, "High Hand": 0}

    assert many == few
    # One more for the progressive meters (none here; tests/jackpots/test_progressive_board.py has them).
    with django_assert_max_num_queries(8):
        display_state(room=room)


def _entry(period, table, *, dealer, actor, cards: str, seat: int) -> None:
    entry_record(
        jackpot=period.jackpot,
        table=table,
        seat=seat,
        player_name=f"Player {seat}",
        player_phone="215-555-0100",
        id_type="License",
        id_number=f"PA-{seat}",
        dealer=dealer,
        players_dealt_in=6,
        pot_cents=12_000,
        cards=cards,
        made_at=period.starts_at,
        actor=actor,
        pin=PIN,
        idempotency_key=f"display-entry-{next(_keys)}",
    )


def test_the_high_hand_on_the_board_takes_a_fixed_number_of_queries(
    room, manager, dealer, floorperson, finance, django_assert_max_num_queries
) -> None:
    hh = next(item for item in RULES["jackpots"] if item["code"] == "hh")
    tables = [
        {**table, "jackpots": [*table["jackpots"], "hh2"]} if "hh" in table["jackpots"] else table
        for table in RULES["tables"]
    ]
    load(rules_text(jackpots=[*RULES["jackpots"], {**hh, "code": "hh2", "name": "High Hand 2"}], tables=tables))
    t1, t2 = (table_set_open(table=Table.objects.get(number=n), is_open=True, actor=floorperson) for n in ("T1", "T2"))
    # The period of an hour ago: a round, one hand, its end; the pools announced (hh to its one hand,
    # hh2 rolled over into the period open now).
    earlier = open_period(t1, at=timezone.now() - timedelta(hours=1))
    log_round(t1, earlier.starts_at, dealer)
    _entry(earlier, t1, dealer=dealer, actor=floorperson, cards="Kh Kd Kc 2s 2d", seat=2)
    close_and_announce(earlier, pool_cents=777, at=timezone.now(), actor=finance)
    other = HighHandPeriod.objects.get(jackpot__code="hh2", starts_at=earlier.starts_at)
    close_and_announce(other, pool_cents=500, at=timezone.now(), actor=finance)
    few, amounts = _queries(room)
    assert (amounts["High Hand"], amounts["High Hand 2"]) == (0, 500)

    # The periods open now: more rounds and hands, ties among them.
    current = list(HighHandPeriod.objects.filter(status="open").select_related("jackpot"))
    for table in (t1, t2, t1):
        log_round(table, current[0].starts_at, dealer)
    for period in current:
        for seat, table in enumerate((t1, t2, t1), start=1):
            _entry(period, table, dealer=dealer, actor=floorperson, cards="Ah Ad Ac Kh Ks", seat=seat)
    many, amounts = _queries(room)
    assert (amounts["High Hand"], amounts["High Hand 2"]) == (600, 1100)  # hh2: $5.00 rolled in
    assert many == few
    with django_assert_max_num_queries(10):  # with the query of the progressive meters
        state = display_state(room=room)
    board = {jackpot.name: jackpot.high_hand for jackpot in state.jackpots if jackpot.high_hand}
    assert (board["High Hand"].leader.words, board["High Hand"].last_pool_cents) == (
        "Full house, aces full of kings",
        777,
    )
    assert [(hand.table, hand.seat) for hand in board["High Hand"].tied] == [("T2", 2), ("T1", 3)]
    assert [(winner.table, winner.seat, winner.name) for winner in board["High Hand"].winners] == [("T1", 2, None)]
    assert (board["High Hand 2"].last_rolled_over, board["High Hand 2"].winners) == (True, ())
