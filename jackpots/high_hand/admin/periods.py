"""High Hand qualifying periods in the admin, with their Tracking Slip and the reports (§637a.16(f))."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from simple_history.admin import SimpleHistoryAdmin

from casino_backoffice.core.admin import export_links, room_object_or_404
from casino_backoffice.core.clock import zone_of
from casino_backoffice.core.exports import export_response, pdf_response
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.funds.admin import day_of, require
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.high_hand.admin.common import HighHandAdmin, period_named
from jackpots.high_hand.exports import period_history_report, tracking_slip_report
from jackpots.high_hand.models import HighHandPeriod, PeriodStatus
from jackpots.high_hand.reports import STATUS_SHORT, award_state, period_history, periods_with_counts, tracking_slip
from tables.selectors import gaming_day

# --- Periods, their slip and the reports ----------------------------------------------------------


@admin.register(HighHandPeriod)
class HighHandPeriodAdmin(HighHandAdmin, SimpleHistoryAdmin):
    """Every qualifying period (§637a.16(b)(1)), newest first; a period's page is its High Hand
    Tracking Slip (f): every entry with the player, the table, the hand, the dealer and the
    floorperson or above who verified it, the voids, the awards and their payments, every signature."""

    list_display = [
        "starts_at",
        "ends_at",
        "jackpot",
        "state",
        "contributions_cents",
        "rolled_in_cents",
        "pool_cents",
        "entries",
        "high_hand",
        "close_note",
        "waiting_note",
    ]
    list_display_links = ["starts_at"]
    list_filter = ["status", "room", ("jackpot", admin.RelatedOnlyFieldListFilter), "starts_at"]
    list_select_related = ["jackpot", "room"]
    date_hierarchy = "starts_at"
    totals = ["contributions_cents"]
    change_list_template = "admin/jackpots/high_hand/period_change_list.html"
    change_form_template = "admin/jackpots/high_hand/period_change_form.html"
    fieldsets = [
        ("The period", {"fields": ["room", "jackpot", "rules_version", "starts_at", "ends_at", "status"]}),
        ("Opened and closed by the schedule", {"fields": ["opened_at", "closed_at", "close_note"]}),
        (
            "The pool (§637a.16(g)-(h))",
            {"fields": ["contributions", "rolled_in", "pool", "announced_at", "waiting_note"]},
        ),
    ]
    # The money fields by their displays (``MoneyAdmin``), as fieldsets name them.
    readonly_fields = ["contributions", "rolled_in", "pool"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[HighHandPeriod]:
        return periods_with_counts(super().get_queryset(request).select_related(*self.list_select_related))

    def get_ordering(self, request: HttpRequest) -> list[str]:
        return ["-starts_at", "jackpot"]

    @admin.display(description="Status", ordering="status")
    def state(self, period: HighHandPeriod) -> str:
        return STATUS_SHORT[PeriodStatus(period.status)]

    @admin.display(description="Entries (void)")
    def entries(self, period: HighHandPeriod) -> str:
        count, voids = getattr(period, "entry_count", 0), getattr(period, "void_count", 0)
        return f"{count} ({voids})" if voids else str(count)

    @admin.display(description="High hand")
    def high_hand(self, period: HighHandPeriod) -> str:
        return getattr(period, "high_hand_words", None) or "—"

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        context = {"may_pay": may(request.user, Action.HIGH_HAND_PAY), **(extra_context or {})}
        return super().changelist_view(request, context)

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        period = self.get_object(request, object_id)
        context: dict[str, Any] = {**(extra_context or {})}
        if period is not None and self.has_view_permission(request, period):
            may_pay = may(request.user, Action.HIGH_HAND_PAY)
            may_approve = may(request.user, Action.HIGH_HAND_UNCLAIMED_APPROVE)
            slip = tracking_slip(period=period)
            context.update(
                {
                    # The period's start on the room's clock, as its slip says it.
                    "subtitle": period_named(slip.period),
                    "slip": slip,
                    "zone": zone_of(slip.period.room),
                    "award_rows": [
                        {
                            "line": line,
                            "state": award_state(line.award),
                            "pay_url": reverse("admin:jackpots_highhandaward_pay", args=[line.award.pk])
                            if may_pay and award_state(line.award) == "to collect"
                            else "",
                            "approve_url": reverse("admin:jackpots_highhandunclaimed_approve", args=[line.unclaimed.pk])
                            if may_approve and line.unclaimed is not None and not line.unclaimed.approved_by_id
                            else "",
                        }
                        for line in slip.awards
                        if line.award is not None
                    ],
                }
            )
        return super().change_view(request, object_id, form_url, context)

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("report/", wrap(self.report_view), name="jackpots_highhandperiod_report"),
            path("<int:period_id>/slip/", wrap(self.slip_view), name="jackpots_highhandperiod_slip"),
            *super().get_urls(),
        ]

    def slip_view(self, request: HttpRequest, period_id: int) -> HttpResponse:
        """The High Hand Tracking Slip of a period (§637a.16(f)) as PDF, or ``?export=csv|xlsx``: every
        entry with the player's name, phone, seat and identification (its last four characters), the
        table, the hand in cards and in words, the dealer and their credential number, the
        floorperson or above who verified it (name, role, credential number, time), the players dealt
        in, the pot, the moment it was made, a tie, a void with its reason and the supervisor's
        signature; the awards and their payments; every signature."""
        require(request, Action.HIGH_HAND_RECORDS_READ)
        period = room_object_or_404(request, HighHandPeriod, pk=period_id)
        slip = tracking_slip(period=period)
        if (extension := request.GET.get("export")) in ("csv", "xlsx"):
            return export_response(tracking_slip_report(slip=slip), extension)
        report = tracking_slip_report(slip=slip)
        return pdf_response(
            template_name="jackpots/reports/high_hand/tracking_slip.html",
            context={"slip": slip, "printed_at": timezone.now(), "printed_by": acting_user(request)},
            filename=report.filename,
            request=request,
        )

    def report_view(self, request: HttpRequest) -> HttpResponse:
        """The history of a High Hand fund's periods over a range of gaming days (``?jackpot=&from=&to=``;
        by default the first fund and the month so far): each period's pool, entries, winners, awards,
        payments, roll-over, uncollected awards and close note; ``&export=csv|xlsx``."""
        require(request, Action.HIGH_HAND_RECORDS_READ)
        funds = list(
            Jackpot.objects.filter(kind=JackpotKind.HIGH_HAND).select_related("room").order_by("room__code", "code")
        )
        chosen = request.GET.get("jackpot", "")
        jackpot = next((fund for fund in funds if str(fund.pk) == chosen), funds[0] if funds else None)
        if jackpot is None:
            return TemplateResponse(
                request,
                "admin/jackpots/high_hand/period_history.html",
                self._context(request, "High Hand period history", funds=funds, history=None),
            )
        start, end = self._range(request, jackpot)
        history = period_history(jackpot=jackpot, start=start, end=end)
        if (extension := request.GET.get("export")) in ("csv", "xlsx"):
            return export_response(period_history_report(history=history), extension)
        return TemplateResponse(
            request,
            "admin/jackpots/high_hand/period_history.html",
            self._context(
                request,
                f"{jackpot.name} ({jackpot.code}) period history",
                funds=funds,
                jackpot=jackpot,
                history=history,
                zone=zone_of(jackpot.room),
                export_links=export_links(request),
                printed_at=timezone.now(),
                printed_by=acting_user(request),
            ),
        )

    def _range(self, request: HttpRequest, jackpot: Jackpot) -> tuple[date, date]:
        """The gaming days of the room the report covers: ``?from=&to=``, by default the month so far."""
        today = gaming_day(room=jackpot.room, at=timezone.now())
        start = day_of(request.GET.get("from")) or today.replace(day=1)
        end = day_of(request.GET.get("to")) or today
        return (start, end) if start <= end else (end, start)

    def _context(self, request: HttpRequest, title: str, **extra: Any) -> dict[str, Any]:
        return {**self.admin_site.each_context(request), "title": title, "opts": self.model._meta, **extra}
