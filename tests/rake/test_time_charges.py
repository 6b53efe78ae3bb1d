"""Time charges (§637a.17(b)(3)): assessed per interval, verified by a floorperson, then in the drop box."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from casino_backoffice.ledger.models import Account, Transfer, TransferKind
from casino_backoffice.ledger.selectors import account_balance
from casino_backoffice.staff.exceptions import ActionNotPermitted, SignerNotIndependent
from rake.models import TimeCharge
from rake.services import time_charge_verify
from tables.models import Table
from tables.services import table_set_open
from tests.conftest import PIN


def interval_start(minutes: int, back: int = 1) -> datetime:
    local = timezone.now().astimezone(ZoneInfo("America/New_York")).replace(second=0, microsecond=0)
    local = local.replace(minute=local.minute - local.minute % minutes)
    return local - timedelta(minutes=minutes * back)


@pytest.fixture
def stud(rules, floorperson) -> Table:
    return table_set_open(table=Table.objects.get(number="T7"), is_open=True, actor=floorperson)


@pytest.fixture
def flat(rules, floorperson) -> Table:
    return table_set_open(table=Table.objects.get(number="T9"), is_open=True, actor=floorperson)


@pytest.fixture
def client(dealer) -> APIClient:
    api = APIClient()
    api.force_authenticate(dealer)
    return api


def assess(client: APIClient, key: str = "tc-1", **data):
    return client.post("/api/time-charges/", data, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_per_player_charges_every_seated_player(client, stud):
    response = assess(client, table="T7", interval_starts_at=interval_start(30).isoformat(), players_seated=7)
    assert response.status_code == 201, response.json()
    data = response.json()
    # $6.00 an hour is $3.00 every 30 minutes, for each of 7 seated players (inactive ones too).
    assert (data["fee_per_interval"], data["amount"], data["verified_at"]) == ("3.00", "21.00", None)
    assert Transfer.objects.count() == 0  # nothing in the drop box before a floorperson verifies it


def test_per_table_charges_once(client, flat):
    data = assess(client, table="T9", interval_starts_at=interval_start(20).isoformat(), players_seated=5).json()
    assert (data["fee_per_interval"], data["amount"], data["players_seated"]) == ("10.00", "10.00", None)


def test_a_floorperson_verifies_and_the_charge_goes_into_the_drop_box(client, stud, dealer, floorperson):
    data = assess(client, table="T7", interval_starts_at=interval_start(30).isoformat(), players_seated=4).json()
    api = APIClient()
    api.force_authenticate(floorperson)
    response = api.post(f"/api/time-charges/{data['id']}/verify/", {"pin": PIN}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["verified_at"] is not None
    assert account_balance(account=Account.objects.get(code="table:main:T7:drop_box")) == 1200
    assert Transfer.objects.get().kind == TransferKind.TIME_CHARGE
    again = api.post(f"/api/time-charges/{data['id']}/verify/", {"pin": PIN}, format="json")
    assert again.status_code == 409
    assert Transfer.objects.count() == 1


def test_the_dealer_cannot_verify_and_the_assessor_cannot_either(client, stud, dealer, supervisor):
    data = assess(client, table="T7", interval_starts_at=interval_start(30).isoformat(), players_seated=4).json()
    with pytest.raises(ActionNotPermitted, match="Only a floorperson or above may verify time charges"):
        time_charge_verify(time_charge=TimeCharge.objects.get(pk=data["id"]), actor=dealer, pin=PIN)
    by_supervisor = APIClient()
    by_supervisor.force_authenticate(supervisor)
    own = assess(
        by_supervisor,
        key="tc-2",
        table="T7",
        interval_starts_at=interval_start(30, back=2).isoformat(),
        players_seated=4,
    )
    with pytest.raises(SignerNotIndependent):
        time_charge_verify(time_charge=TimeCharge.objects.get(pk=own.json()["id"]), actor=supervisor, pin=PIN)
    assert Transfer.objects.count() == 0


def test_an_interval_is_assessed_once(client, stud):
    start = interval_start(30).isoformat()
    first = assess(client, key="a", table="T7", interval_starts_at=start, players_seated=4)
    replay = assess(client, key="a", table="T7", interval_starts_at=start, players_seated=4)
    other_key = assess(client, key="b", table="T7", interval_starts_at=start, players_seated=4)
    assert replay.json() == first.json() and replay["Idempotent-Replayed"] == "true"
    assert other_key.status_code == 409
    assert TimeCharge.objects.count() == 1


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"table": "T1"}, "table"),  # a percentage table takes no time charge
        ({"players_seated": None}, "players_seated"),
        ({"players_seated": 9}, "players_seated"),  # T7 seats 8
        ({"interval_starts_at": "offset"}, "interval_starts_at"),
    ],
)
def test_bad_time_charges_are_refused(client, stud, open_table, changes, field):
    data = {"table": "T7", "interval_starts_at": interval_start(30).isoformat(), "players_seated": 4, **changes}
    if data["interval_starts_at"] == "offset":
        data["interval_starts_at"] = (interval_start(30) + timedelta(minutes=10)).isoformat()
    response = assess(client, **data)
    assert response.status_code == 400
    assert field in response.json()
    assert TimeCharge.objects.count() == 0


def test_a_floorperson_verifies_on_the_tablet(client, stud, floorperson):
    from django.test import Client

    data = assess(client, table="T7", interval_starts_at=interval_start(30).isoformat(), players_seated=2).json()
    tablet = Client()
    tablet.force_login(floorperson)
    page = tablet.get("/floor/time-charges/")
    assert page.status_code == 200 and "$6.00" in page.content.decode()
    wrong = tablet.post(f"/floor/time-charges/{data['id']}/verify/", {"pin": "0000"}, follow=True)
    assert "Wrong PIN" in wrong.content.decode()
    assert Transfer.objects.count() == 0
    done = tablet.post(f"/floor/time-charges/{data['id']}/verify/", {"pin": PIN}, follow=True)
    assert "verified; it is in the drop box" in done.content.decode()
    assert "Nothing to verify." in done.content.decode()
    assert account_balance(account=Account.objects.get(code="table:main:T7:drop_box")) == 600


def test_a_pin_with_a_letter_is_refused_before_it_counts_as_a_wrong_pin(client, stud, floorperson):
    from django.test import Client

    data = assess(client, table="T7", interval_starts_at=interval_start(30).isoformat(), players_seated=2).json()
    tablet = Client()
    tablet.force_login(floorperson)
    page = tablet.get("/floor/time-charges/").content.decode()
    assert f'<label for="id_charge{data["id"]}_pin">Your signing PIN</label>' in page

    refused = tablet.post(f"/floor/time-charges/{data['id']}/verify/", {"pin": "24a8"}, follow=True)

    assert (
        "A signing PIN is 4 to 8 digits. Nothing was checked; it does not count as a wrong PIN."
        in refused.content.decode()
    )
    floorperson.refresh_from_db()
    assert floorperson.failed_pin_attempts == 0
    assert TimeCharge.objects.get(pk=data["id"]).verified_at is None and Transfer.objects.count() == 0
