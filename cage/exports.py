"""The cage's reports for the kernel's renderers (``casino_backoffice.core.exports``): the daily
contribution record (the official record), the variances and the custody log as CSV and XLSX; the
count sheets, with every signature and Board credential number, as PDF."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from django.db.models import QuerySet

from casino_backoffice.core.clock import zone_of
from casino_backoffice.core.exports import Column, Kind, Report, Total
from tables.models import PokerRoom

from .models import Variance, display_variance, variance_direction
from .selectors import CustodyEvent, OfficialRow

OFFICIAL_RECORD_COLUMNS = [
    Column("gaming_day", Kind.DATE),
    Column("room"),
    Column("account"),
    Column("fund"),
    Column("official", Kind.MONEY),
]
VARIANCE_COLUMNS = [
    Column("id", Kind.INTEGER),
    Column("room"),
    Column("gaming_day", Kind.DATE),
    Column("kind"),
    Column("box"),
    Column("count", Kind.INTEGER),
    Column("verification", Kind.INTEGER),
    Column("amount", Kind.MONEY),
    Column("direction"),
    Column("variance"),
    Column("threshold", Kind.MONEY),
    Column("needs_explanation", Kind.BOOLEAN),
    Column("found_at", Kind.DATETIME),
    Column("explanation"),
    Column("explained_by"),
    Column("explained_by_credential"),
    Column("explained_at", Kind.DATETIME),
    Column("superseded", Kind.BOOLEAN),
    Column("official_record_correction", Kind.MONEY),
]
CUSTODY_COLUMNS = [Column("at", Kind.DATETIME), Column("box"), Column("step"), Column("person"), Column("document")]


def _span(start: date | None, end: date | None) -> str:
    if start and end:
        return f"{start}-to-{end}" if start != end else str(start)
    return str(start or end or "all")


def official_record_report(
    *, room: PokerRoom, rows: Iterable[OfficialRow], start: date | None, end: date | None
) -> Report:
    """The finance department's record of contributions made official, per fund and gaming day, with
    the totals its page shows: each fund's over the span (in the order the rows first name them), then
    the span's."""
    listed = list(rows)
    body = [[row.gaming_day, room.code, row.account.code, row.account.name, row.official_cents] for row in listed]
    funds = {row.account.code: row.account.name for row in listed}
    totals = [
        *(
            Total(f"Total of {name}", where={"room": room.code, "account": code, "fund": name})
            for code, name in funds.items()
        ),
        Total("Total"),
    ]
    return Report(
        columns=OFFICIAL_RECORD_COLUMNS,
        rows=body,
        title="Official record",
        filename=f"official-record-{room.code}-{_span(start, end)}",
        time_zone=zone_of(room),
        totals=totals,
        summed=["official"],
    )


def variances_report(*, variances: QuerySet[Variance], filename: str = "variances") -> Report:
    """The variances, each with its direction in words and its signed amount ('short', '-$71.10'),
    whether a recount superseded its count, and finance's correction of the official record; then
    the totals per direction and net (a variance of a superseded count is left out of them)."""
    rows = list(variances.select_related("room", "box", "explained_by", "count").prefetch_related("corrections"))
    body: list[list[Any]] = [
        [
            v.pk,
            v.room.code,
            v.gaming_day,
            v.get_kind_display(),
            v.box.code if v.box else "",
            v.count_id,
            v.verification_id,
            v.amount_cents,
            v.direction.value,
            display_variance(v.amount_cents),
            v.threshold_cents,
            v.needs_explanation,
            v.found_at,
            v.explanation,
            (v.explained_by.get_full_name() or v.explained_by.username) if v.explained_by else "",
            (v.explained_by.credential_number or "") if v.explained_by else "",
            v.explained_at,
            v.superseded,
            sum(correction.official_change_cents for correction in v.corrections.all()) or None,
        ]
        for v in rows
    ]
    standing = [v.amount_cents for v in rows if not v.superseded]
    over, short = sum(c for c in standing if c > 0), sum(c for c in standing if c < 0)
    for label, cents in (("Total over", over), ("Total short", short), ("Net", over + short)):
        total: list[Any] = [None] * len(VARIANCE_COLUMNS)
        total[3], total[7] = label, cents
        total[8], total[9] = variance_direction(cents).value, display_variance(cents)
        body.append(total)
    zones = {v.room.timezone for v in rows}
    zone = zone_of(zones.pop()) if len(zones) == 1 else None
    return Report(
        columns=VARIANCE_COLUMNS,
        rows=body,
        title="Variances",
        filename=filename,
        time_zone=zone or zone_of(None),  # the site's zone when the rows span rooms of several
    )


def custody_log_report(*, room: PokerRoom, day: date, events: Iterable[CustodyEvent]) -> Report:
    body = [[event.at, event.box, event.step, event.person, event.document] for event in events]
    return Report(
        columns=CUSTODY_COLUMNS,
        rows=body,
        title="Custody log",
        filename=f"custody-log-{room.code}-{day}",
        time_zone=zone_of(room),
    )
