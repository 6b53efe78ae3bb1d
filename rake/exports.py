"""CSV and XLSX for every report: one tabular shape ``{"header": [...], "rows": [[...]], "filename": ...}``
rendered by DRF renderers (``?format=csv`` / ``?format=xlsx``) and by the admin alike."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from openpyxl import Workbook
from rest_framework.renderers import BaseRenderer

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _safe(cell: Any) -> Any:
    # A cell starting with = + - @ is a formula to a spreadsheet; money is plain text "12.34" but a
    # negative variance "-0.05" must stay a value, so only non-numeric text is escaped.
    if (isinstance(cell, str) and cell[:1] in ("=", "+", "@")) or (isinstance(cell, str) and cell[:1] == "-" and not _numeric(cell)):
        return "'" + cell
    return cell


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def csv_bytes(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for row in rows:
        writer.writerow([_safe(cell) for cell in row])
    return out.getvalue().encode("utf-8")


def xlsx_bytes(header: Sequence[str], rows: Sequence[Sequence[Any]], *, title: str = "Report") -> bytes:
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title=title[:31])
    sheet.append(list(header))
    for row in rows:
        sheet.append([_safe(cell) for cell in row])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


class CSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Mapping[str, Any] | None = None) -> bytes:
        if not isinstance(data, dict) or "header" not in data:
            return csv_bytes(["detail"], [[str(data)]])
        _attach(renderer_context, data, "csv")
        return csv_bytes(data["header"], data["rows"])


class XLSXRenderer(BaseRenderer):
    media_type = XLSX_TYPE
    format = "xlsx"
    charset = None
    render_style = "binary"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Mapping[str, Any] | None = None) -> bytes:
        if not isinstance(data, dict) or "header" not in data:
            return xlsx_bytes(["detail"], [[str(data)]])
        _attach(renderer_context, data, "xlsx")
        return xlsx_bytes(data["header"], data["rows"], title=data.get("title", "Report"))


def _attach(renderer_context: Mapping[str, Any] | None, data: dict[str, Any], extension: str) -> None:
    response = (renderer_context or {}).get("response")
    if response is not None:
        response["Content-Disposition"] = f'attachment; filename="{data.get("filename", "report")}.{extension}"'
