"""Transports in the admin: the day's arrivals, and the one screen to count or verify a transport."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from cage.admin.common import MONEY_INPUT, CageAdmin, DefaultFilter
from casino_backoffice.core.admin import ReadOnlyInline, room_object_or_404, signatures_html
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.forms import MoneyField, PinSignatureField
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may

from ..exceptions import VarianceNotConfirmed
from ..models import (
    CageVerification,
    MissingBox,
    Transport,
    TransportItem,
    TransportKind,
    TransportStatus,
    Variance,
    display_variance,
)
from ..services import cage_verify

# --- Transports: the day's arrivals, and the one screen to count or verify ------------------------


class ArrivingFilter(DefaultFilter):
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
class TransportAdmin(CageAdmin):
    """The day's arriving containers and boxes (in transit or at the cage), each with its boxes and
    what they held, and the one screen where a cashier counts or verifies it."""

    list_display = [
        "seal",
        "kind",
        "gaming_day",
        "status",
        "boxes",
        "declared",
        "expected",
        "carried_by",
        "carried_at",
    ]
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
            "rule": CageVerification.CASHIER.words,
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
class MissingBoxAdmin(CageAdmin):
    list_display = ["box", "transport", "reason", "recorded_by", "recorded_at"]
    list_select_related = ["box", "transport", "recorded_by"]
    readonly_fields = ["signed_by"]

    @admin.display(description="Signatures")
    def signed_by(self, missing: MissingBox) -> str:
        return signatures_html(missing)
