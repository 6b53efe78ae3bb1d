"""The count-sheets PDF as finance files it (issue 27, item 5): a first page summing the sheets up by
fund, the sheets by gaming day and box in table order (T1, T2, ..., T10, never T1, T10, T2), and each
sheet saying which day or qualifying period it is in words."""

from __future__ import annotations

import io
from datetime import date

from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from cage.models import Count, CountSheet, SheetKind
from cage.reports import SheetDocument, count_sheets_summary, filed_order
from cage.services import cage_verify
from tests.conftest import PIN

from .test_admin import container  # noqa: F401 (a fixture)

DAY = date(2026, 12, 3)


def _document(code: str, jackpot: str = "", *, counted: int | None = None, expected: int = 0, day=DAY):
    sheet = CountSheet(kind=SheetKind.DAILY, key=f"day:{day}", gaming_day=day)
    count = None if counted is None else Count(counted_cents=counted, expected_cents=expected, gaming_day=day)
    return SheetDocument(
        box_code=code,
        table=code.split("-")[0],
        box_kind="Jackpot box" if jackpot else "Rake drop box",
        jackpot=jackpot,
        sheet=sheet,
        count=count,
    )


def test_sheets_are_filed_by_day_then_box_in_table_order() -> None:
    documents = [
        _document("T10-drop"),
        _document("T2-drop"),
        _document("T1-bb", "Bad Beat"),
        _document("T1-drop", day=date(2026, 12, 4)),
        _document("T1-drop"),
    ]

    filed = [(d.sheet.gaming_day.day, d.box_code) for d in sorted(documents, key=filed_order)]

    assert filed == [(3, "T1-bb"), (3, "T1-drop"), (3, "T2-drop"), (3, "T10-drop"), (4, "T1-drop")]


def test_the_summary_adds_up_each_fund_and_all_of_them() -> None:
    documents = [
        _document("T1-drop", counted=1_400, expected=1_500),
        _document("T2-drop", counted=2_000, expected=2_000),
        _document("T10-drop"),
        _document("T1-bb", "Bad Beat", counted=310, expected=300),
    ]
    documents[1].superseded = [Count(counted_cents=9_999, expected_cents=2_000)]  # a recount: not summed

    lines = {line.name: line for line in count_sheets_summary(documents)}

    drop, bad_beat, every = lines["Rake drop box"], lines["Bad Beat"], lines["All funds"]
    assert (drop.sheets, drop.counted, drop.not_counted, drop.recounted) == (3, 2, 1, 1)
    assert (drop.counted_cents, drop.expected_cents, drop.variance_cents) == (3_400, 3_500, -100)
    assert (bad_beat.sheets, bad_beat.counted_cents, bad_beat.variance_cents) == (1, 310, 10)
    assert (every.sheets, every.counted, every.counted_cents, every.expected_cents) == (4, 3, 3_710, 3_800)
    assert list(lines)[-1] == "All funds"


def test_the_pdf_opens_on_its_summary_by_fund(container, cashier, finance) -> None:  # noqa: F811
    cage_verify(transport=container, counted=1700, actor=cashier, pin=PIN, idempotency_key="v")
    browser = Client()
    browser.force_login(finance)

    response = browser.get(
        reverse("admin:cage_count_sheets"), {"room": "main", "day": container.gaming_day.isoformat()}
    )

    pages = [page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages]
    assert "Summary by fund" in pages[0] and "All funds" in pages[0] and "$17.00" in pages[0]
    assert "Box " not in pages[0]  # the sheets start on the next page
    text = "".join(pages[1:])
    assert f"Sheet of the gaming day {container.gaming_day}" in text and "Sheet Gaming day" not in text
