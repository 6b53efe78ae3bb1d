"""Rules files and helpers shared by the rake, jackpot and round tests."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

import pytest
import yaml
from django.utils import timezone

from casino_backoffice.staff.models import User
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import staff_create
from rake.services import round_record, rules_load
from tables.models import PokerRoom, Round, RulesVersion, Table

# The example of the issue, in effect since the start of the year.
RULES: dict[str, Any] = {
    "room": "main",
    "name": "Main Poker Room",
    "effective_from": "2026-01-01T06:00:00-05:00",
    "timezone": "America/New_York",
    "gaming_day_starts": "06:00",
    "rake_policies": [
        {
            "code": "nl10",
            "kind": "percentage",
            "rate_percent": 10,
            "max_per_round": "5.00",
            "increment": "1.00",
            "min_pot": "10.00",
            "no_flop_no_drop": True,
        },
        {
            "code": "lim",
            "kind": "incremental",
            "max_per_round": "4.00",
            "levels": [
                {"pot": "10.00", "rake": "1.00"},
                {"pot": "30.00", "rake": "2.00"},
                {"pot": "60.00", "rake": "3.00"},
            ],
        },
        {"code": "stud", "kind": "time_charge", "basis": "per_player", "hourly_fee": "6.00", "interval_minutes": 30},
        {"code": "flat", "kind": "time_charge", "basis": "per_table", "hourly_fee": "30.00", "interval_minutes": 20},
    ],
    "jackpots": [
        {
            "code": "bb",
            "kind": "bad_beat",
            "contribution": {"method": "fixed", "amount": "1.00", "min_pot": "20.00"},
            "reserve_percent": 0,
            "discontinuation": {"approved_on": "2025-12-01", "reference": "PGCB approval 2025-117"},
            "hands": [
                {
                    "code": "bad_beat",
                    "name": "Bad Beat",
                    "games": ["holdem"],
                    "payout_percent": 100,
                    "qualifier": {"losing_hand_at_least": "AAATT", "both_hole_cards_play": True, "min_players": 4},
                    "shares": {"losing_hand": 50, "winning_hand": 25, "table_share": 25},
                }
            ],
            "seed": "0.00",
        },
        {
            "code": "hh",
            "kind": "high_hand",
            "contribution": {"method": "percent", "rate_percent": 5, "max": "2.00", "min_pot": "30.00"},
            "period": {"every_minutes": 60, "first_starts": "10:00"},
            "min_players": 6,
            "min_hand": "full_house",
            "ties": "split",
            "claim_within_days": 7,
            "id_required": True,
            "unclaimed": "next_period",
        },
    ],
    "tables": [
        {"number": "T1", "game": "holdem", "seats": 10, "rake_policy": "nl10", "jackpots": ["bb", "hh"]},
        {"number": "T2", "game": "holdem", "seats": 9, "rake_policy": "lim", "jackpots": ["hh"]},
        {"number": "T7", "game": "seven_card_stud", "seats": 8, "rake_policy": "stud", "jackpots": []},
        {"number": "T9", "game": "draw_high", "seats": 8, "rake_policy": "flat", "jackpots": []},
    ],
}


def rules_text(**changes: Any) -> str:
    data = {**RULES, **changes}
    return yaml.safe_dump(data, sort_keys=False)


def rules_loader() -> User:
    """The poker room manager who loads the tests' rules files."""
    return User.objects.filter(username="rules-manager").first() or staff_create(
        username="rules-manager",
        role=Role.POKER_ROOM_MANAGER,
        credential_number="PA-RULES-0001",
        # Opens the tests' rooms by loading their first rules: an all-rooms administrator (and their manager).
        all_rooms=True,
        extra_roles=[Role.ADMINISTRATOR],
        password="rules-manager-pw",
    )


def load(text: str | None = None, *, actor: User | None = None) -> RulesVersion:
    """Load a rules file. The example's ``effective_from`` (the start of the year) dates the first
    version of the room only: a later version takes effect no earlier than its loading (``rules_load``),
    so it is left out of a later version's file, which then takes effect as it is loaded."""
    text = text or rules_text()
    data = yaml.safe_load(text)
    if (
        isinstance(data, dict)
        and data.get("effective_from") == RULES["effective_from"]
        and RulesVersion.objects.filter(room__code=data.get("room")).exists()
    ):
        text = yaml.safe_dump({key: value for key, value in data.items() if key != "effective_from"}, sort_keys=False)
    return rules_load(text=text, actor=actor or rules_loader()).version


@pytest.fixture
def rules(room: PokerRoom) -> RulesVersion:
    return load()


@pytest.fixture
def rated_table(rules: RulesVersion, open_table: Table) -> Table:
    """T1 (Hold'em, nl10, bb then hh), open, under the rules in effect."""
    open_table.refresh_from_db()
    return open_table


def recently(minutes: int = 5) -> datetime:
    return timezone.now() - timedelta(minutes=minutes)


def round_logged(
    table: Table,
    dealer: User,
    *,
    pot_cents: int = 12000,
    uncalled_cents: int = 2000,
    refund_cents: int = 0,
    voided: bool = False,
    idempotency_key: str | None = None,
    ended_at: datetime | None = None,
) -> Round:
    """A round logged at ``table`` three minutes ago, six players dealt in, a flop dealt: by default $120
    with $20 uncalled, which at T1 (nl10) takes $5.00 rake, bb $1.00 and hh $2.00."""
    return round_record(
        table=table,
        ended_at=ended_at or timezone.now() - timedelta(minutes=3),
        players_dealt_in=6,
        pot_cents=pot_cents,
        uncalled_bet_cents=uncalled_cents,
        refund_cents=refund_cents,
        flop_dealt=True,
        voided=voided,
        actor=dealer,
        idempotency_key=idempotency_key or str(uuid.uuid4()),
    ).round
