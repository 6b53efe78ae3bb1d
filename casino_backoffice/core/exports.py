"""CSV and XLSX for every report, and PDF for signed documents, rendered once here; the apps declare
their columns (or, for a PDF, write a Django template).

A report is columns, each with a key and a ``Kind``, and rows of plain values:

- ``MONEY``: integer cents, or the decimal text the API writes ("12.34", "-0.05"); "" or ``None`` for
  no amount.
- ``INTEGER``, ``BOOLEAN``, ``TEXT``: what they say.
- ``DATE``: a ``date`` or its ISO text; ``DATETIME``: an aware ``datetime``.

CSV keeps the plain form the API uses: money "12.34", datetimes in ISO-8601 with their offset. XLSX
is for people and spreadsheets: money cells are numbers (exact decimals, never a binary float on the
way) in the format ``$#,##0.00``, so a SUM works; dates and times are real dates, times shown in the
room's time zone (a cell has no zone, so the column's header names it); the header row is bold and
frozen, and columns are as wide as what they hold.

Text that a spreadsheet would run as a formula (starting with = + - @) is written with a leading
apostrophe, in both formats.

Totals: a report may end with total rows (``Total``), as its page does: the sum of the ``summed``
money columns over every row, or over the rows holding given values (a fund's total). The label
goes in the first column, so a program reading the CSV tells a total from a row by it; XLSX writes
each total as a formula over the rows above (``SUM``, or ``SUMPRODUCT`` of exact matches, which
knows no wildcards), so a cashier who edits a row sees the total follow, and in bold.

PDF: WeasyPrint renders a Django template (its styles inside it) to PDF; it needs Pango and the
DejaVu fonts from Debian (``libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core``, which ``make run``
and ``make test`` install when they are missing: ``scripts/install_pdf_libraries.sh``).

A long CSV streams (``csv_chunks``, ``csv_streaming_response``): rows are read from an iterator
(a server-side cursor: ``QuerySet.iterator(chunk_size=...)``) and written as they come, so memory
stays flat however many rows.
"""

from __future__ import annotations

import csv
import enum
import io
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.template.loader import render_to_string
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from rest_framework.renderers import BaseRenderer

from casino_backoffice.core.clock import local, zone_of
from casino_backoffice.money import display_cents, format_cents, parse_cents

CSV_TYPE = "text/csv; charset=utf-8"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PDF_TYPE = "application/pdf"

MONEY_FORMAT = "$#,##0.00"
DATE_FORMAT = "yyyy-mm-dd"
DATETIME_FORMAT = "yyyy-mm-dd hh:mm:ss"
_MAX_WIDTH = 60


class Kind(enum.Enum):
    TEXT = "text"
    MONEY = "money"
    INTEGER = "integer"
    BOOLEAN = "boolean"
    DATE = "date"
    DATETIME = "datetime"


@dataclass(frozen=True)
class Column:
    key: str
    kind: Kind = Kind.TEXT


def text_columns(header: Sequence[str]) -> list[Column]:
    return [Column(key) for key in header]


def _default_zone() -> ZoneInfo:
    return zone_of(None)


@dataclass(frozen=True)
class Total:
    """A total row: ``label`` in the first column; the report's ``summed`` columns added up over the
    rows whose cells hold ``where``'s values (every row when ``where`` is empty), which the total row
    repeats in their columns."""

    label: str
    where: Mapping[str, Any] = field(default_factory=dict)

    def takes(self, columns: Sequence[Column], row: Sequence[Any]) -> bool:
        cells = {column.key: value for column, value in zip(columns, row, strict=True)}
        return all(cells[key] == value for key, value in self.where.items())


@dataclass(frozen=True)
class Report:
    """A table to export. ``time_zone``: the room's, in which XLSX shows the date-times; ``totals``
    (with the keys of the ``summed`` money columns) the rows under it that add it up."""

    columns: Sequence[Column]
    rows: Sequence[Sequence[Any]]
    title: str = "Report"
    filename: str = "report"
    time_zone: ZoneInfo = field(default_factory=_default_zone)
    totals: Sequence[Total] = ()
    summed: Sequence[str] = ()

    def __post_init__(self) -> None:
        kinds = {column.key: column.kind for column in self.columns}
        for key in self.summed:
            if kinds.get(key) is not Kind.MONEY:
                raise ValueError(f"{key!r} is not a money column of the report: it cannot be totalled.")
        for total in self.totals:
            if unknown := set(total.where) - set(kinds):
                raise ValueError(f"The total {total.label!r} names no column {sorted(unknown)}.")


def _blank(value: Any) -> bool:
    return value is None or value == ""


def _safe(text: str) -> str:
    # A cell starting with = + - @ is a formula to a spreadsheet; a negative number stays a number.
    if text[:1] in ("=", "+", "@") or (text[:1] == "-" and not _numeric(text)):
        return "'" + text
    return text


def _numeric(text: str) -> bool:
    try:
        Decimal(text)
    except ArithmeticError:
        return False
    return True


def _cents(value: int | str) -> int:
    return value if isinstance(value, int) else int(parse_cents(value, allow_negative=True))


def _date(value: date | str) -> date:
    return value if isinstance(value, date) else date.fromisoformat(value)


# --- CSV ------------------------------------------------------------------------------------------


def _csv_cell(column: Column, value: Any) -> str:
    if _blank(value):
        return ""
    if column.kind is Kind.MONEY:
        return format_cents(_cents(value))
    if column.kind is Kind.DATETIME:
        return value.isoformat()
    if column.kind is Kind.DATE:
        return _date(value).isoformat()
    return _safe(str(value))


def _total_cents(report: Report, total: Total, index: int) -> int:
    """The sum of column ``index`` over the rows ``total`` takes."""
    taken = (row[index] for row in report.rows if total.takes(report.columns, row))
    return sum(_cents(value) for value in taken if not _blank(value))


def _total_csv_row(report: Report, total: Total) -> list[str]:
    cells = []
    for index, column in enumerate(report.columns):
        if index == 0:
            cells.append(_safe(total.label))
        elif column.key in total.where:
            cells.append(_csv_cell(column, total.where[column.key]))
        elif column.key in report.summed:
            cells.append(format_cents(_total_cents(report, total, index)))
        else:
            cells.append("")
    return cells


def csv_bytes(report: Report) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([column.key for column in report.columns])
    for row in report.rows:
        writer.writerow([_csv_cell(column, value) for column, value in zip(report.columns, row, strict=True)])
    for total in report.totals:
        writer.writerow(_total_csv_row(report, total))
    return out.getvalue().encode("utf-8")


class _Line:
    """What ``csv.writer`` writes into: it hands each row's text back instead of keeping it."""

    def write(self, text: str) -> str:
        return text


def csv_chunks(
    columns: Sequence[Column], rows: Iterable[Sequence[Any]], *, chunk_bytes: int = 64 * 1024
) -> Iterator[bytes]:
    """The CSV of ``rows`` (header first, cells as ``csv_bytes`` writes them), yielded in chunks of
    about ``chunk_bytes`` as the rows are read: nothing but one chunk is held at a time."""
    writer = csv.writer(_Line())
    pending = [writer.writerow([column.key for column in columns])]
    size = len(pending[0])
    for row in rows:
        line = writer.writerow([_csv_cell(column, value) for column, value in zip(columns, row, strict=True)])
        pending.append(line)
        size += len(line)
        if size >= chunk_bytes:
            yield "".join(pending).encode("utf-8")
            pending, size = [], 0
    if pending:
        yield "".join(pending).encode("utf-8")


def csv_streaming_response(
    *, columns: Sequence[Column], rows: Iterable[Sequence[Any]], filename: str
) -> StreamingHttpResponse:
    """A CSV download written while it is sent (``csv_chunks``): for exports too long to build in
    memory, e.g. ``cage.selectors.official_record_rows_iter``."""
    response = StreamingHttpResponse(csv_chunks(columns, rows), content_type=CSV_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    return response


# --- XLSX -----------------------------------------------------------------------------------------


def _xlsx_value(column: Column, value: Any, zone: ZoneInfo) -> tuple[Any, str | None, str]:
    """The cell's value, its number format and the text a person sees (to size the column)."""
    if _blank(value):
        return None, None, ""
    kind = column.kind
    if kind is Kind.MONEY:
        # Dollars as an exact decimal; openpyxl writes 16 significant digits, so every amount up to
        # $9,999,999,999,999.99 reaches the file exactly.
        cents = _cents(value)
        return Decimal(cents).scaleb(-2), MONEY_FORMAT, display_cents(cents)
    if kind is Kind.INTEGER:
        return int(value), None, str(value)
    if kind is Kind.BOOLEAN:
        return bool(value), None, "TRUE" if value else "FALSE"
    if kind is Kind.DATE:
        day = _date(value)
        return day, DATE_FORMAT, day.isoformat()
    if kind is Kind.DATETIME:
        local_at = local(value, zone).replace(tzinfo=None)
        return local_at, DATETIME_FORMAT, f"{local_at:%Y-%m-%d %H:%M:%S}"
    text = _safe(str(value))
    return text, None, text


def _xlsx_header(column: Column, zone: ZoneInfo) -> str:
    return f"{column.key} ({zone.key})" if column.kind is Kind.DATETIME else column.key


def _total_xlsx_row(report: Report, total: Total) -> list[tuple[Any, str | None, str]]:
    """The total as cells: each summed column a formula over the rows above (rows 2 to n+1), matching
    ``where``'s values exactly against the total row's own cells."""
    row_number, last = len(report.rows) + 2 + list(report.totals).index(total), len(report.rows) + 1
    letters = {column.key: get_column_letter(index + 1) for index, column in enumerate(report.columns)}
    cells: list[tuple[Any, str | None, str]] = []
    for index, column in enumerate(report.columns):
        if index == 0:
            cells.append((_safe(total.label), None, total.label))
        elif column.key in total.where:
            cells.append(_xlsx_value(column, total.where[column.key], report.time_zone))
        elif column.key in report.summed and not report.rows:
            cells.append((Decimal(0).scaleb(-2), MONEY_FORMAT, display_cents(0)))
        elif column.key in report.summed:
            summed = f"{letters[column.key]}2:{letters[column.key]}{last}"
            matches = "".join(
                f"({letters[key]}2:{letters[key]}{last}={letters[key]}{row_number})*" for key in total.where
            )
            formula = f"=SUMPRODUCT({matches}{summed})" if matches else f"=SUM({summed})"
            cells.append((formula, MONEY_FORMAT, display_cents(_total_cents(report, total, index))))
        else:
            cells.append((None, None, ""))
    return cells


def xlsx_bytes(report: Report) -> bytes:
    zone = report.time_zone
    header = [_xlsx_header(column, zone) for column in report.columns]
    body = [
        [_xlsx_value(column, value, zone) for column, value in zip(report.columns, row, strict=True)]
        for row in report.rows
    ]
    totals = [_total_xlsx_row(report, total) for total in report.totals]
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title=report.title[:31])
    # A write-only sheet takes its widths and panes before its rows.
    for index, title in enumerate(header):
        widest = max([len(title), *(len(row[index][2]) for row in [*body, *totals])])
        sheet.column_dimensions[get_column_letter(index + 1)].width = min(widest + 2, _MAX_WIDTH)
    sheet.freeze_panes = "A2"
    bold = Font(bold=True)
    header_cells = []
    for title in header:
        cell = WriteOnlyCell(sheet, value=title)
        cell.font = bold
        header_cells.append(cell)
    sheet.append(header_cells)
    for row in body:
        cells = []
        for value, number_format, _shown in row:
            cell = WriteOnlyCell(sheet, value=value)
            if number_format:
                cell.number_format = number_format
            cells.append(cell)
        sheet.append(cells)
    for row in totals:
        cells = []
        for value, number_format, _shown in row:
            cell = WriteOnlyCell(sheet, value=value)
            cell.font = bold
            if number_format:
                cell.number_format = number_format
            cells.append(cell)
        sheet.append(cells)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


# --- Responses ------------------------------------------------------------------------------------


def export_response(report: Report, extension: str) -> HttpResponse:
    """The report as a download, ``extension`` "csv" or "xlsx" (the admin's exports)."""
    if extension == "csv":
        response = HttpResponse(csv_bytes(report), content_type=CSV_TYPE)
    elif extension == "xlsx":
        response = HttpResponse(xlsx_bytes(report), content_type=XLSX_TYPE)
    else:
        raise ValueError(f"no export as {extension!r}")
    response["Content-Disposition"] = f'attachment; filename="{report.filename}.{extension}"'
    return response


def pdf_bytes(html: str) -> bytes:
    """An HTML document (with its styles inside it) as PDF."""
    # Imported when a PDF is asked for: WeasyPrint loads Pango as it is imported.
    from weasyprint import HTML

    return bytes(HTML(string=html).write_pdf())


def pdf_response(
    *, template_name: str, context: Mapping[str, Any], filename: str, request: HttpRequest | None = None
) -> HttpResponse:
    """A Django template rendered as a PDF download (signed documents: count sheets, slips, receipts)."""
    html = render_to_string(template_name, dict(context), request=request)
    response = HttpResponse(pdf_bytes(html), content_type=PDF_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}.pdf"'
    return response


class _ReportRenderer(BaseRenderer):
    """``?format=csv|xlsx`` of an API view answering ``{"header": [...], "rows": [...], "filename",
    "title"}``. A subclass gives the columns their kinds (``columns``); each is text by default."""

    columns: Callable[[Sequence[str]], list[Column]] = staticmethod(text_columns)

    def report(self, data: Any, renderer_context: Mapping[str, Any] | None) -> Report:
        if not isinstance(data, dict) or "header" not in data:
            return Report(columns=[Column("detail")], rows=[[str(data)]])
        response = (renderer_context or {}).get("response")
        filename = data.get("filename", "report")
        if response is not None:
            response["Content-Disposition"] = f'attachment; filename="{filename}.{self.format}"'
        return Report(
            columns=self.columns(data["header"]),
            rows=data["rows"],
            title=data.get("title", "Report"),
            filename=filename,
        )


class CSVRenderer(_ReportRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Mapping[str, Any] | None = None
    ) -> bytes:
        return csv_bytes(self.report(data, renderer_context))


class XLSXRenderer(_ReportRenderer):
    media_type = XLSX_TYPE
    format = "xlsx"
    charset = None
    render_style = "binary"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Mapping[str, Any] | None = None
    ) -> bytes:
        return xlsx_bytes(self.report(data, renderer_context))
