"""Admin: time charges (read-only) and the poker revenue report with CSV and XLSX export."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from casino_backoffice.core.admin import ReadOnlyAdmin, RoomScopedAdmin, export_links
from casino_backoffice.core.clock import zone_of
from casino_backoffice.core.exports import Column, Kind, Report, export_response
from casino_backoffice.money import display_cents, parse_cents
from casino_backoffice.staff.permissions import Action, may
from tables.selectors import rooms_of

from .exports import revenue_columns
from .models import PokerRevenue, TimeCharge
from .selectors import GROUPINGS, late_rounds, poker_revenue, revenue_column_label, revenue_table


@admin.register(TimeCharge)
class TimeChargeAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "table",
        "interval_starts_at",
        "interval_minutes",
        "basis",
        "players_seated",
        "amount",
        "verified_at",
        "assessed_by",
    ]
    list_filter = ["gaming_day", "basis", "table__room", "table"]
    list_select_related = ["table", "assessed_by"]
    exclude = ["request_sha256"]
    totals = ["amount_cents"]

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A read of the table of actions, as GET /api/time-charges/ is: not the cage's.
        return may(request.user, Action.TIME_CHARGES_READ) and super().has_view_permission(request, obj)

    @admin.display(description="Amount", ordering="amount_cents")
    def amount(self, charge: TimeCharge) -> str:
        return display_cents(charge.amount_cents)


def _day(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:
        return None


def _shown(columns: list[Column], row: list[Any]) -> list[Any]:
    """A row of the report as people read it: money as $1,234.56 (the exports keep "1234.56")."""
    return [
        display_cents(parse_cents(cell, allow_negative=True)) if column.kind is Kind.MONEY and cell != "" else cell
        for column, cell in zip(columns, row, strict=True)
    ]


def _totals(columns: list[Column], body: list[list[Any]]) -> list[str]:
    """The totals line under the report: rounds and every amount summed (counted only where counted)."""
    totals = []
    for index, column in enumerate(columns):
        cells = [row[index] for row in body if row[index] != ""]
        if column.kind is Kind.MONEY:
            totals.append(display_cents(sum(parse_cents(cell, allow_negative=True) for cell in cells)) if cells else "")
        elif column.kind is Kind.INTEGER:
            totals.append(str(sum(int(cell) for cell in cells)))
        else:
            totals.append("Total" if index == 0 else "")
    return totals


@admin.register(PokerRevenue)
class PokerRevenueAdmin(RoomScopedAdmin, admin.ModelAdmin):
    """Poker revenue from the ledger, by table, gaming day, shift and game: expected (rake and verified
    time charges into the drop boxes, less reversals) and counted (made official by the cage)."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may(request.user, Action.REVENUE_READ)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        if not self.has_view_permission(request):
            from django.core.exceptions import PermissionDenied

            raise PermissionDenied
        rooms = list(rooms_of(request.user))
        params = request.GET
        room = next((r for r in rooms if r.code == params.get("room")), rooms[0] if rooms else None)
        group_by = [g for g in params.getlist("group_by") if g in GROUPINGS] or ["gaming_day", "table"]
        date_from, date_to = _day(params.get("from")), _day(params.get("to"))
        rows = poker_revenue(room=room, date_from=date_from, date_to=date_to, group_by=group_by) if room else []
        header, body = revenue_table(rows, group_by=group_by)
        columns = revenue_columns(header)
        export = params.get("export")
        if export in ("csv", "xlsx") and room is not None:
            report = Report(
                columns=columns,
                rows=body,
                title="Poker revenue",
                filename=f"poker-revenue-{room.code}",
                time_zone=zone_of(room),
            )
            return export_response(report, export)
        links = export_links(request)
        context = {
            **self.admin_site.each_context(request),
            "title": "Poker revenue",
            "opts": self.model._meta,
            "rooms": rooms,
            "room": room,
            "groupings": list(GROUPINGS),
            "group_by": group_by,
            "date_from": date_from,
            "date_to": date_to,
            "header": [revenue_column_label(key) for key in header],
            "rows": [_shown(columns, row) for row in body],
            "totals": _totals(columns, body),
            "export_links": links,
            # The rounds logged late, each signed for by a shift supervisor (rake.services.late_entries).
            "late_rounds": list(late_rounds(room=room, date_from=date_from, date_to=date_to)) if room else [],
            **(extra_context or {}),
        }
        return TemplateResponse(request, "admin/rake/poker_revenue.html", context)
