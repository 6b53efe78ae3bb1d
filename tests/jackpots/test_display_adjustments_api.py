"""The display adjustment API (§637a.15(h)) and the transfer of a discontinued fund (§637a.15(i)): each
refusal with nothing changed, and replays."""

from __future__ import annotations

import uuid

import pytest

from casino_backoffice.ledger.models import Transfer, TransferKind
from casino_backoffice.staff.roles import Role
from tests.cage.helpers import client_for, post, refused
from tests.jackpots.bad_beat import discontinue_bb_for_bb2, fund_official
from tests.jackpots.test_bad_beat_api import BODY, CLAIMS, snapshot

ADJUSTMENTS = "/api/display-adjustments/"
TRANSFERS = "/api/fund-transfers/"


def _fund(person, code: str) -> dict:
    response = client_for(person).get("/api/jackpots/", {"room": "main"})
    assert response.status_code == 200, response.content
    return next(row for row in response.json()["results"] if row["code"] == code)


# --- Display adjustments --------------------------------------------------------------------------


def test_finance_adjusts_the_display_and_a_floorperson_witnesses(bad_beat, finance, floorperson) -> None:
    fund_official(bad_beat, 12_345, finance)
    assert (_fund(floorperson, "bb")["displayed"], _fund(floorperson, "bb")["display_matches"]) == (None, False)

    response = post(client_for(finance), ADJUSTMENTS, {"jackpot": "bb", "room": "main"}, key="adj-1")
    assert response.status_code == 201, response.content
    adjustment = response.json()
    assert {key: adjustment[key] for key in ("room", "jackpot", "amount", "previous", "official", "owed")} == {
        "room": "main",
        "jackpot": "bb",
        "amount": "123.45",
        "previous": None,
        "official": "123.45",
        "owed": "0.00",
    }
    assert (adjustment["adjusted_by"], adjustment["witnessed_by"], adjustment["claim"]) == (
        finance.username,
        None,
        None,
    )
    # Finance alone: the display still shows what it showed (never adjusted).
    fund = _fund(floorperson, "bb")
    assert (fund["displayed"], fund["available"], fund["display_matches"], fund["pending"]) == (
        None,
        "123.45",
        False,
        False,
    )

    before = snapshot()
    again = post(client_for(finance), ADJUSTMENTS, {"jackpot": "bb"}, key="adj-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true" and again.json() == adjustment
    assert snapshot() == before

    response = post(client_for(floorperson), f"{ADJUSTMENTS}{adjustment['id']}/witness/", {}, key=None)
    assert response.status_code == 200, response.content
    assert response.json()["witnessed_by"] == floorperson.username
    assert response.json()["witnessed_at"] is not None
    assert (response.json()["claim"], response.json()["seconds_from_verification"]) == (None, None)
    fund = _fund(floorperson, "bb")
    assert (fund["displayed"], fund["display_matches"]) == ("123.45", True)

    # The next adjustment remembers what the display showed.
    fund_official(bad_beat, 1_000, finance)
    later = post(client_for(finance), ADJUSTMENTS, {"jackpot": "bb"}).json()
    assert (later["previous"], later["amount"]) == ("123.45", "133.45")


def test_a_witness_signs_once_and_never_the_adjuster(bad_beat, finance, floorperson, make_staff) -> None:
    both = make_staff(Role.FINANCE, extra_roles=[Role.FLOORPERSON])
    late = make_staff(Role.SHIFT_SUPERVISOR)
    adjustment = post(client_for(both), ADJUSTMENTS, {"jackpot": "bb"}).json()
    url = f"{ADJUSTMENTS}{adjustment['id']}/witness/"
    before = snapshot()
    refused(post(client_for(both), url, {}, key=None), 400, "segregation_of_duties")
    refused(post(client_for(finance), url, {}, key=None), 403, "not_permitted")
    refused(post(client_for(floorperson), f"{ADJUSTMENTS}999999/witness/", {}, key=None), 404, "not_found")
    refused(client_for(floorperson).post(url, {}, format="json"), 400, field="pin")
    assert snapshot() == before

    refused(client_for(floorperson).post(url, {"pin": "0000"}, format="json"), 400, "wrong_pin")
    floorperson.refresh_from_db()
    assert floorperson.failed_pin_attempts == 1  # a wrong PIN counts; nothing else changed
    assert snapshot()[:-1] == before[:-1]

    assert post(client_for(floorperson), url, {}, key=None).status_code == 200
    before = snapshot()
    refused(post(client_for(late), url, {}, key=None), 409, "already_witnessed")
    assert snapshot() == before


def _witnessed(person, adjustment: dict) -> dict:
    response = post(client_for(person), f"{ADJUSTMENTS}{adjustment['id']}/witness/", {}, key=None)
    assert response.status_code == 200, response.content
    return response.json()


def test_a_verification_is_pending_until_the_display_is_adjusted(bad_beat, floorperson, supervisor, finance) -> None:
    fund_official(bad_beat, 5_000, finance)
    _witnessed(floorperson, post(client_for(finance), ADJUSTMENTS, {"jackpot": "bb"}).json())
    claim = post(client_for(floorperson), CLAIMS, BODY).json()
    post(client_for(supervisor), f"{CLAIMS}{claim['id']}/verify/", {}, key=None)
    fund = _fund(floorperson, "bb")
    assert (fund["displayed"], fund["available"], fund["pending"], fund["display_matches"]) == (
        "50.00",
        "0.00",
        True,
        False,
    )

    adjustment = post(client_for(finance), ADJUSTMENTS, {"jackpot": "bb"}).json()
    fund = _fund(floorperson, "bb")
    assert (fund["displayed"], fund["pending"]) == ("50.00", True)  # until the witness signs
    witnessed = _witnessed(floorperson, adjustment)
    assert witnessed["claim"] == claim["id"] and witnessed["seconds_from_verification"] >= 0
    fund = _fund(floorperson, "bb")
    assert (fund["displayed"], fund["owed"], fund["pending"], fund["display_matches"]) == ("0.00", "50.00", False, True)


def test_an_adjustment_superseded_before_its_witness_is_a_409(bad_beat, finance, floorperson) -> None:
    older = post(client_for(finance), ADJUSTMENTS, {"jackpot": "bb"}).json()
    fund_official(bad_beat, 100, finance)
    newer = post(client_for(finance), ADJUSTMENTS, {"jackpot": "bb"}).json()
    before = snapshot()

    refused(
        post(client_for(floorperson), f"{ADJUSTMENTS}{older['id']}/witness/", {}, key=None), 409, "display_superseded"
    )

    assert snapshot() == before
    assert _witnessed(floorperson, newer)["amount"] == "1.00"


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({"jackpot": "hh"}, 400, "display_refused", None),
        ({"jackpot": "zz"}, 400, None, "jackpot"),
        ({"jackpot": "bb", "room": "annex"}, 400, None, "room"),
        ({}, 400, None, "jackpot"),
        ({"jackpot": ["bb"]}, 400, None, "jackpot"),
    ],
)
def test_an_adjustment_that_is_refused_changes_nothing(rated_table, finance, body, status, code, field) -> None:
    before = snapshot()
    refused(post(client_for(finance), ADJUSTMENTS, body), status, code, field)
    assert snapshot() == before


def test_an_adjustment_without_its_key_or_as_a_list_is_a_400(rated_table, finance) -> None:
    before = snapshot()
    refused(post(client_for(finance), ADJUSTMENTS, {"jackpot": "bb"}, key=None), 400, field="Idempotency-Key")
    response = client_for(finance).post(ADJUSTMENTS, ["bb"], format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
    refused(response, 400, field="non_field_errors")
    assert snapshot() == before


# --- The transfer of a discontinued fund ----------------------------------------------------------


@pytest.fixture
def discontinued(bad_beat, finance):
    """bb holds $300.00 officially and no longer collects; bb2 is offered at T1 now."""
    fund_official(bad_beat, 30_000, finance)
    discontinue_bb_for_bb2()
    return bad_beat


def test_a_discontinued_fund_moves_to_another_bad_beat_with_two_signatures(
    discontinued, finance, make_staff, floorperson
) -> None:
    body = {"source": "bb", "destination": "bb2", "amount": "300.00", "reason": "Approved procedure DP-1"}
    response = post(client_for(finance), TRANSFERS, body, key="ft-1")
    assert response.status_code == 201, response.content
    prepared = response.json()
    assert {key: prepared[key] for key in ("room", "source", "destination", "amount", "status", "approved_by")} == {
        "room": "main",
        "source": "bb",
        "destination": "bb2",
        "amount": "300.00",
        "status": "prepared",
        "approved_by": None,
    }
    assert _fund(floorperson, "bb")["official"] == "300.00"  # nothing moves before the approval

    before = snapshot()
    again = post(client_for(finance), TRANSFERS, body, key="ft-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true" and again.json() == prepared
    refused(post(client_for(finance), TRANSFERS, {**body, "amount": "1.00"}, key="ft-1"), 409, "idempotency_key_reused")
    url = f"{TRANSFERS}{prepared['id']}/approve/"
    refused(post(client_for(finance), url, {}, key=None), 400, "segregation_of_duties")
    assert snapshot() == before

    approver = make_staff(Role.FINANCE)
    response = post(client_for(approver), url, {}, key=None)
    assert response.status_code == 200, response.content
    assert (response.json()["status"], response.json()["approved_by"]) == ("approved", approver.username)
    assert (_fund(floorperson, "bb")["official"], _fund(floorperson, "bb2")["official"]) == ("0.00", "300.00")
    assert Transfer.objects.filter(kind=TransferKind.FUND_TRANSFER).count() == 1

    administrator = make_staff(Role.ADMINISTRATOR)
    before = snapshot()
    refused(post(client_for(administrator), url, {}, key=None), 409, "already_approved")
    refused(post(client_for(administrator), f"{TRANSFERS}999999/approve/", {}, key=None), 404, "not_found")
    refused(post(client_for(floorperson), url, {}, key=None), 403, "not_permitted")
    assert snapshot() == before


@pytest.mark.parametrize(
    ("changes", "status", "code", "field"),
    [
        ({"destination": "hh"}, 400, "fund_transfer_refused", None),
        ({"source": "bb2", "destination": "bb"}, 400, "fund_transfer_refused", None),
        ({"destination": "bb"}, 400, "fund_transfer_refused", None),
        ({"amount": "300.01"}, 409, "above_official_balance", None),
        ({"amount": "0.00"}, 400, "fund_transfer_refused", None),
        ({"amount": "1" * 27}, 400, None, "amount"),
        ({"amount": "1" * 27 + ".00"}, 400, None, "amount"),
        ({"amount": 300}, 400, None, "amount"),
        ({"amount": "-1.00"}, 400, None, "amount"),
        ({"amount": "1.001"}, 400, None, "amount"),
        ({"source": "zz"}, 400, None, "source"),
        ({"destination": "zz"}, 400, None, "destination"),
        ({"reason": ""}, 400, None, "reason"),
    ],
)
def test_a_transfer_that_is_refused_changes_nothing(discontinued, finance, changes, status, code, field) -> None:
    body = {"source": "bb", "destination": "bb2", "amount": "300.00", "reason": "Approved procedure DP-1", **changes}
    before = snapshot()
    refused(post(client_for(finance), TRANSFERS, body), status, code, field)
    assert snapshot() == before
