"""The cage in the admin: the day's arriving containers and boxes, one screen to count or verify a
transport, the variances to explain, the official record by fund and gaming day, the custody log,
and the count sheets as PDF.

Every row here is a signed document or moves money: read-only, never deleted; what changes it is a
service (``cage_verify``, ``variance_explain``) behind a form with a PIN signature, shown to those the
one table of actions and roles allows (``may``). Lists a cashier works from carry their totals.
"""

from __future__ import annotations

import uuid
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from casino_backoffice.core.admin import (
    ReadOnlyAdmin,
    ReadOnlyInline,
    export_links,
    room_object_or_404,
    signatures_html,
)
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.exports import export_response, pdf_response
from casino_backoffice.core.floor.forms import MoneyField, PinSignatureField
from casino_backoffice.ledger.models import Account, AccountKind
from casino_backoffice.ledger.selectors import account_balances, accounts_total_balance, balance_of
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.funds.accounts import jackpot_fund_account
from jackpots.funds.models import Jackpot
from tables.models import PokerRoom
from tables.selectors import gaming_day, rooms_of

from .accounts import revenue_spec
from .exceptions import VarianceNotConfirmed
from .exports import custody_log_report, official_record_report, variances_report
from .floor.day_close import CloseDayForm, day_rows
from .models import (
    Box,
    CageVerification,
    ComplianceNotice,
    Count,
    CountSheet,
    CountStatus,
    GamingDayClose,
    MissingBox,
    ScheduleRun,
    Transport,
    TransportItem,
    TransportKind,
    TransportStatus,
    Variance,
    VarianceKind,
    display_variance,
)
from .reports import count_sheets_document
from .selectors import custody_log, official_record, unresolved_filter
from .services import cage_verify, gaming_day_close, variance_explain

MONEY_INPUT = forms.TextInput(
    attrs={"inputmode": "decimal", "placeholder": "0.00", "autocomplete": "off", "size": "12"}
)


class _DefaultFilter(admin.SimpleListFilter):
    """A list filter with a default choice: the list opens on what a cashier works from."""

    default = ""

    def value(self) -> str:
        value = super().value()
        return self.default if value is None else str(value)

    def choices(self, changelist: Any) -> Any:
        for lookup, title in self.lookup_choices:
            yield {
                "selected": self.value() == str(lookup),
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }


class _CageAdmin(ReadOnlyAdmin):
    change_list_template = "admin/cage/change_list.html"

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        context = {"may_read_record": may(request.user, Action.CAGE_RECORD_READ), **(extra_context or {})}
        return super().changelist_view(request, context)


def _rooms(request: HttpRequest) -> list[PokerRoom]:
    """The rooms a page may ask for: those the person works in (``tables.selectors.rooms_of``)."""
    return list(rooms_of(request.user))


def _room_of(request: HttpRequest, rooms: list[PokerRoom]) -> PokerRoom | None:
    return next((room for room in rooms if room.code == request.GET.get("room")), rooms[0] if rooms else None)


def _day(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:
        return None


# --- Boxes, notices, count sheets, counts ---------------------------------------------------------


@admin.register(Box)
class BoxAdmin(_CageAdmin):
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
class ComplianceNoticeAdmin(_CageAdmin):
    list_display = ["gaming_day", "room", "notified", "method", "notified_at", "recorded_by"]
    list_filter = ["room", "gaming_day"]
    list_select_related = ["room", "recorded_by"]
    exclude = ["request_sha256"]
    readonly_fields = ["signed_by"]

    @admin.display(description="Signatures")
    def signed_by(self, notice: ComplianceNotice) -> str:
        return signatures_html(notice)


@admin.register(CountSheet)
class CountSheetAdmin(_CageAdmin):
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
        zone = ZoneInfo(zones.pop() if len(zones) == 1 else settings.TIME_ZONE)
        return _count_sheets_pdf(
            request, sheets=sheets, counts=[], title="Count sheets", filename="count-sheets", zone=zone
        )


@admin.register(Count)
class CountAdmin(_CageAdmin):
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


# --- Transports: the day's arrivals, and the one screen to count or verify ------------------------


class ArrivingFilter(_DefaultFilter):
    title = "state"
    parameter_name = "arriving"
    default = "arriving"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("arriving", "Arriving: in transit or at the cage"), ("verified", "Verified"), ("all", "All")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "arriving":
            return queryset.filter(status__in=[TransportStatus.IN_TRANSIT, TransportStatus.ACCOUNTED])
        if self.value() == "verified":
            return queryset.filter(status=TransportStatus.VERIFIED)
        return queryset


class TransportItemInline(ReadOnlyInline):
    model = TransportItem
    fields = readonly_fields = ("box", "count", "table_count", "expected")

    def get_queryset(self, request: HttpRequest) -> QuerySet[TransportItem]:
        return super().get_queryset(request).select_related("box", "count")

    @admin.display(description="Table count")
    def table_count(self, item: TransportItem) -> str:
        return display_cents(item.count.counted_cents) if item.count else "uncounted"

    @admin.display(description="Expected when taken")
    def expected(self, item: TransportItem) -> str:
        return display_cents(item.expected_cents)


class MissingBoxInline(ReadOnlyInline):
    model = MissingBox
    fields = readonly_fields = ("box", "reason", "recorded_by", "recorded_at")


class VerifyForm(forms.Form):
    """The cashier's count: the aggregate of a container of table counts, or each uncounted box."""

    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=120)

    def __init__(self, *args: Any, codes: list[str] | None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial["idempotency_key"] = f"admin-{uuid.uuid4()}"
        self.codes = codes
        if codes is None:
            self.fields["aggregate"] = MoneyField(label="Aggregate you counted", widget=MONEY_INPUT)
        else:
            for code in codes:
                self.fields[f"box_{code}"] = MoneyField(label=f"Box {code}", widget=MONEY_INPUT)
        self.fields["pin"] = PinSignatureField()
        # Shown once the cashier's count was refused for a variance over the room's threshold.
        self.fields["confirm_variance"] = forms.BooleanField(
            required=False, label="I counted again: my count stands, with the variance shown above."
        )

    def amount_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name not in ("confirm_variance", "idempotency_key")]

    def counted(self) -> int | dict[str, int]:
        if self.codes is None:
            return int(self.cleaned_data["aggregate"])
        return {code: int(self.cleaned_data[f"box_{code}"]) for code in self.codes}


@admin.register(Transport)
class TransportAdmin(_CageAdmin):
    """The day's arriving containers and boxes (in transit or at the cage), each with its boxes and
    what they held, and the one screen where a cashier counts or verifies it."""

    list_display = ["seal", "kind", "gaming_day", "status", "boxes", "declared", "expected", "carried_by", "carried_at"]
    list_filter = [ArrivingFilter, "gaming_day", "room", "kind", "destination"]
    list_select_related = ["room", "carried_by", "accounted_by", "verification"]
    search_fields = ["seal", "items__box__code"]
    exclude = ["request_sha256"]
    readonly_fields = ["signed_by", "verify_link"]
    inlines = [TransportItemInline, MissingBoxInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Transport]:
        return (
            super()
            .get_queryset(request)
            .annotate(expected_cents=Sum("items__expected_cents"))
            .prefetch_related("items__box")
        )

    def get_list_display(self, request: HttpRequest) -> Any:
        # A cashier sees the way to count or verify each transport; others see where it stands.
        return [
            *super().get_list_display(request),
            "verify_link" if may(request.user, Action.CAGE_VERIFY) else "verification_state",
        ]

    @admin.display(description="Expected when taken", ordering="expected_cents")
    def expected(self, transport: Transport) -> str:
        return display_cents(transport.expected_cents or 0)  # type: ignore[attr-defined]

    @admin.display(description="Boxes")
    def boxes(self, transport: Transport) -> str:
        return ", ".join(item.box.code for item in transport.items.all())

    @admin.display(description="Cage")
    def verification_state(self, transport: Transport) -> str:
        verification = getattr(transport, "verification", None)
        if verification is None:
            return "not yet verified"
        return f"{verification.get_status_display()}: {display_cents(verification.official_cents)} official"

    @admin.display(description="Cage")
    def verify_link(self, transport: Transport) -> str:
        url = reverse("admin:cage_transport_verify", args=[transport.pk])
        if getattr(transport, "verification", None) is not None:
            return format_html('<a href="{}">{}</a>', url, self.verification_state(transport))
        if transport.kind == TransportKind.BOXES and transport.status != TransportStatus.ACCOUNTED:
            return "awaiting its accounting at the cage"
        label = "Verify the aggregate…" if transport.kind == TransportKind.TABLE_COUNTS else "Count the boxes…"
        return format_html('<a class="button" href="{}">{}</a>', url, label)

    @admin.display(description="Signatures")
    def signed_by(self, transport: Transport) -> str:
        return signatures_html(transport)

    def changelist_totals(self, queryset: QuerySet[Any]) -> list[tuple[str, int]]:
        declared = Transport.objects.filter(pk__in=queryset.values("pk")).aggregate(
            total=Sum("declared_cents", default=0)
        )["total"]
        expected = TransportItem.objects.filter(transport__in=queryset.values("pk")).aggregate(
            total=Sum("expected_cents", default=0)
        )["total"]
        return [("Declared", int(declared)), ("Expected when taken", int(expected))]

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.verify_view)
        return [path("<int:transport_id>/verify/", view, name="cage_transport_verify"), *super().get_urls()]

    def verify_view(self, request: HttpRequest, transport_id: int) -> HttpResponse:
        """One screen to count or verify a transport (§637a.15(e)): for a container of table counts,
        the aggregate the cashier counted; for uncounted boxes, each box. The cashier signs with their
        PIN; the result (official amounts and any variance) shows on the same screen."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        transport = room_object_or_404(
            request, Transport.objects.select_related("room", "carried_by", "accounted_by"), pk=transport_id
        )
        items = list(
            transport.items.select_related(
                "box__table", "box__jackpot", "count__counted_by", "count__witnessed_by"
            ).order_by("box__code")
        )
        excused = {
            missing.box.code: missing for missing in transport.missing_boxes.select_related("box", "recorded_by")
        }
        verification = CageVerification.objects.filter(transport=transport).select_related("cashier").first()
        can_verify = may(request.user, Action.CAGE_VERIFY)
        ready = transport.kind == TransportKind.TABLE_COUNTS or transport.status == TransportStatus.ACCOUNTED
        codes = (
            None
            if transport.kind == TransportKind.TABLE_COUNTS
            else [i.box.code for i in items if i.box.code not in excused]
        )
        form = None
        error = ""
        confirm: VarianceNotConfirmed | None = None
        if verification is None and can_verify and ready:
            form = VerifyForm(request.POST if request.method == "POST" else None, codes=codes)
            if request.method == "POST":
                if form.is_valid():
                    try:
                        verification = cage_verify(
                            transport=transport,
                            counted=form.counted(),
                            actor=acting_user(request),
                            pin=form.cleaned_data["pin"],
                            idempotency_key=form.cleaned_data["idempotency_key"],
                            confirm_variance=form.cleaned_data["confirm_variance"],
                        )
                    except VarianceNotConfirmed as refused:
                        confirm, error = refused, refused.message
                    except DomainError as refused:
                        error = refused.message
                    else:
                        self.message_user(
                            request,
                            f"Seal {transport.seal} verified: {display_cents(verification.official_cents)} made official.",
                            messages.SUCCESS,
                        )
                        return redirect("admin:cage_transport_verify", transport.pk)
                else:
                    error = "Nothing was verified: correct what is marked below."
        variances = (
            list(Variance.objects.filter(verification=verification).select_related("box", "explained_by"))
            if verification
            else []
        )
        box_counts = verification.box_counts if verification else {}
        rows = [
            {
                "item": item,
                "table_count": item.count.counted_cents if item.count else None,
                "cage_count": box_counts.get(item.box.code),
                "excused": excused.get(item.box.code),
                "variance": (box_counts[item.box.code] - item.expected_cents) if item.box.code in box_counts else None,
            }
            for item in items
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": f"Seal {transport.seal}: "
            + ("verified" if verification else "verify the aggregate" if codes is None else "count the boxes"),
            "opts": self.model._meta,
            "transport": transport,
            "rows": rows,
            "form": form,
            "error": error,
            "verification": verification,
            "variances": variances,
            "can_verify": can_verify,
            "ready": ready,
            "may_explain": may(request.user, Action.VARIANCE_EXPLAIN),
            "rule": CageVerification.CASHIER.name,
            "confirm": _confirmation(confirm),
        }
        return TemplateResponse(request, "admin/cage/transport_verify.html", context)


def _confirmation(refused: VarianceNotConfirmed | None) -> dict[str, Any] | None:
    """What the cashier confirms: both amounts and the variance, in words and sign."""
    if refused is None:
        return None
    return {
        "counted": display_cents(refused.counted_cents),
        "expected": display_cents(refused.expected_cents),
        "expected_label": "Declared (the table counts)" if refused.declared else "Expected by the ledger",
        "variance": display_variance(refused.counted_cents - refused.expected_cents),
        "threshold": display_cents(refused.threshold_cents),
        "boxes": [
            (code, display_cents(cents), display_cents(expected), display_variance(cents - expected))
            for code, cents, expected in refused.boxes
        ],
    }


@admin.register(MissingBox)
class MissingBoxAdmin(_CageAdmin):
    list_display = ["box", "transport", "reason", "recorded_by", "recorded_at"]
    list_select_related = ["box", "transport", "recorded_by"]
    readonly_fields = ["signed_by"]

    @admin.display(description="Signatures")
    def signed_by(self, missing: MissingBox) -> str:
        return signatures_html(missing)


# --- Verifications: the official record and the custody log --------------------------------------


@admin.register(CageVerification)
class CageVerificationAdmin(_CageAdmin):
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
        rooms = _rooms(request)
        room = _room_of(request, rooms)
        today = gaming_day(room=room, at=timezone.now()) if room else timezone.localdate()
        start = _day(request.GET.get("from")) or today.replace(day=1)
        end = _day(request.GET.get("to")) or today
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
        rooms = _rooms(request)
        room = _room_of(request, rooms)
        day = _day(request.GET.get("day")) or (
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
            "zone": ZoneInfo(room.timezone) if room else None,
        }
        return TemplateResponse(request, "admin/cage/custody_log.html", context)

    def count_sheets_view(self, request: HttpRequest) -> HttpResponse:
        """The count sheets of a room's gaming day as PDF, with every signature and credential number."""
        self._require_record(request)
        rooms = _rooms(request)
        room = _room_of(request, rooms)
        if room is None:
            raise PermissionDenied
        day = _day(request.GET.get("day")) or gaming_day(room=room, at=timezone.now())
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
            zone=ZoneInfo(room.timezone),
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
        "printed_at": timezone.now(),
        "printed_by": acting_user(request),
        "zone": zone,
    }
    return pdf_response(template_name="cage/count_sheets.html", context=context, filename=filename, request=request)


# --- Variances ------------------------------------------------------------------------------------


class UnresolvedFilter(_DefaultFilter):
    title = "explanation"
    parameter_name = "explanation"
    default = "awaiting"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("awaiting", "Awaiting an explanation"),
            ("explained", "Explained"),
            ("below", "Under the threshold"),
            ("all", "All"),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if value == "awaiting":
            return queryset.filter(unresolved_filter())
        if value == "explained":
            return queryset.filter(explained_at__isnull=False)
        if value == "below":
            return queryset.filter(needs_explanation=False)
        return queryset


class ExplainForm(forms.Form):
    reason = forms.CharField(
        label="Why does the count differ?", widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), max_length=2000
    )
    pin = PinSignatureField()


@admin.register(Variance)
class VarianceAdmin(_CageAdmin):
    """Every variance (the variance report), opening on those that await an explanation; a shift
    supervisor or finance explains one and signs. Unresolved ones block closing their gaming day."""

    list_display = ["id", "gaming_day", "where", "what", "amount", "threshold", "state"]
    list_filter = [UnresolvedFilter, "kind", "gaming_day", "room"]
    list_select_related = ["room", "box", "explained_by", "verification__transport", "count"]
    search_fields = ["box__code", "explanation"]
    readonly_fields = ["signed_by", "official_record_correction"]
    actions = ["export_csv", "export_xlsx"]

    @admin.display(description="Amount", ordering="amount_cents")
    def amount(self, variance: Variance) -> str:
        if variance.superseded:
            return format_html("<s>{}</s>", display_variance(variance.amount_cents))
        return display_variance(variance.amount_cents)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Variance]:
        return super().get_queryset(request).prefetch_related("corrections__corrected_by")

    @admin.display(description="Corrections of the official record")
    def official_record_correction(self, variance: Variance) -> str:
        return (
            "; ".join(
                f"{correction.box.code}: {display_cents(correction.official_change_cents)} to the official account, "
                f"by {correction.corrected_by} ({correction.reason})"
                for correction in variance.corrections.select_related("box", "corrected_by")
            )
            or "none"
        )

    def get_list_display(self, request: HttpRequest) -> Any:
        shown = list(super().get_list_display(request))
        return [*shown, "explain_link"] if may(request.user, Action.VARIANCE_EXPLAIN) else shown

    @admin.display(description="Box", ordering="box__code")
    def where(self, variance: Variance) -> str:
        if variance.box is not None:
            return variance.box.code
        return f"seal {variance.verification.transport.seal}" if variance.verification else "—"

    @admin.display(description="What", ordering="kind")
    def what(self, variance: Variance) -> str:
        return {
            VarianceKind.COUNT: "table count vs expected",
            VarianceKind.CAGE_COUNT: "cage count vs expected",
            VarianceKind.CAGE_VS_TABLE: "cage vs table counts",
        }.get(VarianceKind(variance.kind), variance.kind)

    @admin.display(description="Explanation")
    def state(self, variance: Variance) -> str:
        if variance.superseded:
            return "superseded by a recount"
        corrections = list(variance.corrections.all())
        if corrections:
            return f"explained and corrected by {corrections[0].corrected_by}"
        if variance.explained_at is not None:
            return f"explained by {variance.explained_by}"
        return "awaiting" if variance.needs_explanation else "under the threshold"

    @admin.display(description="")
    def explain_link(self, variance: Variance) -> str:
        if not variance.unresolved:
            return ""
        return format_html(
            '<a class="button" href="{}">Explain and sign…</a>',
            reverse("admin:cage_variance_explain", args=[variance.pk]),
        )

    @admin.display(description="Signatures")
    def signed_by(self, variance: Variance) -> str:
        return signatures_html(variance)

    @admin.action(description="Export the selected variances as CSV")
    def export_csv(self, request: HttpRequest, queryset: QuerySet[Variance]) -> HttpResponse:
        return export_response(variances_report(variances=queryset.order_by("found_at", "pk")), "csv")

    @admin.action(description="Export the selected variances as XLSX")
    def export_xlsx(self, request: HttpRequest, queryset: QuerySet[Variance]) -> HttpResponse:
        return export_response(variances_report(variances=queryset.order_by("found_at", "pk")), "xlsx")

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        query = request.GET.urlencode()
        links = {
            extension: reverse("admin:cage_variance_export", args=[extension]) + (f"?{query}" if query else "")
            for extension in ("csv", "xlsx")
        }
        response = super().changelist_view(request, {"export_links": links, **(extra_context or {})})
        return _with_variance_totals(response, field="amount_cents")

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("<int:variance_id>/explain/", wrap(self.explain_view), name="cage_variance_explain"),
            path("export/<str:extension>/", wrap(self.export_view), name="cage_variance_export"),
            *super().get_urls(),
        ]

    def export_view(self, request: HttpRequest, extension: str) -> HttpResponse:
        """Every variance the list's filters select, as CSV or XLSX."""
        if not self.has_view_permission(request) or extension not in ("csv", "xlsx"):
            raise PermissionDenied
        changelist = self.get_changelist_instance(request)
        return export_response(variances_report(variances=changelist.queryset.order_by("found_at", "pk")), extension)

    def explain_view(self, request: HttpRequest, variance_id: int) -> HttpResponse:
        """A shift supervisor or finance explains a variance and signs (``variance_explain``)."""
        if not may(request.user, Action.VARIANCE_EXPLAIN):
            raise PermissionDenied
        variance = room_object_or_404(
            request, Variance.objects.select_related("room", "box", "count", "verification__transport"), pk=variance_id
        )
        form = ExplainForm(request.POST or None)
        error = ""
        if request.method == "POST" and form.is_valid():
            try:
                variance_explain(
                    variance=variance,
                    reason=form.cleaned_data["reason"],
                    actor=acting_user(request),
                    pin=form.cleaned_data["pin"],
                )
            except DomainError as refused:
                error = refused.message
            else:
                self.message_user(request, f"Variance {variance.pk} explained and signed.", messages.SUCCESS)
                return redirect("admin:cage_variance_changelist")
        where = (
            variance.box.code
            if variance.box
            else f"seal {variance.verification.transport.seal}"
            if variance.verification
            else ""
        )
        summary = (
            f"{variance.get_kind_display()}: {display_variance(variance.amount_cents)} ({where}, gaming day {variance.gaming_day}); "
            f"the room's threshold was {display_cents(variance.threshold_cents)}."
        )
        context = {
            **self.admin_site.each_context(request),
            "title": f"Explain variance {variance.pk}",
            "summary": summary,
            "rule": Variance.EXPLAINER.name,
            "form": form,
            "submit_label": "Sign the explanation",
            "error": error,
            "signatures": variance.signatures(),
        }
        return TemplateResponse(request, "admin/sign_with_pin.html", context)


def variance_totals(queryset: QuerySet[Any], *, field: str) -> list[tuple[str, str]]:
    """The totals of a list of variances, per direction and net, in words and sign: over and short
    are never added together unsaid. A variance of a count a recount superseded is left out."""
    if queryset.model is Variance:
        queryset = queryset.exclude(count__status=CountStatus.SUPERSEDED)
    sums = queryset.aggregate(
        over=Sum(field, filter=Q(**{f"{field}__gt": 0}), default=0),
        short=Sum(field, filter=Q(**{f"{field}__lt": 0}), default=0),
    )
    over, short = int(sums["over"]), int(sums["short"])
    return [
        ("Over", display_variance(over)),
        ("Short", display_variance(short)),
        ("Net", display_variance(over + short)),
    ]


def _with_variance_totals(response: HttpResponse, *, field: str) -> HttpResponse:
    context = getattr(response, "context_data", None)
    changelist = context.get("cl") if context else None
    if changelist is not None:
        assert context is not None
        context["totals"] = [*context.get("totals", []), *variance_totals(changelist.queryset, field=field)]
    return response


@admin.register(GamingDayClose)
class GamingDayCloseAdmin(_CageAdmin):
    """The closed gaming days, and finance's page to close one (*Close a gaming day*): each open day of
    their rooms with what still blocks it, each a link, and the close with the PIN (§637a.17)."""

    list_display = ["gaming_day", "room", "closed_by", "closed_at"]
    list_filter = ["room"]
    list_select_related = ["room", "closed_by"]
    change_list_template = "admin/cage/gamingdayclose_change_list.html"

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        context = {"may_close": may(request.user, Action.GAMING_DAY_CLOSE), **(extra_context or {})}
        return super().changelist_view(request, context)

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.close_view)
        return [path("close/", view, name="cage_gaming_day_close"), *super().get_urls()]

    def close_view(self, request: HttpRequest) -> HttpResponse:
        """Finance closes a gaming day (``gaming_day_close``); the page is ``cage.floor.day_close``'s."""
        if not may(request.user, Action.GAMING_DAY_CLOSE):
            raise PermissionDenied
        error, failed = "", None
        if request.method == "POST":
            form = CloseDayForm(request.POST)
            room = next((r for r in _rooms(request) if r.code == request.POST.get("room")), None)
            if form.is_valid() and room is not None:
                day = form.cleaned_data["gaming_day"]
                try:
                    gaming_day_close(room=room, day=day, actor=acting_user(request), pin=form.cleaned_data["pin"])
                except DomainError as refused:
                    error, failed = (
                        f"Gaming day {day} of room {room.code} was not closed. {refused.message}",
                        (
                            room.code,
                            day,
                            form,
                        ),
                    )
                else:
                    self.message_user(request, f"Gaming day {day} of {room.name} closed and signed.", messages.SUCCESS)
                    return redirect("admin:cage_gaming_day_close")
            else:
                error = "Nothing was closed: " + (
                    "there is no such room of yours." if room is None else "give your PIN to sign the close."
                )
                if room is not None and form.cleaned_data.get("gaming_day"):
                    failed = (room.code, form.cleaned_data["gaming_day"], form)
        context = {
            **self.admin_site.each_context(request),
            "title": "Close a gaming day",
            "opts": self.model._meta,
            "rows": day_rows(request.user, failed=failed),
            "error": error,
            "rule": GamingDayClose.CLOSER.name,
        }
        return TemplateResponse(request, "admin/cage/close_gaming_day.html", context, status=400 if error else 200)


@admin.register(ScheduleRun)
class ScheduleRunAdmin(_CageAdmin):
    list_display = ["at", "ran_at", "sheets_created", "sheets_flagged"]
