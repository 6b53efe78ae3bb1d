"""Cage verifications in the admin: the official record by fund and gaming day, the custody log and
the count sheets as PDF."""

from __future__ import annotations

from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path
from django.utils import timezone

from cage.admin.common import CageAdmin, day_asked, room_asked, rooms_asked
from cage.admin.variances import _with_variance_totals
from casino_backoffice.core.admin import export_links, signatures_html
from casino_backoffice.core.clock import zone_of
from casino_backoffice.core.exports import export_response, pdf_response
from casino_backoffice.ledger.models import Account, AccountKind
from casino_backoffice.ledger.selectors import account_balances
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.funds.accounts import jackpot_fund_account
from jackpots.funds.models import Jackpot
from tables.models import PokerRoom
from tables.selectors import gaming_day

from ..accounts import revenue_spec
from ..exports import custody_log_report, official_record_report
from ..models import CageVerification, Count, CountSheet, display_variance
from ..reports import count_sheets_document, count_sheets_summary
from ..selectors import custody_log, official_record

# --- Verifications: the official record and the custody log --------------------------------------


@admin.register(CageVerification)
class CageVerificationAdmin(CageAdmin):
    list_display = [
        "id",
        "transport",
        "room",
        "gaming_day",
        "counted",
        "official",
        "variance",
        "status",
        "cashier",
        "verified_at",
    ]
    list_filter = ["status", "gaming_day", "room"]
    list_select_related = ["transport", "room", "cashier"]
    search_fields = ["transport__seal"]
    date_hierarchy = "verified_at"
    exclude = ["request_sha256", "box_counts"]
    readonly_fields = ["boxes_counted", "signed_by"]
    totals = ["counted_cents", "official_cents"]

    @admin.display(description="Variance", ordering="variance_cents")
    def variance(self, verification: CageVerification) -> str:
        return display_variance(verification.variance_cents)

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        return _with_variance_totals(super().changelist_view(request, extra_context), field="variance_cents")

    @admin.display(description="Boxes counted at the cage")
    def boxes_counted(self, verification: CageVerification) -> str:
        return (
            ", ".join(f"{code} {display_cents(int(cents))}" for code, cents in sorted(verification.box_counts.items()))
            or "—"
        )

    @admin.display(description="Signatures")
    def signed_by(self, verification: CageVerification) -> str:
        return signatures_html(verification)

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("official-record/", wrap(self.official_record_view), name="cage_official_record"),
            path("custody-log/", wrap(self.custody_log_view), name="cage_custody_log"),
            path("count-sheets/", wrap(self.count_sheets_view), name="cage_count_sheets"),
            *super().get_urls(),
        ]

    def _require_record(self, request: HttpRequest) -> None:
        if not may(request.user, Action.CAGE_RECORD_READ):
            raise PermissionDenied

    def official_record_view(self, request: HttpRequest) -> HttpResponse:
        """The finance department's official record (§637a.15(e), §637a.16(e)): contributions made
        official per fund (and poker revenue) and gaming day, with totals, and each fund's official
        balance; CSV and XLSX."""
        self._require_record(request)
        rooms = rooms_asked(request)
        room = room_asked(request, rooms)
        today = gaming_day(room=room, at=timezone.now()) if room else timezone.localdate()
        start = day_asked(request.GET.get("from")) or today.replace(day=1)
        end = day_asked(request.GET.get("to")) or today
        rows = official_record(room=room, start=start, end=end) if room else []
        if room is not None and (extension := request.GET.get("export")) in ("csv", "xlsx"):
            return export_response(official_record_report(room=room, rows=rows, start=start, end=end), extension)
        days: dict[date, dict[str, Any]] = {}
        by_fund: dict[int, dict[str, Any]] = {}
        for row in rows:
            day = days.setdefault(row.gaming_day, {"day": row.gaming_day, "rows": [], "total": 0})
            day["rows"].append(row)
            day["total"] += row.official_cents
            fund = by_fund.setdefault(row.account.pk, {"account": row.account, "total": 0})
            fund["total"] += row.official_cents
        funds = (
            list(
                Account.objects.filter(
                    kind__in=[AccountKind.FUND, AccountKind.REVENUE], code__in=_official_codes(room)
                ).order_by("kind", "code")
            )
            if room
            else []
        )
        balances = account_balances(accounts=funds)
        links = export_links(request)
        context = {
            **self.admin_site.each_context(request),
            "title": "Official record",
            "opts": self.model._meta,
            "rooms": rooms,
            "room": room,
            "start": start,
            "end": end,
            "days": list(days.values()),
            "by_fund": list(by_fund.values()),
            "total": sum(row.official_cents for row in rows),
            "balances": [(account, balances[account.pk]) for account in funds],
            "export_links": links,
        }
        return TemplateResponse(request, "admin/cage/official_record.html", context)

    def custody_log_view(self, request: HttpRequest) -> HttpResponse:
        """Who held each box when, from the table to the cage, on one gaming day: each step a signed
        event (§637a.15(d))."""
        self._require_record(request)
        rooms = rooms_asked(request)
        room = room_asked(request, rooms)
        day = day_asked(request.GET.get("day")) or (
            gaming_day(room=room, at=timezone.now()) if room else timezone.localdate()
        )
        events = custody_log(room=room, day=day) if room else []
        if room is not None and (extension := request.GET.get("export")) in ("csv", "xlsx"):
            return export_response(custody_log_report(room=room, day=day, events=events), extension)
        links = export_links(request)
        context = {
            **self.admin_site.each_context(request),
            "title": "Custody log",
            "opts": self.model._meta,
            "rooms": rooms,
            "room": room,
            "day": day,
            "events": events,
            "export_links": links,
            "zone": zone_of(room) if room else None,
        }
        return TemplateResponse(request, "admin/cage/custody_log.html", context)

    def count_sheets_view(self, request: HttpRequest) -> HttpResponse:
        """The count sheets of a room's gaming day as PDF, with every signature and credential number."""
        self._require_record(request)
        rooms = rooms_asked(request)
        room = room_asked(request, rooms)
        if room is None:
            raise PermissionDenied
        day = day_asked(request.GET.get("day")) or gaming_day(room=room, at=timezone.now())
        sheets = list(
            CountSheet.objects.filter(room=room, gaming_day=day)
            .select_related("room", "box__table", "box__jackpot")
            .order_by("box__code", "key")
        )
        counts = list(
            Count.objects.filter(box__room=room, gaming_day=day, sheet__isnull=True).select_related(
                "box__table",
                "box__jackpot",
                "notice",
                "counted_by",
                "witnessed_by",
                "transport_item__transport__verification",
            )
        )
        return _count_sheets_pdf(
            request,
            sheets=sheets,
            counts=counts,
            title=f"Count sheets of {room.name}, gaming day {day}",
            filename=f"count-sheets-{room.code}-{day}",
            zone=zone_of(room),
        )


def _official_codes(room: PokerRoom) -> list[str]:
    """The accounts where a room's money becomes official: its jackpots' funds and its poker revenue
    (``cage.accounts``)."""
    return [
        *(jackpot_fund_account(jackpot=jackpot).code for jackpot in Jackpot.objects.filter(room=room)),
        revenue_spec(room=room).code,
    ]


def _count_sheets_pdf(
    request: HttpRequest,
    *,
    sheets: list[CountSheet],
    counts: list[Count],
    title: str,
    filename: str,
    zone: ZoneInfo,
) -> HttpResponse:
    if not may(request.user, Action.CAGE_RECORD_READ):
        raise PermissionDenied
    documents = count_sheets_document(sheets=sheets, counts=counts)
    context = {
        "title": title,
        "documents": documents,
        "summary": count_sheets_summary(documents),
        "printed_at": timezone.now(),
        "printed_by": acting_user(request),
        "zone": zone,
    }
    return pdf_response(template_name="cage/count_sheets.html", context=context, filename=filename, request=request)
