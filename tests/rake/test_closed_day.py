"""A closed gaming day stays closed (issue 24, item 3, §637a.17): once finance closes a day, a round,
a time charge or a progressive round for it is refused (409 ``gaming_day_closed``) and nothing
changes; a retry of one recorded before the close still answers its first result. A rules version
takes effect no earlier than its loading, but the first version of a new room."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from cage.services import gaming_day_close
from casino_backoffice.core.clock import ZONED, local_text
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.models import User
from rake.exceptions import RulesFileInvalid
from rake.models import TimeCharge
from rake.selectors import poker_revenue
from rake.services import rules_load
from tables.models import PokerRoom, Round, RulesVersion, Table
from tables.selectors import gaming_day, gaming_day_bounds
from tables.services import table_set_open
from tests.cage.helpers import client_for
from tests.conftest import PIN
from tests.rake import factories


def _post(user: User, url: str, data: dict[str, Any], key: str | None = None):
    return client_for(user).post(url, data, format="json", HTTP_IDEMPOTENCY_KEY=key or str(uuid.uuid4()))


def _yesterday_noon(room: PokerRoom) -> datetime:
    today = gaming_day(room=room, at=timezone.now())
    start, _ = gaming_day_bounds(room=room, day=today - timedelta(days=1))
    return start + timedelta(hours=6)


def _round(ended_at: datetime, **more: Any) -> dict[str, Any]:
    return {
        "table": "T1",
        "room": "main",
        "ended_at": ended_at.isoformat(),
        "players_dealt_in": 9,
        "pot": "120.00",
        "uncalled_bet": "0.00",
        **more,
    }


def _records() -> tuple:
    return Round.objects.count(), TimeCharge.objects.count(), Transfer.objects.count()


@pytest.fixture
def open_tables(rules, floorperson) -> dict[str, Table]:
    return {
        number: table_set_open(
            table=Table.objects.get(room__code="main", number=number), is_open=True, actor=floorperson
        )
        for number in ("T1", "T7")
    }


def test_a_round_for_a_closed_day_is_refused_and_nothing_changes(open_tables, dealer, supervisor, finance) -> None:
    room = open_tables["T1"].room
    noon = _yesterday_noon(room)
    day = gaming_day(room=room, at=noon)
    # A round of yesterday, signed for as late, is recorded before finance closes the day.
    key = str(uuid.uuid4())
    signed = {"late_entry_by": supervisor.username, "pin": PIN}
    recorded = _post(dealer, "/api/rounds/", _round(noon, **signed), key=key)
    assert recorded.status_code == 201, recorded.content
    gaming_day_close(room=room, day=day, actor=finance, pin=PIN)
    revenue = [(r.keys, r.rounds, r.expected_cents) for r in poker_revenue(room=room)]
    before = _records()

    late = _post(dealer, "/api/rounds/", _round(noon + timedelta(minutes=5), **signed))
    assert late.status_code == 409, late.content
    assert late.json()["code"] == "gaming_day_closed"
    detail = late.json()["detail"]
    assert f"gaming day {day.isoformat()} of room main was closed by {finance.username}" in detail
    assert "send it again with the true one" in detail
    # Without the signature the closed day is what it is refused for, all the same.
    unsigned = _post(dealer, "/api/rounds/", _round(noon))
    assert (unsigned.status_code, unsigned.json()["code"]) == (409, "gaming_day_closed")
    batch = client_for(dealer).post(
        "/api/rounds/batch/",
        {
            "rounds": [
                {**_round(noon + timedelta(minutes=9), **signed), "idempotency_key": "closed-1"},
                {**_round(timezone.now() - timedelta(minutes=1)), "idempotency_key": "today-1"},
            ]
        },
        format="json",
    )
    assert [r["status"] for r in batch.json()["results"]] == [409, 201]
    assert batch.json()["results"][0]["errors"]["code"] == "gaming_day_closed"
    # A retry of the round recorded before the close answers its first result.
    again = _post(dealer, "/api/rounds/", _round(noon, **signed), key=key)
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true" and again.json() == recorded.json()

    assert _records()[0] == before[0] + 1  # the batch's round of today only
    today = gaming_day(room=room, at=timezone.now())
    assert [
        (r.keys, r.rounds, r.expected_cents) for r in poker_revenue(room=room) if r.keys["gaming_day"] != today
    ] == revenue


def test_a_time_charge_for_a_closed_day_is_refused(open_tables, dealer, floorperson, finance) -> None:
    room = open_tables["T7"].room
    noon = _yesterday_noon(room)
    charge = _post(
        dealer,
        "/api/time-charges/",
        {"table": "T7", "room": "main", "interval_starts_at": noon.isoformat(), "players_seated": 6},
    )
    assert charge.status_code == 201, charge.content
    charge_id = charge.json()["id"]
    # Finance may not close a day whose time charge awaits its verification.
    from cage.exceptions import GamingDayNotReady

    with pytest.raises(GamingDayNotReady) as not_ready:
        gaming_day_close(room=room, day=gaming_day(room=room, at=noon), actor=finance, pin=PIN)
    assert not_ready.value.code == "time_charges_not_verified"
    assert f"Time charge {charge_id} at table T7" in not_ready.value.message

    verified = client_for(floorperson).post(f"/api/time-charges/{charge_id}/verify/", {"pin": PIN}, format="json")
    assert verified.status_code == 200, verified.content
    gaming_day_close(room=room, day=gaming_day(room=room, at=noon), actor=finance, pin=PIN)
    before = _records()
    refused = _post(
        dealer,
        "/api/time-charges/",
        {
            "table": "T7",
            "room": "main",
            "interval_starts_at": (noon + timedelta(minutes=30)).isoformat(),
            "players_seated": 6,
        },
    )
    assert (refused.status_code, refused.json()["code"]) == (409, "gaming_day_closed"), refused.content
    assert _records() == before


def test_a_time_charge_of_a_closed_day_is_not_verified_after(open_tables, dealer, floorperson) -> None:
    from cage.models import GamingDayClose
    from rake.services import time_charge_verify

    room = open_tables["T7"].room
    noon = _yesterday_noon(room)
    charge = _post(
        dealer,
        "/api/time-charges/",
        {"table": "T7", "room": "main", "interval_starts_at": noon.isoformat(), "players_seated": 6},
    ).json()
    # A close recorded by an earlier release, which did not wait for time charges: it stays closed.
    GamingDayClose.objects.create(
        room=room, gaming_day=charge["gaming_day"], closed_by=floorperson, closed_at=timezone.now()
    )
    before = _records()
    from tables.exceptions import GamingDayClosed

    with pytest.raises(GamingDayClosed):
        time_charge_verify(time_charge=TimeCharge.objects.get(pk=charge["id"]), actor=floorperson, pin=PIN)
    assert _records() == before and TimeCharge.objects.get(pk=charge["id"]).verified_at is None


# --- Rules versions -------------------------------------------------------------------------------


def test_a_new_version_is_not_dated_back_but_the_first_of_a_new_room_may_be(room) -> None:
    first = factories.load()  # dated the start of the year: the room's first version
    assert first.number == 1 and first.effective_from < first.loaded_at
    before = RulesVersion.objects.count()
    with pytest.raises(RulesFileInvalid) as refused:
        rules_load(
            text=factories.rules_text(effective_from="2026-03-01T06:00:00-05:00", name="Main room, renamed"),
            actor=factories.rules_loader(),
        )
    (error,) = refused.value.errors
    assert error.startswith("effective_from: 2026-03-01T06:00:00-05:00 is before now")
    assert "leave effective_from out to take effect now, or give a later time" in error
    assert RulesVersion.objects.count() == before
    later = timezone.now() + timedelta(hours=2)
    second = rules_load(
        text=factories.rules_text(effective_from=later.isoformat(), name="Main room, renamed"),
        actor=factories.rules_loader(),
    ).version
    assert second.number == 2 and second.effective_from == later


def test_the_page_of_a_first_version_dated_back_says_so(room, finance) -> None:
    from django.test import Client

    version = factories.load()
    browser = Client()
    browser.force_login(finance)
    page = browser.get(f"/admin/tables/rulesversion/{version.pk}/change/").content.decode()
    assert "Dated back: in effect from" in page and "the first version of a new room" in page
    # On the room's clock with its zone, as the claim files and slips print the same moment (issue 27).
    shown = local_text(version.effective_from, room, ZONED)
    assert f"in effect from {shown}, before" in page and shown.endswith(("EST", "EDT"))
    later = rules_load(text=factories.rules_text(effective_from=None, name="Renamed"), actor=factories.rules_loader())
    assert (
        "Dated back: in effect from"
        not in browser.get(f"/admin/tables/rulesversion/{later.version.pk}/change/").content.decode()
    )
