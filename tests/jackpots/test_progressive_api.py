"""The progressive API (§655a.12, §657a.12): a royal flush walked from the round's wagers to the cage and
the reset, bad input refused with nothing changed, and concurrent rounds and payments of one meter."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from rest_framework.test import APIClient

from casino_backoffice.ledger.selectors import ledger_total
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import api_token_create
from jackpots.progressive.models import ProgressiveMeter, ProgressivePayment, ProgressiveRound
from tests.cage.helpers import client_for, post, refused
from tests.conftest import PIN
from tests.jackpots.progressive_helpers import ended, meter_cents, snapshot

ROUNDS = "/api/progressive/rounds/"
HANDS = "/api/progressive/hands/"
METERS = "/api/progressive/meters/"

pytestmark = pytest.mark.django_db


def _round(**changes):
    return {
        "table": "T11",
        "ended_at": ended().isoformat(),
        "wagers": [{"seat": 2, "amount": "5.00"}, {"seat": 5, "amount": "1.00"}],
        "chips_collected": 2,
        "community_cards": "Qs Js Ts",
        **changes,
    }


def test_a_royal_flush_over_the_api_from_the_wagers_to_the_cage_and_the_reset(
    stud, dealer, floorperson, cashier, supervisor
) -> None:
    meters = {m["code"]: m for m in client_for(floorperson).get(METERS).json()}
    assert meters["msp"]["amount"] == "10000.00" and meters["msp"]["tables"] == ["T11"]
    assert meters["c4p"]["tables"] == ["T12", "T13"] and meters["msp"]["pending"] is False

    response = post(client_for(dealer), ROUNDS, _round())
    assert response.status_code == 201, response.content
    round_ = response.json()
    assert (round_["total_wagered"], round_["increment"], round_["house_share"]) == ("6.00", "0.90", "5.10")
    assert round_["exception"] is None

    response = post(
        client_for(dealer), HANDS, {"round": round_["id"], "seat": 5, "cards": "As Ks", "light_confirmed": True}
    )
    assert response.status_code == 201, response.content
    royal = response.json()
    assert (royal["words"], royal["amount"], royal["place"]) == ("Royal flush", "10000.90", "cage")
    assert royal["envy_bonuses"] == [{"seat": 2, "wager": "5.00", "line": "Royal flush", "amount": "5000.00"}]
    meters = {m["code"]: m for m in client_for(floorperson).get(METERS).json()}
    assert meters["msp"]["pending"] is True and meters["msp"]["amount"] == "0.00"

    refused(post(client_for(dealer), f"{HANDS}{royal['id']}/validate/", {}), 403, "not_permitted")
    validated = post(client_for(floorperson), f"{HANDS}{royal['id']}/validate/", {})
    assert validated.status_code == 200 and validated.json()["validated_by"] and validated.json()["paid"] is False
    refused(post(client_for(floorperson), f"{HANDS}{royal['id']}/validate/", {}), 409, "already_validated")

    pay = {"patron_name": "Rae Royal", "id_type": "Passport", "id_number": "X1234567"}
    paid = post(client_for(cashier), f"{HANDS}{royal['id']}/pay/", pay, key="pay-1")
    assert paid.status_code == 200 and paid.json()["amount"] == "10000.90"
    assert paid.json()["id_number"].endswith("4567") and "X123" not in paid.json()["id_number"]
    replay = post(client_for(cashier), f"{HANDS}{royal['id']}/pay/", pay, key="pay-1")
    assert replay.status_code == 200 and replay["Idempotent-Replayed"] == "true"
    refused(post(client_for(cashier), f"{HANDS}{royal['id']}/pay/", pay), 409, "already_paid")

    meter = ProgressiveMeter.objects.get(code="msp")
    reset = post(client_for(supervisor), f"{METERS}{meter.pk}/reset/", {})
    assert reset.status_code == 200 and reset.json()["meter_amount"] == "10000.00"
    refused(post(client_for(supervisor), f"{METERS}{meter.pk}/reset/", {}), 409, "not_pending")
    assert ledger_total() == 0


@pytest.mark.parametrize(
    ("changes", "status", "code", "field"),
    [
        ({"wagers": [{"seat": 1, "amount": 1}]}, 400, None, "wagers"),  # a JSON number
        ({"wagers": [{"seat": 1, "amount": "NaN"}]}, 400, None, "wagers"),
        ({"wagers": [{"seat": 1, "amount": "1.005"}]}, 400, None, "wagers"),
        ({"wagers": [{"seat": 1, "amount": "2.00"}]}, 400, "wager_size", None),
        ({"wagers": [{"seat": 9, "amount": "1.00"}]}, 400, "invalid", None),
        ({"wagers": [{"seat": 1, "amount": "1.00"}, {"seat": 1, "amount": "1.00"}]}, 400, "invalid", None),
        ({"table": "T1"}, 400, "not_progressive", None),
        ({"table": "T99"}, 400, None, "table"),
        ({"ended_at": "2026-11-30T21:15:00"}, 400, None, "ended_at"),
        ({"chips_collected": -1}, 400, None, "chips_collected"),
        ({"community_cards": "Qs Qs Ts"}, 400, "cards_invalid", None),
    ],
)
def test_a_round_the_rules_refuse_records_nothing(stud, dealer, changes, status, code, field) -> None:
    before = snapshot()
    refused(post(client_for(dealer), ROUNDS, _round(**changes)), status, code, field)
    assert snapshot() == before


def test_who_may_not_record_a_round_is_refused_before_anything(stud, cashier) -> None:
    before = snapshot()
    refused(post(client_for(cashier), ROUNDS, _round()), 403, "not_permitted")
    assert snapshot() == before


def test_a_hand_that_wins_nothing_or_out_of_order_records_nothing(stud, dealer) -> None:
    round_ = post(client_for(dealer), ROUNDS, _round(community_cards="9h 8h 7h")).json()
    before = snapshot()
    refused(post(client_for(dealer), HANDS, {"round": round_["id"], "seat": 5, "cards": "2c 3d"}), 400, "no_payout")
    refused(
        post(client_for(dealer), HANDS, {"round": round_["id"], "seat": 5, "cards": "Th Jh"}),
        400,
        "light_not_confirmed",
    )
    refused(post(client_for(dealer), HANDS, {"round": 10**12, "seat": 5, "cards": "Th Jh"}), 400, None, "round")
    assert snapshot() == before
    body = {"round": round_["id"], "seat": 2, "cards": "Th Jh", "light_confirmed": True}
    assert post(client_for(dealer), HANDS, body).status_code == 201
    refused(post(client_for(dealer), HANDS, {**body, "seat": 5, "cards": "6h 5h"}), 400, "out_of_order")


ATTEMPTS = 12


@pytest.mark.django_db(transaction=True)
def test_concurrent_rounds_at_linked_tables_and_concurrent_payments_of_one_payout(
    crazy4, dealer, floorperson, make_staff
) -> None:
    """Rounds of two linked tables posted at once each add their increment once; a cage payout paid by
    twelve cashiers at once is paid once."""
    assert connection.vendor == "postgresql"
    before = meter_cents("c4p")
    tokens = [api_token_create(user=make_staff(Role.DEALER)) for _ in range(ATTEMPTS)]
    start = threading.Barrier(ATTEMPTS)

    def play(n: int) -> int:
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {tokens[n]}")
        start.wait(timeout=30)
        body = {
            "table": "T12" if n % 2 else "T13",
            "ended_at": ended().isoformat(),
            "wagers": [{"seat": 1, "amount": "5.00"}, {"seat": 2, "amount": "1.00"}],
            "chips_collected": 2,
        }
        try:
            return post(api, ROUNDS, body, key=f"concurrent-{n}").status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(ATTEMPTS) as pool:
        statuses = list(pool.map(play, range(ATTEMPTS)))
    assert statuses == [201] * ATTEMPTS
    # 20% of $6.00 per round, twelve rounds: $14.40 on the meter, exactly.
    assert meter_cents("c4p") == before + ATTEMPTS * 120 and ProgressiveRound.objects.count() == ATTEMPTS

    round_ = post(client_for(dealer), ROUNDS, {**_round(), "table": "T12", "community_cards": ""}).json()
    aces = post(
        client_for(dealer),
        HANDS,
        {"round": round_["id"], "seat": 5, "cards": "As Ah Ad Ac 2d", "light_confirmed": True},
    ).json()
    assert aces["place"] == "cage"
    assert post(client_for(floorperson), f"{HANDS}{aces['id']}/validate/", {}).status_code == 200
    cashiers = [api_token_create(user=make_staff(Role.CAGE_CASHIER)) for _ in range(ATTEMPTS)]
    start = threading.Barrier(ATTEMPTS)

    def pay(n: int) -> int:
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {cashiers[n]}")
        start.wait(timeout=30)
        try:
            body = {"patron_name": "Ace", "id_type": "Passport", "id_number": f"P{n}", "pin": PIN}
            return post(api, f"{HANDS}{aces['id']}/pay/", body).status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(ATTEMPTS) as pool:
        statuses = list(pool.map(pay, range(ATTEMPTS)))
    assert sorted(statuses) == [200] + [409] * (ATTEMPTS - 1)
    assert ProgressivePayment.objects.count() == 1 and ledger_total() == 0
