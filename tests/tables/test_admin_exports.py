"""The rounds in the admin, exported through the kernel's CSV and XLSX."""

from __future__ import annotations

import io
import uuid
from datetime import UTC, datetime

from django.test import Client
from openpyxl import load_workbook

from rake.services import round_record
from tables.models import Round


def test_the_rounds_export_to_xlsx_with_money_as_numbers_and_times_in_the_rooms_zone(
    rated_table, dealer, finance, supervisor
):
    from tests.conftest import PIN

    ended_at = datetime(2026, 11, 30, 2, 15, tzinfo=UTC)  # 21:15 on the 29th in New York, the room's zone
    round_record(
        table=rated_table,
        ended_at=ended_at,
        players_dealt_in=9,
        pot_cents=12000,
        uncalled_bet_cents=2000,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key=str(uuid.uuid4()),
        late_entry_by=supervisor,  # a round of days ago is logged late (issue 24)
        pin=PIN,
    )
    browser = Client()
    browser.force_login(finance)

    exported = browser.post(
        "/admin/tables/round/", {"action": "export_xlsx", "_selected_action": [Round.objects.get().pk]}
    )

    assert exported["Content-Disposition"] == 'attachment; filename="rounds.xlsx"'
    sheet = load_workbook(io.BytesIO(exported.content)).active
    header = [cell.value for cell in sheet[1]]
    row = dict(zip(header, (cell for cell in sheet[2]), strict=True))
    assert row["ended_at (America/New_York)"].value == datetime(2026, 11, 29, 21, 15)
    assert (row["pot"].value, row["uncalled_bet"].value, row["rake"].value) == (120, 20, 5)
    assert row["pot"].number_format == "$#,##0.00"
    assert (row["players_dealt_in"].value, row["flop_dealt"].value, row["drops"].value) == (9, True, "bb 1.00; hh 2.00")

    csv_text = browser.post(
        "/admin/tables/round/", {"action": "export_csv", "_selected_action": [Round.objects.get().pk]}
    ).content.decode()
    assert ",2026-11-30T02:15:00+00:00,2026-11-29," in csv_text  # the CSV keeps ISO-8601 with the offset
    assert ",120.00,20.00,0.00,True,False,1,5.00,bb 1.00; hh 2.00" in csv_text
