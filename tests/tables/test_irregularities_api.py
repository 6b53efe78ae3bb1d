"""``/api/irregularities/`` and ``/api/rounds/{id}/void/``: the irregularity record and the void of a
round through the API, with the Idempotency-Key, roles and refusals of every document endpoint."""

from __future__ import annotations

import uuid
from datetime import time, timedelta

from django.utils import timezone

from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.roles import Role
from rake.models import RoundVoid
from rake.services import round_record
from tables.irregularities.models import Irregularity, IrregularityRuling
from tables.services import room_upsert
from tests.cage.helpers import client_for, post

IRREGULARITIES = "/api/irregularities/"


def state() -> tuple[int, int, int, int, int]:
    return (
        Irregularity.objects.count(),
        IrregularityRuling.objects.count(),
        RoundVoid.objects.count(),
        Transfer.objects.count(),
        Signature.objects.count(),
    )


def test_a_misdeal_reported_ruled_and_in_the_days_log(open_table, dealer, floorperson, compliance):
    body = {
        "table": "T1",
        "kind": "misdeal",
        "cause": "cards_face_up_in_deck",
        "description": "The 9c and the Jd were face up in the deck.",
        "cards": "9c Jd",
    }
    reported = post(client_for(dealer), IRREGULARITIES, body)
    assert reported.status_code == 201, reported.json()
    answer = reported.json()
    assert {k: answer[k] for k in ("kind", "status", "section", "cause", "cards", "table", "room", "ruling")} == {
        "kind": "misdeal",
        "status": "reported",
        "section": "§637a.18(g)",
        "cause": "cards_face_up_in_deck",
        "cards": "9c Jd",
        "table": "T1",
        "room": "main",
        "ruling": None,
    }
    assert answer["reported_by"] == dealer.username and answer["occurred_at"].endswith(("-05:00", "-04:00"))

    ruled = post(client_for(floorperson), f"{IRREGULARITIES}{answer['id']}/rule/", {"ruling": "Misdeal: reshuffled."})
    assert ruled.status_code == 201, ruled.json()
    assert (ruled.json()["status"], ruled.json()["ruling"]["ruled_by"]) == ("ruled", floorperson.username)

    log = client_for(compliance).get(
        IRREGULARITIES, {"room": "main", "gaming_day": answer["gaming_day"], "table": "T1", "kind": "misdeal"}
    )
    assert log.status_code == 200
    assert [(row["id"], row["status"]) for row in log.json()["results"]] == [(answer["id"], "ruled")]
    assert client_for(compliance).get(IRREGULARITIES, {"kind": "dispute"}).json()["results"] == []


def test_the_same_report_twice_one_key_is_a_replay_two_keys_are_two_reports(open_table, dealer):
    body = {"table": "T1", "kind": "fouled_hand", "description": "Seat 4's hand touched the muck."}
    first = post(client_for(dealer), IRREGULARITIES, body, key="fouled-1")
    before = state()
    again = post(client_for(dealer), IRREGULARITIES, body, key="fouled-1")
    assert (again.status_code, again["Idempotent-Replayed"], again.json()["id"]) == (201, "true", first.json()["id"])
    assert state() == before
    reused = post(client_for(dealer), IRREGULARITIES, {**body, "description": "Another."}, key="fouled-1")
    assert (reused.status_code, reused.json()["code"]) == (409, "idempotency_key_reused")
    assert state() == before


def test_a_kind_that_needs_a_round_is_refused_without_one(open_table, dealer):
    before = state()
    refused = post(
        client_for(dealer), IRREGULARITIES, {"table": "T1", "kind": "dealer_error_refund", "description": "x"}
    )
    assert (refused.status_code, refused.json()["code"]) == (400, "irregularity_round_required")
    assert "is recorded with its round of play" in refused.json()["detail"]
    assert state() == before


def test_a_ruling_by_the_reporter_a_dealer_or_a_floorperson_on_a_dispute_is_refused(
    open_table, dealer, floorperson, supervisor, make_staff
):
    dispute = post(
        client_for(floorperson), IRREGULARITIES, {"table": "T1", "kind": "dispute", "description": "Out of turn."}
    ).json()
    url = f"{IRREGULARITIES}{dispute['id']}/rule/"
    before = state()
    by_reporter = post(client_for(floorperson), url, {"ruling": "Stands."})
    assert by_reporter.status_code == 403  # a floorperson rules on no dispute, their own or another's
    another = make_staff(Role.FLOORPERSON)
    assert post(client_for(another), url, {"ruling": "Stands."}).json()["code"] == "not_permitted"
    assert post(client_for(dealer), url, {"ruling": "Stands."}).status_code == 403
    assert state() == before
    ruled = post(client_for(supervisor), url, {"ruling": "Seat 7's action stands."})
    assert ruled.status_code == 201
    second = post(client_for(make_staff(Role.SHIFT_SUPERVISOR)), url, {"ruling": "Reversed."})
    assert (second.status_code, second.json()["code"]) == (409, "irregularity_already_ruled")

    fouled = post(client_for(floorperson), IRREGULARITIES, {"table": "T1", "kind": "fouled_hand", "description": "x"})
    mine = post(client_for(floorperson), f"{IRREGULARITIES}{fouled.json()['id']}/rule/", {"ruling": "Reconstructed."})
    assert (mine.status_code, mine.json()["code"]) == (400, "irregularity_ruled_by_reporter")


def test_another_rooms_person_neither_sees_nor_rules_nor_reports(open_table, dealer, manager, make_staff):
    east = room_upsert(
        code="east", name="East Room", timezone_name="America/New_York", gaming_day_starts=time(6), actor=manager
    )
    reported = post(
        client_for(dealer), IRREGULARITIES, {"room": "main", "table": "T1", "kind": "fouled_hand", "description": "x"}
    )
    assert reported.status_code == 201
    east_floorperson = make_staff(Role.FLOORPERSON, rooms=[east])
    before = state()
    ruled = post(client_for(east_floorperson), f"{IRREGULARITIES}{reported.json()['id']}/rule/", {"ruling": "x"})
    assert (ruled.status_code, ruled.json()["code"]) == (404, "not_found")
    refused = post(
        client_for(east_floorperson),
        IRREGULARITIES,
        {"room": "main", "table": "T1", "kind": "dispute", "description": "x"},
    )
    assert refused.status_code == 400 and "room" in refused.json()
    assert client_for(east_floorperson).get(IRREGULARITIES).json()["results"] == []
    assert state() == before


def test_a_void_through_the_api_answers_what_it_returned(rated_table, dealer, floorperson, make_staff, manager):
    round_ = round_record(
        table=rated_table,
        ended_at=timezone.now() - timedelta(minutes=3),
        players_dealt_in=6,
        pot_cents=12000,
        uncalled_bet_cents=2000,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key=str(uuid.uuid4()),
    ).round
    url = f"/api/rounds/{round_.pk}/void/"
    before = state()
    assert post(client_for(dealer), url, {"reason": "Missing cards."}).status_code == 403
    east = room_upsert(
        code="east", name="East Room", timezone_name="America/New_York", gaming_day_starts=time(6), actor=manager
    )
    elsewhere = post(client_for(make_staff(Role.FLOORPERSON, rooms=[east])), url, {"reason": "Missing cards."})
    assert elsewhere.status_code == 404
    assert state() == before

    voided = post(client_for(floorperson), url, {"reason": "The 4s was missing from the deck."}, key="void-1")
    assert voided.status_code == 201, voided.json()
    answer = voided.json()
    assert (answer["round"], answer["reversed"]) == (round_.pk, {"rake": "5.00", "drops": {"bb": "1.00", "hh": "2.00"}})
    irregularity = client_for(floorperson).get(IRREGULARITIES, {"kind": "missing_or_extra_cards"}).json()["results"]
    assert [(row["id"], row["round"], row["status"]) for row in irregularity] == [
        (answer["irregularity"], round_.pk, "reported")
    ]
    after = state()
    replayed = post(client_for(floorperson), url, {"reason": "The 4s was missing from the deck."}, key="void-1")
    assert (replayed.status_code, replayed["Idempotent-Replayed"], replayed.json()) == (201, "true", answer)
    twice = post(client_for(make_staff(Role.SHIFT_SUPERVISOR)), url, {"reason": "Missing cards."})
    assert (twice.status_code, twice.json()["code"]) == (409, "round_already_void")
    assert state() == after
