"""The blind count holds through the API too, and a read never writes.

``GET /api/boxes/`` and ``GET /api/jackpots/`` give what a box should hold to those who check a count
against it (the cage, finance, compliance, surveillance), never to whoever counts or carries boxes (a
dealer, security): they see it in the answer to their own count. The boxes a rules version names are
opened when it is loaded, so listing them changes nothing in the database.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cage.models import Box
from casino_backoffice.staff.permissions import Action, may
from casino_backoffice.staff.roles import Role
from tests.rake.factories import load, rules_text

from .helpers import client_for, post

BLIND = [Role.DEALER, Role.SECURITY, Role.FLOORPERSON]
SEES = [Role.CAGE_CASHIER, Role.FINANCE, Role.COMPLIANCE, Role.SURVEILLANCE]


def _boxes(person, **params) -> dict[str, str | None]:
    response = client_for(person).get("/api/boxes/", {"room": "main", **params})
    assert response.status_code == 200, response.content
    return {row["code"]: row["expected"] for row in response.json()["results"]}


def _funds(person) -> dict[str, str | None]:
    response = client_for(person).get("/api/jackpots/", {"room": "main"})
    if not may(person, Action.FUNDS_READ):  # a dealer and security read the board, not the funds
        assert response.status_code == 403, response.content
        return {"-": None}
    assert response.status_code == 200, response.content
    return {row["code"]: row["expected_in_boxes"] for row in response.json()["results"]}


@pytest.mark.parametrize("role", BLIND)
def test_whoever_counts_or_carries_gets_the_boxes_without_what_they_hold(closed_table, make_staff, role) -> None:
    person = make_staff(role)
    boxes = _boxes(person, table="T1")
    assert set(boxes) == {"T1-bb", "T1-drop", "T1-hh"} and set(boxes.values()) == {None}
    assert set(_funds(person).values()) == {None}


@pytest.mark.parametrize("role", SEES)
def test_who_checks_a_count_sees_what_each_box_should_hold(closed_table, make_staff, role) -> None:
    person = make_staff(role)
    assert _boxes(person, table="T1") == {"T1-bb": "3.00", "T1-drop": "15.00", "T1-hh": "6.00"}
    assert _funds(person)["bb"] == "3.00"


def test_a_person_with_a_checking_role_among_theirs_sees_it(closed_table, make_staff) -> None:
    person = make_staff(Role.SURVEILLANCE)
    person.groups.add(*make_staff(Role.DEALER).groups.all())
    assert _boxes(person, table="T1")["T1-drop"] == "15.00"


def test_the_counter_sees_what_the_box_held_in_the_answer_to_their_count(closed_table, dealer, floorperson) -> None:
    notice = post(
        client_for(floorperson), "/api/compliance-notices/", {"room": "main", "notified": "J.", "method": "phone"}
    )
    assert notice.status_code == 201, notice.content
    assert _boxes(dealer, table="T1")["T1-drop"] is None
    response = post(client_for(dealer), "/api/counts/", {"box": "T1-drop", "room": "main", "counted": "14.00"})
    assert response.status_code == 201, response.content
    assert (response.json()["counted"], response.json()["expected"]) == ("14.00", "15.00")


def test_listing_the_boxes_writes_nothing(rules, cashier) -> None:
    """The finding: the GET synced the boxes of every room, inserting the boxes of a new rules version."""
    client = client_for(cashier)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/boxes/", {"room": "main"})
    assert response.status_code == 200
    writes = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
    ]
    assert writes == []
    assert {"T1-bb", "T1-drop", "T1-hh"} <= {row["code"] for row in response.json()["results"]}


def test_the_boxes_of_a_rules_version_exist_from_its_load(db) -> None:
    """Loading the rules opens the boxes they name; no list or schedule has to know them first."""
    load(rules_text())
    assert set(Box.objects.filter(room__code="main").values_list("code", flat=True)) >= {"T1-bb", "T1-drop", "T1-hh"}
