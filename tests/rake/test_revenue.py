"""Poker revenue by table, gaming day, shift and game, as JSON, CSV and XLSX."""

from __future__ import annotations

import csv
import io
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from openpyxl import load_workbook
from rest_framework.test import APIClient

from casino_backoffice.staff.roles import Role
from rake.selectors import poker_revenue
from rake.services import round_record
from tables.models import Table
from tables.services import table_set_open


@pytest.fixture
def played(rules, dealer, floorperson):
    """T1 (nl10): $120/$20 uncalled -> $5 rake, bb $1, hh $2 (5% of $95 after the rake, capped); $25 -> $2,
    bb $1 ($23 after the rake), hh none ($23 is under $30). T2 (lim): $35 -> $2, hh 5% of $33 after the rake = $1.65."""
    tables = {}
    for number in ("T1", "T2"):
        tables[number] = table_set_open(table=Table.objects.get(number=number), is_open=True, actor=floorperson)
    at = timezone.now() - timedelta(minutes=10)
    for number, pot, uncalled in (("T1", 12000, 2000), ("T1", 2500, 0), ("T2", 3500, 0)):
        round_record(
            table=tables[number],
            ended_at=at,
            players_dealt_in=6,
            pot_cents=pot,
            uncalled_bet_cents=uncalled,
            flop_dealt=True,
            voided=False,
            actor=dealer,
            idempotency_key=str(uuid.uuid4()),
        )
    return tables


def test_revenue_by_table(played, room):
    rows = {row.keys["table"]: row for row in poker_revenue(room=room, group_by=["table"])}
    assert (rows["T1"].rounds, rows["T1"].rake_cents, rows["T1"].drops_cents) == (2, 700, {"bb": 200, "hh": 200})
    assert (rows["T2"].rounds, rows["T2"].rake_cents, rows["T2"].drops_cents) == (1, 200, {"hh": 165})
    assert rows["T1"].expected_cents == 700 and rows["T1"].counted_cents is None


def test_revenue_by_game_and_shift(played, room):
    rows = poker_revenue(room=room, group_by=["game", "shift"])
    assert sum(row.rake_cents for row in rows) == 900
    assert {row.keys["game"] for row in rows} == {"holdem"}


@pytest.fixture
def finance_client(make_staff) -> APIClient:
    api = APIClient()
    api.force_authenticate(make_staff(Role.FINANCE))
    return api


def test_revenue_api_json_csv_and_xlsx(played, finance_client):
    data = finance_client.get("/api/revenue/", {"group_by": "table"}).json()
    assert data["header"] == [
        "table",
        "rounds",
        "late_rounds",
        "voided_rounds",
        "rake",
        "time_charges",
        "reversed",
        "expected",
        "counted",
        "variance",
        "banked_house_share",
        "drop_bb",
        "drop_hh",
    ]
    assert data["rows"] == [
        ["T1", 2, 0, 0, "7.00", "0.00", "0.00", "7.00", "", "", "", "2.00", "2.00"],
        ["T2", 1, 0, 0, "2.00", "0.00", "0.00", "2.00", "", "", "", "0.00", "1.65"],
    ]
    response = finance_client.get("/api/revenue/", {"group_by": "table", "format": "csv"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert 'filename="poker-revenue-main.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[1] == ["T1", "2", "0", "0", "7.00", "0.00", "0.00", "7.00", "", "", "", "2.00", "2.00"]
    response = finance_client.get("/api/revenue/", {"group_by": "table", "format": "xlsx"})
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).active
    assert [cell.value for cell in sheet[2]][:5] == ["T1", 2, 0, 0, 7]  # money is a number a SUM adds
    assert sheet["E2"].number_format == "$#,##0.00" and sheet["M3"].value == 1.65
    assert sheet["A1"].font.b


def test_revenue_api_refuses_an_unknown_grouping(played, finance_client):
    response = finance_client.get("/api/revenue/", {"group_by": "dealer"})
    assert response.status_code == 400
    assert "group_by" in response.json()


def test_an_empty_period_still_names_its_grouping(played, finance_client):
    data = finance_client.get(
        "/api/revenue/", {"group_by": "table,shift", "from": "2001-01-01", "to": "2001-01-02"}
    ).json()
    assert data["header"][:3] == ["table", "shift", "rounds"]
    assert data["rows"] == []


# --- From the ledger: reversals and what the cage made official ----------------------------------


def _drop_box_inflow(room) -> int:
    """What rake and time charges put into the room's drop boxes, net of reversals, straight from the ledger."""
    from django.db.models import Sum

    from casino_backoffice.ledger.models import AccountKind, Transfer, TransferKind

    boxes = {"debit__kind": AccountKind.DROP_BOX, "debit__code__startswith": f"table:{room.code}:"}
    into = (
        Transfer.objects.filter(kind__in=[TransferKind.RAKE, TransferKind.TIME_CHARGE], **boxes).aggregate(
            t=Sum("amount_cents")
        )["t"]
        or 0
    )
    back = (
        Transfer.objects.filter(
            kind=TransferKind.REVERSAL,
            reverses__kind__in=[TransferKind.RAKE, TransferKind.TIME_CHARGE],
            **{f"credit__{k.removeprefix('debit__')}": v for k, v in boxes.items()},
        ).aggregate(t=Sum("amount_cents"))["t"]
        or 0
    )
    return into - back


def test_a_reversed_rake_shows_in_the_report_and_it_agrees_with_the_drop_box(played, room, make_staff):
    """Behaviour of issue 8: a reversed rake transfer leaves the expected revenue, in a ``reversed``
    column that says why, and the report agrees with the drop box in the ledger."""
    from casino_backoffice.ledger.models import Transfer, TransferKind
    from casino_backoffice.ledger.selectors import account_balance
    from casino_backoffice.ledger.services import correction_approve, correction_prepare
    from tests.conftest import PIN

    rake = Transfer.objects.filter(kind=TransferKind.RAKE, amount_cents=500).select_related("debit").get()
    correction = correction_prepare(
        transfer=rake, reason="Rake taken from the wrong pot", actor=make_staff(Role.FINANCE), pin=PIN
    )
    correction_approve(correction=correction, actor=make_staff(Role.FINANCE), pin=PIN)

    rows = {row.keys["table"]: row for row in poker_revenue(room=room, group_by=["table"])}
    assert (rows["T1"].rake_cents, rows["T1"].reversed_cents, rows["T1"].expected_cents) == (700, 500, 200)
    assert rows["T1"].expected_cents == account_balance(account=rake.debit)
    assert sum(row.expected_cents for row in rows.values()) == _drop_box_inflow(room)
    by_shift = poker_revenue(room=room, group_by=["gaming_day", "shift"])
    assert sum(row.reversed_cents for row in by_shift) == 500


def test_counted_is_what_the_cage_made_official_as_revenue(played, room, dealer, floorperson, make_staff):
    """Behaviour of issue 8: counted (and so variance) fill in from the cage's verifications."""
    from cage.models import Box
    from cage.services import boxes_sync, cage_verify, count_record, count_witness, transport_create
    from tests.conftest import PIN

    table_set_open(table=played["T1"], is_open=False, actor=floorperson)
    boxes_sync(room=room)
    drop = Box.objects.select_related("table", "room", "account", "jackpot").get(room=room, code="T1-drop")
    count = count_record(box=drop, counted_cents=650, actor=dealer, pin=PIN, idempotency_key="count")
    count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-1")
    transport = transport_create(
        room=room, seal="S-1", counts=[count], actor=make_staff(Role.SECURITY), pin=PIN, idempotency_key="carry"
    )
    cage_verify(
        transport=transport, counted=650, actor=make_staff(Role.CAGE_CASHIER), pin=PIN, idempotency_key="verify"
    )

    rows = {row.keys["table"]: row for row in poker_revenue(room=room, group_by=["table"])}
    assert (rows["T1"].expected_cents, rows["T1"].counted_cents, rows["T1"].variance_cents) == (700, 650, -50)
    assert rows["T2"].counted_cents is None
    by_shift = poker_revenue(room=room, group_by=["table", "shift"])
    assert all(row.counted_cents is None for row in by_shift)  # a box is counted for a gaming day, not a shift
