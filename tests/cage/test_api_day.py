"""A whole gaming day of two tables driven over the API, as table and cage systems drive it: rounds,
the notice to compliance, counts, witnesses, the container to the cage, the cashier's verification,
a variance explained, the day closed, the official record, and each fund's official balance."""

from __future__ import annotations

from datetime import date

from cage.models import Count, CountStatus
from casino_backoffice.ledger.selectors import ledger_total
from casino_backoffice.staff.roles import Role
from tables.models import Table
from tables.services import table_set_open
from tests.clock import gaming_day_over
from tests.rake.factories import recently

from .helpers import client_for, post, refused


def _results(response) -> list[dict]:
    assert response.status_code == 200, response.content
    return response.json()["results"]


def test_a_gaming_day_from_logged_rounds_to_the_official_record(
    rules, dealer, floorperson, security, cashier, supervisor, finance, compliance, make_staff, monkeypatch
) -> None:
    tables = {number: Table.objects.get(room__code="main", number=number) for number in ("T1", "T2")}
    for table in tables.values():
        table_set_open(table=table, is_open=True, actor=floorperson)
    table_system = client_for(dealer)

    # Rounds of $120: T1 takes $5.00 rake, $1.00 Bad Beat and $2.00 High Hand; T2 $3.00 rake and $2.00 High Hand.
    for number, rounds in (("T1", 4), ("T2", 2)):
        for _ in range(rounds):
            round_ = post(
                table_system,
                "/api/rounds/",
                {
                    "table": number,
                    "room": "main",
                    "ended_at": recently().isoformat(),
                    "players_dealt_in": 9,
                    "pot": "120.00",
                    "uncalled_bet": "0.00",
                },
            )
            assert round_.status_code == 201, round_.content
    for table in tables.values():
        table_set_open(table=table, is_open=False, actor=floorperson)

    expected = {
        row["code"]: row["expected"]
        for row in _results(client_for(cashier).get("/api/boxes/", {"room": "main", "kind": "jackpot"}))
    }
    assert expected == {"T1-bb": "4.00", "T1-hh": "8.00", "T2-hh": "4.00"}
    drops = {
        row["code"]: row["expected"]
        for row in _results(client_for(cashier).get("/api/boxes/", {"room": "main", "kind": "rake"}))
    }
    assert (drops["T1-drop"], drops["T2-drop"]) == ("20.00", "6.00")

    # The notice to compliance, then the counts at the closed tables: T2's drop box is $0.10 short.
    notice = post(
        client_for(floorperson), "/api/compliance-notices/", {"room": "main", "notified": "J. Smith", "method": "phone"}
    )
    assert notice.status_code == 201
    counted = {"T1-bb": "4.00", "T1-hh": "8.00", "T1-drop": "20.00", "T2-hh": "4.00", "T2-drop": "5.90"}
    counts = {}
    for code, amount in counted.items():
        response = post(table_system, "/api/counts/", {"box": code, "room": "main", "counted": amount})
        assert response.status_code == 201, response.content
        counts[code] = response.json()
    assert (counts["T1-bb"]["notice"], counts["T2-drop"]["variance"]) == (notice.json()["id"], "-0.10")

    # Surveillance sees the counts to record; the floorperson witnesses each with the recording reference.
    surveillance = client_for(make_staff(Role.SURVEILLANCE))
    assert len(_results(surveillance.get("/api/counts/", {"status": "counted", "room": "main"}))) == 5
    for code, count in counts.items():
        witnessed = post(
            client_for(floorperson),
            f"/api/counts/{count['id']}/witness/",
            {"surveillance_reference": f"CAM-4 {code}"},
            key=None,
        )
        assert witnessed.status_code == 200 and witnessed.json()["status"] == "witnessed"

    # Security carries the container; the cashier verifies its aggregate.
    container = post(
        client_for(security),
        "/api/transports/",
        {"seal": "S-100", "room": "main", "counts": [c["id"] for c in counts.values()]},
    )
    assert container.status_code == 201, container.content
    assert (container.json()["status"], container.json()["declared"]) == ("in_transit", "41.90")
    verification = post(
        client_for(cashier), "/api/cage-verifications/", {"seal": "S-100", "room": "main", "counted": "41.90"}
    )
    assert verification.status_code == 201, verification.content
    assert {key: verification.json()[key] for key in ("official", "variance", "status")} == {
        "official": "41.90",
        "variance": "0.00",
        "status": "verified",
    }
    assert set(Count.objects.values_list("status", flat=True)) == {CountStatus.VERIFIED}

    # The table count's variance awaits an explanation: the day closes, once it is over, when it has one.
    day = verification.json()["gaming_day"]
    gaming_day_over(monkeypatch, room=rules.room, day=date.fromisoformat(day))
    (variance,) = _results(
        client_for(finance).get("/api/variances/", {"room": "main", "gaming_day": day, "unresolved": "true"})
    )
    assert (variance["box"], variance["kind"], variance["amount"], variance["count"]) == (
        "T2-drop",
        "count",
        "-0.10",
        counts["T2-drop"]["id"],
    )
    refused(
        post(client_for(finance), "/api/gaming-days/close/", {"room": "main", "gaming_day": day}),
        409,
        "unresolved_variance",
    )
    explained = post(
        client_for(supervisor),
        f"/api/variances/{variance['id']}/explain/",
        {"reason": "A dime short in the drop: dealer error."},
        key=None,
    )
    assert explained.status_code == 200
    closed = post(client_for(finance), "/api/gaming-days/close/", {"room": "main", "gaming_day": day})
    assert closed.status_code == 201, closed.content

    # The official record of the day, and each fund's official balance where the display reads it.
    record = _results(client_for(compliance).get("/api/official-record/", {"room": "main", "from": day, "to": day}))
    assert sorted((row["fund"], row["gaming_day"], row["official"]) for row in record) == [
        ("bb", day, "4.00"),
        ("hh", day, "12.00"),
        ("revenue", day, "25.90"),
    ]
    jackpots = _results(client_for(finance).get("/api/jackpots/", {"room": "main"}))
    assert [(row["code"], row["official"], row["expected_in_boxes"]) for row in jackpots] == [
        ("bb", "4.00", "0.00"),
        ("hh", "12.00", "0.00"),
    ]
    assert ledger_total() == 0
