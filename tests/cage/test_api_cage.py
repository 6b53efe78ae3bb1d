"""The API of custody and the cage: transports, their accounting, missing boxes, verifications,
variances and their explanations, the close of a gaming day, the official record and each fund's
official balance; and each refusal (nothing changed)."""

from __future__ import annotations

import io
from datetime import date

import pytest
from openpyxl import load_workbook

from cage.models import Box, Count, CountStatus
from cage.services import boxes_sync, count_record, count_witness
from casino_backoffice.ledger.selectors import ledger_total
from casino_backoffice.staff.roles import Role
from tests.clock import gaming_day_over
from tests.conftest import PIN

from .helpers import client_for, post, refused, snapshot

TRANSPORTS = "/api/transports/"
VERIFICATIONS = "/api/cage-verifications/"
CLOSE = "/api/gaming-days/close/"


@pytest.fixture
def container(witnessed_counts, security) -> dict:
    """The witnessed counts in a container under seal S-1, carried to the cage."""
    response = post(
        client_for(security), TRANSPORTS, {"seal": "S-1", "counts": [count.pk for count in witnessed_counts]}
    )
    assert response.status_code == 201, response.content
    return response.json()


def _results(response) -> list[dict]:
    assert response.status_code == 200, response.content
    return response.json()["results"]


# --- Transports -----------------------------------------------------------------------------------


def test_security_carries_a_container_of_witnessed_table_counts(container, witnessed_counts, security) -> None:
    assert {
        key: container[key] for key in ("room", "seal", "kind", "status", "declared", "carried_by", "destination")
    } == {
        "room": "main",
        "seal": "S-1",
        "kind": "table_counts",
        "status": "in_transit",
        "declared": "24.00",
        "carried_by": security.username,
        "destination": "main cage",
    }
    assert container["items"] == [
        {"box": "T1-bb", "count": witnessed_counts[0].pk},
        {"box": "T1-drop", "count": witnessed_counts[2].pk},
        {"box": "T1-hh", "count": witnessed_counts[1].pk},
    ]
    assert set(Count.objects.values_list("status", flat=True)) == {CountStatus.IN_TRANSIT}


def test_security_carries_uncounted_boxes_declaring_nothing(closed_table, security) -> None:
    response = post(
        client_for(security),
        TRANSPORTS,
        {"seal": "B-1", "boxes": ["T1-drop", "T1-hh"], "destination": "satellite cage"},
    )
    assert response.status_code == 201, response.content
    data = response.json()
    assert (data["kind"], data["status"], data["declared"], data["destination"]) == (
        "boxes",
        "in_transit",
        None,
        "satellite cage",
    )
    assert [item["box"] for item in data["items"]] == ["T1-drop", "T1-hh"]


def test_a_transport_is_refused_what_it_cannot_carry(closed_table, dealer, security, floorperson) -> None:
    boxes_sync(room=closed_table.room)
    counted = count_record(
        box=Box.objects.get(code="T1-drop"), counted_cents=1500, actor=dealer, pin=PIN, idempotency_key="uncounted"
    )
    api = client_for(security)
    before = snapshot()
    refused(post(api, TRANSPORTS, {"seal": "S-2", "counts": [counted.pk]}), 409, "wrong_status")  # not witnessed
    refused(post(api, TRANSPORTS, {"seal": "S-2", "counts": [999999]}), 400, field="counts")
    refused(post(api, TRANSPORTS, {"seal": "S-2", "boxes": ["T1-zz"]}), 400, field="boxes")
    refused(post(api, TRANSPORTS, {"seal": "S-2", "boxes": ["T1-hh", "T1-hh"]}), 400, field="boxes")
    refused(
        post(api, TRANSPORTS, {"seal": "S-2", "boxes": ["T1-hh"], "counts": [counted.pk]}),
        400,
        field="non_field_errors",
    )
    refused(post(api, TRANSPORTS, {"seal": "S-2"}), 400, field="non_field_errors")
    refused(post(api, TRANSPORTS, {"seal": "S-2", "boxes": ["T1-hh"]}, key=None), 400, field="Idempotency-Key")
    refused(post(client_for(floorperson), TRANSPORTS, {"seal": "S-2", "boxes": ["T1-hh"]}), 403, "not_permitted")
    assert snapshot() == before


def test_a_seal_is_used_once_in_a_room(closed_table, security) -> None:
    api = client_for(security)
    assert post(api, TRANSPORTS, {"seal": "B-1", "boxes": ["T1-drop"]}).status_code == 201
    before = snapshot()
    body = refused(post(api, TRANSPORTS, {"seal": "B-1", "boxes": ["T1-hh"]}), 400, "cage")
    assert "Seal B-1 was already used" in body["detail"]
    assert snapshot() == before


def test_a_retried_transport_answers_the_first_and_another_body_is_refused(closed_table, security) -> None:
    api = client_for(security)
    first = post(api, TRANSPORTS, {"seal": "B-1", "boxes": ["T1-drop"]}, key="carry-1")
    before = snapshot()
    again = post(api, TRANSPORTS, {"seal": "B-1", "boxes": ["T1-drop"]}, key="carry-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    refused(post(api, TRANSPORTS, {"seal": "B-1", "boxes": ["T1-hh"]}, key="carry-1"), 409, "idempotency_key_reused")
    assert snapshot() == before


# --- Verifying a container of table counts --------------------------------------------------------


def test_the_cashier_verifies_the_aggregate_and_the_funds_become_official(container, cashier, dealer) -> None:
    api = client_for(cashier)
    response = post(api, VERIFICATIONS, {"transport": container["id"], "counted": "24.00"})
    assert response.status_code == 201, response.content
    data = response.json()
    assert {
        key: data[key]
        for key in ("transport", "seal", "counted", "official", "variance", "status", "variances", "cashier")
    } == {
        "transport": container["id"],
        "seal": "S-1",
        "counted": "24.00",
        "official": "24.00",
        "variance": "0.00",
        "status": "verified",
        "variances": [],
        "cashier": cashier.username,
    }
    jackpots = {row["code"]: row for row in _results(client_for(cashier).get("/api/jackpots/", {"room": "main"}))}
    assert {code: (row["kind"], row["official"], row["expected_in_boxes"]) for code, row in jackpots.items()} == {
        "bb": ("bad_beat", "3.00", "0.00"),
        "hh": ("high_hand", "6.00", "0.00"),
    }
    before = snapshot()
    refused(post(api, VERIFICATIONS, {"transport": container["id"], "counted": "24.00"}), 409, "wrong_status")
    assert snapshot() == before
    assert ledger_total() == 0


def test_a_container_is_named_by_its_seal_and_an_unknown_one_is_refused(container, cashier) -> None:
    api = client_for(cashier)
    before = snapshot()
    refused(post(api, VERIFICATIONS, {"seal": "S-404", "counted": "24.00"}), 400, field="seal")
    refused(post(api, VERIFICATIONS, {"transport": 999999, "counted": "24.00"}), 400, field="transport")
    refused(post(api, VERIFICATIONS, {"seal": "S-1", "room": "annex", "counted": "24.00"}), 400, field="room")
    refused(post(api, VERIFICATIONS, {"counted": "24.00"}), 400, field="non_field_errors")
    refused(
        post(api, VERIFICATIONS, {"seal": "S-1", "counted": {"T1-bb": "3.00"}}), 400, "cage"
    )  # a container: one aggregate
    for counted in (24, "24.001", "-24.00", {"T1-bb": 3}):
        refused(post(api, VERIFICATIONS, {"seal": "S-1", "counted": counted}), 400, field="counted")
    assert snapshot() == before
    response = post(api, VERIFICATIONS, {"seal": "S-1", "counted": "24.00"})
    assert response.status_code == 201 and response.json()["transport"] == container["id"]


def test_a_cashier_who_counted_or_witnessed_does_not_verify(closed_table, make_staff, security, key) -> None:
    boxes_sync(room=closed_table.room)
    dealer_cashier = make_staff(Role.DEALER, extra_roles=[Role.CAGE_CASHIER])
    floor_cashier = make_staff(Role.FLOORPERSON, extra_roles=[Role.CAGE_CASHIER])
    count = count_record(
        box=Box.objects.get(code="T1-drop"), counted_cents=1500, actor=dealer_cashier, pin=PIN, idempotency_key=key()
    )
    count_witness(count=count, actor=floor_cashier, pin=PIN, surveillance_reference="CAM-1")
    transport = post(client_for(security), TRANSPORTS, {"seal": "S-9", "counts": [count.pk]}).json()
    before = snapshot()
    for person in (dealer_cashier, floor_cashier):
        body = refused(
            post(client_for(person), VERIFICATIONS, {"transport": transport["id"], "counted": "15.00"}),
            400,
            "segregation_of_duties",
        )
        assert "§637a.15(e)" in body["detail"]
    refused(
        post(client_for(security), VERIFICATIONS, {"transport": transport["id"], "counted": "15.00"}),
        403,
        "not_permitted",
    )
    assert snapshot() == before


def test_a_cage_difference_awaits_an_explanation_then_is_verified(
    container, cashier, supervisor, finance, dealer
) -> None:
    verification = post(
        client_for(cashier), VERIFICATIONS, {"transport": container["id"], "counted": "23.90", "confirm_variance": True}
    ).json()
    assert (verification["official"], verification["variance"], verification["status"]) == (
        "24.00",
        "-0.10",
        "variance_unresolved",
    )
    url = f"{VERIFICATIONS}{verification['id']}/explain/"
    before = snapshot()
    refused(post(client_for(dealer), url, {"reason": "A chip fell"}, key=None), 403, "not_permitted")
    refused(post(client_for(supervisor), url, {"reason": ""}, key=None), 400, field="reason")
    refused(post(client_for(supervisor), url, {"reason": "A chip fell", "pin": "0000"}, key=None), 400, "wrong_pin")
    refused(
        post(client_for(supervisor), f"{VERIFICATIONS}999999/explain/", {"reason": "A chip fell"}, key=None),
        404,
        "not_found",
    )
    assert snapshot() == before

    response = post(client_for(supervisor), url, {"reason": "A $0.10 chip fell behind the rack."}, key=None)
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "verified"
    again = post(client_for(supervisor), url, {"reason": "A $0.10 chip fell behind the rack."}, key=None)
    assert again.status_code == 200 and again.json() == response.json()
    explained = snapshot()
    refused(post(client_for(finance), url, {"reason": "Another story"}, key=None), 409, "wrong_status")
    assert snapshot() == explained


# --- Uncounted boxes at the cage, a missing box, variances and the close of the day ---------------


def test_uncounted_boxes_accounted_for_a_missing_box_excused_a_variance_explained_and_the_day_closed(
    closed_table, security, floorperson, supervisor, cashier, finance, dealer, compliance, monkeypatch
) -> None:
    transport = post(client_for(security), TRANSPORTS, {"seal": "B-7", "boxes": ["T1-drop", "T1-hh"]}).json()
    account = f"{TRANSPORTS}{transport['id']}/account/"
    missing = f"{TRANSPORTS}{transport['id']}/missing-boxes/"

    before = snapshot()
    body = refused(
        post(client_for(cashier), VERIFICATIONS, {"transport": transport["id"], "counted": {"T1-drop": "15.00"}}),
        409,
        "wrong_status",
    )
    assert "accounts for its boxes" in body["detail"]  # not yet accounted for at the cage
    refused(post(client_for(floorperson), account, {"boxes": ["T1-drop"]}, key=None), 400, "box_missing")
    refused(post(client_for(floorperson), account, {"boxes": ["T1-drop", "T1-bb"]}, key=None), 400, "unknown_box")
    refused(post(client_for(security), account, {"boxes": ["T1-drop", "T1-hh"]}, key=None), 403, "not_permitted")
    refused(post(client_for(floorperson), missing, {"box": "T1-hh", "reason": "Not in the cart"}), 403, "not_permitted")
    refused(post(client_for(supervisor), missing, {"box": "T1-zz", "reason": "Not in the cart"}), 400, field="box")
    refused(post(client_for(supervisor), missing, {"box": "T1-bb", "reason": "Not in the cart"}), 400, "unknown_box")
    refused(
        post(client_for(supervisor), missing, {"box": "T1-hh", "reason": "Not in the cart"}, key=None),
        400,
        field="Idempotency-Key",
    )
    refused(post(client_for(floorperson), f"{TRANSPORTS}999999/account/", {"boxes": []}, key=None), 404, "not_found")
    assert snapshot() == before

    excused = post(client_for(supervisor), missing, {"box": "T1-hh", "reason": "Not in the cart at the cage door"})
    assert excused.status_code == 201, excused.content
    assert (excused.json()["box"], excused.json()["seal"], excused.json()["recorded_by"]) == (
        "T1-hh",
        "B-7",
        supervisor.username,
    )
    again = post(client_for(supervisor), missing, {"box": "T1-hh", "reason": "Not in the cart at the cage door"})
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true" and again.json() == excused.json()

    accounted = post(client_for(floorperson), account, {"boxes": ["T1-drop"]}, key=None)
    assert accounted.status_code == 200, accounted.content
    assert (accounted.json()["status"], accounted.json()["accounted_by"], accounted.json()["missing_boxes"]) == (
        "accounted",
        floorperson.username,
        ["T1-hh"],
    )

    before = snapshot()
    refused(
        post(client_for(cashier), VERIFICATIONS, {"transport": transport["id"], "counted": "15.00"}), 400, "cage"
    )  # boxes: by code
    refused(
        post(client_for(cashier), VERIFICATIONS, {"transport": transport["id"], "counted": {}}), 400, "count_mismatch"
    )
    refused(
        post(
            client_for(cashier),
            VERIFICATIONS,
            {"transport": transport["id"], "counted": {"T1-drop": "15.00", "T1-bb": "1.00"}},
        ),
        400,
        "cage",
    )
    assert snapshot() == before
    verification = post(
        client_for(cashier), VERIFICATIONS, {"transport": transport["id"], "counted": {"T1-drop": "15.00"}}
    ).json()
    assert (verification["official"], verification["variance"], verification["status"]) == (
        "15.00",
        "-6.00",
        "variance_unresolved",
    )
    assert verification["box_counts"] == {"T1-drop": "15.00", "T1-hh": "0.00"}

    # The variance report: the missing box's expected $6.00, awaiting an explanation.
    variances = _results(client_for(supervisor).get("/api/variances/", {"room": "main", "unresolved": "true"}))
    assert [(v["box"], v["kind"], v["amount"], v["unresolved"], v["verification"]) for v in variances] == [
        ("T1-hh", "cage_count", "-6.00", True, verification["id"])
    ]
    day = variances[0]["gaming_day"]
    assert _results(client_for(compliance).get("/api/variances/", {"gaming_day": day, "unresolved": "false"})) == []
    refused(client_for(dealer).get("/api/variances/"), 403, "not_permitted")
    refused(client_for(compliance).get("/api/variances/", {"unresolved": "maybe"}), 400, field="unresolved")

    # Finance closes a day once it is over (issue 24): before, the close is refused for that.
    refused(post(client_for(finance), CLOSE, {"room": "main", "gaming_day": day}), 409, "gaming_day_not_over")
    gaming_day_over(monkeypatch, room=closed_table.room, day=date.fromisoformat(day))
    before = snapshot()
    body = refused(post(client_for(finance), CLOSE, {"room": "main", "gaming_day": day}), 409, "unresolved_variance")
    assert "T1-hh" in body["detail"]
    refused(post(client_for(supervisor), CLOSE, {"room": "main", "gaming_day": day}), 403, "not_permitted")
    refused(
        post(client_for(finance), CLOSE, {"room": "main", "gaming_day": day}, key=None), 400, field="Idempotency-Key"
    )
    refused(post(client_for(finance), CLOSE, {"room": "main", "gaming_day": "30/11/2026"}), 400, field="gaming_day")
    assert snapshot() == before

    explained = post(
        client_for(finance),
        f"/api/variances/{variances[0]['id']}/explain/",
        {"reason": "Box T1-hh left on the cart; found."},
        key=None,
    )
    assert explained.status_code == 200, explained.content
    assert (explained.json()["unresolved"], explained.json()["explained_by"]) == (False, finance.username)
    retried = post(
        client_for(finance),
        f"/api/variances/{variances[0]['id']}/explain/",
        {"reason": "Box T1-hh left on the cart; found."},
        key=None,
    )
    assert retried.status_code == 200 and retried.json() == explained.json()
    refused(
        post(
            client_for(supervisor),
            f"/api/variances/{variances[0]['id']}/explain/",
            {"reason": "Another story"},
            key=None,
        ),
        409,
        "wrong_status",
    )
    assert client_for(cashier).get("/api/variances/", {"unresolved": "true"}).json()["results"] == []

    closed = post(client_for(finance), CLOSE, {"room": "main", "gaming_day": day})
    assert closed.status_code == 201, closed.content
    assert (closed.json()["gaming_day"], closed.json()["closed_by"]) == (day, finance.username)
    again = post(client_for(finance), CLOSE, {"room": "main", "gaming_day": day})
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true" and again.json() == closed.json()
    assert ledger_total() == 0


# --- The official record --------------------------------------------------------------------------


def test_the_official_record_as_json_csv_and_xlsx(container, cashier, compliance, dealer) -> None:
    verification = post(client_for(cashier), VERIFICATIONS, {"transport": container["id"], "counted": "24.00"}).json()
    api = client_for(compliance)
    day = verification["gaming_day"]
    rows = _results(api.get("/api/official-record/", {"room": "main", "from": day, "to": day}))
    assert sorted(rows, key=lambda row: row["fund"]) == [
        {"fund": "bb", "account": "jackpot:main:bb:fund", "gaming_day": day, "official": "3.00"},
        {"fund": "hh", "account": "jackpot:main:hh:fund", "gaming_day": day, "official": "6.00"},
        {"fund": "revenue", "account": "room:main:revenue", "gaming_day": day, "official": "15.00"},
    ]
    assert _results(api.get("/api/official-record/", {"room": "main", "to": "2000-01-01"})) == []

    csv = api.get("/api/official-record/", {"room": "main", "format": "csv"})
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    assert lines[0] == "fund,account,gaming_day,official"
    assert sorted(lines[1:]) == sorted(f"{row['fund']},{row['account']},{day},{row['official']}" for row in rows)

    xlsx = api.get("/api/official-record/", {"room": "main", "format": "xlsx"})
    assert xlsx.status_code == 200 and 'filename="official-record-main.xlsx"' in xlsx["Content-Disposition"]
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    values = list(sheet.iter_rows(values_only=True))
    assert values[0] == ("fund", "account", "gaming_day", "official")
    assert sorted(float(row[3]) for row in values[1:]) == [3.0, 6.0, 15.0]

    refused(client_for(dealer).get("/api/official-record/"), 403, "not_permitted")
    refused(client_for(dealer).get("/api/official-record/", {"format": "csv"}), 403, "not_permitted")
    refused(api.get("/api/official-record/", {"room": "annex", "format": "xlsx"}), 400, field="room")
    refused(api.get("/api/official-record/", {"from": "soon"}), 400, field="from")
