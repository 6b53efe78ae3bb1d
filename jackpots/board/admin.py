"""The jackpots' reports in the admin. The Bad Beat's, for those who may read the Bad Beat's records
(``Action.BAD_BEAT_RECORDS_READ``: the back office, poker room manager, cage cashier, finance,
compliance and administrator):

- the posted rules of §637a.15(b), from the rules version in effect: page, PDF, CSV, XLSX;
- the notice of eligibility at each table offering a Bad Beat: a printable page, one table a page, and PDF;
- the fund statement of a period: opening balance, each movement, closing balance and the display
  history: page, PDF, CSV and XLSX of each part;
- the claims of a period with their status and amounts: CSV and XLSX.

The High Hand's, for those who read the rules versions (``Action.RULES_VERSIONS_READ``: they are a
rules version in words), listed on the same page:

- the posted rules of §637a.16(b), from the rules version in effect: page, PDF, CSV, XLSX;
- the notice at each table offering a High Hand: a printable page, one table a page, and PDF.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path
from django.utils import timezone

from casino_backoffice.core.admin import RoomScopedAdmin, export_links, room_object_or_404
from casino_backoffice.core.clock import local, zone_of
from casino_backoffice.core.exports import export_response, pdf_response
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.bad_beat.exports import claims_report, display_history_report, posted_rules_report, statement_report
from jackpots.bad_beat.models import BadBeatReport
from jackpots.bad_beat.reports import claims_between, fund_statement, posted_rules, table_notices
from jackpots.board.check import display_check_lines, display_check_report
from jackpots.board.hand_rounds import hands_without_round
from jackpots.funds.admin import period_of, require, room_of, rooms
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.high_hand.exports import posted_high_hand_rules_report
from jackpots.high_hand.reports import high_hand_notices, posted_high_hand_rules
from tables.models import PokerRoom


def _pdf_link(request: HttpRequest) -> str:
    query = request.GET.copy()
    query.pop("export", None)
    query["format"] = "pdf"
    return "?" + query.urlencode()


@admin.register(BadBeatReport)
class BadBeatReportAdmin(RoomScopedAdmin, admin.ModelAdmin):
    """The page of the Bad Beat's reports and the reports themselves."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may(request.user, Action.BAD_BEAT_RECORDS_READ)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("rules/", wrap(self.rules_view), name="jackpots_badbeatreport_rules"),
            path("notices/", wrap(self.notices_view), name="jackpots_badbeatreport_notices"),
            path("statement/<int:jackpot_id>/", wrap(self.statement_view), name="jackpots_badbeatreport_statement"),
            path("claims/", wrap(self.claims_view), name="jackpots_badbeatreport_claims"),
            path("display-check/", wrap(self.display_check_view), name="jackpots_display_check"),
            path(
                "hands-without-round/",
                wrap(self.hands_without_round_view),
                name="jackpots_badbeatreport_hands_without_round",
            ),
            path("high-hand/rules/", wrap(self.high_hand_rules_view), name="jackpots_badbeatreport_high_hand_rules"),
            path(
                "high-hand/notices/",
                wrap(self.high_hand_notices_view),
                name="jackpots_badbeatreport_high_hand_notices",
            ),
            *super().get_urls(),
        ]

    def _context(self, request: HttpRequest, title: str, **extra: Any) -> dict[str, Any]:
        return {**self.admin_site.each_context(request), "title": title, "opts": self.model._meta, **extra}

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        """Every Bad Beat report of a room, with the period a statement or the claims cover."""
        require(request, Action.BAD_BEAT_RECORDS_READ)
        choices = rooms(request)
        room = room_of(request, choices)
        start, end = period_of(request, room)
        funds = list(Jackpot.objects.filter(room=room, kind=JackpotKind.BAD_BEAT).order_by("code")) if room else []
        context = self._context(
            request,
            "Bad Beat reports",
            rooms=choices,
            room=room,
            start=start,
            end=end,
            funds=funds,
            high_hand_rules_readable=may(request.user, Action.RULES_VERSIONS_READ),
        )
        return TemplateResponse(request, "admin/jackpots/reports.html", {**context, **(extra_context or {})})

    def display_check_view(self, request: HttpRequest) -> HttpResponse:
        """Every fund of the person's rooms: on the board, the official record, the difference and why
        (``jackpots.board.check``); CSV and XLSX with ``?export=``."""
        require(request, Action.BAD_BEAT_RECORDS_READ)
        now = timezone.now()
        lines = display_check_lines(rooms=rooms(request), at=now)
        if (extension := request.GET.get("export")) in ("csv", "xlsx"):
            return export_response(display_check_report(lines=lines, at=now), extension)
        context = self._context(
            request,
            "Display check of every fund",
            lines=lines,
            checked_at=local(now, None),
            export_links=export_links(request),
        )
        return TemplateResponse(request, "admin/jackpots/display_check_all.html", context)

    def hands_without_round_view(self, request: HttpRequest) -> HttpResponse:
        """Compliance's list of the jackpot hands still without their round (a Bad Beat claim or a
        Tracking Slip entry at a table that logs rounds, no round named, found or linked yet): their
        rake and contributions are nowhere until the round is logged (``hands_without_round``)."""
        require(request, Action.BAD_BEAT_RECORDS_READ)
        choices = rooms(request)
        room = room_of(request, choices)
        hands = hands_without_round(rooms=PokerRoom.objects.filter(pk=room.pk)) if room else []
        context = self._context(
            request,
            "Jackpot hands without a round",
            rooms=choices,
            room=room,
            hands=hands,
            zone=room.timezone if room else "UTC",
        )
        return TemplateResponse(request, "admin/jackpots/hands_without_round.html", context)

    def rules_view(self, request: HttpRequest) -> HttpResponse:
        """The posted Bad Beat rules of a room (§637a.15(b)) from the rules version in effect now."""
        require(request, Action.BAD_BEAT_RECORDS_READ)
        choices = rooms(request)
        room = room_of(request, choices)
        if room is None:
            raise PermissionDenied
        now = timezone.now()
        rules = posted_rules(room=room, at=now)
        if (extension := request.GET.get("export")) in ("csv", "xlsx"):
            return export_response(posted_rules_report(rules=rules), extension)
        context = {
            "rules": rules,
            "zone": zone_of(room),
            "printed_at": now,
            "printed_by": acting_user(request),
        }
        if request.GET.get("format") == "pdf":
            return pdf_response(
                template_name="jackpots/reports/posted_rules.html",
                context={**context, "title": f"Bad Beat rules of {room.name}"},
                filename=f"bad-beat-rules-{room.code}",
                request=request,
            )
        return TemplateResponse(
            request,
            "admin/jackpots/posted_rules.html",
            self._context(
                request,
                f"Posted Bad Beat rules of {room.name}",
                rooms=choices,
                room=room,
                export_links=export_links(request),
                pdf_link=_pdf_link(request),
                **context,
            ),
        )

    def notices_view(self, request: HttpRequest) -> HttpResponse:
        """The notice of eligibility posted at each table offering a Bad Beat, one page a table: a
        printable page, or PDF."""
        require(request, Action.BAD_BEAT_RECORDS_READ)
        return _notices_response(
            request, jackpot="Bad Beat", posted=posted_rules, notices=table_notices, template="table_notices"
        )

    def statement_view(self, request: HttpRequest, jackpot_id: int) -> HttpResponse:
        """The statement of a Bad Beat fund over a period of gaming days: opening balance, contributions
        made official, payouts, transfers in and out, other movements, closing balance; and the display
        history (§637a.15(h))."""
        require(request, Action.BAD_BEAT_RECORDS_READ)
        jackpot = room_object_or_404(request, Jackpot.objects.select_related("room"), pk=jackpot_id)
        start, end = period_of(request, jackpot.room)
        statement = fund_statement(jackpot=jackpot, start=start, end=end)
        if (extension := request.GET.get("export")) in ("csv", "xlsx"):
            display = request.GET.get("part") == "display"
            report = display_history_report(statement=statement) if display else statement_report(statement=statement)
            return export_response(report, extension)
        zone = zone_of(jackpot.room)
        context = {
            "statement": statement,
            "zone": zone,
            "printed_at": timezone.now(),
            "printed_by": acting_user(request),
        }
        if request.GET.get("format") == "pdf":
            return pdf_response(
                template_name="jackpots/reports/statement.html",
                context={**context, "title": f"{jackpot.name} statement, {start} to {end}"},
                filename=f"bad-beat-statement-{jackpot.room.code}-{jackpot.code}-{start}-to-{end}",
                request=request,
            )
        links = export_links(request)
        display_links = {}
        for extension in ("csv", "xlsx"):
            query = request.GET.copy()
            query["export"], query["part"] = extension, "display"
            display_links[extension] = "?" + query.urlencode()
        return TemplateResponse(
            request,
            "admin/jackpots/statement.html",
            self._context(
                request,
                f"{jackpot.name} ({jackpot.code}) statement",
                export_links=links,
                display_links=display_links,
                pdf_link=_pdf_link(request),
                funds=Jackpot.objects.filter(room=jackpot.room, kind=JackpotKind.BAD_BEAT).order_by("code"),
                **context,
            ),
        )

    def claims_view(self, request: HttpRequest) -> HttpResponse:
        """Every claim of a room opened over a period of gaming days, with its status and amounts: CSV or XLSX."""
        require(request, Action.BAD_BEAT_RECORDS_READ)
        room = room_of(request, rooms(request))
        extension = request.GET.get("export", "csv")
        if room is None or extension not in ("csv", "xlsx"):
            raise PermissionDenied
        start, end = period_of(request, room)
        span = f"{start}-to-{end}" if start != end else str(start)
        report = claims_report(
            claims=claims_between(room=room, start=start, end=end), filename=f"bad-beat-claims-{room.code}-{span}"
        )
        return export_response(report, extension)

    def high_hand_rules_view(self, request: HttpRequest) -> HttpResponse:
        """The posted High Hand rules of a room (§637a.16(b)) from the rules version in effect now."""
        require(request, Action.RULES_VERSIONS_READ)
        choices = rooms(request)
        room = room_of(request, choices)
        if room is None:
            raise PermissionDenied
        now = timezone.now()
        rules = posted_high_hand_rules(room=room, at=now)
        if (extension := request.GET.get("export")) in ("csv", "xlsx"):
            return export_response(posted_high_hand_rules_report(rules=rules), extension)
        context = {
            "rules": rules,
            "zone": zone_of(room),
            "printed_at": now,
            "printed_by": acting_user(request),
        }
        if request.GET.get("format") == "pdf":
            return pdf_response(
                template_name="jackpots/reports/high_hand_rules.html",
                context={**context, "title": f"High Hand rules of {room.name}"},
                filename=f"high-hand-rules-{room.code}",
                request=request,
            )
        return TemplateResponse(
            request,
            "admin/jackpots/high_hand_rules.html",
            self._context(
                request,
                f"Posted High Hand rules of {room.name}",
                rooms=choices,
                room=room,
                export_links=export_links(request),
                pdf_link=_pdf_link(request),
                **context,
            ),
        )

    def high_hand_notices_view(self, request: HttpRequest) -> HttpResponse:
        """The notice posted at each table offering a High Hand (§637a.16(b)), one page a table: a
        printable page, or PDF."""
        require(request, Action.RULES_VERSIONS_READ)
        return _notices_response(
            request,
            jackpot="High Hand",
            posted=posted_high_hand_rules,
            notices=high_hand_notices,
            template="high_hand_notices",
        )


def _notices_response(
    request: HttpRequest,
    *,
    jackpot: str,
    posted: Callable[..., Any],
    notices: Callable[..., Any],
    template: str,
) -> HttpResponse:
    """The notices of a jackpot at the tables of the room asked for, from the rules in effect now: a
    printable page, or its PDF (``?format=pdf``)."""
    room = room_of(request, rooms(request))
    if room is None:
        raise PermissionDenied
    now = timezone.now()
    rules = posted(room=room, at=now)
    context = {
        "title": f"{jackpot} notices at the tables of {room.name}",
        "rules": rules,
        "notices": notices(rules=rules),
        "zone": zone_of(room),
        "printed_at": now,
        "pdf_link": _pdf_link(request),
    }
    if request.GET.get("format") == "pdf":
        return pdf_response(
            template_name=f"jackpots/reports/{template}.html",
            context={**context, "pdf": True},
            filename=f"{jackpot.lower().replace(' ', '-')}-table-notices-{room.code}",
            request=request,
        )
    return TemplateResponse(request, f"jackpots/reports/{template}.html", context)
