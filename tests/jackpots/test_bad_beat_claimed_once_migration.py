"""Migration 0016 on claims recorded while a hand could be claimed twice (§637a.15(f)-(g)).

Each claim gets its gaming day and its cards in one order; of each group of claims of one hand that are
not denied, the one further on (then the one opened first) stands and the others point at it
(``duplicate_of``), their evidence, status and money as they were; then the unique indexes hold.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from importlib import import_module

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from jackpots.bad_beat.exceptions import AlreadyClaimed
from jackpots.bad_beat.models import BadBeatClaim
from jackpots.bad_beat.services.claims import claim_require_first

_CLAIMED_ONCE = import_module("jackpots.migrations.0016_bad_beat_claimed_once").Migration
BEFORE = [dependency for dependency in _CLAIMED_ONCE.dependencies if dependency[0] == "jackpots"]

# 21:00 on 2026-11-30 in New York: that gaming day; 02:00 the next night is still its business (the
# room's day starts at 06:00); 07:00 is the next gaming day.
EVENING = datetime(2026, 12, 1, 2, 0, tzinfo=UTC)
AFTER_MIDNIGHT = datetime(2026, 12, 1, 7, 0, tzinfo=UTC)
NEXT_MORNING = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

HAND = {"board": "Ad Ac Kc 7s 7h", "losing_hole": "As Ks", "winning_hole": "7d 7c"}
# The same cards as the floorperson typed them in another order (claims kept the order typed).
HAND_TYPED_OTHERWISE = {"board": "7h 7s Kc Ac Ad", "losing_hole": "Ks As", "winning_hole": "7c 7d"}
OTHER_HANDS = [
    {"board": "Ah Ad Kd 7c 7s", "losing_hole": "Ac Kh", "winning_hole": "7d 7h"},
    {"board": "As Ah Kh 7d 7c", "losing_hole": "Ad Ks", "winning_hole": "7h 7s"},
    {"board": "Ac As Ks 7h 7d", "losing_hole": "Ah Kc", "winning_hole": "7s 7c"},
    {"board": "Ad Ah Kh 7c 7d", "losing_hole": "As Kc", "winning_hole": "7h 7s"},
]


def _old_claims(apps) -> dict[str, int]:
    """Claims as they were recorded before the migration, by the letters the test names them with."""
    user = apps.get_model("staff", "User").objects.create(username="floor", credential_number="PA-FLO-1")
    room = apps.get_model("tables", "PokerRoom").objects.create(code="main", name="Main")
    fund = apps.get_model("jackpots", "Jackpot").objects.create(room=room, code="bb", kind="bad_beat", name="Bad Beat")
    t1, t2 = (
        apps.get_model("tables", "Table").objects.create(room=room, number=number, game="holdem", seats=10)
        for number in ("T1", "T2")
    )
    version = apps.get_model("tables", "RulesVersion").objects.create(
        room=room,
        number=1,
        effective_from=EVENING - timedelta(days=1),
        loaded_at=EVENING - timedelta(days=1),
        source_text="",
        content={},
        content_sha256="0" * 64,
    )

    def round_(n: int):
        return apps.get_model("tables", "Round").objects.create(
            table=t1,
            ended_at=EVENING,
            gaming_day=date(2026, 11, 30),
            shift="swing",
            game="holdem",
            players_dealt_in=6,
            pot_cents=12_000,
            rules_version=version,
            rake_cents=500,
            rake_rule="10%",
            idempotency_key=f"round-{n}",
            request_sha256="0" * 64,
            created_by=user,
            created_at=EVENING,
        )

    rounds = [round_(n) for n in range(3)]
    claim_model = apps.get_model("jackpots", "BadBeatClaim")

    def claim(letter: str, *, status: str, table=t1, round=None, at=EVENING, cards=HAND) -> int:
        return claim_model.objects.create(
            room=room,
            jackpot=fund,
            table=table,
            round=round,
            rules_version=version,
            hand_code="bad_beat",
            hand_name="Bad Beat",
            game="holdem",
            happened_at=at,
            players_dealt_in=6,
            losing_seat=3,
            losing_name="Ann Loser",
            winning_seat=7,
            winning_name="Walt Winner",
            others=[],
            qualifies=True,
            reasons=[],
            losing_hand="Full house, aces full of kings",
            winning_hand="Four of a kind, sevens",
            opened_by=user,
            opened_at=at,
            status=status,
            idempotency_key=f"claim-{letter}",
            request_sha256="0" * 64,
            **cards,
        ).pk

    return {
        # One round claimed twice with other cards, both awaiting the shift supervisor.
        "a": claim("a", status="claimed", round=rounds[0], cards=OTHER_HANDS[0]),
        "b": claim("b", status="claimed", round=rounds[0], cards=OTHER_HANDS[1]),
        # The same cards at T1 three times on the gaming day of 2026-11-30: paid, verified after
        # midnight, claimed again; and once more the next gaming day.
        "c": claim("c", status="paid"),
        "d": claim("d", status="verified", at=AFTER_MIDNIGHT, cards=HAND_TYPED_OTHERWISE),
        "e": claim("e", status="claimed"),
        "next_day": claim("next_day", status="claimed", at=NEXT_MORNING),
        # The demo's day: a claim distributed and its repeat denied.
        "distributed": claim("distributed", status="distributed", table=t2),
        "denied": claim("denied", status="denied", table=t2),
        # A round claimed with some cards, and again with others that were claimed without a round:
        # one hand through both; the verified one stands.
        "round_only": claim("round_only", status="claimed", round=rounds[1], cards=OTHER_HANDS[2]),
        "round_verified": claim("round_verified", status="verified", round=rounds[1], cards=OTHER_HANDS[3]),
        "cards_only": claim("cards_only", status="claimed", cards=OTHER_HANDS[3]),
    }


@pytest.mark.django_db(transaction=True)
def test_claims_of_one_hand_recorded_before_are_kept_and_point_at_the_one_that_stands() -> None:
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(BEFORE)
        claims = _old_claims(executor.loader.project_state(BEFORE).apps)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)

    after = {letter: BadBeatClaim.objects.get(pk=pk) for letter, pk in claims.items()}
    assert {letter: claim.duplicate_of_id for letter, claim in after.items() if claim.duplicate_of_id} == {
        "b": claims["a"],
        "d": claims["c"],
        "e": claims["c"],
        "round_only": claims["round_verified"],
        "cards_only": claims["round_verified"],
    }
    # Nothing else changed: every status as it was, the denied one blocks nothing.
    assert [after[letter].status for letter in ("a", "b", "c", "d", "e", "distributed", "denied")] == [
        "claimed",
        "claimed",
        "paid",
        "verified",
        "claimed",
        "distributed",
        "denied",
    ]
    assert after["d"].gaming_day == after["c"].gaming_day == date(2026, 11, 30)
    assert after["next_day"].gaming_day == date(2026, 12, 1)
    assert after["d"].cards == after["c"].cards == "Ad Ac Kc 7s 7h / As Ks / 7d 7c"
    assert after["d"].board == "7h 7s Kc Ac Ad"  # the evidence as typed
    # The claims that point at another go no further; the one that stands does.
    for letter in ("b", "d", "e", "round_only", "cards_only"):
        with pytest.raises(AlreadyClaimed):
            claim_require_first(after[letter])
    for letter in ("a", "c", "round_verified", "next_day", "distributed"):
        claim_require_first(after[letter])
    # From now on the database refuses another claim of those rounds and cards.
    for index, changes in (
        ("jackpots_claim_one_per_round", {"round_id": after["a"].round_id, "cards": "2c 3c 4c 5c 6c / 7c 8c / 9c Tc"}),
        ("jackpots_claim_one_per_hand", {"round_id": None}),
    ):
        copy = {
            field.attname: getattr(after["a"], field.attname)
            for field in BadBeatClaim._meta.concrete_fields
            if field.attname not in ("id", "idempotency_key", "duplicate_of_id")
        }
        with pytest.raises(IntegrityError, match=index), transaction.atomic():
            BadBeatClaim.objects.create(**{**copy, **changes, "idempotency_key": f"new-{index}"})
