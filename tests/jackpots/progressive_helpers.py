"""The tests' rules with the banked games' progressives, and helpers for their rounds and hands."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from casino_backoffice.ledger.models import Account, Transfer
from casino_backoffice.ledger.selectors import account_balance
from casino_backoffice.staff.models import Signature, User
from jackpots.progressive.accounts import meter_account
from jackpots.progressive.models import (
    EnvyBonus,
    MeterFunding,
    ProgressiveHand,
    ProgressiveMeter,
    ProgressivePayment,
    ProgressiveRound,
    ProgressiveValidation,
    ProgressiveWager,
    WagerCountException,
    WagerCountExplanation,
)
from jackpots.progressive.services.hands import progressive_hand_record
from jackpots.progressive.services.rounds import SeatWager, progressive_round_record
from tables.models import RulesVersion, Table
from tables.services import table_set_open
from tests.rake.factories import RULES, load, rules_text

PROGRESSIVES = [
    {
        "code": "msp",
        "name": "Mississippi Stud Progressive",
        "game": "mississippi_stud",
        "rate_percent": 15,
        "initial": "10000.00",
        "reset": "10000.00",
        "wagers": ["1.00", "5.00"],
    },
    {
        "code": "c4p",
        "name": "Crazy 4 Progressive",
        "game": "crazy_4_poker",
        "paytable": "a",
        "rate_percent": 20,
        "initial": "5000.00",
        "reset": "5000.00",
        "wagers": ["1.00", "5.00"],
    },
]
BANKED_TABLES = [
    {
        "number": "T11",
        "game": "mississippi_stud",
        "seats": 6,
        "min_wager": "5.00",
        "max_wager": "100.00",
        "three_card_bonus": "a",
        "progressive": "msp",
    },
    {
        "number": "T12",
        "game": "crazy_4_poker",
        "seats": 6,
        "min_wager": "5.00",
        "max_wager": "100.00",
        "queens_up": "a",
        "progressive": "c4p",
    },
    {
        "number": "T13",
        "game": "crazy_4_poker",
        "seats": 6,
        "min_wager": "10.00",
        "max_wager": "200.00",
        "queens_up": "b",
        "progressive": "c4p",
    },
]


def progressive_rules_text(**changes: Any) -> str:
    return rules_text(
        progressives=changes.pop("progressives", PROGRESSIVES),
        tables=changes.pop("tables", [*RULES["tables"], *BANKED_TABLES]),
        **changes,
    )


@pytest.fixture
def progressive_rules(room, floorperson) -> RulesVersion:
    """The tests' rules with the progressives, the banked tables open."""
    version = load(progressive_rules_text())
    for table in Table.objects.filter(room__code="main", number__in=["T11", "T12", "T13"]):
        table_set_open(table=table, is_open=True, actor=floorperson)
    return version


@pytest.fixture
def stud(progressive_rules) -> Table:
    return Table.objects.get(room__code="main", number="T11")


@pytest.fixture
def crazy4(progressive_rules) -> Table:
    return Table.objects.get(room__code="main", number="T12")


_keys = itertools.count(1)


def key(prefix: str = "p") -> str:
    return f"{prefix}-{next(_keys)}"


def ended(minutes: int = 2) -> datetime:
    return timezone.now() - timedelta(minutes=minutes)


def play(
    table: Table, by: User, wagers: dict[int, str], *, chips: int | None = None, community: str = ""
) -> ProgressiveRound:
    """A round whose seats wagered ``{seat: "1.00"}``, every chip collected unless ``chips`` says otherwise."""
    return progressive_round_record(
        table=table,
        ended_at=ended(),
        wagers=[SeatWager(seat, int(amount.replace(".", ""))) for seat, amount in wagers.items()],
        chips_collected=len(wagers) if chips is None else chips,
        community_cards=community,
        actor=by,
        idempotency_key=key("round"),
    )


def hand(round_: ProgressiveRound, by: User, seat: int, cards: str, **changes: Any) -> ProgressiveHand:
    values: dict[str, Any] = {"light_confirmed": True, **changes}
    return progressive_hand_record(
        round=round_, seat=seat, cards=cards, actor=by, idempotency_key=key("hand"), **values
    )


def meter_cents(code: str) -> int:
    meter = ProgressiveMeter.objects.select_related("room").get(code=code)
    return account_balance(account=Account.objects.get(code=meter_account(meter=meter).code))


def snapshot() -> dict[str, Any]:
    """Everything a refused progressive action must leave as it was."""
    models = (
        ProgressiveRound,
        ProgressiveWager,
        WagerCountException,
        WagerCountExplanation,
        ProgressiveHand,
        EnvyBonus,
        ProgressiveValidation,
        ProgressivePayment,
        MeterFunding,
        Transfer,
        Signature,
    )
    return {model.__name__: list(model.objects.order_by("pk").values_list("pk", flat=True)) for model in models}
