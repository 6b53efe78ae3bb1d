"""POST /api/rounds/ and GET /api/rounds/: rake and drops into the ledger, idempotency, bad input."""

from __future__ import annotations

import uuid
from datetime import UTC, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from casino_backoffice.ledger.models import Account, Transfer, TransferKind
from casino_backoffice.ledger.selectors import account_balance, ledger_total
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import api_token_create
from jackpots.funds.models import RoundDrop
from jackpots.high_hand.models import HighHandPeriod
from rake.services import rules_load
from tables.models import Round
from tables.services import table_set_open
from tests.rake.factories import RULES, recently, rules_loader, rules_text

NEW_YORK = ZoneInfo("America/New_York")

# Shared fixtures of the rake tests.


@pytest.fixture(autouse=True, params=["one_statement", "orm"])
def write_path(request, monkeypatch) -> str:
    """Every test runs on both write paths: one SQL statement for the round and its drops and one for
    its transfers (PostgreSQL), and the ORM (SQLite's)."""
    monkeypatch.setattr("rake.services.rounds.ONE_STATEMENT_WRITES", request.param == "one_statement")
    monkeypatch.setattr("casino_backoffice.ledger.services.UNNEST_INSERTS", request.param == "one_statement")
    return request.param


@pytest.fixture
def client(dealer) -> APIClient:
    api = APIClient()
    token = api_token_create(user=dealer)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return api


def body(**changes: Any) -> dict[str, Any]:
    return {
        "table": "T1",
        "ended_at": recently().isoformat(),
        "players_dealt_in": 9,
        "pot": "120.00",
        "uncalled_bet": "20.00",
        "flop_dealt": True,
        "voided": False,
        **changes,
    }


def post(client: APIClient, data: dict[str, Any], key: str | None = None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key or str(uuid.uuid4())}
    return client.post("/api/rounds/", data, format="json", **headers)


def balance(code: str) -> int:
    return account_balance(account=Account.objects.get(code=code))


def _period_content(table: str) -> str:
    """The code of the High Hand box content of the one period the test's rounds ended in."""
    period = HighHandPeriod.objects.get(jackpot__code="hh")
    return f"table:main:{table}:hh_box:{period.starts_at.astimezone(UTC):%Y%m%dT%H%MZ}"


def test_the_issue_example(client, rated_table):
    response = post(client, body())
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["table"] == "T1" and data["rake"] == "5.00"
    assert data["drops"] == {"bb": "1.00", "hh": "2.00"}
    assert data["gaming_day"] == str(Round.objects.get().gaming_day)
    assert data["rules_version"] == 1
    assert balance("table:main:T1:drop_box") == 500
    assert balance("table:main:T1:bb_box") == 100
    # The High Hand box is exchanged at each period's end: the drop is in the content of the period
    # the round ended in (§637a.16(d)).
    assert balance(_period_content("T1")) == 200
    assert balance("table:main:T1:hh_box") == 0
    assert balance("room:main:pots") == -800
    assert ledger_total() == 0
    kinds = sorted(Transfer.objects.values_list("kind", "amount_cents"))
    assert kinds == [(TransferKind.DROP, 100), (TransferKind.DROP, 200), (TransferKind.RAKE, 500)]


def test_the_boxes_a_round_posts_to_are_named_as_the_rules_file_opened_them(client, rated_table):
    post(client, body())
    names = dict(Account.objects.filter(code__startswith="table:main:T1:").values_list("code", "name"))
    period = HighHandPeriod.objects.get(jackpot__code="hh")
    assert names == {
        "table:main:T1:drop_box": "Table T1 drop box",
        "table:main:T1:bb_box": "Table T1 Bad Beat box",
        "table:main:T1:hh_box": "Table T1 High Hand box",
        _period_content(
            "T1"
        ): f"Table T1 High Hand box, period of {period.starts_at.astimezone(NEW_YORK):%Y-%m-%d %H:%M}",
    }
    assert Account.objects.get(code="room:main:pots").name == "Main Poker Room: pots"


def test_gaming_day_of_a_round_before_six_in_the_morning(client, rated_table, supervisor):
    from zoneinfo import ZoneInfo

    from tests.conftest import PIN

    local = (
        (timezone.now() - timedelta(days=1))
        .astimezone(ZoneInfo("America/New_York"))
        .replace(hour=3, minute=0, second=0, microsecond=0)
    )
    # Yesterday's round is logged late: a shift supervisor signs for it (issue 24).
    data = post(client, body(ended_at=local.isoformat(), late_entry_by=supervisor.username, pin=PIN)).json()
    assert data["gaming_day"] == str(local.date() - timedelta(days=1))
    assert data["shift"] == "grave"


def test_same_key_same_body_answers_the_same_and_records_nothing_new(client, rated_table):
    data = body()
    first = post(client, data, key="round-1")
    again = post(client, {**data, "pot": "120"}, key="round-1")  # the same amount written another way
    assert again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Round.objects.count() == 1 and Transfer.objects.count() == 3


def test_same_key_another_body_is_a_conflict(client, rated_table):
    post(client, body(), key="round-1")
    response = post(client, body(pot="130.00"), key="round-1")
    assert response.status_code == 409
    assert response.json()["code"] == "idempotency_key_reused"
    assert Round.objects.count() == 1 and Transfer.objects.count() == 3


def test_a_retry_after_the_table_closed_still_answers_the_first_result(client, rated_table, floorperson):
    data = body()
    first = post(client, data, key="round-1").json()
    table_set_open(table=rated_table, is_open=False, actor=floorperson)
    again = post(client, data, key="round-1")
    assert again.status_code == 201 and again.json() == first


def test_voided_round_takes_nothing_and_posts_nothing(client, rated_table):
    data = post(client, body(voided=True)).json()
    assert data["rake"] == "0.00" and data["drops"] == {"bb": "0.00", "hh": "0.00"}
    assert Transfer.objects.count() == 0
    assert Round.objects.get().voided is True


def test_small_pot_posts_only_what_it_takes(client, rated_table):
    data = post(client, body(pot="25.00", uncalled_bet="0.00")).json()
    assert data["rake"] == "2.00" and data["drops"] == {"bb": "1.00", "hh": "0.00"}
    assert Transfer.objects.count() == 2


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"table": "T42"}, "table", "There is no table T42."),
        ({"pot": "-1.00"}, "pot", "-1.00 is negative; the amount must be zero or more."),
        ({"pot": "1.005"}, "pot", "1.005 has a fraction of a cent; amounts are whole cents."),
        ({"pot": 12.5}, "pot", '12.5 is not an amount; write it as a string such as "120.00".'),
        ({"uncalled_bet": "130.00"}, "uncalled_bet", "The uncalled bet 130.00 is larger than the pot 120.00."),
        ({"players_dealt_in": 11}, "players_dealt_in", "Table T1 seats 10; 11 players cannot be dealt in."),
        ({"players_dealt_in": 1}, "players_dealt_in", "A round of poker deals in at least 2 players."),
        (
            {"ended_at": "2026-11-30T10:00:00"},
            "ended_at",
            "Give the time with its UTC offset, such as 2026-11-30T21:15:00-05:00.",
        ),
        (
            {"ended_at": "2025-06-01T12:00:00-04:00"},
            "table",
            "No rules of room main were in effect at 2025-06-01T12:00:00-04:00; load a rules file first.",
        ),
    ],
)
def test_bad_input_is_a_400_with_field_errors_and_records_nothing(client, rated_table, changes, field, message):
    response = post(client, body(**changes))
    assert response.status_code == 400
    assert response.json()[field] == [message]
    assert Round.objects.count() == 0 and Transfer.objects.count() == 0


@pytest.mark.parametrize(
    ("pot", "message"),
    [
        (12000, '12000 is not an amount; write it as a string such as "120.00".'),  # cents, sent as a number
        (120, '120 is not an amount; write it as a string such as "120.00".'),
        (120.0, '120.0 is not an amount; write it as a string such as "120.00".'),
        (None, "This field may not be null."),
        ("100000000000000000.00", "100000000000000000.00 is more than $10,000,000.00, the most any one amount may be."),
        ("10000000.01", "10000000.01 is more than $10,000,000.00, the most any one amount may be."),
        (
            "1e30",
            '"1e30" is not an amount; write dollars and cents with the digits 0-9 and a point, such as 120.00, 1,250.00 or $40.',
        ),
        (
            "NaN",
            '"NaN" is not an amount; write dollars and cents with the digits 0-9 and a point, such as 120.00, 1,250.00 or $40.',
        ),
        (
            "Infinity",
            '"Infinity" is not an amount; write dollars and cents with the digits 0-9 and a point, such as 120.00, 1,250.00 or $40.',
        ),
        (
            "1E+2",
            '"1E+2" is not an amount; write dollars and cents with the digits 0-9 and a point, such as 120.00, 1,250.00 or $40.',
        ),
        ("-0.00", "-0.00 is negative; the amount must be zero or more."),
        (
            "23,90",
            '"23,90" is not an amount: a comma only separates thousands, in groups of three; write 23.90 or 2,390.00.',
        ),
        (
            "\u0661\u0662\u0663",
            '"\u0661\u0662\u0663" has digits other than 0-9; type the amount with the digits 0 to 9, such as 120.00, 1,250.00 or $40.',
        ),
        (
            " 120.00",
            '" 120.00" is not an amount; write dollars and cents with the digits 0-9 and a point, such as 120.00, 1,250.00 or $40.',
        ),
    ],
)
def test_money_is_a_decimal_string_up_to_the_maximum_and_nothing_else(client, rated_table, pot, message):
    """A table system sending 12000 meaning cents must never record a $12,000 pot (nor $120)."""
    response = post(client, body(pot=pot, uncalled_bet="0.00"))
    assert response.status_code == 400
    assert response.json() == {"pot": [message]}
    assert Round.objects.count() == 0 and Transfer.objects.count() == 0


@pytest.mark.parametrize(("pot", "cents"), [("1,200.00", 120000), ("$120", 12000), ("$1,200.50", 120050)])
def test_money_may_be_written_grouped_and_with_a_dollar_sign(client, rated_table, pot, cents):
    response = post(client, body(pot=pot, uncalled_bet="0.00"))
    assert response.status_code == 201, response.json()
    assert Round.objects.get().pot_cents == cents


def test_the_largest_pot_is_recorded(client, rated_table):
    response = post(client, body(pot="10000000.00", uncalled_bet="0.00"))
    assert response.status_code == 201, response.json()
    assert (response.json()["pot"], response.json()["rake"]) == ("10000000.00", "5.00")


def test_the_database_refuses_a_pot_beyond_the_maximum(rated_table):
    from django.db import IntegrityError, transaction

    round_ = Round.objects.create(
        table=rated_table,
        ended_at=recently(),
        gaming_day=timezone.now().date(),
        shift="day",
        game="holdem",
        players_dealt_in=2,
        pot_cents=100,
        rules_version=rated_table.room.rules_versions.get(),
        rake_cents=0,
        rake_rule="-",
        idempotency_key="db",
        request_sha256="-",
        created_by=rules_loader(),
        created_at=timezone.now(),
    )
    with pytest.raises(IntegrityError, match="tables_round_pot_within_maximum"), transaction.atomic():
        Round.objects.create(
            **{
                **{f.attname: getattr(round_, f.attname) for f in Round._meta.concrete_fields if not f.primary_key},
                "idempotency_key": "db-2",
                "pot_cents": 1_000_000_001,
            }
        )


def test_a_round_in_the_future_is_refused(client, rated_table):
    response = post(client, body(ended_at=(timezone.now() + timedelta(minutes=5)).isoformat()))
    assert response.status_code == 400
    assert response.json()["ended_at"][0].startswith("The round cannot end in the future")
    assert Round.objects.count() == 0


def test_a_closed_table_is_refused(client, rated_table, floorperson):
    table_set_open(table=rated_table, is_open=False, actor=floorperson)
    response = post(client, body())
    assert response.status_code == 400
    assert response.json() == {"table": ["Table T1 is closed; a floorperson opens it before rounds are logged."]}


def test_idempotency_key_is_required(client, rated_table):
    response = client.post("/api/rounds/", body(), format="json")
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()


def test_a_round_is_rated_by_the_version_in_effect_at_its_end(client, rated_table, monkeypatch):
    from tests.clock import clock_move

    # A version takes effect no earlier than its loading: version 2 is loaded to take effect in 20 minutes.
    switch = timezone.now() + timedelta(minutes=20)
    richer = [{**RULES["rake_policies"][0], "max_per_round": "8.00"}, *RULES["rake_policies"][1:]]
    rules_load(text=rules_text(effective_from=switch.isoformat(), rake_policies=richer), actor=rules_loader())
    clock_move(monkeypatch, to=switch + timedelta(minutes=20))
    late = post(client, body(ended_at=(switch - timedelta(minutes=10)).isoformat())).json()
    recent = post(client, body(ended_at=(switch + timedelta(minutes=10)).isoformat())).json()
    assert (late["rake"], late["rules_version"]) == ("5.00", 1)
    assert (recent["rake"], recent["rules_version"]) == ("8.00", 2)


def test_a_table_not_in_the_version_in_effect_is_refused(client, rated_table):
    rules_load(text=rules_text(effective_from=None, tables=RULES["tables"][1:]), actor=rules_loader())
    response = post(client, body(ended_at=timezone.now().isoformat()))
    assert response.status_code == 400
    assert response.json()["table"][0].startswith("Table T1 is not in the rules in effect")


def test_a_table_banked_by_the_house_logs_no_rounds(client, rated_table, floorperson):
    from tables.models import Table

    banked = {"number": "T11", "game": "mississippi_stud", "seats": 6}
    rules_load(
        text=rules_text(effective_from=None, tables=[*RULES["tables"], banked]),
        actor=rules_loader(),
    )
    table_set_open(table=Table.objects.get(number="T11"), is_open=True, actor=floorperson)
    response = post(client, body(table="T11", players_dealt_in=6, ended_at=timezone.now().isoformat()))
    assert response.status_code == 400
    assert response.json() == {
        "table": ["Table T11 deals Mississippi Stud, a game banked by the house: it takes no rake and no drops."]
    }
    assert Round.objects.count() == 0 and Transfer.objects.count() == 0


def test_rules_cannot_take_effect_before_a_recorded_round(client, rated_table):
    from rake.exceptions import RulesFileInvalid

    post(client, body(ended_at=recently(30).isoformat()))
    # Refused as dated back: a later version takes effect no earlier than its loading (issue 24).
    with pytest.raises(RulesFileInvalid, match="is before now"):
        rules_load(text=rules_text(effective_from=recently(60).isoformat(), name="Other"), actor=rules_loader())


def test_only_dealers_and_floor_staff_log_rounds(rated_table, make_staff):
    api = APIClient()
    api.force_authenticate(make_staff(Role.CAGE_CASHIER))
    response = api.post("/api/rounds/", body(), format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code == 403


def test_list_rounds_with_filters(client, rated_table, floorperson):
    post(client, body())
    post(client, body(pot="50.00", uncalled_bet="0.00"))
    dealer = client
    client = APIClient()
    client.force_authenticate(floorperson)  # every round's rake is read by the floor and the back office
    data = client.get("/api/rounds/", {"table": "T1"}).json()
    assert data["count"] == 2
    assert {r["rake"] for r in data["results"]} == {"5.00"}
    day = data["results"][0]["gaming_day"]
    assert client.get("/api/rounds/", {"gaming_day": day}).json()["count"] == 2
    assert client.get("/api/rounds/", {"table": "T2"}).json()["count"] == 0
    assert client.get("/api/rounds/", {"gaming_day": "1999-01-01"}).json()["count"] == 0
    assert dealer.get("/api/rounds/").status_code == 403  # a dealer reads their rounds in the answers to their posts


def test_rounds_and_drops_are_never_updated(client, rated_table):
    from django.db import DatabaseError, transaction

    post(client, body())
    with pytest.raises(DatabaseError), transaction.atomic():
        Round.objects.update(rake_cents=0)
    with pytest.raises(DatabaseError), transaction.atomic():
        RoundDrop.objects.all().delete()
