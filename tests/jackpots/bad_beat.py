"""Fixtures of the Bad Beat tests: a fund with official money, and a claim that qualifies at T1."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from casino_backoffice.ledger.models import Account, AccountKind, TransferKind
from casino_backoffice.ledger.services import AccountSpec, account_open_as, transfer_post_atomic
from casino_backoffice.staff.models import User
from jackpots.bad_beat.models import BadBeatClaim
from jackpots.bad_beat.services.claims import SeatedHand, SeatedPlayer, claim_open
from jackpots.funds.accounts import jackpot_fund_account
from jackpots.funds.models import Jackpot
from tables.models import Table
from tests.conftest import PIN
from tests.rake import factories

_keys = itertools.count(1)

# Aces full of kings with both hole cards, beaten by four sevens, six players dealt in: a Bad Beat
# under the tests' rules (AAATT or better, both hole cards play, at least 4 players).
QUALIFYING: dict[str, Any] = {
    "players_dealt_in": 6,
    "board": "Ad Ac Kc 7s 7h",
    "losing": SeatedHand(seat=3, name="Ann Loser", hole="As Ks"),
    "winning": SeatedHand(seat=7, name="Walt Winner", hole="7d 7c"),
    "others": [
        SeatedPlayer(seat=1, name="Pat One"),
        SeatedPlayer(seat=2, name="Sam Two"),
        SeatedPlayer(seat=5, name="Lee Five"),
        SeatedPlayer(seat=9, name="Kim Nine"),
    ],
    "surveillance_reference": "CAM-12 21:14:05",
}


# The suits in every other order: QUALIFYING's hand with its suits exchanged is another hand (a hand
# is claimed once) of the same words and the same verdict.
_SUIT_ORDERS = list(itertools.permutations("cdhs"))[1:]


def _suits_exchanged(cards: str, n: int) -> str:
    order = dict(zip("cdhs", _SUIT_ORDERS[n - 1], strict=True))
    return " ".join(card[:-1] + order[card[-1]] for card in cards.split())


def another_hand(n: int) -> dict[str, Any]:
    """``make_claim(**another_hand(n))``, n from 1 to 23: QUALIFYING's hand with its suits exchanged,
    another hand at the same table with the same seats, names and verdict."""
    losing, winning = QUALIFYING["losing"], QUALIFYING["winning"]
    return {
        "board": _suits_exchanged(QUALIFYING["board"], n),
        "losing": SeatedHand(seat=losing.seat, name=losing.name, hole=_suits_exchanged(losing.hole, n)),
        "winning": SeatedHand(seat=winning.seat, name=winning.name, hole=_suits_exchanged(winning.hole, n)),
    }


def another_hand_body(n: int) -> dict[str, Any]:
    """The same as ``another_hand`` for a claim's body in the API (``{**BODY, **another_hand_body(n)}``)."""
    hand = another_hand(n)
    return {
        "board": hand["board"],
        **{
            side: {"seat": seated.seat, "name": seated.name, "hole": seated.hole}
            for side, seated in (("losing", hand["losing"]), ("winning", hand["winning"]))
        },
    }


def fund_official(jackpot: Jackpot, cents: int, actor: User) -> None:
    """Put ``cents`` into the fund's official balance as a cage verification would (the cage's own
    tests and the end-to-end test go through the real counts)."""
    source = account_open_as(AccountSpec(code="test:cage", name="Test cage", kind=AccountKind.CAGE))
    transfer_post_atomic(
        debit=account_open_as(jackpot_fund_account(jackpot=jackpot)),
        credit=source,
        amount_cents=cents,
        kind=TransferKind.VERIFICATION,
        idempotency_key=f"test-official-{next(_keys)}",
        actor=actor,
    )


def discontinue_bb_for_bb2() -> Jackpot:
    """A new rules version, in effect a minute ago: bb stops collecting; bb2 is the Bad Beat offered at T1
    now. Returns bb2."""
    rules = factories.RULES
    bb = next(item for item in rules["jackpots"] if item["code"] == "bb")
    bb2 = {**bb, "code": "bb2", "name": "New Bad Beat"}
    tables = [
        {**table, "jackpots": ["bb2" if code == "bb" else code for code in table["jackpots"]]}
        for table in rules["tables"]
    ]
    version = factories.load(
        factories.rules_text(
            effective_from=None,
            jackpots=[*rules["jackpots"], bb2],
            tables=tables,
        )
    )
    return Jackpot.objects.get(room=version.room, code="bb2")


def fund_reversed(jackpot: Jackpot, cents: int, actor: User) -> None:
    """Take ``cents`` back out of the fund's official balance, as a correction of the cage's posting would."""
    transfer_post_atomic(
        debit=Account.objects.get(code="test:cage"),
        credit=Account.objects.get(code=jackpot_fund_account(jackpot=jackpot).code),
        amount_cents=cents,
        kind=TransferKind.REVERSAL,
        idempotency_key=f"test-reversal-{next(_keys)}",
        actor=actor,
    )


@pytest.fixture
def bad_beat(rated_table: Table) -> Jackpot:
    """The room's Bad Beat fund ``bb`` (offered at T1)."""
    return Jackpot.objects.get(room=rated_table.room, code="bb")


@pytest.fixture
def make_claim(rated_table: Table, bad_beat: Jackpot, floorperson: User) -> Callable[..., BadBeatClaim]:
    """``make_claim(**changes)``: a claim at T1 opened by the floorperson, qualifying unless changed."""

    def make(**changes: Any) -> BadBeatClaim:
        values = {**QUALIFYING, **changes}
        values.setdefault("actor", floorperson)
        return claim_open(
            jackpot=values.pop("jackpot", bad_beat),
            table=values.pop("table", rated_table),
            pin=values.pop("pin", PIN),
            idempotency_key=values.pop("idempotency_key", f"claim-{next(_keys)}"),
            **values,
        )

    return make


@pytest.fixture
def new_key() -> Callable[[], str]:
    return lambda: f"bb-key-{next(_keys)}"
