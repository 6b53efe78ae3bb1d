"""``/api/equipment/`` and ``/api/decks/``: the equipment and deck logs through the API, with the
Idempotency-Key, roles and refusals of every document endpoint."""

from __future__ import annotations

from datetime import time, timedelta

import pytest
from django.utils import timezone

from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.roles import Role
from tables.equipment.models import DeckChange, DeckOverdue, DeckVerification, DeviceEvent
from tables.games import Game
from tables.services import room_upsert, table_set_open, table_upsert
from tables.tasks import decks_overdue_tick
from tests.cage.helpers import client_for, post
from tests.clock import clock_move

EQUIPMENT = "/api/equipment/"
DECKS = "/api/decks/"


def state() -> tuple[int, ...]:
    return (
        DeviceEvent.objects.count(),
        DeckChange.objects.count(),
        DeckVerification.objects.count(),
        DeckOverdue.objects.count(),
        Signature.objects.count(),
    )


@pytest.fixture
def stud(room, manager, floorperson):
    table = table_upsert(room=room, number="M1", game=Game.MISSISSIPPI_STUD, seats=6, actor=manager)
    return table_set_open(table=table, is_open=True, actor=floorperson)


def step(kind: str, **values: str) -> dict[str, str]:
    return {"table": "M1", "device": "shuffler", "step": kind, "description": f"The shuffler: {kind}.", **values}


def test_a_jammed_shuffler_out_of_order_and_returned_through_the_api(stud, dealer, floorperson, compliance):
    jammed = post(client_for(dealer), EQUIPMENT, step("failed", failure="jammed"))
    assert jammed.status_code == 201, jammed.json()
    assert {k: jammed.json()[k] for k in ("step", "section", "failure", "table", "room", "recorded_by")} == {
        "step": "failed",
        "section": "§655a.13(e)",
        "failure": "jammed",
        "table": "M1",
        "room": "main",
        "recorded_by": dealer.username,
    }
    out = post(client_for(floorperson), EQUIPMENT, step("out_of_order", marking="sign"))
    assert (out.status_code, out.json()["section"], out.json()["marking"]) == (201, "§655a.13(g)", "sign")
    back = post(client_for(floorperson), EQUIPMENT, step("returned"))
    assert (back.status_code, back.json()["ends"], back.json()["recorded_by"]) == (
        201,
        out.json()["id"],
        floorperson.username,
    )
    assert back.json()["occurred_at"].endswith(("-05:00", "-04:00"))

    log = client_for(compliance).get(
        EQUIPMENT, {"room": "main", "table": "M1", "gaming_day": jammed.json()["gaming_day"]}
    )
    assert [row["step"] for row in log.json()["results"]] == ["returned", "out_of_order", "failed"]
    assert client_for(compliance).get(EQUIPMENT, {"table": "T9"}).json()["results"] == []


def test_refusals_through_the_api_change_nothing(stud, dealer, floorperson):
    before = state()
    not_out = post(client_for(floorperson), EQUIPMENT, step("returned"))
    assert (not_out.status_code, not_out.json()["code"]) == (409, "device_not_out_of_order")
    by_dealer = post(client_for(dealer), EQUIPMENT, step("out_of_order", marking="covered"))
    assert (by_dealer.status_code, by_dealer.json()["code"]) == (403, "not_permitted")
    assert "Only a floorperson or above" in by_dealer.json()["detail"]
    no_failure = post(client_for(dealer), EQUIPMENT, step("failed"))
    assert (no_failure.status_code, no_failure.json()["code"]) == (400, "equipment")
    unknown = post(client_for(dealer), EQUIPMENT, {**step("failed", failure="jammed"), "table": "T99"})
    assert unknown.status_code == 400 and "table" in unknown.json()
    no_key = post(client_for(dealer), EQUIPMENT, step("failed", failure="jammed"), key=None)
    assert no_key.status_code == 400 and "Idempotency-Key" in no_key.json()
    assert state() == before


def test_the_same_step_twice_one_key_is_a_replay_two_keys_are_two_steps(stud, dealer):
    body = step("failed", failure="stopped")
    first = post(client_for(dealer), EQUIPMENT, body, key="jam-1")
    before = state()
    again = post(client_for(dealer), EQUIPMENT, body, key="jam-1")
    assert (again.status_code, again["Idempotent-Replayed"], again.json()["id"]) == (201, "true", first.json()["id"])
    assert state() == before
    reused = post(client_for(dealer), EQUIPMENT, {**body, "description": "Another."}, key="jam-1")
    assert (reused.status_code, reused.json()["code"]) == (409, "idempotency_key_reused")
    assert state() == before
    second = post(client_for(dealer), EQUIPMENT, body, key="jam-2")
    assert second.status_code == 201 and second.json()["id"] != first.json()["id"]
    assert DeviceEvent.objects.count() == before[0] + 1


def test_a_deck_the_same_deck_twice_with_two_keys_and_its_verification(stud, dealer, floorperson, make_staff):
    body = {"table": "M1", "dealt_from": "hand"}
    first = post(client_for(dealer), DECKS, body, key="deck-1")
    assert first.status_code == 201, first.json()
    deck = first.json()
    assert (deck["dealt_from"], deck["decks"], deck["verification"], deck["overdue"]) == ("hand", 1, None, False)
    assert deck["due_by"].endswith(("-05:00", "-04:00"))
    replay = post(client_for(dealer), DECKS, body, key="deck-1")
    assert (replay.status_code, replay["Idempotent-Replayed"], replay.json()["id"]) == (201, "true", deck["id"])
    second = post(client_for(dealer), DECKS, body, key="deck-2")
    assert second.status_code == 201 and second.json()["id"] != deck["id"]
    assert DeckChange.objects.count() == 2

    url = f"{DECKS}{deck['id']}/verify/"
    before = state()
    by_dealer = post(client_for(make_staff(Role.DEALER)), url, {})
    assert (by_dealer.status_code, by_dealer.json()["code"]) == (403, "not_permitted")
    assert state() == before
    verified = post(client_for(floorperson), url, {})
    assert verified.status_code == 201, verified.json()
    assert verified.json()["verification"]["verified_by"] == floorperson.username
    before = state()
    again = post(client_for(make_staff(Role.FLOORPERSON)), url, {})
    assert (again.status_code, again.json()["code"]) == (409, "deck_already_verified")
    assert state() == before


def test_a_poker_tables_deck_is_refused(open_table, dealer):
    before = state()
    refused = post(client_for(dealer), DECKS, {"table": "T1", "dealt_from": "hand"})
    assert (refused.status_code, refused.json()["code"]) == (400, "deck")
    assert state() == before


def test_an_overdue_deck_is_flagged_and_shown(stud, dealer, compliance, monkeypatch):
    deck = post(client_for(dealer), DECKS, {"table": "M1", "dealt_from": "hand"}).json()
    clock_move(monkeypatch, to=timezone.now() + timedelta(hours=4, minutes=5))
    decks_overdue_tick()
    decks_overdue_tick()
    assert DeckOverdue.objects.filter(deck_id=deck["id"]).count() == 1
    log = client_for(compliance).get(DECKS, {"room": "main", "table": "M1"}).json()["results"]
    assert [(row["id"], row["overdue"]) for row in log] == [(deck["id"], True)]


def test_another_rooms_staff_neither_see_nor_record(stud, dealer, floorperson, manager, make_staff):
    east = room_upsert(
        code="east", name="East Room", timezone_name="America/New_York", gaming_day_starts=time(6), actor=manager
    )
    deck = post(client_for(dealer), DECKS, {"room": "main", "table": "M1", "dealt_from": "shoe"}).json()
    post(client_for(dealer), EQUIPMENT, {**step("failed", failure="jammed"), "room": "main"})
    east_floorperson = make_staff(Role.FLOORPERSON, rooms=[east])
    before = state()
    verify = post(client_for(east_floorperson), f"{DECKS}{deck['id']}/verify/", {})
    assert (verify.status_code, verify.json()["code"]) == (404, "not_found")
    out = post(client_for(east_floorperson), EQUIPMENT, {**step("out_of_order", marking="covered"), "room": "main"})
    assert out.status_code == 400 and "room" in out.json()
    assert client_for(east_floorperson).get(EQUIPMENT).json()["results"] == []
    assert client_for(east_floorperson).get(DECKS).json()["results"] == []
    assert state() == before


def test_the_logs_read_in_a_few_queries_however_long(
    stud, dealer, floorperson, compliance, django_assert_max_num_queries
):
    for n in range(6):
        deck = post(client_for(dealer), DECKS, {"table": "M1", "dealt_from": "hand", "note": f"Deck {n}"}).json()
        post(client_for(floorperson), f"{DECKS}{deck['id']}/verify/", {})
        post(client_for(dealer), EQUIPMENT, step("failed", failure="jammed", description=f"Jam {n}."))
    reader = client_for(compliance)
    with django_assert_max_num_queries(8):
        decks = reader.get(DECKS, {"room": "main"})
    with django_assert_max_num_queries(8):
        events = reader.get(EQUIPMENT, {"room": "main"})
    assert (len(decks.json()["results"]), len(events.json()["results"])) == (6, 6)
