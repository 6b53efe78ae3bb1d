"""The round of a jackpot hand over the API: an entry names its round (``round`` in and out), a claim
gives its pot and is answered with the round it was found in, and a round that does not agree is a
400 ``round_mismatch`` naming what differs, with nothing recorded."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from jackpots.bad_beat.models import BadBeatClaim
from rake.services import round_record
from tables.models import Round, Table
from tests.cage.helpers import client_for, post, refused
from tests.jackpots.helpers import BODY, CLAIMS
from tests.jackpots.helpers import snapshot as bad_beat_snapshot
from tests.jackpots.high_hand_helpers import ENTRIES, entry_body, open_period, snapshot


def _round(table: Table, dealer, *, players: int, pot_cents: int, key: str, minutes_ago: int = 0) -> Round:
    return round_record(
        table=table,
        ended_at=timezone.now() - timedelta(minutes=minutes_ago),
        players_dealt_in=players,
        pot_cents=pot_cents,
        uncalled_bet_cents=0,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key=key,
    ).round


def test_an_entry_names_its_round_and_is_answered_with_it(rated_table, dealer, floorperson) -> None:
    period = open_period(rated_table)
    made_at = max(period.starts_at, timezone.now() - timedelta(minutes=2))
    round_ = _round(rated_table, dealer, players=6, pot_cents=12_000, key="api-entry-round")

    response = post(
        client_for(floorperson), ENTRIES, entry_body(dealer, period, made_at=made_at.isoformat(), round=round_.pk)
    )

    assert response.status_code == 201, response.content
    assert response.json()["round"] == round_.pk


def test_an_entry_naming_a_round_of_another_pot_is_refused_naming_the_pot(rated_table, dealer, floorperson) -> None:
    period = open_period(rated_table)
    made_at = max(period.starts_at, timezone.now() - timedelta(minutes=2))
    round_ = _round(rated_table, dealer, players=6, pot_cents=9_000, key="api-entry-other-pot")
    before = snapshot()

    body = refused(
        post(
            client_for(floorperson), ENTRIES, entry_body(dealer, period, made_at=made_at.isoformat(), round=round_.pk)
        ),
        400,
        "round_mismatch",
    )

    assert body["detail"] == (
        f"Round {round_.pk} was logged with a pot of $90.00, not $120.00: the pot differs. Nothing was recorded."
    )
    assert snapshot() == before


def test_a_claim_giving_its_pot_is_answered_with_the_round_it_was_found_in(rated_table, dealer, floorperson) -> None:
    round_ = _round(rated_table, dealer, players=6, pot_cents=12_000, key="api-claim-round", minutes_ago=2)

    response = post(client_for(floorperson), CLAIMS, {**BODY, "pot": "120.00"})

    assert response.status_code == 201, response.content
    assert (response.json()["round"], response.json()["pot"]) == (round_.pk, "120.00")


def test_a_claim_naming_a_round_of_other_players_is_refused_naming_them(rated_table, dealer, floorperson) -> None:
    round_ = _round(rated_table, dealer, players=7, pot_cents=12_000, key="api-claim-other-players", minutes_ago=2)
    before = bad_beat_snapshot()

    body = refused(post(client_for(floorperson), CLAIMS, {**BODY, "round": round_.pk}), 400, "round_mismatch")

    assert body["detail"] == (
        f"Round {round_.pk} was logged with 7 players dealt in, not 6: the players dealt in differ. Nothing was "
        "recorded."
    )
    assert bad_beat_snapshot() == before and not BadBeatClaim.objects.exists()
