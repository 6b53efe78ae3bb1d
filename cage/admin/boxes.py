"""Boxes, the notices to compliance, the count sheets and the counts in the admin."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html

from cage.admin.common import CageAdmin
from cage.admin.verifications import _count_sheets_pdf
from casino_backoffice.core.admin import signatures_html
from casino_backoffice.core.clock import zone_of
from casino_backoffice.ledger.models import Account
from casino_backoffice.ledger.selectors import accounts_total_balance, balance_of
from casino_backoffice.money import display_cents

from ..models import Box, ComplianceNotice, Count, CountSheet, CountStatus, display_variance

# --- Boxes, notices, count sheets, counts ---------------------------------------------------------


@admin.register(Box)
class BoxAdmin(CageAdmin):
    """Every box with what it holds now by the ledger (expected), in the list's one query."""

    list_display = ["code", "room", "table", "kind", "jackpot", "expected"]
    list_filter = ["room", "kind", "jackpot"]
    list_select_related = ["room", "table", "jackpot"]
    search_fields = ["code"]
    readonly_fields = ["expected"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Box]:
        return super().get_queryset(request).annotate(expected_cents=balance_of("account"))

    @admin.display(description="Expected (in the box by the ledger)", ordering="expected_cents")
    def expected(self, box: Box) -> str:
        return display_cents(box.expected_cents)  # type: ignore[attr-defined]

    def changelist_totals(self, queryset: QuerySet[Any]) -> list[tuple[str, int]]:
        return [("Expected", accounts_total_balance(Account.objects.filter(box__in=queryset.values("pk"))))]


@admin.register(ComplianceNotice)
class ComplianceNoticeAdmin(CageAdmin):
    list_display = ["gaming_day", "room", "notified", "method", "notified_at", "recorded_by"]
    list_filter = ["room", "gaming_day"]
    list_select_related = ["room", "recorded_by"]
    exclude = ["request_sha256"]
    readonly_fields = ["signed_by"]

    @admin.display(description="Signatures")
    def signed_by(self, notice: ComplianceNotice) -> str:
        return signatures_html(notice)


@admin.register(CountSheet)
class CountSheetAdmin(CageAdmin):
    """The counts that must happen: each box once a gaming day, each High Hand box each period."""

    list_display = ["box", "room", "gaming_day", "kind", "key", "due_by", "counted", "overdue_flagged_at"]
    list_filter = ["room", "gaming_day", "kind"]
    list_select_related = ["box", "room"]
    search_fields = ["box__code", "key"]
    actions = ["count_sheets_pdf"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[CountSheet]:
        return super().get_queryset(request).prefetch_related("counts")

    @admin.display(description="Counted")
    def counted(self, sheet: CountSheet) -> str:
        count = sheet.current_count
        if count is None:
            return "not yet"
        superseded = ", ".join(f"count {old.pk} {display_cents(old.counted_cents)}" for old in sheet.superseded_counts)
        recounted = f"; recounted, superseding {superseded}" if superseded else ""
        return f"{display_cents(count.counted_cents)} ({count.get_status_display().lower()}){recounted}"

    @admin.action(description="The selected count sheets, with every signature, as PDF")
    def count_sheets_pdf(self, request: HttpRequest, queryset: QuerySet[CountSheet]) -> HttpResponse:
        sheets = list(queryset.select_related("room", "box__table", "box__jackpot").order_by("gaming_day", "box__code"))
        zones = {sheet.room.timezone for sheet in sheets}
        zone = zone_of(zones.pop() if len(zones) == 1 else None)
        return _count_sheets_pdf(
            request, sheets=sheets, counts=[], title="Count sheets", filename="count-sheets", zone=zone
        )


@admin.register(Count)
class CountAdmin(CageAdmin):
    list_display = [
        "id",
        "box",
        "gaming_day",
        "place",
        "counted",
        "expected",
        "variance",
        "status",
        "counted_by",
        "witnessed_by",
        "surveillance_reference",
    ]
    list_filter = ["status", "place", "gaming_day", "box__room"]
    list_select_related = ["box", "counted_by", "witnessed_by", "superseded_by"]
    search_fields = ["box__code", "surveillance_reference"]
    date_hierarchy = "counted_at"
    exclude = ["request_sha256", "denominations", "supersedes", "recount_reason"]
    readonly_fields = ["variance", "chips", "recount", "signed_by"]
    totals = ["counted_cents", "expected_cents"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Count]:
        return super().get_queryset(request).select_related("superseded_by")

    def changelist_totals(self, queryset: QuerySet[Any]) -> list[tuple[str, int]]:
        # A count a recount superseded is not money twice: the totals are of the counts that stand.
        return super().changelist_totals(queryset.exclude(status=CountStatus.SUPERSEDED))

    @admin.display(description="Counted", ordering="counted_cents")
    def counted(self, count: Count) -> str:
        if count.is_superseded:
            return format_html("<s>{}</s>", display_cents(count.counted_cents))
        return display_cents(count.counted_cents)

    @admin.display(description="Variance")
    def variance(self, count: Count) -> str:
        if count.is_superseded:
            return format_html("<s>{}</s>", display_variance(count.variance_cents))
        return display_variance(count.variance_cents)

    @admin.display(description="Recount")
    def recount(self, count: Count) -> str:
        recount = getattr(count, "superseded_by", None)
        if recount is not None:
            return (
                f"Superseded by recount {recount.pk} ({display_cents(recount.counted_cents)}): {recount.recount_reason}"
            )
        if count.supersedes_id:
            return f"Recount superseding count {count.supersedes_id}: {count.recount_reason}"
        return "—"

    @admin.display(description="Chips by denomination")
    def chips(self, count: Count) -> str:
        pieces = sorted(((int(value), int(n)) for value, n in (count.denominations or {}).items()), reverse=True)
        return ", ".join(f"{n} \u00d7 {display_cents(value).removesuffix('.00')}" for value, n in pieces) or "not given"

    @admin.display(description="Signatures")
    def signed_by(self, count: Count) -> str:
        return signatures_html(count)
