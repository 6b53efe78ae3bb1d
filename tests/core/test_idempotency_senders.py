"""An Idempotency-Key is its sender's: a key another person or table system used is a new request
(its own document), never a 409 naming the other's document; the 409 of a key reused by its own
sender shows the key as sent; a retry of a document recorded before keys were scoped, under the key
as sent, still answers that document (``core.idempotency``)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from cage.models import ComplianceNotice
from cage.services import notice_record
from casino_backoffice.core.api_common import REPLAYED_HEADER
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.roles import Role
from rake.services import round_record
from tables.models import Round
from tests.conftest import PIN

pytestmark = pytest.mark.django_db
NOTICES = "/api/compliance-notices/"
ROUNDS = "/api/rounds/"


def _api(person) -> APIClient:
    client = APIClient()
    client.force_authenticate(person)
    return client


def _notice(person, key: str, notified: str = "J. Smith"):
    body = {"room": "main", "notified": notified, "method": "phone", "pin": PIN}
    return _api(person).post(NOTICES, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def _round_body(pot: str) -> dict:
    return {
        "table": "T1",
        "ended_at": (timezone.now() - timedelta(minutes=5)).replace(second=0, microsecond=0).isoformat(),
        "players_dealt_in": 9,
        "pot": pot,
        "uncalled_bet": "0.00",
        "flop_dealt": True,
        "voided": False,
    }


def test_a_key_another_person_used_is_their_own_new_document(room, floorperson, make_staff) -> None:
    other = make_staff(Role.FLOORPERSON)
    first = _notice(floorperson, "notice-1")
    assert first.status_code == 201

    second = _notice(other, "notice-1", notified="K. Jones")

    assert second.status_code == 201, second.content
    assert REPLAYED_HEADER not in second
    assert second.json()["id"] != first.json()["id"] and second.json()["recorded_by"] == other.username
    assert ComplianceNotice.objects.count() == 2


def test_a_key_another_table_system_used_is_a_new_round(rated_table, dealer, make_staff) -> None:
    other_system = make_staff(Role.DEALER)
    first = _api(dealer).post(ROUNDS, _round_body("100.00"), format="json", HTTP_IDEMPOTENCY_KEY="round-1")
    assert first.status_code == 201

    second = _api(other_system).post(ROUNDS, _round_body("200.00"), format="json", HTTP_IDEMPOTENCY_KEY="round-1")

    assert second.status_code == 201, second.content
    assert REPLAYED_HEADER not in second and second.json()["id"] != first.json()["id"]
    assert Round.objects.count() == 2


def test_a_key_reused_by_its_sender_for_another_request_is_a_409_showing_the_key_as_sent(room, floorperson) -> None:
    assert _notice(floorperson, "notice-1").status_code == 201

    again = _notice(floorperson, "notice-1", notified="K. Jones")

    assert again.status_code == 409 and again.json()["code"] == "idempotency_key_reused"
    assert "'notice-1'" in again.json()["detail"] and f"{floorperson.pk}:" not in again.json()["detail"]
    assert ComplianceNotice.objects.count() == 1


def test_a_round_key_of_120_characters_fits_with_its_transfers(rated_table, dealer) -> None:
    key = "k" * 120

    response = _api(dealer).post(ROUNDS, _round_body("100.00"), format="json", HTTP_IDEMPOTENCY_KEY=key)

    assert response.status_code == 201, response.content
    assert Transfer.objects.filter(idempotency_key__startswith=f"round:{dealer.pk}:{key}:").count() == 3


def test_a_retry_of_a_notice_recorded_before_keys_were_scoped_answers_it(room, floorperson) -> None:
    # Recorded before the upgrade: under the key as sent.
    before = notice_record(
        room=room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key="notice-1"
    )

    retry = _notice(floorperson, "notice-1")
    other_request = _notice(floorperson, "notice-1", notified="K. Jones")

    assert retry.status_code == 201 and retry[REPLAYED_HEADER] == "true" and retry.json()["id"] == before.pk
    assert other_request.status_code == 201 and other_request.json()["id"] != before.pk
    assert ComplianceNotice.objects.count() == 2


def test_a_retry_of_a_round_recorded_before_keys_were_scoped_answers_it(rated_table, dealer) -> None:
    body = _round_body("100.00")
    before = round_record(
        table=rated_table,
        ended_at=datetime.fromisoformat(body["ended_at"]),
        players_dealt_in=9,
        pot_cents=10_000,
        uncalled_bet_cents=0,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key="round-1",
    ).round
    transfers = Transfer.objects.count()

    retry = _api(dealer).post(ROUNDS, body, format="json", HTTP_IDEMPOTENCY_KEY="round-1")

    assert retry.status_code == 201 and retry[REPLAYED_HEADER] == "true" and retry.json()["id"] == before.pk
    assert Round.objects.count() == 1 and Transfer.objects.count() == transfers
