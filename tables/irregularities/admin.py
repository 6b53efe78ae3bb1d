"""The irregularity log in the admin, for compliance, finance and the room's managers (issue 28, item 6).

Read-only for everyone: an irregularity and its ruling are signed, insert-only documents written by the
floor (``services``). The list is a day's log with its filters (room, gaming day, table, kind, status),
each row with its ruling and what the round's void returned to the pot (§637a.18(i)); a busy day costs
the same queries as a quiet one. The page of an irregularity is its whole file with every signature;
the file prints as a PDF (``Action.IRREGULARITY_FILE_READ``), and the list, filtered, exports as CSV
and XLSX (``reports``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import Truncator

from casino_backoffice.core.admin import ReadOnlyAdmin, room_object_or_404
from casino_backoffice.core.clock import ZONED, local_text
from casino_backoffice.core.exports import export_response, pdf_response
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may

from ..admin_filters import GamingDayFilter, TableFilter
from ..models import PokerRoom
from .house_kinds import house_kinds_in_effect
from .kinds import IrregularityKind
from .models import Irregularity, IrregularityStatus
from .reports import cards_in_words, irregularity_file, log_report, person
from .selectors import VoidReturned, voids_returned

VOID_ATTRIBUTE = "void_returned"  # what the round's void returned, set on each row of a page (``_with_voids``)


class StatusFilter(admin.SimpleListFilter):
    """Reported and waiting for a ruling, or ruled (the ruling is a row of its own)."""

    title = "status"
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return list(IrregularityStatus.choices)

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == IrregularityStatus.REPORTED:
            return queryset.filter(ruling__isnull=True)
        if self.value() == IrregularityStatus.RULED:
            return queryset.filter(ruling__isnull=False)
        return queryset


class KindFilter(admin.SimpleListFilter):
    """The regulations' kinds, then each room's own kinds found in the log (§637a.18(s)), by the name the
    room's rules in effect now give them (their code once no version names them)."""

    title = "kind"
    parameter_name = "kind"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        found = list(IrregularityKind.choices)
        recorded = (
            model_admin.get_queryset(request)
            .exclude(kind__in=IrregularityKind.values)
            .order_by("kind", "room_id")
            .values_list("kind", "room_id")
            .distinct()
        )
        names: dict[str, str] = {}
        rooms: dict[int, Any] = {}
        now = timezone.now()
        for code, room_id in recorded:
            if code in names:
                continue
            if room_id not in rooms:
                rooms[room_id] = house_kinds_in_effect(room=PokerRoom.objects.get(pk=room_id), at=now)
            house = rooms[room_id].get(code)
            names[code] = f"{house.name} (the room's own)" if house is not None else f"{code} (the room's own)"
        return found + sorted(names.items(), key=lambda item: item[1])

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(kind=self.value()) if self.value() else queryset


def _with_voids(rows: list[Irregularity]) -> list[Irregularity]:
    """The rows, each holding what its round's void returned (None: no void), read once for them all."""
    voids = voids_returned(rows)
    for row in rows:
        setattr(row, VOID_ATTRIBUTE, voids.get(row.pk))
    return rows


def void_words(void: VoidReturned | None) -> str:
    """'$8.00: rake $5.00, bb $1.00, hh $2.00': what a void returned to the pot."""
    if void is None:
        return ""
    parts = [f"rake {display_cents(void.rake_cents)}"]
    parts += [f"{code} {display_cents(cents)}" for code, cents in sorted(void.drops_cents.items())]
    return f"{display_cents(void.total_cents)}: {', '.join(parts)}"


@admin.register(Irregularity)
class IrregularityAdmin(ReadOnlyAdmin):
    """The irregularity log, newest first; a row's page is the incident's whole file."""

    list_display = [
        "id",
        "occurred_at_local",
        "where",
        "round_shown",
        "kind_and_section",
        "what_happened",
        "reporter",
        "ruling_shown",
    ]
    list_display_links = ["id", "occurred_at_local"]
    list_filter = [("room", admin.RelatedOnlyFieldListFilter), GamingDayFilter, TableFilter, KindFilter, StatusFilter]
    list_select_related = ["room", "table", "round", "reported_by", "ruling__ruled_by"]
    search_fields = ["description", "cards"]
    change_list_template = "admin/tables/irregularity/change_list.html"
    change_form_template = "admin/tables/irregularity/change_form.html"
    fieldsets = [
        (
            "What happened",
            {
                "fields": [
                    "room",
                    "table",
                    "gaming_day",
                    "round",
                    "occurred_at_local",
                    "kind_provision",
                    "cause_shown",
                    "cards_shown",
                    "description",
                    "compliance_notified",
                    "reporter",
                    "reported_at_local",
                ]
            },
        ),
    ]
    readonly_fields = ["kind_provision", "cause_shown", "cards_shown", "reporter"]

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may(request.user, Action.IRREGULARITIES_READ) and super().has_view_permission(request, obj)

    # --- Columns ----------------------------------------------------------------------------------

    @admin.display(description="When", ordering="occurred_at")
    def occurred_at_local(self, irregularity: Irregularity) -> str:
        return local_text(irregularity.occurred_at, irregularity.room, ZONED)

    @admin.display(description="Reported at", ordering="reported_at")
    def reported_at_local(self, irregularity: Irregularity) -> str:
        return local_text(irregularity.reported_at, irregularity.room, ZONED)

    @admin.display(description="Where", ordering="table__number")
    def where(self, irregularity: Irregularity) -> str:
        return f"{irregularity.room.code} {irregularity.table.number}"

    @admin.display(description="Round", ordering="round_id")
    def round_shown(self, irregularity: Irregularity) -> str:
        round_ = irregularity.round
        if round_ is None:
            return "—"
        shown = format_html(
            '<a href="{}">{}</a><br><small>pot {}, rake {}</small>',
            reverse("admin:tables_round_change", args=[round_.pk]),
            round_.pk,
            display_cents(round_.pot_cents),
            display_cents(round_.rake_cents),
        )
        void = getattr(irregularity, VOID_ATTRIBUTE, None)
        if void is None:
            return shown
        return format_html("{}<br><strong>voided, returned {}</strong>", shown, void_words(void))

    @admin.display(description="Kind", ordering="kind")
    def kind_and_section(self, irregularity: Irregularity) -> str:
        if not irregularity.cause:
            return format_html("{}<br><small>{}</small>", irregularity.get_kind_display(), irregularity.section)
        return format_html(
            "{}<br><small>{}</small><br><small>cause: {}</small>",
            irregularity.get_kind_display(),
            irregularity.section,
            irregularity.get_cause_display(),
        )

    @admin.display(description="Kind (provision)")
    def kind_provision(self, irregularity: Irregularity) -> str:
        return f"{irregularity.get_kind_display()} ({irregularity.section})"

    @admin.display(description="Cause")
    def cause_shown(self, irregularity: Irregularity) -> str:
        return irregularity.get_cause_display() if irregularity.cause else "—"

    @admin.display(description="Cards")
    def cards_shown(self, irregularity: Irregularity) -> str:
        if not irregularity.cards:
            return "none named"
        return f"{irregularity.cards} ({cards_in_words(irregularity.cards)})"

    @admin.display(description="What happened")
    def what_happened(self, irregularity: Irregularity) -> str:
        described = Truncator(irregularity.description).chars(90)
        if not irregularity.cards:
            return described
        return format_html("<strong>{}</strong> {}", irregularity.cards, described)

    @admin.display(description="Reported by", ordering="reported_by__last_name")
    def reporter(self, irregularity: Irregularity) -> str:
        return f"{person(irregularity.reported_by)} ({irregularity.reported_by.credential_number})"

    @admin.display(description="Ruling")
    def ruling_shown(self, irregularity: Irregularity) -> str:
        ruling = getattr(irregularity, "ruling", None)
        if ruling is None:
            return format_html("<em>{}</em>", "reported, not ruled yet")
        return format_html(
            "{}<br><small>{} ({}), {}</small>",
            ruling.ruling,
            person(ruling.ruled_by),
            ruling.ruled_by.credential_number,
            local_text(ruling.ruled_at, irregularity.room, ZONED),
        )

    # --- The list, the page, the PDF and the exports -------------------------------------------------

    def get_changelist_instance(self, request: HttpRequest) -> Any:
        changelist = super().get_changelist_instance(request)
        changelist.result_list = _with_voids(list(changelist.result_list))
        return changelist

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        query = request.GET.urlencode()
        links = {
            extension: reverse("admin:tables_irregularity_export", args=[extension]) + (f"?{query}" if query else "")
            for extension in ("csv", "xlsx")
        }
        return super().changelist_view(request, {"export_links": links, **(extra_context or {})})

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        irregularity = self.get_object(request, object_id)
        context: dict[str, Any] = {**(extra_context or {})}
        if irregularity is not None and self.has_view_permission(request, irregularity):
            file = irregularity_file(irregularity=irregularity)
            context.update(
                {
                    "file": file,
                    "void_words": void_words(file.void),
                    "may_print": may(request.user, Action.IRREGULARITY_FILE_READ),
                }
            )
        return super().change_view(request, object_id, form_url, context)

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("<int:irregularity_id>/file/", wrap(self.file_view), name="tables_irregularity_file"),
            path("export/<str:extension>/", wrap(self.export_view), name="tables_irregularity_export"),
            *super().get_urls(),
        ]

    def export_view(self, request: HttpRequest, extension: str) -> HttpResponse:
        """Every irregularity the list's filters select, oldest first, as CSV or XLSX (``reports.LOG_COLUMNS``)."""
        if not self.has_view_permission(request) or extension not in ("csv", "xlsx"):
            raise PermissionDenied
        changelist = super().get_changelist_instance(request)  # the rows filtered, not the page's voids
        rows = list(changelist.queryset.order_by("occurred_at", "pk"))
        return export_response(log_report(rows), extension)

    def file_view(self, request: HttpRequest, irregularity_id: int) -> HttpResponse:
        """The incident's file for the regulator as PDF: the irregularity, its kind and provision, the
        round (pot, rake, drops), the cards, the ruling, the void and what it returned, and every
        signature (name, role, Board credential number, time on the room's clock, hash)."""
        if not may(request.user, Action.IRREGULARITY_FILE_READ):
            raise PermissionDenied
        irregularity = room_object_or_404(request, Irregularity, pk=irregularity_id)
        context = {
            "file": irregularity_file(irregularity=irregularity),
            "printed_at": timezone.now(),
            "printed_by": acting_user(request),
        }
        return pdf_response(
            template_name="tables/irregularity_file.html",
            context=context,
            filename=f"irregularity-{irregularity.pk}",
            request=request,
        )
