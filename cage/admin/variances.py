"""Variances in the admin: the ones to explain, with their totals."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from cage.admin.common import CageAdmin, DefaultFilter
from casino_backoffice.core.admin import room_object_or_404, signatures_html
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.exports import export_response
from casino_backoffice.core.floor.forms import PinSignatureField
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may

from ..exports import variances_report
from ..models import CountStatus, Variance, VarianceKind, display_variance
from ..selectors import unresolved_filter
from ..services import variance_explain

# --- Variances ------------------------------------------------------------------------------------


class UnresolvedFilter(DefaultFilter):
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
class VarianceAdmin(CageAdmin):
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
            "rule": Variance.EXPLAINER.words,
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
