"""The API of counts at a closed table: boxes, the notice to compliance, counts, the witness, and
each refusal (nothing changed)."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest

from cage.models import Box, Count, CountStatus
from casino_backoffice.staff.roles import Role
from jackpots.high_hand.models import HighHandPeriod
from tests.rake.factories import load, rules_text

from .helpers import client_for, post, refused, snapshot

COUNTS = "/api/counts/"
NOTICES = "/api/compliance-notices/"


def _results(response) -> list[dict]:
    assert response.status_code == 200, response.content
    return response.json()["results"]


def _notice(floorperson) -> int:
    response = post(client_for(floorperson), NOTICES, {"room": "main", "notified": "J. Smith", "method": "phone"})
    assert response.status_code == 201, response.content
    return response.json()["id"]


# --- Boxes ----------------------------------------------------------------------------------------


def test_the_boxes_list_shows_each_box_with_what_it_is_expected_to_hold(closed_table, cashier) -> None:
    api = client_for(cashier)
    rows = _results(api.get("/api/boxes/", {"room": "main", "table": "T1"}))
    period = HighHandPeriod.objects.get(jackpot__code="hh")  # opened by the rounds that ended in it
    assert rows == [
        {
            "code": "T1-bb",
            "room": "main",
            "table": "T1",
            "kind": "jackpot",
            "jackpot": "bb",
            "expected": "3.00",
            "period": None,
        },
        {
            "code": "T1-drop",
            "room": "main",
            "table": "T1",
            "kind": "rake",
            "jackpot": None,
            "expected": "15.00",
            "period": None,
        },
        {
            "code": "T1-hh",
            "room": "main",
            "table": "T1",
            "kind": "jackpot",
            "jackpot": "hh",
            "expected": "6.00",
            "period": period.starts_at.astimezone(ZoneInfo("America/New_York")).isoformat(),
        },
    ]
    assert [row["code"] for row in _results(api.get("/api/boxes/", {"jackpot": "hh"}))] == ["T1-hh", "T2-hh"]
    assert {row["kind"] for row in _results(api.get("/api/boxes/", {"kind": "rake"}))} == {"rake"}
    refused(api.get("/api/boxes/", {"kind": "chips"}), 400, field="kind")
    refused(api.get("/api/boxes/", {"room": "nowhere"}), 400, field="room")


def test_the_lists_cost_a_few_queries_however_many_rows(
    closed_table, dealer, floorperson, compliance, django_assert_max_num_queries
) -> None:
    _notice(floorperson)
    for code, cents in (("T1-bb", "3.00"), ("T1-hh", "6.00"), ("T1-drop", "15.00")):
        post(client_for(dealer), COUNTS, {"box": code, "counted": cents})
    api = client_for(compliance)
    api.get("/api/boxes/")  # the boxes are known once; then a list is a read
    # The boxes list reads the High Hand boxes' periods in 4 queries more (whatever their number).
    for url in ("/api/boxes/", "/api/counts/", "/api/jackpots/"):
        with django_assert_max_num_queries(18):
            assert len(_results(api.get(url))) >= 2


# --- The notice to compliance ---------------------------------------------------------------------


def test_a_floorperson_records_the_notice_to_compliance(closed_table, floorperson) -> None:
    response = post(client_for(floorperson), NOTICES, {"room": "main", "notified": "J. Smith", "method": "radio"})
    assert response.status_code == 201, response.content
    data = response.json()
    assert (data["room"], data["notified"], data["method"], data["recorded_by"]) == (
        "main",
        "J. Smith",
        "radio",
        floorperson.username,
    )


def test_a_notice_is_refused_to_a_dealer_and_without_a_method(closed_table, dealer, floorperson) -> None:
    before = snapshot()
    refused(
        post(client_for(dealer), NOTICES, {"room": "main", "notified": "J. Smith", "method": "phone"}),
        403,
        "not_permitted",
    )
    refused(
        post(client_for(floorperson), NOTICES, {"room": "main", "notified": "J. Smith", "method": ""}),
        400,
        field="method",
    )
    refused(
        post(client_for(floorperson), NOTICES, {"room": "main", "notified": "J. Smith", "method": "phone"}, key=None),
        400,
        field="Idempotency-Key",
    )
    assert snapshot() == before


# --- Counts and the witness -----------------------------------------------------------------------


def test_a_dealer_counts_and_a_floorperson_witnesses(closed_table, dealer, floorperson, make_staff) -> None:
    notice = _notice(floorperson)
    response = post(client_for(dealer), COUNTS, {"box": "T1-bb", "counted": "3.00"})
    assert response.status_code == 201, response.content
    count = response.json()
    assert {
        key: count[key]
        for key in ("box", "room", "table", "counted", "expected", "variance", "status", "notice", "counted_by")
    } == {
        "box": "T1-bb",
        "room": "main",
        "table": "T1",
        "counted": "3.00",
        "expected": "3.00",
        "variance": "0.00",
        "status": "counted",
        "notice": notice,
        "counted_by": dealer.username,
    }
    assert count["sheet"].startswith("day:")

    witness = client_for(floorperson)
    response = post(
        witness, f"/api/counts/{count['id']}/witness/", {"surveillance_reference": "CAM-12 14:02"}, key=None
    )
    assert response.status_code == 200, response.content
    witnessed = response.json()
    assert (witnessed["status"], witnessed["witnessed_by"], witnessed["surveillance_reference"]) == (
        "witnessed",
        floorperson.username,
        "CAM-12 14:02",
    )
    again = post(witness, f"/api/counts/{count['id']}/witness/", {"surveillance_reference": "CAM-12 14:02"}, key=None)
    assert again.status_code == 200 and again.json() == witnessed

    surveillance = client_for(make_staff(Role.SURVEILLANCE))
    rows = _results(
        surveillance.get(COUNTS, {"status": "witnessed", "room": "main", "gaming_day": count["gaming_day"]})
    )
    assert [row["id"] for row in rows] == [count["id"]]
    assert _results(surveillance.get(COUNTS, {"status": "counted"})) == []
    refused(surveillance.get(COUNTS, {"status": "lost"}), 400, field="status")
    refused(surveillance.get(COUNTS, {"gaming_day": "yesterday"}), 400, field="gaming_day")


def test_a_short_count_shows_its_variance(closed_table, dealer) -> None:
    response = post(client_for(dealer), COUNTS, {"box": "T1-drop", "counted": "14.00"})
    assert response.status_code == 201
    assert (response.json()["expected"], response.json()["variance"]) == ("15.00", "-1.00")


def test_a_count_by_denomination_adds_up_or_is_refused(closed_table, dealer) -> None:
    api = client_for(dealer)
    before = snapshot()
    refused(
        post(api, COUNTS, {"box": "T1-drop", "counted": "15.00", "denominations": {"5.00": 2, "1.00": 4}}), 400, "cage"
    )
    assert snapshot() == before
    response = post(api, COUNTS, {"box": "T1-drop", "counted": "15.00", "denominations": {"5.00": 2, "1.00": 5}})
    assert response.status_code == 201, response.content
    assert response.json()["denominations"] == {"5.00": 2, "1.00": 5}


def test_a_retried_count_answers_the_first_and_another_body_is_refused(closed_table, dealer) -> None:
    api = client_for(dealer)
    first = post(api, COUNTS, {"box": "T1-drop", "counted": "15.00"}, key="count-1")
    assert first.status_code == 201 and "Idempotent-Replayed" not in first
    before = snapshot()
    again = post(api, COUNTS, {"box": "T1-drop", "counted": "15"}, key="count-1")  # the same amount written another way
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    refused(post(api, COUNTS, {"box": "T1-drop", "counted": "14.00"}, key="count-1"), 409, "idempotency_key_reused")
    refused(post(api, COUNTS, {"box": "T1-drop", "counted": "15.00"}, key=None), 400, field="Idempotency-Key")
    assert snapshot() == before


@pytest.mark.parametrize("counted", ["-1.00", "3.001", "3.00.0", "", 3, 3.0, None, True])
def test_a_count_that_is_not_whole_cents_written_as_a_string_is_refused(closed_table, dealer, counted) -> None:
    before = snapshot()
    refused(post(client_for(dealer), COUNTS, {"box": "T1-drop", "counted": counted}), 400, field="counted")
    assert snapshot() == before


def test_an_unknown_box_is_refused(closed_table, dealer) -> None:
    before = snapshot()
    body = refused(post(client_for(dealer), COUNTS, {"box": "T1-zz", "counted": "1.00"}), 400, field="box")
    assert body["box"] == ["There is no box T1-zz."]
    refused(post(client_for(dealer), COUNTS, {"box": "T1-drop", "room": "annex", "counted": "1.00"}), 400, field="room")
    assert snapshot() == before


def test_a_box_code_two_rooms_share_needs_the_room(closed_table, dealer) -> None:
    load(rules_text(room="annex", name="Annex Poker Room"))
    api = client_for(dealer)
    before = snapshot()
    body = refused(post(api, COUNTS, {"box": "T1-drop", "counted": "15.00"}), 400, field="room")
    assert body["room"] == ["Box T1-drop exists in several rooms; say which room."]
    assert snapshot() == before
    response = post(api, COUNTS, {"box": "T1-drop", "room": "main", "counted": "15.00"})
    assert response.status_code == 201 and response.json()["room"] == "main"
    assert Count.objects.get().box == Box.objects.get(room__code="main", code="T1-drop")


def test_the_same_box_is_not_counted_twice_for_one_sheet(closed_table, dealer) -> None:
    api = client_for(dealer)
    assert post(api, COUNTS, {"box": "T1-drop", "counted": "15.00"}).status_code == 201
    before = snapshot()
    refused(post(api, COUNTS, {"box": "T1-drop", "counted": "0.00"}), 409, "box_already_counted")
    assert snapshot() == before


def test_a_bad_beat_box_is_counted_only_upon_the_notice(closed_table, dealer) -> None:
    before = snapshot()
    refused(post(client_for(dealer), COUNTS, {"box": "T1-bb", "counted": "3.00"}), 400, "compliance_notice_required")
    refused(post(client_for(dealer), COUNTS, {"box": "T1-bb", "counted": "3.00", "notice": 999}), 400, field="notice")
    assert snapshot() == before


def test_a_role_that_may_not_count_is_refused(closed_table, floorperson, cashier) -> None:
    before = snapshot()
    for person in (floorperson, cashier):
        body = refused(post(client_for(person), COUNTS, {"box": "T1-drop", "counted": "15.00"}), 403, "not_permitted")
        assert body["detail"].startswith("Only a dealer may count a box at a closed table")
    assert snapshot() == before


def test_the_witness_is_not_the_counter(closed_table, make_staff) -> None:
    both = make_staff(Role.FLOORPERSON, extra_roles=[Role.DEALER])
    dealer = make_staff(Role.DEALER)
    own = post(client_for(both), COUNTS, {"box": "T1-drop", "counted": "15.00"}).json()
    other = post(client_for(dealer), COUNTS, {"box": "T1-hh", "counted": "6.00"}).json()
    before = snapshot()
    refused(
        post(client_for(both), f"/api/counts/{own['id']}/witness/", {"surveillance_reference": "CAM-1"}, key=None),
        400,
        "segregation_of_duties",
    )
    refused(
        post(client_for(dealer), f"/api/counts/{other['id']}/witness/", {"surveillance_reference": "CAM-1"}, key=None),
        403,
        "not_permitted",
    )
    refused(
        post(client_for(both), f"/api/counts/{other['id']}/witness/", {"surveillance_reference": ""}, key=None),
        400,
        field="surveillance_reference",
    )
    refused(
        post(client_for(both), "/api/counts/999999/witness/", {"surveillance_reference": "CAM-1"}, key=None),
        404,
        "not_found",
    )
    assert snapshot() == before
    assert Count.objects.filter(status=CountStatus.COUNTED).count() == 2
