"""CSV and XLSX of every report (casino_backoffice.core.exports): the plain CSV the API writes, and
XLSX for spreadsheets, with money as numbers, dates as dates and times in the room's zone."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
from openpyxl import load_workbook

from casino_backoffice.core.exports import Column, Kind, Report, Total, csv_bytes, export_response, xlsx_bytes

COLUMNS = [
    Column("table"),
    Column("rounds", Kind.INTEGER),
    Column("rake", Kind.MONEY),
    Column("variance", Kind.MONEY),
    Column("gaming_day", Kind.DATE),
    Column("ended_at", Kind.DATETIME),
    Column("voided", Kind.BOOLEAN),
]
ENDED = datetime(2026, 11, 30, 2, 15, tzinfo=UTC)  # 21:15 on the 29th in New York
ROWS = [
    ["T1", 2, 123_456_789, "-0.05", date(2026, 11, 29), ENDED, False],
    ['=HYPERLINK("x")', 0, "0.10", None, "2026-11-29", None, True],
]


def _report(**changes) -> Report:
    return Report(
        **{
            "columns": COLUMNS,
            "rows": ROWS,
            "title": "Rounds",
            "filename": "rounds",
            "time_zone": ZoneInfo("America/New_York"),
            **changes,
        }
    )


def _sheet(report: Report):
    return load_workbook(io.BytesIO(xlsx_bytes(report))).active


def test_csv_keeps_the_plain_format_of_the_api() -> None:
    rows = list(csv.reader(io.StringIO(csv_bytes(_report()).decode())))

    assert rows[0] == ["table", "rounds", "rake", "variance", "gaming_day", "ended_at", "voided"]
    assert rows[1] == ["T1", "2", "1234567.89", "-0.05", "2026-11-29", "2026-11-30T02:15:00+00:00", "False"]
    assert rows[2] == ['\'=HYPERLINK("x")', "0", "0.10", "", "2026-11-29", "", "True"]  # a formula stays text


def test_xlsx_money_is_an_exact_number_in_dollars_that_a_sum_adds() -> None:
    sheet = _sheet(_report())

    assert [sheet["C2"].value, sheet["D2"].value, sheet["C3"].value] == [1234567.89, -0.05, 0.1]
    assert {sheet[cell].number_format for cell in ("C2", "D2", "C3")} == {"$#,##0.00"}
    assert sheet["D3"].value is None  # no amount is an empty cell, not zero


def test_xlsx_money_is_written_as_its_exact_decimal() -> None:
    amounts = [1, 10, 1999, -5, 123_456_789_012_345]  # up to fifteen digits: $1,234,567,890,123.45
    rows = [["T1", 1, cents, None, None, None, False] for cents in amounts]

    content = xlsx_bytes(_report(rows=rows))

    sheet_xml = zipfile.ZipFile(io.BytesIO(content)).read("xl/worksheets/sheet1.xml").decode()
    for text in ("0.01", "0.1", "19.99", "-0.05", "1234567890123.45"):
        assert f"<v>{text}</v>" in sheet_xml


def test_xlsx_times_are_in_the_rooms_zone_which_the_header_names() -> None:
    sheet = _sheet(_report())

    assert sheet["F1"].value == "ended_at (America/New_York)"
    assert sheet["F2"].value == datetime(2026, 11, 29, 21, 15)  # naive: a cell has no zone
    assert sheet["F2"].number_format == "yyyy-mm-dd hh:mm:ss"
    assert sheet["E2"].value == datetime(2026, 11, 29) and sheet["E3"].value == datetime(2026, 11, 29)
    assert sheet["E2"].number_format == "yyyy-mm-dd"


def test_xlsx_header_is_bold_and_frozen_and_columns_fit_their_content() -> None:
    sheet = _sheet(_report())

    assert all(cell.font.b for cell in sheet[1]) and not sheet["A2"].font.b
    assert sheet.freeze_panes == "A2"
    widths = {letter: sheet.column_dimensions[letter].width for letter in "ABCF"}
    assert widths["C"] >= len("$1,234,567.89") and widths["F"] >= len("ended_at (America/New_York)")
    assert widths["A"] >= len('\'=HYPERLINK("x")') and widths["B"] < widths["C"]


def test_xlsx_keeps_numbers_and_booleans_typed_and_formulas_as_text() -> None:
    sheet = _sheet(_report())

    assert [sheet["B2"].value, sheet["G2"].value, sheet["G3"].value] == [2, False, True]
    assert sheet["A3"].value == '\'=HYPERLINK("x")' and sheet["A3"].data_type == "s"


def test_a_download_is_named_after_the_report() -> None:
    response = export_response(_report(), "xlsx")

    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert response["Content-Disposition"] == 'attachment; filename="rounds.xlsx"'
    assert export_response(_report(), "csv")["Content-Type"] == "text/csv; charset=utf-8"
    with pytest.raises(ValueError, match="pdf"):
        export_response(_report(), "pdf")


# --- Totals ---------------------------------------------------------------------------------------

FUND_COLUMNS = [Column("gaming_day", Kind.DATE), Column("fund"), Column("official", Kind.MONEY)]
FUND_ROWS = [
    [date(2026, 12, 1), "Bad Beat", 1_050],
    [date(2026, 12, 1), "High Hand", "2.05"],
    [date(2026, 12, 2), "Bad Beat", 301],
]


def _totalled(rows=FUND_ROWS) -> Report:
    return Report(
        columns=FUND_COLUMNS,
        rows=rows,
        totals=[Total("Total of Bad Beat", where={"fund": "Bad Beat"}), Total("Total")],
        summed=["official"],
    )


def test_a_csv_ends_with_its_totals_labelled_in_the_first_column() -> None:
    rows = list(csv.reader(io.StringIO(csv_bytes(_totalled()).decode())))

    assert rows[4:] == [["Total of Bad Beat", "Bad Beat", "13.51"], ["Total", "", "15.56"]]


def test_an_xlsx_total_is_a_formula_over_the_rows_above_matching_its_own_cells_exactly() -> None:
    sheet = _sheet(_totalled())

    # SUMPRODUCT of exact matches: SUMIF would read "*" or "?" in a fund's name as a wildcard.
    assert [sheet["A5"].value, sheet["B5"].value, sheet["C5"].value] == [
        "Total of Bad Beat",
        "Bad Beat",
        "=SUMPRODUCT((B2:B4=B5)*C2:C4)",
    ]
    assert [sheet["A6"].value, sheet["C6"].value] == ["Total", "=SUM(C2:C4)"]
    assert sheet["C6"].number_format == "$#,##0.00" and sheet["A6"].font.bold and sheet["C6"].font.bold


def test_a_report_with_no_rows_totals_zero_not_a_formula_over_nothing() -> None:
    rows = list(csv.reader(io.StringIO(csv_bytes(_totalled(rows=[])).decode())))
    sheet = _sheet(_totalled(rows=[]))

    assert rows[1:] == [["Total of Bad Beat", "Bad Beat", "0.00"], ["Total", "", "0.00"]]
    assert sheet["C3"].value == 0


def test_only_a_money_column_is_totalled_and_a_total_names_real_columns() -> None:
    with pytest.raises(ValueError, match="not a money column"):
        Report(columns=FUND_COLUMNS, rows=[], totals=[Total("Total")], summed=["fund"])
    with pytest.raises(ValueError, match="names no column"):
        Report(columns=FUND_COLUMNS, rows=[], totals=[Total("Total", where={"table": "T1"})], summed=["official"])
