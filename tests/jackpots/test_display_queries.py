"""The display board polls every few seconds: its state takes a fixed number of queries, however
many funds the room has and however long their histories (balances from checkpoints)."""

from __future__ import annotations

import itertools

from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino_backoffice.ledger.checkpoints import checkpoints_take
from casino_backoffice.ledger.models import Account, AccountKind, TransferKind
from casino_backoffice.ledger.services import account_open, transfer_post_atomic
from jackpots.accounts import jackpot_fund_account
from jackpots.models import Jackpot, JackpotKind
from jackpots.selectors import display_state
from jackpots.services import display_adjust, jackpot_register
from tests.conftest import PIN
from tests.rake.factories import load

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


def test_the_display_state_takes_a_fixed_number_of_queries(room, finance, django_assert_max_num_queries) -> None:
    load()  # the room's rules: jackpots bb and hh
    custody = account_open(code="room:main:custody", name="In custody", kind=AccountKind.CONTAINER)
    bad_beat = Jackpot.objects.get(room=room, code="bb")
    _official(fund=_fund(bad_beat), source=custody, cents=100, times=2, actor=finance)
    display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="display-adjust-1")
    few, amounts = _queries(room)
    assert amounts == {"Bad Beat": 200, "High Hand": 0}

    # More funds, long histories, some of them behind checkpoints.
    for jackpot in (
        *Jackpot.objects.filter(room=room),
        jackpot_register(room=room, code="bb2", kind=JackpotKind.BAD_BEAT, name="Bad Beat 2"),
    ):
        _official(fund=_fund(jackpot), source=custody, cents=25, times=40, actor=finance)
    checkpoints_take(stride=30)
    _official(fund=_fund(bad_beat), source=custody, cents=1, times=3, actor=finance)
    for jackpot in Jackpot.objects.filter(room=room, kind=JackpotKind.BAD_BEAT):
        display_adjust(jackpot=jackpot, actor=finance, pin=PIN, idempotency_key=f"display-adjust-{jackpot.code}")
    many, amounts = _queries(room)
    # A Bad Beat shows what its display adjustment set (§637a.15(h)); a High Hand its official fund.
    assert amounts == {"Bad Beat": 1203, "Bad Beat 2": 1000, "High Hand": 1000}

    assert many == few
    with django_assert_max_num_queries(5):
        display_state(room=room)
