"""A round logged long after it ended (issue 24, item 3): past the room's posted ``late_entry_minutes``
(a house control of the rules file; 60 when the file posts none) it needs a poker shift supervisor's
signature (``late_entry_by``, ``pin``), and the revenue report marks it late. Refused, nothing changes."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.models import Signature, User
from rake.models import LateRoundEntry
from rake.rules import RulesInvalid, validate_rules
from rake.selectors import poker_revenue, revenue_table
from tables.models import Round
from tests.cage.helpers import client_for
from tests.conftest import PIN
from tests.rake import factories


def _round(**changes: Any) -> dict[str, Any]:
    return {"table": "T1", "room": "main", "players_dealt_in": 9, "pot": "120.00", "uncalled_bet": "0.00", **changes}


def _post(user: User, data: dict[str, Any], key: str | None = None):
    return client_for(user).post("/api/rounds/", data, format="json", HTTP_IDEMPOTENCY_KEY=key or str(uuid.uuid4()))


def _ago(minutes: float) -> str:
    return (timezone.now() - timedelta(minutes=minutes)).isoformat()


def _records() -> tuple:
    return (Round.objects.count(), Transfer.objects.count(), LateRoundEntry.objects.count(), Signature.objects.count())


# --- The rules file -----------------------------------------------------------------------------


def test_the_rules_file_posts_late_entry_minutes_or_gets_the_default() -> None:
    posted = validate_rules({**factories.RULES, "controls": {"late_entry_minutes": 30}})
    assert posted.late_entry_minutes == 30 and posted.late_entry_limit_minutes == 30
    assert posted.canonical()["controls"] == {"late_entry_minutes": 30}
    both = validate_rules({**factories.RULES, "controls": {"variance_threshold": "5.00", "late_entry_minutes": 15}})
    assert (both.variance_threshold_cents, both.late_entry_minutes) == (500, 15)
    unposted = validate_rules(factories.RULES)
    assert unposted.late_entry_minutes is None and unposted.late_entry_limit_minutes == 60
    assert "controls" not in unposted.canonical()


@pytest.mark.parametrize("minutes", [0, 1441, "30", 2.5, True, -5])
def test_a_late_entry_minutes_that_is_not_a_whole_number_of_minutes_is_refused(minutes) -> None:
    with pytest.raises(RulesInvalid) as refused:
        validate_rules({**factories.RULES, "controls": {"late_entry_minutes": minutes}})
    assert refused.value.errors == [
        "controls: late_entry_minutes must be a whole number of minutes from 1 to 1440: how long after a round ends "
        f"it may be logged without a shift supervisor's signature, such as 30 (not {minutes!r})"
    ]


# --- Rounds -------------------------------------------------------------------------------------


@pytest.fixture
def table_open(rules, floorperson):
    from tables.models import Table
    from tables.services import table_set_open

    return table_set_open(table=Table.objects.get(room__code="main", number="T1"), is_open=True, actor=floorperson)


def test_a_round_past_the_default_hour_is_refused_unsigned_and_nothing_changes(table_open, dealer) -> None:
    before = _records()
    response = _post(dealer, _round(ended_at=_ago(61)))
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "late_entry_unsigned"
    assert "more than 60 minutes after it ended" in body["detail"] and "late_entry_by" in body["detail"]
    assert _records() == before
    # Within the hour it is logged as ever, not marked late.
    on_time = _post(dealer, _round(ended_at=_ago(59)))
    assert on_time.status_code == 201 and on_time.json()["late_entry_by"] is None


def test_a_round_back_dated_nine_months_is_refused_unsigned(table_open, dealer) -> None:
    before = _records()
    response = _post(dealer, _round(ended_at=_ago(60 * 24 * 274)))
    assert (response.status_code, response.json()["code"]) == (400, "late_entry_unsigned")
    assert _records() == before


def test_a_late_round_signed_by_a_shift_supervisor_is_recorded_and_marked_late(table_open, dealer, supervisor) -> None:
    response = _post(dealer, _round(ended_at=_ago(95), late_entry_by=supervisor.username, pin=PIN))
    assert response.status_code == 201, response.content
    answer = response.json()
    assert (answer["late_entry_by"], answer["minutes_late"], answer["rake"]) == (supervisor.username, 95, "5.00")
    entry = LateRoundEntry.objects.get(round_id=answer["id"])
    assert (entry.minutes_late, entry.limit_minutes, entry.recorded_by, entry.signed_by) == (95, 60, dealer, supervisor)
    (signature,) = entry.signatures()
    assert (signature.signer, signature.purpose, signature.role) == (supervisor, "late_entry", "shift_supervisor")
    # The revenue report counts it among the day's rounds, its rake in expected, and marks it late.
    (row,) = poker_revenue(room=table_open.room, group_by=["gaming_day", "table"])
    assert (row.rounds, row.late_rounds, row.rake_cents) == (1, 1, 500)
    header, body = revenue_table([row], group_by=["gaming_day", "table"])
    assert dict(zip(header, body[0], strict=True))["late_rounds"] == 1
    # The list of rounds says so too; a retry without the signature answers the first result.
    listed = client_for(supervisor).get("/api/rounds/", {"room": "main"}).json()["results"]
    assert [(r["id"], r["late_entry_by"]) for r in listed] == [(answer["id"], supervisor.username)]


def test_a_retry_of_a_late_round_answers_the_first_result_without_the_signature(table_open, dealer, supervisor) -> None:
    key = str(uuid.uuid4())
    data = _round(ended_at=_ago(70))
    first = _post(dealer, {**data, "late_entry_by": supervisor.username, "pin": PIN}, key=key)
    assert first.status_code == 201
    before = _records()
    again = _post(dealer, data, key=key)
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert _records() == before


def test_who_may_sign_for_a_late_round(table_open, dealer, supervisor, floorperson, manager) -> None:
    before = _records()
    late = _ago(75)
    # A floorperson, or a poker room manager, is not a poker shift supervisor.
    for signer in (floorperson, manager):
        refused = _post(dealer, _round(ended_at=late, late_entry_by=signer.username, pin=PIN))
        assert (refused.status_code, refused.json()["code"]) == (403, "not_permitted"), refused.content
    wrong = _post(dealer, _round(ended_at=late, late_entry_by=supervisor.username, pin="0000"))
    assert (wrong.status_code, wrong.json()["code"]) == (400, "wrong_pin")
    unknown = _post(dealer, _round(ended_at=late, late_entry_by="nobody", pin=PIN))
    assert unknown.status_code == 400 and "no member of staff nobody" in unknown.json()["late_entry_by"][0]
    no_pin = _post(dealer, _round(ended_at=late, late_entry_by=supervisor.username))
    assert no_pin.status_code == 400 and "pin" in no_pin.json()
    # The supervisor who logs a round cannot also sign for it.
    own = _post(supervisor, _round(ended_at=late, late_entry_by=supervisor.username, pin=PIN))
    assert (own.status_code, own.json()["code"]) == (400, "late_entry_unsigned")
    assert "cannot also sign" in own.json()["detail"]
    assert _records()[:3] == before[:3]


def test_the_rooms_posted_minutes_rate_its_rounds(room, floorperson, dealer, supervisor) -> None:
    from tables.models import Table
    from tables.services import table_set_open

    factories.load(factories.rules_text(controls={"late_entry_minutes": 30}))
    table_set_open(table=Table.objects.get(room=room, number="T1"), is_open=True, actor=floorperson)
    assert _post(dealer, _round(ended_at=_ago(29))).status_code == 201
    refused = _post(dealer, _round(ended_at=_ago(31)))
    assert refused.status_code == 400 and "more than 30 minutes" in refused.json()["detail"]


def test_a_batch_carries_a_signature_per_round(table_open, dealer, supervisor, make_staff) -> None:
    rounds = [
        _round(ended_at=_ago(5), idempotency_key="b-1"),
        _round(ended_at=_ago(80), idempotency_key="b-2", late_entry_by=supervisor.username, pin=PIN),
        _round(ended_at=_ago(81), idempotency_key="b-3", late_entry_by=supervisor.username, pin=PIN),
        _round(ended_at=_ago(82), idempotency_key="b-4"),
        _round(ended_at=_ago(83), idempotency_key="b-5", late_entry_by=supervisor.username, pin="9999"),
    ]
    response = client_for(dealer).post("/api/rounds/batch/", {"rounds": rounds}, format="json")
    assert response.status_code == 200, response.content
    results = response.json()["results"]
    assert [r["status"] for r in results] == [201, 201, 201, 400, 400]
    assert [r["round"]["late_entry_by"] for r in results[:3]] == [None, supervisor.username, supervisor.username]
    assert [r["errors"]["code"] for r in results[3:]] == ["late_entry_unsigned", "wrong_pin"]
    assert LateRoundEntry.objects.count() == 2
    # The wrong PIN counted once for the batch.
    supervisor.refresh_from_db()
    assert supervisor.failed_pin_attempts == 1
