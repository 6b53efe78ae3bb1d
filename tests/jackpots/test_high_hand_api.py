"""The High Hand API (§637a.16): a period walked over the API from the first entry to the payment of
its award, every refusal of the Tracking Slip with nothing changed, a tie, a void and the fall back to
the best entry left, an award paid once by twenty cashiers at once, and malformed bodies."""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from casino_backoffice.ledger.models import Transfer, TransferKind
from casino_backoffice.ledger.selectors import ledger_total
from casino_backoffice.staff.models import User
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import api_token_create
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandAwardPayment,
    HighHandEntry,
    HighHandPeriod,
    HighHandUnclaimed,
    PeriodStatus,
)
from jackpots.high_hand.services.awards import unclaimed_prepare
from jackpots.high_hand.services.periods import periods_run
from tables.models import Table
from tests.cage.helpers import client_for, post, refused
from tests.conftest import PIN
from tests.jackpots.high_hand_helpers import (
    ENTRIES,
    PERIODS,
    close_and_announce,
    entry_body,
    log_round,
    open_period,
    snapshot,
)
from tests.rake.factories import RULES, load, rules_text

# Its pools are announced by hand, with official money no count made (``close_and_announce``).
pytestmark = pytest.mark.pools_by_hand


@pytest.fixture
def period(rated_table) -> HighHandPeriod:
    """hh's period open now at T1 (Hold'em; six players and a $30.00 pot after the rake at least)."""
    return open_period(rated_table)


def _record(person: User, dealer: User, period: HighHandPeriod, **changes: Any) -> dict[str, Any]:
    response = post(client_for(person), ENTRIES, entry_body(dealer, period, **changes))
    assert response.status_code == 201, response.content
    return response.json()


def _periods(person: User, **params: str) -> list[dict[str, Any]]:
    response = client_for(person).get(PERIODS, params)
    assert response.status_code == 200, response.content
    return response.json()["results"]


def _period(person: User, period: HighHandPeriod) -> dict[str, Any]:
    return next(row for row in _periods(person) if row["id"] == period.pk)


def _void(person: User, entry: int, **body: Any):
    return post(client_for(person), f"{ENTRIES}{entry}/void/", {"reason": "Wrong seat recorded.", **body}, key=None)


def _pay(person: User, award: int, *, key: str = "new", **changes: Any):
    body = {"id_type": "Driver's license", "id_number": "PA-12345678", **changes}
    return post(client_for(person), f"/api/high-hand/awards/{award}/pay/", body, key=key)


# --- The walk -------------------------------------------------------------------------------------


def test_a_period_walked_over_the_api_from_the_first_hand_to_the_paid_award(
    rated_table, period, dealer, floorperson, finance, cashier
) -> None:
    # Given the period open, two rounds at T1 drop $2.00 each into hh: the pool so far, an estimate.
    log_round(rated_table, period.starts_at, dealer)
    log_round(rated_table, period.starts_at, dealer)
    row = _period(floorperson, period)
    assert {key: row[key] for key in ("jackpot", "status", "pool", "estimated_pool", "rolled_in", "high_hand")} == {
        "jackpot": "hh",
        "status": "open",
        "pool": None,
        "estimated_pool": "4.00",
        "rolled_in": "0.00",
        "high_hand": None,
    }
    # On the room's clock, with its offset.
    assert row["starts_at"] == period.starts_at.astimezone(ZoneInfo("America/New_York")).isoformat()
    assert row["ends_at"] == period.ends_at.astimezone(ZoneInfo("America/New_York")).isoformat()

    # The floorperson records kings full, then aces full at T2 given as Hold'em hole and board cards.
    first = _record(floorperson, dealer, period, cards="Kh Kd Kc 2s 2d", seat=2, player_name="Ken Kings")
    assert (first["period"], first["words"], first["cards"], first["tie"]) == (
        period.pk,
        "Full house, kings full of twos",
        "Kh Kd Kc 2s 2d",
        False,
    )
    body = entry_body(dealer, period, table="T2", seat=7, hole="Ah Ad", board="Ac Kh Ks 2c 7d")
    del body["cards"]
    response = post(client_for(floorperson), ENTRIES, body)
    assert response.status_code == 201, response.content
    second = response.json()
    assert (second["words"], second["cards"], second["table"], second["seat"], second["tie"]) == (
        "Full house, aces full of kings",
        "Ah Ad Ac Ks Kh",  # best first, as the evaluator orders them
        "T2",
        7,
        False,
    )
    assert _period(floorperson, period)["high_hand"] == {
        "cards": "Ah Ad Ac Ks Kh",
        "words": "Full house, aces full of kings",
        "table": "T2",
        "seat": 7,
    }

    # The period ends, its boxes are counted and verified ($10.01), its pool announced: aces full wins.
    close_and_announce(period, pool_cents=1_001, at=timezone.now(), actor=finance)
    row = _period(cashier, period)
    assert (row["status"], row["pool"], row["estimated_pool"]) == ("awarded", "10.01", None)
    award = HighHandAward.objects.get()
    assert [(w["award"], w["name"], w["amount"], w["table"], w["seat"], w["paid"]) for w in row["winners"]] == [
        (award.pk, "Ann Player", "10.01", "T2", 7, False)
    ]

    # The cage pays it against the identification recorded with the hand.
    paid = _pay(cashier, award.pk, key="pay-1")
    assert paid.status_code == 200, paid.content
    assert {key: paid.json()[key] for key in ("award", "period", "amount", "player_name", "id_number", "paid_by")} == {
        "award": award.pk,
        "period": period.pk,
        "amount": "10.01",
        "player_name": "Ann Player",
        "id_number": "•••••••5678",
        "paid_by": cashier.username,
    }
    assert _period(cashier, period)["winners"][0]["paid"] is True
    assert Transfer.objects.filter(kind=TransferKind.PAYOUT).count() == 1
    assert ledger_total() == 0


def test_the_periods_are_listed_newest_first_with_filters_in_a_few_queries(
    rated_table, dealer, floorperson, make_staff
) -> None:
    api = client_for(make_staff(Role.SECURITY))

    def listed(**params: Any) -> tuple[int, dict[str, Any]]:
        with CaptureQueriesContext(connection) as queries:
            response = api.get(PERIODS, params)
        assert response.status_code == 200, response.content
        return len(queries), response.json()

    # The schedule runs hourly for a day and more; each period gets a hand while it is open.
    start = timezone.now() - timedelta(hours=30)
    open_period(rated_table, at=start)
    few, _ = listed(limit=100)
    for hours in range(1, 31):
        current = HighHandPeriod.objects.get(status=PeriodStatus.OPEN)
        _record(floorperson, dealer, current, seat=1 + hours % 10)
        periods_run(room=rated_table.room, at=start + timedelta(hours=hours))
    many, body = listed(limit=100)
    assert many == few  # the periods, their entries and awards in a fixed number of queries
    assert body["count"] == HighHandPeriod.objects.count() > 30

    current = HighHandPeriod.objects.get(status=PeriodStatus.OPEN)
    assert [row["id"] for row in listed(room="main", jackpot="hh", status="open")[1]["results"]] == [current.pk]
    closed = listed(status="closed", limit=3)[1]
    assert closed["count"] == HighHandPeriod.objects.filter(status=PeriodStatus.CLOSED).count() > 3
    starts = [row["starts_at"] for row in closed["results"]]
    assert starts == sorted(starts, reverse=True)
    assert all(row["high_hand"]["words"] == "Full house, aces full of kings" for row in closed["results"])
    refused(api.get(PERIODS, {"status": "won"}), 400, field="status")
    refused(api.get(PERIODS, {"jackpot": "zz"}), 400, field="jackpot")
    refused(api.get(PERIODS, {"room": "annex"}), 400, field="room")
    refused(client_for(make_staff(Role.DEALER)).get(PERIODS), 403, "not_permitted")


# --- The entries: recorded, or refused naming the rule --------------------------------------------


@pytest.mark.parametrize(
    ("changes", "code", "words"),
    [
        (
            {"cards": "Ah Ad Ac Kh Qs"},
            "below_minimum",
            "Three of a kind, aces, king-queen kickers is below a full house",
        ),
        ({"players_dealt_in": 5}, "too_few_players", "Only 5 players were dealt in; at least 6 are required"),
        ({"player_phone": ""}, "player_required", "name and phone number"),
        ({"id_number": ""}, "id_required", "identification"),
        ({"seat": 11}, "seat_invalid", "Table T1 has seats 1 to 10"),
        ({"table": "T7"}, "not_offered", "T7"),
        ({"jackpot": "bb"}, "not_offered", "T1"),
        ({"cards": "Ah Ad Ac Kh"}, "cards_invalid", "five cards, not 4"),
        ({"cards": "Ah Ad Ac Kh Ah"}, "cards_invalid", "'Ah'"),
    ],
)
def test_an_entry_refused_by_a_rule_names_it_and_records_nothing(
    rated_table, period, dealer, floorperson, changes, code, words
) -> None:
    before = snapshot()
    body = refused(post(client_for(floorperson), ENTRIES, entry_body(dealer, period, **changes)), 400, code)
    assert words in body["detail"], body
    assert snapshot() == before


def test_a_hand_made_outside_an_open_period_or_in_the_future_is_refused(
    rated_table, period, dealer, floorperson
) -> None:
    before = snapshot()
    earlier = (period.starts_at - timedelta(minutes=1)).isoformat()  # the period before, closed
    body = refused(
        post(client_for(floorperson), ENTRIES, entry_body(dealer, period, made_at=earlier)), 400, "period_closed"
    )
    assert "No qualifying period of High Hand is open for a hand made at" in body["detail"]
    later = (timezone.now() + timedelta(minutes=5)).isoformat()
    refused(post(client_for(floorperson), ENTRIES, entry_body(dealer, period, made_at=later)), 400, "made_in_future")
    assert snapshot() == before


def test_the_dealer_must_be_a_dealer_other_than_the_verifier(
    rated_table, period, dealer, floorperson, make_staff
) -> None:
    before = snapshot()
    body = entry_body(dealer, period, dealer=floorperson.username)
    refused(post(client_for(floorperson), ENTRIES, body), 400, "dealer_required")
    both = make_staff(Role.FLOORPERSON)
    both.groups.add(*dealer.groups.all())  # a floorperson who deals too cannot verify their own hand
    both = User.objects.get(pk=both.pk)
    refused(post(client_for(both), ENTRIES, entry_body(both, period)), 400, "dealer_is_verifier")
    refused(post(client_for(floorperson), ENTRIES, entry_body(dealer, period, dealer="nobody")), 400, field="dealer")
    assert snapshot() == before


def test_only_a_higher_or_equal_hand_is_recorded_and_an_equal_one_is_a_tie(
    rated_table, period, dealer, floorperson, finance
) -> None:
    first = _record(floorperson, dealer, period)
    before = snapshot()
    body = refused(
        post(client_for(floorperson), ENTRIES, entry_body(dealer, period, cards="Kh Kd Kc Ah As")), 400, "not_higher"
    )
    assert body["detail"].startswith(
        "Full house, kings full of aces is lower than the period's high hand, Full house, aces full of kings "
        "(table T1, seat 3)"
    )
    assert snapshot() == before

    # The same hand in other suits at T2, seat 5: a tie. The first recorded stays the high hand.
    tie = _record(floorperson, dealer, period, table="T2", seat=5, cards="As Ac Ah Kd Kc", player_name="Tia Tie")
    assert (tie["words"], tie["tie"]) == ("Full house, aces full of kings", True)
    assert _period(floorperson, period)["high_hand"]["table"] == "T1"

    # Tied hands share the pool; the odd cent goes to the first recorded.
    close_and_announce(period, pool_cents=1_001, at=timezone.now(), actor=finance)
    winners = _period(floorperson, period)["winners"]
    assert [(w["name"], w["table"], w["seat"], w["amount"]) for w in winners] == [
        ("Ann Player", "T1", 3, "5.01"),
        ("Tia Tie", "T2", 5, "5.00"),
    ]
    assert first["id"] != tie["id"]


def test_cards_picked_from_hole_and_board_as_the_tables_game_deals_them(room, dealer, floorperson) -> None:
    load(
        rules_text(
            tables=[
                *RULES["tables"][:2],
                {"number": "T5", "game": "omaha_high", "seats": 9, "rake_policy": "nl10", "jackpots": ["hh"]},
                {**RULES["tables"][2], "jackpots": ["hh"]},  # T7, Seven-card Stud
            ]
        )
    )
    period = open_period(Table.objects.get(number="T1"))

    def record(table: str, seat: int, **cards: str) -> Any:
        body = {
            key: value for key, value in entry_body(dealer, period, table=table, seat=seat).items() if key != "cards"
        }
        return post(client_for(floorperson), ENTRIES, {**body, **cards})

    # Hold'em: the best five of the seven.
    holdem = record("T1", 1, hole="Kh Kd", board="Kc 2s 2d 9h 4c")
    assert holdem.status_code == 201 and holdem.json()["words"] == "Full house, kings full of twos"
    # Omaha: exactly two hole cards. Three aces in the hole do not make aces full with the board's kings.
    omaha = record("T5", 2, hole="As Ah Ad Qc", board="Kd Kh Kc 2c 3c")
    assert omaha.status_code == 201, omaha.content
    assert (omaha.json()["words"], omaha.json()["cards"]) == ("Full house, kings full of aces", "Kh Kd Kc As Ah")
    # Seven-card Stud: the player's seven cards.
    stud = record("T7", 3, hole="As Ah Ac Qd Qs 2c 3h")
    assert stud.status_code == 201 and stud.json()["words"] == "Full house, aces full of queens"

    before = snapshot()
    for cards, words in [
        ({"hole": "Ah Ad Ac", "board": "Kh Ks 2c 3c 4d"}, "2 hole cards and the 5 board cards; 3 hole cards"),
        ({"hole": "Ah Ad", "board": "Ah Ks Kd 3c 4d"}, "card Ah is both in the hole and on the board"),
        ({"hole": "Ah Ad", "board": "Ac Ks Kd 3c"}, "4 board cards"),
    ]:
        body = refused(record("T1", 4, **cards), 400, "cards_invalid")
        assert words in body["detail"], body
    body = refused(record("T7", 4, hole="As Ah Ac Qd Qs", board=""), 400, "cards_invalid")
    assert "At Seven-card Stud a High Hand is picked from the player's 7 cards" in body["detail"]
    refused(record("T1", 4), 400, field="cards")
    refused(record("T1", 4, cards="Ah Ad Ac Kh Ks", hole="Ah Ad", board="Ac Kh Ks 2c 3c"), 400, field="cards")
    assert snapshot() == before


def test_a_retried_entry_answers_the_first_and_another_body_with_its_key_is_refused(
    rated_table, period, dealer, floorperson
) -> None:
    api = client_for(floorperson)
    first = post(api, ENTRIES, entry_body(dealer, period), key="hh-1")
    assert first.status_code == 201 and "Idempotent-Replayed" not in first
    before = snapshot()
    again = post(api, ENTRIES, entry_body(dealer, period), key="hh-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    refused(post(api, ENTRIES, entry_body(dealer, period, seat=4), key="hh-1"), 409, "idempotency_key_reused")
    refused(post(api, ENTRIES, entry_body(dealer, period), key=None), 400, field="Idempotency-Key")
    assert snapshot() == before


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ([], "non_field_errors"),
        ("hand", "non_field_errors"),
        (7, "non_field_errors"),
        ({"seat": "3"}, "seat"),
        ({"seat": 3.5}, "seat"),
        ({"seat": True}, "seat"),
        ({"seat": 2**63}, "seat"),
        ({"seat": 0}, "seat"),
        ({"players_dealt_in": "6"}, "players_dealt_in"),
        ({"players_dealt_in": -1}, "players_dealt_in"),
        ({"pot": 120}, "pot"),
        ({"pot": "-1.00"}, "pot"),
        ({"pot": "1.005"}, "pot"),
        ({"cards": ["Ah", "Ad", "Ac", "Kh", "Ks"]}, "cards"),
        ({"cards": "Ah " * 40}, "cards"),
        ({"hole": {"a": 1}}, "hole"),
        ({"made_at": "2026-11-30T21:15:00"}, "made_at"),
        ({"made_at": "yesterday"}, "made_at"),
        ({"made_at": 1764555300}, "made_at"),
        ({"dealer": None}, "dealer"),
        ({"player_name": "x" * 121}, "player_name"),
        ({"jackpot": "h h"}, "jackpot"),
        ({"table": "T99"}, "table"),
        ({"room": "annex"}, "room"),
        ({"pin": None}, "pin"),
    ],
)
def test_a_malformed_entry_is_a_400_never_a_500(rated_table, period, dealer, floorperson, changes, field) -> None:
    before = snapshot()
    body = {**entry_body(dealer, period), "pin": PIN, **changes} if isinstance(changes, dict) else changes
    response = client_for(floorperson).post(ENTRIES, body, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
    refused(response, 400, field=field)
    assert snapshot() == before


def test_a_body_that_is_not_json_is_a_400(rated_table, period, floorperson) -> None:
    before = snapshot()
    for url in (ENTRIES, f"{ENTRIES}1/void/", "/api/high-hand/awards/1/pay/", "/api/high-hand/unclaimed/1/approve/"):
        response = client_for(floorperson).post(
            url, "{not json", content_type="application/json", HTTP_IDEMPOTENCY_KEY="k"
        )
        assert response.status_code in (400, 403, 404), (url, response.status_code)
        assert "detail" in response.json()
    response = client_for(floorperson).post(
        ENTRIES, "{not json", content_type="application/json", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert response.status_code == 400
    assert snapshot() == before


# --- The void -------------------------------------------------------------------------------------


def test_a_void_strikes_the_entry_and_the_high_hand_falls_back_to_the_best_left(
    rated_table, period, dealer, floorperson, supervisor, make_staff
) -> None:
    kings = _record(floorperson, dealer, period, cards="Kh Kd Kc 2s 2d", seat=2)
    aces = _record(floorperson, dealer, period)
    assert _period(floorperson, period)["high_hand"]["cards"] == "Ah Ad Ac Ks Kh"

    before = snapshot()
    refused(_void(supervisor, aces["id"], reason=""), 400, field="reason")
    refused(_void(supervisor, aces["id"], reason=None), 400, field="reason")
    refused(_void(floorperson, aces["id"]), 403, "not_permitted")
    refused(_void(supervisor, 999_999), 404, "not_found")
    refused(_void(supervisor, aces["id"], pin="0000"), 400, "wrong_pin")
    supervisor.refresh_from_db()
    assert supervisor.failed_pin_attempts == 1
    supervisor.failed_pin_attempts = 0
    supervisor.save(update_fields=["failed_pin_attempts"])
    assert snapshot() == before

    response = _void(supervisor, aces["id"], reason="Seat 3 folded before the river: wrong player.")
    assert response.status_code == 200, response.content
    voided = response.json()
    assert (voided["id"], voided["void"]["reason"], voided["void"]["voided_by"]) == (
        aces["id"],
        "Seat 3 folded before the river: wrong player.",
        supervisor.username,
    )
    assert voided["high_hand"] == {
        "cards": "Kh Kd Kc 2s 2d",
        "words": "Full house, kings full of twos",
        "table": "T1",
        "seat": 2,
    }
    assert _period(floorperson, period)["high_hand"]["cards"] == kings["cards"]

    # Voided once; after the void a lower hand than aces full is higher than the slip's high hand.
    before = snapshot()
    refused(_void(make_staff(Role.SHIFT_SUPERVISOR), aces["id"]), 409, "already_void")
    assert snapshot() == before
    queens = _record(floorperson, dealer, period, cards="Kh Kd Kc Qs Qd", seat=4)
    assert queens["tie"] is False


def test_a_supervisor_does_not_void_their_own_entry_nor_an_announced_slip(
    rated_table, period, dealer, supervisor, finance, make_staff
) -> None:
    own = _record(supervisor, dealer, period)  # a shift supervisor is a floorperson or above
    before = snapshot()
    refused(_void(supervisor, own["id"]), 400, "segregation_of_duties")
    assert snapshot() == before

    close_and_announce(period, pool_cents=500, at=timezone.now(), actor=finance)
    before = snapshot()
    body = refused(_void(make_staff(Role.SHIFT_SUPERVISOR), own["id"]), 409, "period_announced")
    assert "its slip is final" in body["detail"]
    assert snapshot() == before


# --- The award: paid once, at the cage, against the recorded identification ----------------------


@pytest.fixture
def award(rated_table, period, dealer, floorperson, finance) -> HighHandAward:
    _record(floorperson, dealer, period)
    close_and_announce(period, pool_cents=2_000, at=timezone.now(), actor=finance)
    return HighHandAward.objects.get()


def test_an_award_is_paid_once_and_a_retry_answers_the_first_payment(award, cashier, make_staff) -> None:
    before = snapshot()
    refused(_pay(cashier, award.pk, id_number="PA-00000000"), 400, "id_mismatch")
    refused(_pay(cashier, award.pk, id_number=""), 400, field="id_number")
    refused(_pay(cashier, award.pk, key=None), 400, field="Idempotency-Key")
    refused(_pay(cashier, 999_999), 404, "not_found")
    refused(_pay(make_staff(Role.SECURITY), award.pk), 403, "not_permitted")
    assert snapshot() == before

    first = _pay(cashier, award.pk, key="hh-pay-1", id_type="driver's LICENSE")  # the type in any case
    assert first.status_code == 200 and "Idempotent-Replayed" not in first
    assert first.json()["amount"] == "20.00"
    before = snapshot()
    again = _pay(cashier, award.pk, key="hh-pay-1", id_type="driver's LICENSE")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    refused(_pay(cashier, award.pk, key="hh-pay-1"), 409, "idempotency_key_reused")
    body = refused(_pay(make_staff(Role.CAGE_CASHIER), award.pk), 409, "award_already_paid")
    assert "is paid already" in body["detail"]
    assert snapshot() == before
    assert ledger_total() == 0


def test_an_award_not_collected_in_time_goes_where_the_rules_say_once_finance_approves(
    award, rated_table, cashier, finance, make_staff
) -> None:
    (unclaimed,) = unclaimed_prepare(room=rated_table.room, at=award.collect_by)
    # The posted next_period: into the period open when the time limit ends, which is not open yet.
    before = snapshot()
    refused(
        post(client_for(finance), f"/api/high-hand/unclaimed/{unclaimed.pk}/approve/", {}, key=None), 409, "no_period"
    )
    assert snapshot() == before
    periods_run(room=rated_table.room, at=award.collect_by)
    before = snapshot()
    refused(_pay(cashier, award.pk), 409, "award_expired")
    refused(
        post(client_for(cashier), f"/api/high-hand/unclaimed/{unclaimed.pk}/approve/", {}, key=None),
        403,
        "not_permitted",
    )
    assert snapshot() == before

    response = post(client_for(finance), f"/api/high-hand/unclaimed/{unclaimed.pk}/approve/", {}, key=None)
    assert response.status_code == 200, response.content
    into = HighHandPeriod.objects.get(status=PeriodStatus.OPEN)
    assert into.starts_at <= award.collect_by < into.ends_at
    assert {key: response.json()[key] for key in ("award", "amount", "destination", "approved_by", "into_period")} == {
        "award": award.pk,
        "amount": "20.00",
        "destination": "next_period",
        "approved_by": finance.username,
        "into_period": into.pk,
    }
    assert into.rolled_in_cents == 2_000
    before = snapshot()
    refused(
        post(client_for(make_staff(Role.FINANCE)), f"/api/high-hand/unclaimed/{unclaimed.pk}/approve/", {}, key=None),
        409,
        "already_approved",
    )
    refused(post(client_for(finance), "/api/high-hand/unclaimed/999999/approve/", {}, key=None), 404, "not_found")
    assert snapshot() == before
    assert HighHandUnclaimed.objects.get().approved_by == finance
    assert ledger_total() == 0


ATTEMPTS = 20


@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_payments_of_one_award_over_the_api_pay_it_once(
    rated_table, dealer, floorperson, finance, make_staff
) -> None:
    assert connection.vendor == "postgresql"
    period = open_period(rated_table)
    _record(floorperson, dealer, period)
    close_and_announce(period, pool_cents=2_000, at=timezone.now(), actor=finance)
    award = HighHandAward.objects.get()
    tokens = [api_token_create(user=make_staff(Role.CAGE_CASHIER)) for _ in range(ATTEMPTS)]
    start = threading.Barrier(ATTEMPTS)

    def pay(n: int) -> tuple[int, str]:
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {tokens[n]}")
        try:
            start.wait(timeout=30)
            response = api.post(
                f"/api/high-hand/awards/{award.pk}/pay/",
                {"id_type": "Driver's license", "id_number": "PA-12345678", "pin": PIN},
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"hh-pay-{n}",
            )
            return response.status_code, response.json().get("code", "")
        finally:
            connection.close()

    with ThreadPoolExecutor(ATTEMPTS) as pool:
        outcomes = list(pool.map(pay, range(ATTEMPTS)))

    assert sorted(outcomes) == [(200, "")] + [(409, "award_already_paid")] * (ATTEMPTS - 1)
    assert HighHandAwardPayment.objects.count() == 1
    assert Transfer.objects.filter(kind=TransferKind.PAYOUT).count() == 1
    assert ledger_total() == 0


# --- Wrong roles: a 403, nothing changed, no PIN counted ------------------------------------------


@pytest.mark.parametrize(
    ("role", "url"),
    [
        (Role.DEALER, ENTRIES),
        (Role.SECURITY, ENTRIES),
        (Role.CAGE_CASHIER, ENTRIES),
        (Role.FLOORPERSON, f"{ENTRIES}{{entry}}/void/"),
        (Role.POKER_ROOM_MANAGER, f"{ENTRIES}{{entry}}/void/"),
        (Role.FINANCE, "/api/high-hand/awards/1/pay/"),
        (Role.SECURITY, "/api/high-hand/awards/1/pay/"),
        (Role.CAGE_CASHIER, "/api/high-hand/unclaimed/1/approve/"),
    ],
)
def test_a_role_that_may_not_act_is_a_403_and_its_pin_is_not_counted(
    rated_table, period, dealer, floorperson, make_staff, role, url
) -> None:
    entry = _record(floorperson, dealer, period)
    person = make_staff(role)
    before = snapshot()
    body = {**entry_body(dealer, period), "reason": "no", "id_type": "L", "id_number": "1", "pin": "0000"}
    response = client_for(person).post(
        url.format(entry=entry["id"]), body, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4())
    )
    refused(response, 403, "not_permitted")
    assert snapshot() == before
    person.refresh_from_db()
    assert person.failed_pin_attempts == 0
    assert HighHandEntry.objects.count() == 1
