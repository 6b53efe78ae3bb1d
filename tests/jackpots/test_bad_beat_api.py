"""The Bad Beat API (§637a.15(f)-(h)): a Bad Beat walked over the API from the claim to the adjusted
display, each refusal with nothing changed, replays, and twenty people paying one share at once."""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from casino_backoffice.ledger.models import Transfer, TransferKind
from casino_backoffice.ledger.selectors import ledger_total
from casino_backoffice.staff.models import Signature, User
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import api_token_create
from jackpots.bad_beat.models import BadBeatDecision, BadBeatPayment
from rake.services import round_record
from tests.cage.helpers import client_for, post, refused
from tests.conftest import PIN
from tests.jackpots.bad_beat import another_hand_body, fund_official, fund_reversed
from tests.jackpots.helpers import BODY, CLAIMS, snapshot
from tests.rake.factories import recently


def _claim(floorperson: User, **changes: Any) -> dict[str, Any]:
    response = post(client_for(floorperson), CLAIMS, {**BODY, **changes})
    assert response.status_code == 201, response.content
    return response.json()


def _verified(floorperson: User, supervisor: User, **changes: Any) -> dict[str, Any]:
    claim = _claim(floorperson, **changes)
    response = post(client_for(supervisor), f"{CLAIMS}{claim['id']}/verify/", {}, key=None)
    assert response.status_code == 200, response.content
    return response.json()


def _distributed(floorperson: User, supervisor: User, finance: User, **changes: Any) -> dict[str, Any]:
    claim = _verified(floorperson, supervisor, **changes)
    response = post(client_for(finance), f"{CLAIMS}{claim['id']}/distribution/", {})
    assert response.status_code == 201, response.content
    return response.json()


def _jackpots(person: User) -> dict[str, dict[str, Any]]:
    response = client_for(person).get("/api/jackpots/", {"room": "main"})
    assert response.status_code == 200, response.content
    return {row["code"]: row for row in response.json()["results"]}


def _pay(person: User, share: int, *, key: str = "new", **changes: Any):
    return post(client_for(person), f"/api/bad-beat/shares/{share}/pay/", {"id_type": "License", **changes}, key=key)


# --- The walk -------------------------------------------------------------------------------------


def test_a_bad_beat_walked_over_the_api_ends_with_the_display_equal_to_the_finance_record(
    bad_beat, floorperson, supervisor, finance, security, cashier, settings
) -> None:
    settings.TAX_REPORTING_THRESHOLD_CENTS = 5_000
    fund_official(bad_beat, 10_001, finance)  # what the cage made official (the cage's tests count it)

    # Given a Bad Beat at T1, the floorperson records the claim.
    claim = _claim(floorperson)
    assert {key: claim[key] for key in ("status", "qualifies", "losing_hand", "winning_hand", "jackpot", "table")} == {
        "status": "claimed",
        "qualifies": True,
        "losing_hand": "Full house, aces full of kings",
        "winning_hand": "Four of a kind, sevens, ace kicker",
        "jackpot": "bb",
        "table": "T1",
    }
    assert claim["reasons"] == [
        "Losing hand Full house, aces full of kings (both hole cards play) meets the minimum: Full house, aces full of tens",
        "Winning hand Four of a kind, sevens, ace kicker beats Full house, aces full of kings",
        "6 players dealt in (at least 4)",
    ]
    assert (claim["losing"], claim["opened_by"], claim["decision"], claim["distribution"]) == (
        {"seat": 3, "name": "Ann Loser", "hole": "As Ks"},
        floorperson.username,
        None,
        None,
    )

    # The shift supervisor verifies it: the payout is fixed and the fund shows 'pending adjustment'.
    verified = post(client_for(supervisor), f"{CLAIMS}{claim['id']}/verify/", {}, key=None)
    assert verified.status_code == 200, verified.content
    assert verified.json()["status"] == "verified"
    decision = verified.json()["decision"]
    assert (decision["outcome"], decision["official"], decision["available"], decision["payout"]) == (
        "verified",
        "100.01",
        "100.01",
        "100.01",
    )
    fund = _jackpots(floorperson)["bb"]
    assert {key: fund[key] for key in ("official", "owed", "available", "displayed", "pending", "display_matches")} == {
        "official": "100.01",
        "owed": "100.01",
        "available": "0.00",
        "displayed": None,
        "pending": True,
        "display_matches": False,
    }

    # Finance prepares the distribution: the posted shares, to the cent.
    response = post(client_for(finance), f"{CLAIMS}{claim['id']}/distribution/", {"method": "cash"})
    assert response.status_code == 201, response.content
    distribution = response.json()
    assert distribution["total"] == "100.01"
    assert [
        (share["share"], share["seat"], share["name"], share["amount"], share["tax_reportable"], share["payment"])
        for share in distribution["shares"]
    ] == [
        ("losing_hand", 3, "Ann Loser", "50.01", True, None),
        ("winning_hand", 7, "Walt Winner", "25.00", False, None),
        ("table_share", 1, "Pat One", "6.25", False, None),
        ("table_share", 2, "Sam Two", "6.25", False, None),
        ("table_share", 5, "Lee Five", "6.25", False, None),
        ("table_share", 9, "Kim Nine", "6.25", False, None),
    ]

    # Security delivers the two hands at the table; the cage pays the table share.
    paid = []
    for position, share in enumerate(distribution["shares"]):
        payer = security if position < 2 else cashier
        response = _pay(payer, share["id"], id_number=f"PA-{share['seat']}")
        assert response.status_code == 200, response.content
        paid.append(response.json())
    assert [(p["share"], p["place"], p["amount"], p["paid_by"]) for p in paid[:3]] == [
        (distribution["shares"][0]["id"], "table", "50.01", security.username),
        (distribution["shares"][1]["id"], "table", "25.00", security.username),
        (distribution["shares"][2]["id"], "cage", "6.25", cashier.username),
    ]
    assert [p["claim_status"] for p in paid] == ["distributed"] * 5 + ["paid"]
    assert Transfer.objects.filter(kind=TransferKind.PAYOUT).count() == 6

    # Meanwhile the cage made $25.00 more official; finance adjusts the display before a floorperson.
    fund_official(bad_beat, 2_500, finance)
    response = post(client_for(finance), "/api/display-adjustments/", {"jackpot": "bb"})
    assert response.status_code == 201, response.content
    adjustment = response.json()
    assert (adjustment["amount"], adjustment["previous"], adjustment["witnessed_by"]) == ("25.00", None, None)
    response = post(client_for(floorperson), f"/api/display-adjustments/{adjustment['id']}/witness/", {}, key=None)
    assert response.status_code == 200, response.content
    assert response.json()["witnessed_by"] == floorperson.username

    fund = _jackpots(floorperson)["bb"]
    assert {key: fund[key] for key in ("official", "owed", "available", "displayed", "pending", "display_matches")} == {
        "official": "25.00",
        "owed": "0.00",
        "available": "25.00",
        "displayed": "25.00",
        "pending": False,
        "display_matches": True,
    }
    assert fund["displayed"] == fund["available"]

    # The claim reads with its evidence, decision, distribution, shares and payments.
    detail = client_for(security).get(f"{CLAIMS}{claim['id']}/")
    assert detail.status_code == 200, detail.content
    body = detail.json()
    assert body["status"] == "paid" and body["decision"] == decision
    assert [share["payment"]["id_number"] for share in body["distribution"]["shares"]] == [
        "••••",
        "••••",
        "••••",
        "••••",
        "••••",
        "••••",
    ]
    assert ledger_total() == 0


def test_the_high_hand_shows_what_the_selector_gives(rated_table, floorperson, finance) -> None:
    fund = _jackpots(floorperson)["hh"]
    assert {key: fund[key] for key in ("kind", "official", "owed", "available", "displayed", "pending")} == {
        "kind": "high_hand",
        "official": "0.00",
        "owed": "0.00",
        "available": "0.00",
        "displayed": None,
        "pending": False,
    }
    assert fund["display_matches"] is False


def test_claims_are_listed_newest_first_with_filters(bad_beat, floorperson, supervisor, make_staff) -> None:
    first = _claim(floorperson)
    second = _claim(floorperson, **another_hand_body(1), players_dealt_in=3, others=[{"seat": 1, "name": "Pat One"}])
    post(client_for(supervisor), f"{CLAIMS}{first['id']}/deny/", {"reason": "Cards exposed early."}, key=None)
    api = client_for(make_staff(Role.SECURITY))

    def ids(**params: str) -> list[int]:
        response = api.get(CLAIMS, params)
        assert response.status_code == 200, response.content
        return [row["id"] for row in response.json()["results"]]

    assert ids() == [second["id"], first["id"]]
    assert ids(status="denied", room="main", jackpot="bb") == [first["id"]]
    assert ids(status="claimed") == [second["id"]]
    refused(api.get(CLAIMS, {"status": "lost"}), 400, field="status")
    refused(api.get(CLAIMS, {"jackpot": "zz"}), 400, field="jackpot")
    refused(api.get(CLAIMS, {"room": "nowhere"}), 400, field="room")
    refused(client_for(make_staff(Role.DEALER)).get(CLAIMS), 403, "not_permitted")
    refused(client_for(make_staff(Role.DEALER)).get(f"{CLAIMS}{first['id']}/"), 403, "not_permitted")
    refused(api.get(f"{CLAIMS}999999/"), 404, "not_found")
    refused(api.get(f"{CLAIMS}{2**63 + 1}/"), 404, "not_found")


def test_the_lists_cost_a_few_queries_however_many_claims(
    bad_beat, floorperson, supervisor, finance, security, django_assert_max_num_queries
) -> None:
    for n in range(3):
        fund_official(bad_beat, 10_000, finance)  # each verification promises what the fund holds
        distribution = _distributed(floorperson, supervisor, finance, **another_hand_body(n + 1))
        _pay(security, distribution["shares"][0]["id"], id_number="PA-1")
    with django_assert_max_num_queries(12):
        response = client_for(security).get(CLAIMS)
    assert response.status_code == 200 and len(response.json()["results"]) == 3


# --- The claim: recorded qualifying or not, refused when it is not evidence -----------------------


def test_too_few_players_is_recorded_not_qualifying_and_cannot_be_verified(bad_beat, floorperson, supervisor) -> None:
    claim = _claim(floorperson, players_dealt_in=3, others=[{"seat": 1, "name": "Pat One"}])
    assert (claim["status"], claim["qualifies"]) == ("claimed", False)
    assert claim["reasons"][-1] == "Only 3 players dealt in; at least 4 are required"

    before = snapshot()
    body = refused(
        post(client_for(supervisor), f"{CLAIMS}{claim['id']}/verify/", {}, key=None), 400, "claim_does_not_qualify"
    )
    assert "cannot be verified" in body["detail"]
    assert snapshot() == before


def test_hands_that_do_not_qualify_are_recorded_and_the_verification_refused(bad_beat, floorperson, supervisor) -> None:
    # Kings full beaten by four sevens: below the posted aces full of tens.
    claim = _claim(floorperson, board="Kd Kc 2c 7s 7h", losing={"seat": 3, "name": "Ann Loser", "hole": "Ks 2s"})
    assert claim["qualifies"] is False and claim["losing_hand"] == "Full house, kings full of sevens"
    before = snapshot()
    refused(post(client_for(supervisor), f"{CLAIMS}{claim['id']}/verify/", {}, key=None), 400, "claim_does_not_qualify")
    assert snapshot() == before


@pytest.mark.parametrize(
    ("changes", "card"),
    [
        ({"board": "Ad Ac Kc 7s Xx"}, "'Xx'"),
        ({"board": "Ad Ac Kc 7s 1h"}, "'1h'"),
        ({"winning": {"seat": 7, "name": "Walt Winner", "hole": "7d As"}}, "'As'"),
        ({"board": "Ad Ac Kc 7s Ks"}, "'Ks'"),
        ({"losing": {"seat": 3, "name": "Ann Loser", "hole": "As As"}}, "'As'"),
        ({"losing": {"seat": 3, "name": "Ann Loser", "hole": "As"}}, "'As'"),
        ({"board": "Ad Ac Kc 7s"}, "4"),
    ],
)
def test_cards_that_do_not_exist_or_repeat_are_refused_naming_the_card(bad_beat, floorperson, changes, card) -> None:
    before = snapshot()
    body = refused(post(client_for(floorperson), CLAIMS, {**BODY, **changes}), 400, "claim_invalid")
    assert card in body["detail"], body
    assert snapshot() == before


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"losing": {"seat": 7, "name": "Ann Loser", "hole": "As Ks"}}, "claim_invalid"),  # two hands on one seat
        ({"losing": {"seat": 11, "name": "Ann Loser", "hole": "As Ks"}}, "claim_invalid"),  # T1 has 10 seats
        ({"players_dealt_in": 7}, "claim_invalid"),  # one player dealt in is not listed
        ({"table": "T2"}, "bad_beat_not_offered"),  # T2 does not offer bb
        ({"jackpot": "hh"}, "bad_beat_not_offered"),
    ],
)
def test_a_claim_that_does_not_fit_the_table_is_refused(bad_beat, rated_table, floorperson, changes, code) -> None:
    before = snapshot()
    refused(post(client_for(floorperson), CLAIMS, {**BODY, **changes}), 400, code)
    assert snapshot() == before


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"jackpot": "zz"}, "jackpot", "There is no jackpot zz in room main."),
        ({"table": "T99"}, "table", "There is no table T99 in room main."),
        ({"room": "annex"}, "room", "There is no room annex."),
        ({"round": 999999}, "round", "There is no round 999999."),
    ],
)
def test_an_unknown_room_table_jackpot_or_round_is_a_400_naming_it(
    bad_beat, floorperson, changes, field, message
) -> None:
    before = snapshot()
    body = refused(post(client_for(floorperson), CLAIMS, {**BODY, **changes}), 400, field=field)
    assert body[field] == [message]
    assert snapshot() == before


_SEAT = {"seat": 3, "name": "Ann Loser", "hole": "As Ks"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ([], "non_field_errors"),
        ("claim", "non_field_errors"),
        (5, "non_field_errors"),
        ({**BODY, "players_dealt_in": "6"}, "players_dealt_in"),
        ({**BODY, "players_dealt_in": 6.5}, "players_dealt_in"),
        ({**BODY, "players_dealt_in": True}, "players_dealt_in"),
        ({**BODY, "players_dealt_in": 2**63}, "players_dealt_in"),
        ({**BODY, "losing": {**_SEAT, "seat": "3"}}, "losing"),
        ({**BODY, "losing": {**_SEAT, "seat": 2**63}}, "losing"),
        ({**BODY, "losing": {**_SEAT, "seat": 2**64 + 3}}, "losing"),
        ({**BODY, "losing": {**_SEAT, "seat": -3}}, "losing"),
        ({**BODY, "losing": "As Ks"}, "losing"),
        ({**BODY, "losing": {"seat": 3, "name": "", "hole": "As Ks"}}, "losing"),
        ({**BODY, "others": {"seat": 1, "name": "Pat One"}}, "others"),
        ({**BODY, "others": [{"seat": 2**63, "name": "Pat One"}]}, "others"),
        ({**BODY, "round": "1"}, "round"),
        ({**BODY, "round": 2**63}, "round"),
        ({**BODY, "board": ["Ad", "Ac", "Kc", "7s", "7h"]}, "board"),
        ({**BODY, "board": "Ad " * 40}, "board"),
        ({key: value for key, value in BODY.items() if key != "winning"}, "winning"),
    ],
)
def test_a_malformed_claim_is_a_400_never_a_500(bad_beat, floorperson, body, field) -> None:
    before = snapshot()
    api = client_for(floorperson)
    response = api.post(CLAIMS, body, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
    refused(response, 400, field=field)
    assert snapshot() == before


def test_a_body_that_is_not_json_is_a_400(bad_beat, floorperson) -> None:
    before = snapshot()
    response = client_for(floorperson).post(
        CLAIMS, "{not json", content_type="application/json", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert response.status_code == 400 and "detail" in response.json()
    assert snapshot() == before


def test_a_retried_claim_answers_the_first_and_another_body_with_its_key_is_refused(bad_beat, floorperson) -> None:
    api = client_for(floorperson)
    first = post(api, CLAIMS, BODY, key="claim-1")
    assert first.status_code == 201 and "Idempotent-Replayed" not in first
    before = snapshot()
    again = post(api, CLAIMS, BODY, key="claim-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    refused(
        post(api, CLAIMS, {**BODY, "surveillance_reference": "CAM-9"}, key="claim-1"), 409, "idempotency_key_reused"
    )
    refused(post(api, CLAIMS, BODY, key=None), 400, field="Idempotency-Key")
    refused(post(api, CLAIMS, BODY, key="k" * 121), 400, field="Idempotency-Key")
    assert snapshot() == before


# --- A hand is claimed once (§637a.15(f)-(g)) ------------------------------------------------------


def _round(rated_table, dealer) -> int:
    """A round of six players dealt in at T1, logged by its dealer."""
    played = round_record(
        table=rated_table,
        ended_at=recently(),
        players_dealt_in=6,
        pot_cents=12_000,
        uncalled_bet_cents=0,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key="api-round",
    )
    return played.round.pk


def test_a_second_claim_of_a_round_is_a_409_already_claimed_naming_the_first(
    bad_beat, rated_table, dealer, floorperson, supervisor, make_staff
) -> None:
    round_id = _round(rated_table, dealer)
    first = _claim(floorperson, round=round_id)
    other = client_for(make_staff(Role.FLOORPERSON))
    before = snapshot()

    body = refused(post(other, CLAIMS, {**BODY, **another_hand_body(1), "round": round_id}), 409, "already_claimed")

    assert body["detail"].startswith(
        f"Round {round_id} at T1 was already claimed: claim {first['id']}, opened by {floorperson} at "
    )
    assert snapshot() == before
    # The same cards without the round, after the first was verified: the cards are the hand.
    post(client_for(supervisor), f"{CLAIMS}{first['id']}/verify/", {}, key=None)
    body = refused(post(other, CLAIMS, BODY), 409, "already_claimed")
    assert f"was already claimed: claim {first['id']}, verified by {supervisor} at " in body["detail"]


def test_the_same_key_replays_the_first_claim_and_another_key_for_the_hand_is_refused(
    bad_beat, floorperson, supervisor
) -> None:
    api = client_for(floorperson)
    first = post(api, CLAIMS, BODY, key="hand-1")
    assert first.status_code == 201, first.content
    before = snapshot()

    again = post(api, CLAIMS, BODY, key="hand-1")
    reordered = {**BODY, "board": "7h 7s Kc Ac Ad", "losing": {**BODY["losing"], "hole": "Ks As"}}
    body = refused(post(api, CLAIMS, reordered, key="hand-2"), 409, "already_claimed")

    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert f"claim {first.json()['id']}, opened by {floorperson}" in body["detail"]
    assert snapshot() == before
    # Denied, the hand may be claimed again, corrected.
    post(client_for(supervisor), f"{CLAIMS}{first.json()['id']}/deny/", {"reason": "Wrong seats."}, key=None)
    assert post(api, CLAIMS, BODY, key="hand-3").status_code == 201


# --- The verification and the denial --------------------------------------------------------------


def test_the_opener_cannot_verify_their_own_claim(bad_beat, supervisor, make_staff) -> None:
    claim = _claim(supervisor)  # a shift supervisor is a floorperson or above: they may open a claim
    before = snapshot()
    refused(post(client_for(supervisor), f"{CLAIMS}{claim['id']}/verify/", {}, key=None), 400, "segregation_of_duties")
    refused(
        post(client_for(supervisor), f"{CLAIMS}{claim['id']}/deny/", {"reason": "mine"}, key=None),
        400,
        "segregation_of_duties",
    )
    assert snapshot() == before
    other = make_staff(Role.SHIFT_SUPERVISOR)
    assert post(client_for(other), f"{CLAIMS}{claim['id']}/verify/", {}, key=None).status_code == 200


def test_a_decided_claim_is_not_decided_again(bad_beat, floorperson, supervisor, make_staff) -> None:
    claim = _verified(floorperson, supervisor)
    other = make_staff(Role.SHIFT_SUPERVISOR)
    before = snapshot()
    for person in (supervisor, other):
        refused(post(client_for(person), f"{CLAIMS}{claim['id']}/verify/", {}, key=None), 409, "already_decided")
        refused(
            post(client_for(person), f"{CLAIMS}{claim['id']}/deny/", {"reason": "late"}, key=None),
            409,
            "already_decided",
        )
    assert snapshot() == before


def test_the_shift_supervisor_denies_with_a_reason(bad_beat, floorperson, supervisor) -> None:
    claim = _claim(floorperson)
    before = snapshot()
    refused(post(client_for(supervisor), f"{CLAIMS}{claim['id']}/deny/", {"reason": ""}, key=None), 400, field="reason")
    refused(post(client_for(supervisor), f"{CLAIMS}{claim['id']}/deny/", {}, key=None), 400, field="reason")
    assert snapshot() == before
    response = post(
        client_for(supervisor), f"{CLAIMS}{claim['id']}/deny/", {"reason": "The losing hand mucked."}, key=None
    )
    assert response.status_code == 200, response.content
    denied = response.json()
    assert (denied["status"], denied["decision"]["outcome"], denied["decision"]["reason"]) == (
        "denied",
        "denied",
        "The losing hand mucked.",
    )
    assert denied["decision"]["payout"] is None and denied["board"] == BODY["board"]


def test_a_wrong_pin_verifies_nothing(bad_beat, floorperson, supervisor) -> None:
    claim = _claim(floorperson)
    before = BadBeatDecision.objects.count(), Signature.objects.count()
    response = client_for(supervisor).post(f"{CLAIMS}{claim['id']}/verify/", {"pin": "0000"}, format="json")
    refused(response, 400, "wrong_pin")
    assert (BadBeatDecision.objects.count(), Signature.objects.count()) == before
    refused(post(client_for(supervisor), f"{CLAIMS}999999/verify/", {}, key=None), 404, "not_found")


# --- Wrong roles: a 403, nothing changed, no PIN counted ------------------------------------------


@pytest.fixture
def documents(bad_beat, floorperson, supervisor, finance) -> dict[str, int]:
    """A claim to verify, a verified claim to distribute, a share to pay, an adjustment to witness."""
    fund_official(bad_beat, 10_000, finance)
    distribution = _distributed(floorperson, supervisor, finance)
    claimed = _claim(floorperson, **another_hand_body(1))
    verified = _verified(floorperson, supervisor, **another_hand_body(2))
    adjustment = post(client_for(finance), "/api/display-adjustments/", {"jackpot": "bb"}).json()
    return {
        "claimed": claimed["id"],
        "verified": verified["id"],
        "share": distribution["shares"][0]["id"],
        "adjustment": adjustment["id"],
    }


@pytest.mark.parametrize(
    ("role", "url", "body"),
    [
        (Role.DEALER, CLAIMS, BODY),
        (Role.CAGE_CASHIER, CLAIMS, BODY),
        (Role.FLOORPERSON, f"{CLAIMS}{{claimed}}/verify/", {}),
        (Role.FINANCE, f"{CLAIMS}{{claimed}}/verify/", {}),
        (Role.POKER_ROOM_MANAGER, f"{CLAIMS}{{claimed}}/deny/", {"reason": "no"}),
        (Role.SHIFT_SUPERVISOR, f"{CLAIMS}{{verified}}/distribution/", {}),
        (Role.SECURITY, f"{CLAIMS}{{verified}}/distribution/", {}),
        (Role.DEALER, "/api/bad-beat/shares/{share}/pay/", {"id_type": "License", "id_number": "1"}),
        (Role.FLOORPERSON, "/api/bad-beat/shares/{share}/pay/", {"id_type": "License", "id_number": "1"}),
        (Role.FLOORPERSON, "/api/display-adjustments/", {"jackpot": "bb"}),
        (Role.DEALER, "/api/display-adjustments/{adjustment}/witness/", {}),
        (Role.SHIFT_SUPERVISOR, "/api/fund-transfers/", {"source": "bb", "destination": "bb", "amount": "1.00"}),
    ],
)
def test_a_role_that_may_not_act_is_a_403_and_its_pin_is_not_counted(documents, make_staff, role, url, body) -> None:
    person = make_staff(role)
    before = snapshot()
    response = client_for(person).post(
        url.format(**documents), {**body, "pin": "0000"}, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4())
    )
    refused(response, 403, "not_permitted")
    assert snapshot() == before
    person.refresh_from_db()
    assert person.failed_pin_attempts == 0


# --- The distribution -----------------------------------------------------------------------------


def test_an_unverified_claim_is_not_distributed(bad_beat, floorperson, finance) -> None:
    claim = _claim(floorperson)
    before = snapshot()
    body = refused(post(client_for(finance), f"{CLAIMS}{claim['id']}/distribution/", {}), 409, "wrong_status")
    assert "claimed, awaiting the shift supervisor" in body["detail"]
    assert snapshot() == before


def test_a_distribution_above_the_official_balance_is_refused(bad_beat, floorperson, supervisor, finance) -> None:
    fund_official(bad_beat, 4_000, finance)
    claim = _verified(floorperson, supervisor)
    fund_reversed(bad_beat, 1_000, finance)  # the official balance falls after the verification
    before = snapshot()
    refused(post(client_for(finance), f"{CLAIMS}{claim['id']}/distribution/", {}), 409, "above_official_balance")
    assert snapshot() == before


def test_a_second_distribution_is_refused_and_a_retry_answers_the_first(
    bad_beat, floorperson, supervisor, finance
) -> None:
    fund_official(bad_beat, 4_000, finance)
    claim = _verified(floorperson, supervisor)
    url = f"{CLAIMS}{claim['id']}/distribution/"
    first = post(client_for(finance), url, {"method": "cash_equivalent"}, key="dist-1")
    assert first.status_code == 201 and first.json()["method"] == "cash_equivalent"
    before = snapshot()
    again = post(client_for(finance), url, {"method": "cash_equivalent"}, key="dist-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    refused(post(client_for(finance), url, {"method": "cash"}, key="dist-1"), 409, "idempotency_key_reused")
    refused(post(client_for(finance), url, {}, key="dist-2"), 409, "already_distributed")
    refused(post(client_for(finance), url, {"method": "gold"}), 400, field="method")
    refused(post(client_for(finance), url, {}, key=None), 400, field="Idempotency-Key")
    refused(post(client_for(finance), f"{CLAIMS}999999/distribution/", {}), 404, "not_found")
    assert snapshot() == before


# --- The payment of a share -----------------------------------------------------------------------


def test_a_share_is_paid_once_and_a_retry_answers_the_first_payment(
    bad_beat, floorperson, supervisor, finance, security, cashier
) -> None:
    fund_official(bad_beat, 10_000, finance)
    share = _distributed(floorperson, supervisor, finance)["shares"][0]
    first = _pay(security, share["id"], id_number="PA-1", key="pay-1")
    assert first.status_code == 200 and "Idempotent-Replayed" not in first
    assert (first.json()["amount"], first.json()["place"], first.json()["patron_name"]) == (
        "50.00",
        "table",
        "Ann Loser",
    )
    before = snapshot()

    again = _pay(security, share["id"], id_number="PA-1", key="pay-1")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    refused(_pay(security, share["id"], id_number="PA-2", key="pay-1"), 409, "idempotency_key_reused")
    body = refused(_pay(cashier, share["id"], id_number="PA-1"), 409, "share_already_paid")
    assert "was paid already" in body["detail"]
    refused(_pay(security, share["id"], id_number="PA-1"), 409, "share_already_paid")
    assert snapshot() == before


def test_a_payment_needs_identification_and_the_payers_place(
    bad_beat, floorperson, supervisor, finance, security
) -> None:
    fund_official(bad_beat, 10_000, finance)
    share = _distributed(floorperson, supervisor, finance)["shares"][0]
    before = snapshot()
    refused(_pay(security, share["id"], id_number=""), 400, field="id_number")
    refused(_pay(security, share["id"]), 400, field="id_number")
    refused(_pay(security, share["id"], id_number="PA-1", place="cage"), 400, "wrong_place")
    refused(_pay(security, share["id"], id_number="PA-1", place="bar"), 400, field="place")
    refused(_pay(security, share["id"], id_number="PA-1", key=None), 400, field="Idempotency-Key")
    refused(_pay(security, 999999, id_number="PA-1"), 404, "not_found")
    refused(_pay(security, 2**63 + 1, id_number="PA-1"), 404, "not_found")
    assert snapshot() == before


# --- Twenty people paying one share at once -------------------------------------------------------

ATTEMPTS = 20


@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_payments_of_one_share_over_the_api_pay_it_once(
    bad_beat, floorperson, supervisor, finance, make_staff
) -> None:
    assert connection.vendor == "postgresql"
    fund_official(bad_beat, 10_000, finance)
    share = _distributed(floorperson, supervisor, finance)["shares"][0]
    tokens = [api_token_create(user=make_staff(Role.SECURITY if n % 2 else Role.CAGE_CASHIER)) for n in range(ATTEMPTS)]
    start = threading.Barrier(ATTEMPTS)

    def pay(n: int) -> tuple[int, str]:
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {tokens[n]}")
        try:
            start.wait(timeout=30)
            response = api.post(
                f"/api/bad-beat/shares/{share['id']}/pay/",
                {"id_type": "License", "id_number": "PA-1", "pin": PIN},
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"pay-{n}",
            )
            return response.status_code, response.json().get("code", "")
        finally:
            connection.close()

    with ThreadPoolExecutor(ATTEMPTS) as pool:
        outcomes = list(pool.map(pay, range(ATTEMPTS)))

    assert sorted(outcomes) == [(200, "")] + [(409, "share_already_paid")] * (ATTEMPTS - 1)
    assert BadBeatPayment.objects.count() == 1
    assert Transfer.objects.filter(kind=TransferKind.PAYOUT).count() == 1
    assert ledger_total() == 0


@pytest.mark.parametrize(
    ("number", "shown"), [("D12345678", "•••••5678"), ("PA-1", "••••"), ("123", "•••"), ("AB-98765", "••••8765")]
)
def test_the_api_shows_a_patrons_id_number_by_its_last_four_characters(number, shown) -> None:
    """Every role that reads claims reads the API; the whole number is in the back office's claim file."""
    from jackpots.funds.reports import id_number_masked

    assert id_number_masked(number) == shown
