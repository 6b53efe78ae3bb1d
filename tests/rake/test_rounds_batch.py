"""POST /api/rounds/batch/: many rounds in one request, each recorded once and independently."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from casino_backoffice.ledger.models import Account, Transfer
from casino_backoffice.ledger.selectors import account_balance, ledger_total
from casino_backoffice.staff.services import api_token_create
from tables.games import Game
from tables.models import Round
from tables.services import table_set_open, table_upsert
from tests.rake.factories import recently


@pytest.fixture
def client(dealer) -> APIClient:
    api = APIClient()
    token = api_token_create(user=dealer)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return api


def item(**changes: Any) -> dict[str, Any]:
    return {
        "table": "T1",
        "ended_at": recently().isoformat(),
        "players_dealt_in": 9,
        "pot": "120.00",
        "uncalled_bet": "20.00",
        "flop_dealt": True,
        "voided": False,
        "idempotency_key": str(uuid.uuid4()),
        **changes,
    }


def test_a_batch_records_each_round_with_its_rake_and_drops(client, rated_table) -> None:
    rounds = [item() for _ in range(5)]

    response = client.post("/api/rounds/batch/", {"rounds": rounds}, format="json")

    assert response.status_code == 200, response.json()
    data = response.json()
    assert (data["recorded"], data["replayed"], data["refused"]) == (5, 0, 0)
    assert [r["round"]["rake"] for r in data["results"]] == ["5.00"] * 5
    assert data["results"][0]["round"]["drops"] == {"bb": "1.00", "hh": "2.00"}
    assert Round.objects.count() == 5
    assert account_balance(account=Account.objects.get(code="table:main:T1:drop_box")) == 2500
    assert ledger_total() == 0


def test_each_amount_of_a_batch_is_a_decimal_string_up_to_the_maximum(client, rated_table) -> None:
    response = client.post(
        "/api/rounds/batch/",
        {"rounds": [item(), item(pot=12000), item(pot="100000000000000000.00", uncalled_bet="0.00")]},
        format="json",
    )

    data = response.json()
    assert [r["status"] for r in data["results"]] == [201, 400, 400]
    assert data["results"][1]["errors"] == {"pot": ['12000 is not an amount; write it as a string such as "120.00".']}
    assert "the most any one amount may be" in data["results"][2]["errors"]["pot"][0]
    assert Round.objects.count() == 1


def test_a_retried_batch_records_nothing_twice(client, rated_table) -> None:
    rounds = [item() for _ in range(3)]
    client.post("/api/rounds/batch/", {"rounds": rounds}, format="json")
    transfers = Transfer.objects.count()

    again = client.post("/api/rounds/batch/", {"rounds": rounds}, format="json").json()

    assert (again["recorded"], again["replayed"], again["refused"]) == (0, 3, 0)
    assert Round.objects.count() == 3
    assert Transfer.objects.count() == transfers


def test_a_bad_round_is_refused_alone_and_says_why(client, rated_table) -> None:
    reused = item()
    client.post("/api/rounds/batch/", {"rounds": [reused]}, format="json")
    rounds = [
        item(),
        item(pot="1.001"),
        item(uncalled_bet="500.00"),
        item(table="T99"),
        {**reused, "pot": "99.00"},
        item(players_dealt_in=11),
    ]

    data = client.post("/api/rounds/batch/", {"rounds": rounds}, format="json").json()

    assert [r["status"] for r in data["results"]] == [201, 400, 400, 400, 409, 400]
    assert "fraction of a cent" in data["results"][1]["errors"]["pot"][0]
    assert "larger than the pot" in data["results"][2]["errors"]["uncalled_bet"][0]
    assert "no table T99" in data["results"][3]["errors"]["table"][0]
    assert data["results"][4]["errors"]["code"] == "idempotency_key_reused"
    assert "seats 10" in data["results"][5]["errors"]["players_dealt_in"][0]
    assert Round.objects.count() == 2  # the first batch's round and the one good round


@pytest.mark.parametrize("body", [{}, {"rounds": []}, {"rounds": "T1"}, {"rounds": [item()] * 501}])
def test_a_malformed_batch_is_a_400_and_records_nothing(client, rated_table, body) -> None:
    response = client.post("/api/rounds/batch/", body, format="json")
    assert response.status_code == 400
    assert Round.objects.count() == 0


def test_a_floorperson_may_send_a_batch_but_a_cashier_may_not(rated_table, cashier) -> None:
    api = APIClient()
    api.force_authenticate(cashier)
    response = api.post("/api/rounds/batch/", {"rounds": [item()]}, format="json")
    assert response.status_code == 403
    assert Round.objects.count() == 0


def test_a_batch_records_its_rounds_table_by_table_and_answers_them_in_the_order_sent(
    client, rated_table, manager, floorperson
) -> None:
    """Two batches naming the same tables in another order deadlocked on PostgreSQL (each round holds
    its table's locks until its batch commits; 15 of 40 batch requests answered 500 with two table
    systems): a batch records its rounds in the order of their tables' ids, so batches take the
    tables' locks in one order, and answers each round where it was sent."""
    t2 = table_set_open(
        table=table_upsert(room=rated_table.room, number="T2", game=Game.HOLDEM, seats=9, actor=manager),
        is_open=True,
        actor=floorperson,
    )
    assert t2.pk > rated_table.pk
    sent = [item(table="T2"), item(table="T1"), item(table="T2", pot="60.00"), item(table="T1", pot="40.00")]

    response = client.post("/api/rounds/batch/", {"rounds": sent}, format="json")

    assert response.status_code == 200, response.json()
    answered = [r["round"] for r in response.json()["results"]]
    assert [(a["table"], a["pot"]) for a in answered] == [
        ("T2", "120.00"),
        ("T1", "120.00"),
        ("T2", "60.00"),
        ("T1", "40.00"),
    ]
    recorded = list(Round.objects.order_by("pk").values_list("table__number", "pot_cents"))
    assert recorded == [("T1", 12000), ("T1", 4000), ("T2", 12000), ("T2", 6000)]
