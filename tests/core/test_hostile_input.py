"""Hostile input at the API: amounts that are not dollars and cents, a body or a URL past the limits,
a list parameter that is not a whole number, an empty query parameter, an error asked for as an
export. Each is a 400 (413, 414) JSON answer naming what was refused, and records nothing."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.apps import apps
from django.test import Client

from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import api_token_create
from tests.rake.factories import recently

# As JSON text, each put in place of an amount: a JSON number (whole, a fraction, past any float), a
# string that is not a finite amount, a negative zero, a fraction of a cent, more digits than any pot.
HOSTILE_AMOUNTS = {
    "a JSON number": "12.5",
    "a whole JSON number": "12000",
    "a JSON number past any float": "1e309",
    "NaN as a string": '"NaN"',
    "Infinity as a string": '"Infinity"',
    "-Infinity as a string": '"-Infinity"',
    "a negative zero": '"-0"',
    "an exponent": '"1e309"',
    "a fraction of a cent": '"0.001"',
    "27 digits": '"123456789012345678901234567"',
    "a negative amount": '"-5.00"',
    "null": "null",
}
# Not JSON at all (Python's json would read them as floats): the parser refuses the body.
NON_JSON_NUMBERS = ["NaN", "Infinity", "-Infinity"]

AMOUNT = "__amount__"


def _rounds_body() -> dict[str, Any]:
    return {"table": "T1", "ended_at": recently().isoformat(), "players_dealt_in": 9, "pot": AMOUNT, "flop_dealt": True}


# endpoint, the role that may post it, a body with one amount to replace, the field the 400 names.
MONEY_ENDPOINTS: list[tuple[str, Role, Callable[[], dict[str, Any]], str]] = [
    ("/api/rounds/", Role.DEALER, _rounds_body, "pot"),
    ("/api/rounds/", Role.DEALER, lambda: {**_rounds_body(), "pot": "120.00", "uncalled_bet": AMOUNT}, "uncalled_bet"),
    ("/api/counts/", Role.DEALER, lambda: {"box": "T1-drop", "counted": AMOUNT, "pin": "2468"}, "counted"),
    (
        "/api/cage-verifications/",
        Role.CAGE_CASHIER,
        lambda: {"transport": 1, "counted": AMOUNT, "pin": "2468"},
        "counted",
    ),
    (
        "/api/cage-verifications/",
        Role.CAGE_CASHIER,
        lambda: {"transport": 1, "counted": {"T1-drop": AMOUNT}, "pin": "2468"},
        "counted",
    ),
    (
        "/api/fund-transfers/",
        Role.FINANCE,
        lambda: {"source": "bb", "destination": "hh", "amount": AMOUNT, "reason": "A split of the fund", "pin": "2468"},
        "amount",
    ),
    (
        "/api/high-hand/entries/",
        Role.FLOORPERSON,
        lambda: {
            "jackpot": "hh",
            "table": "T1",
            "seat": 3,
            "player_name": "Pat Player",
            "player_phone": "555-0100",
            "id_type": "Driver's license",
            "id_number": "PA-1",
            "dealer": "dealer1",
            "players_dealt_in": 6,
            "pot": AMOUNT,
            "cards": "As Ah Ad Ac Kd",
            "made_at": recently().isoformat(),
            "pin": "2468",
        },
        "pot",
    ),
    (
        "/api/progressive/rounds/",
        Role.DEALER,
        lambda: {
            "table": "T11",
            "ended_at": recently().isoformat(),
            "wagers": [{"seat": 2, "amount": AMOUNT}],
            "chips_collected": 1,
        },
        "wagers",
    ),
]


def _rows() -> dict[str, int]:
    """Every row the money apps hold, model by model (their audit history too)."""
    return {
        model._meta.label: model.objects.count()
        for label in ("ledger", "tables", "rake", "jackpots", "cage")
        for model in apps.get_app_config(label).get_models()
    }


def _client(user) -> Client:
    token = api_token_create(user=user)
    return Client(HTTP_AUTHORIZATION=f"Token {token}")


def _post(client: Client, path: str, text: str):
    return client.post(path, text, content_type="application/json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))


@pytest.mark.parametrize("amount", HOSTILE_AMOUNTS.values(), ids=HOSTILE_AMOUNTS.keys())
@pytest.mark.parametrize(
    ("path", "role", "body", "field"), MONEY_ENDPOINTS, ids=[f"{path} {field}" for path, _, _, field in MONEY_ENDPOINTS]
)
def test_a_hostile_amount_is_a_400_naming_the_field_and_records_nothing(
    closed_table, make_staff, path, role, body, field, amount
) -> None:
    client = _client(make_staff(role))
    text = json.dumps(body()).replace(json.dumps(AMOUNT), amount)
    before = _rows()

    response = _post(client, path, text)

    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/json"
    assert field in response.json(), response.json()
    assert _rows() == before


@pytest.mark.parametrize("literal", NON_JSON_NUMBERS)
def test_nan_or_infinity_as_a_bare_number_is_not_json_and_records_nothing(closed_table, dealer, literal) -> None:
    text = json.dumps(_rounds_body()).replace(json.dumps(AMOUNT), literal)
    before = _rows()

    response = _post(_client(dealer), "/api/rounds/", text)

    assert response.status_code == 400, response.content
    assert "JSON parse error" in response.json()["detail"]
    assert _rows() == before


def test_the_right_amount_in_the_same_body_records_the_round(rated_table, dealer) -> None:
    """The round's body above is refused for its amount alone: with "120.00" the round is recorded."""
    text = json.dumps(_rounds_body()).replace(json.dumps(AMOUNT), '"120.00"')

    response = _post(_client(dealer), "/api/rounds/", text)

    assert response.status_code == 201, response.content


# --- Limits and parameters -----------------------------------------------------------------------------


def test_a_body_over_the_limit_is_a_json_413_that_records_nothing(settings, rated_table, dealer) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = {**_rounds_body(), "pot": "120.00", "comment": "x" * 2000}
    before = _rows()

    response = _post(_client(dealer), "/api/rounds/", json.dumps(body))

    assert response.status_code == 413
    assert response.json()["code"] == "body_too_large"
    assert _rows() == before


def test_a_content_length_over_the_limit_is_a_413_before_the_body_is_read(settings, dealer) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = _client(dealer).post(
        "/api/rounds/", "{}", content_type="application/json", CONTENT_LENGTH="1000001", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert response.status_code == 413 and response.json()["code"] == "body_too_large"


def test_a_url_over_the_limit_is_a_json_414(settings, dealer) -> None:
    settings.API_MAX_URL_LENGTH = 4096
    response = _client(dealer).get("/api/rounds/?table=" + "T" * 4096)
    assert response.status_code == 414
    assert response.json() == {
        "detail": "The URL is longer than 4096 characters; nothing was recorded.",
        "code": "uri_too_long",
    }


def test_a_url_at_the_limit_is_answered(settings, rules, finance) -> None:
    settings.API_MAX_URL_LENGTH = 4096
    path = "/api/rounds/?table="
    response = _client(finance).get(path + "T" * (4096 - len(path)))
    assert response.status_code == 200


def test_the_limits_are_the_api_s_alone(settings, client) -> None:
    settings.API_MAX_URL_LENGTH = 10
    assert client.get("/healthz?" + "x" * 20).status_code != 414


@pytest.mark.parametrize(
    "query", ["limit=abc", "limit=true", "limit=null", "limit=0", "limit=-1", "limit=1_000", "offset=-1", "offset=1.5"]
)
def test_a_page_parameter_that_is_not_a_whole_number_is_a_400_naming_it(rules, finance, query) -> None:
    response = _client(finance).get(f"/api/rounds/?{query}")
    assert response.status_code == 400, response.content
    assert query.split("=")[0] in response.json()


@pytest.mark.parametrize("query", ["gaming_day=", "kind", "room=&limit=5"])
def test_an_empty_query_parameter_is_a_400_naming_it(rules, finance, query) -> None:
    response = _client(finance).get(f"/api/boxes/?{query}")
    assert response.status_code == 400
    assert list(response.json()) == [query.split("=")[0]]


def test_an_error_asked_for_as_a_spreadsheet_is_json(rules, finance) -> None:
    response = _client(finance).get("/api/revenue/?format=xlsx&from=never")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert "from" in response.json()


def test_a_form_body_is_a_json_415_that_records_nothing(rated_table, dealer) -> None:
    """Money is a JSON string and a count a JSON integer, which no form can send: the API reads JSON alone."""
    before = _rows()

    response = _client(dealer).post("/api/rounds/", {"table": "T1", "pot": "120.00"}, HTTP_IDEMPOTENCY_KEY="form-1")

    assert response.status_code == 415, response.content
    assert response["Content-Type"] == "application/json"
    assert _rows() == before


@pytest.mark.parametrize("key", [" ", "\t \t"])
def test_an_idempotency_key_of_blanks_is_missing(rated_table, dealer, key) -> None:
    body = json.dumps({**_rounds_body(), "pot": "120.00"})
    response = _client(dealer).post("/api/rounds/", body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 400 and "Idempotency-Key" in response.json()


def test_the_schema_documents_the_kernel_s_answers_and_json_bodies_alone() -> None:
    schema = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            responses = set(operation["responses"])
            assert {"400", "401", "403", "404", "405", "413", "414"} <= responses, (method, path)
            if "requestBody" in operation:
                assert "415" in responses, (method, path)
                assert list(operation["requestBody"]["content"]) == ["application/json"], (method, path)
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "query" and parameter["schema"].get("type") == "string":
                    given = parameter["schema"]
                    assert "enum" in given or given.get("minLength", 0) >= 1, (path, parameter)


@pytest.mark.parametrize("ended_at", ["1192-03-13T15:21:13+21:01", "0713-02-23T01:52:12-18:09"])
def test_a_time_with_an_offset_postgresql_cannot_hold_is_read_in_utc(rated_table, dealer, ended_at) -> None:
    """Python reads offsets up to 24 hours, PostgreSQL takes 15:59: the time is kept in UTC (a server error
    found by make proof); a round or a time charge that long ago is then refused, not a crash."""
    body = json.dumps({**_rounds_body(), "pot": "120.00", "ended_at": ended_at})
    assert _post(_client(dealer), "/api/rounds/", body).status_code in (400, 409)
    charge = json.dumps({"table": "T1", "interval_starts_at": ended_at, "players_seated": 5})
    assert _post(_client(dealer), "/api/time-charges/", charge).status_code in (400, 409)
    wagers = json.dumps({"table": "T1", "ended_at": ended_at, "wagers": [{"seat": 1, "amount": "1.00"}]})
    assert _post(_client(dealer), "/api/progressive/rounds/", wagers).status_code in (400, 409)
