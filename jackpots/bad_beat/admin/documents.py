"""The documents of a Bad Beat claim in the admin (§637a.15(f)-(g)): the decisions, the distributions,
the shares and their payments, read-only, each with every signature; the inlines the claim's page shows
them in; and the cage's page to pay a share (``share_pay``), which asks for the PIN and shows a
refusal's message."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.html import format_html

from casino_backoffice.core.admin import ReadOnlyInline, room_object_or_404, signatures_html
from casino_backoffice.core.clock import ZONED_SECOND, local_text
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.bad_beat.admin.common import BadBeatAdmin
from jackpots.bad_beat.models import BadBeatDecision, BadBeatDistribution, BadBeatPayment, BadBeatShare
from jackpots.bad_beat.services.payouts import share_pay
from jackpots.funds.admin import SignForm, require, sign_page
from jackpots.funds.exports import credential
from jackpots.funds.floor import id_type_field
from jackpots.funds.models import PaymentPlace
from jackpots.funds.reports import game_words, id_number_masked


def link_to_claim(claim_id: int) -> str:
    return format_html(
        '<a href="{}">claim {}</a>', reverse("admin:jackpots_badbeatclaim_change", args=[claim_id]), claim_id
    )


# --- Claims ---------------------------------------------------------------------------------------


class DecisionInline(ReadOnlyInline):
    """The shift supervisor's verification or denial, with the amounts it fixed."""

    model = BadBeatDecision
    fk_name = "claim"
    verbose_name = verbose_name_plural = "Decision of the shift supervisor (§637a.15(f))"
    fields = readonly_fields = (
        "outcome",
        "reason",
        "official",
        "owed",
        "available",
        "reserve",
        "payout",
        "decided_by",
        "decided_at",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[BadBeatDecision]:
        return super().get_queryset(request).select_related("decided_by")

    @admin.display(description="Official balance")
    def official(self, decision: BadBeatDecision) -> str:
        return display_cents(decision.official_cents)

    @admin.display(description="Owed to earlier claims")
    def owed(self, decision: BadBeatDecision) -> str:
        return display_cents(decision.owed_cents)

    @admin.display(description="Available")
    def available(self, decision: BadBeatDecision) -> str:
        return display_cents(decision.available_cents)

    @admin.display(description="Reserve kept back")
    def reserve(self, decision: BadBeatDecision) -> str:
        return display_cents(decision.reserve_cents)

    @admin.display(description="Payout")
    def payout(self, decision: BadBeatDecision) -> str:
        return display_cents(decision.payout_cents)


class DistributionInline(ReadOnlyInline):
    """Finance's distribution of the payout (§637a.15(g))."""

    model = BadBeatDistribution
    fk_name = "claim"
    verbose_name = verbose_name_plural = "Distribution prepared by finance (§637a.15(g))"
    fields = readonly_fields = ("total", "method", "leftover_rule", "prepared_by", "prepared_at")

    def get_queryset(self, request: HttpRequest) -> QuerySet[BadBeatDistribution]:
        return super().get_queryset(request).select_related("prepared_by")

    @admin.display(description="Total")
    def total(self, distribution: BadBeatDistribution) -> str:
        return display_cents(distribution.total_cents)


# A status in a list's column; the claim's page says it in full.


# --- Decisions, distributions, shares, payments ---------------------------------------------------


@admin.register(BadBeatDecision)
class BadBeatDecisionAdmin(BadBeatAdmin):
    list_display = [
        "decided_at",
        "claim_link",
        "outcome",
        "official_cents",
        "owed_cents",
        "available_cents",
        "reserve_cents",
        "payout_cents",
        "decided_by",
    ]
    list_filter = ["outcome", "claim__room", "claim__jackpot"]
    list_select_related = ["claim", "decided_by"]
    date_hierarchy = "decided_at"
    exclude = ["claim_opened_by"]
    readonly_fields = ["signed_by"]
    totals = ["payout_cents"]

    @admin.display(description="Claim", ordering="claim")
    def claim_link(self, decision: BadBeatDecision) -> str:
        return link_to_claim(decision.claim_id)

    @admin.display(description="Signatures")
    def signed_by(self, decision: BadBeatDecision) -> str:
        return signatures_html(decision)


class ShareInline(ReadOnlyInline):
    model = BadBeatShare
    fields = readonly_fields = ("position", "share", "seat", "name", "amount", "tax_reportable", "paid")

    def get_queryset(self, request: HttpRequest) -> QuerySet[BadBeatShare]:
        return super().get_queryset(request).select_related("payment__paid_by", "distribution__claim__room")

    @admin.display(description="Amount")
    def amount(self, share: BadBeatShare) -> str:
        return display_cents(share.amount_cents)

    @admin.display(description="Paid")
    def paid(self, share: BadBeatShare) -> str:
        return _paid(share)


def _paid(share: BadBeatShare) -> str:
    payment = getattr(share, "payment", None)
    if payment is None:
        return "not yet"
    return f"{payment.get_place_display()} by {payment.paid_by} at {local_text(payment.paid_at, share.distribution.claim.room, ZONED_SECOND)}"


@admin.register(BadBeatDistribution)
class BadBeatDistributionAdmin(BadBeatAdmin):
    list_display = ["prepared_at", "claim_link", "total_cents", "method", "prepared_by"]
    list_filter = ["method", "claim__room", "claim__jackpot"]
    list_select_related = ["claim", "prepared_by"]
    date_hierarchy = "prepared_at"
    exclude = ["request_sha256"]
    readonly_fields = ["signed_by"]
    inlines = [ShareInline]
    totals = ["total_cents"]

    @admin.display(description="Claim", ordering="claim")
    def claim_link(self, distribution: BadBeatDistribution) -> str:
        return link_to_claim(distribution.claim_id)

    @admin.display(description="Signatures")
    def signed_by(self, distribution: BadBeatDistribution) -> str:
        return signatures_html(distribution)


class PaidFilter(admin.SimpleListFilter):
    title = "payment"
    parameter_name = "paid"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("no", "To pay"), ("yes", "Paid")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "no":
            return queryset.filter(payment__isnull=True)
        if self.value() == "yes":
            return queryset.filter(payment__isnull=False)
        return queryset


class PayForm(SignForm):
    id_type = id_type_field(label="Patron's identification")
    id_number = forms.CharField(
        label="Its number", max_length=60, widget=forms.TextInput(attrs={"size": 30, "autocomplete": "off"})
    )


@admin.register(BadBeatShare)
class BadBeatShareAdmin(BadBeatAdmin):
    """Every share of every distribution and whether it is paid; a cage cashier or finance pays one at
    the cage (§637a.15(g): 'a certificate holder may elect to pay a Bad Beat payout at the main cage')."""

    list_display = ["claim_link", "position", "share", "seat", "name", "amount_cents", "tax_reportable", "paid"]
    list_filter = [PaidFilter, "share", "tax_reportable", "distribution__claim__room"]
    list_select_related = ["distribution__claim__room", "payment__paid_by"]
    search_fields = ["name"]
    totals = ["amount_cents"]

    def get_list_display(self, request: HttpRequest) -> Any:
        shown = list(super().get_list_display(request))
        return [*shown, "pay_link"] if may(request.user, Action.BAD_BEAT_PAY) else shown

    @admin.display(description="Claim", ordering="distribution__claim")
    def claim_link(self, share: BadBeatShare) -> str:
        return link_to_claim(share.distribution.claim_id)

    @admin.display(description="Paid")
    def paid(self, share: BadBeatShare) -> str:
        return _paid(share)

    @admin.display(description="", empty_value="")
    def pay_link(self, share: BadBeatShare) -> str:
        if getattr(share, "payment", None) is not None:
            return ""
        return format_html(
            '<a class="button" style="white-space: nowrap" href="{}">Pay at the cage…</a>',
            reverse("admin:jackpots_badbeatshare_pay", args=[share.pk]),
        )

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.pay_view)
        return [path("<int:share_id>/pay/", view, name="jackpots_badbeatshare_pay"), *super().get_urls()]

    def pay_view(self, request: HttpRequest, share_id: int) -> HttpResponse:
        """A cage cashier or finance pays one share at the cage, records the patron's identification and
        signs (``share_pay``): one transfer from the fund to its payouts."""
        require(request, Action.BAD_BEAT_PAY)
        share = room_object_or_404(
            request,
            BadBeatShare.objects.select_related("distribution__claim__table", "distribution__claim__jackpot"),
            pk=share_id,
        )
        claim = share.distribution.claim
        form = PayForm(request.POST or None)
        error = ""
        if request.method == "POST" and form.is_valid():
            try:
                payment = share_pay(
                    share=share,
                    id_type=form.cleaned_data["id_type"],
                    id_number=form.cleaned_data["id_number"],
                    actor=acting_user(request),
                    pin=form.cleaned_data["pin"],
                    idempotency_key=form.cleaned_data["idempotency_key"],
                    place=PaymentPlace.CAGE,
                )
            except DomainError as refused:
                error = refused.message
            else:
                self.message_user(
                    request,
                    f"{share.get_share_display()} of claim {claim.pk} paid at the cage to {payment.patron_name}: "
                    f"{display_cents(share.amount_cents)}.",
                    messages.SUCCESS,
                )
                return redirect("admin:jackpots_badbeatclaim_change", claim.pk)
        paid = BadBeatPayment.objects.filter(share=share).exists()
        facts: list[tuple[str, Any]] = [
            ("Claim", f"{claim.pk}: {claim.hand_name} hand at table {claim.table.number}, {game_words(claim.game)}"),
            ("Fund", str(claim.jackpot)),
            ("Share", f"{share.get_share_display()}, seat {share.seat}"),
            ("Patron", share.name),
            ("Amount", display_cents(share.amount_cents)),
        ]
        if share.tax_reportable:
            facts.append(("Tax documentation", "required: the share is at or above the reporting threshold"))
        if paid:
            facts.append(("Paid", _paid(share)))
        return sign_page(
            request,
            title=f"Pay share {share.pk} at the cage",
            facts=facts,
            rule=BadBeatPayment.PAYER.words,
            form=None if paid else form,
            submit_label="Sign the payment",
            back=("Back to the claim", reverse("admin:jackpots_badbeatclaim_change", args=[claim.pk])),
            error=error,
            note="Check the patron's identification against the name on the share before paying.",
            breadcrumbs=[("Bad Beat shares", reverse("admin:jackpots_badbeatshare_changelist"))],
        )


@admin.register(BadBeatPayment)
class BadBeatPaymentAdmin(BadBeatAdmin):
    list_display = [
        "paid_at",
        "claim_link",
        "share_name",
        "patron_name",
        "id_type",
        "id_shown",
        "amount",
        "place",
        "tax_reportable",
        "paid_by",
        "paid_by_credential",
    ]
    list_filter = ["place", "tax_reportable", "share__distribution__claim__room"]
    list_select_related = ["share__distribution", "paid_by"]
    search_fields = ["patron_name", "id_number"]
    date_hierarchy = "paid_at"
    exclude = ["request_sha256", "id_number"]
    readonly_fields = ["id_shown", "amount", "signed_by"]

    @admin.display(description="ID number")
    def id_shown(self, payment: BadBeatPayment) -> str:
        """Its last four characters, as every page shows it (the search still finds the whole number)."""
        return id_number_masked(payment.id_number)

    @admin.display(description="Claim", ordering="share__distribution__claim")
    def claim_link(self, payment: BadBeatPayment) -> str:
        return link_to_claim(payment.share.distribution.claim_id)

    @admin.display(description="Share")
    def share_name(self, payment: BadBeatPayment) -> str:
        return f"{payment.share.get_share_display()}, seat {payment.share.seat}"

    @admin.display(description="Amount", ordering="share__amount_cents")
    def amount(self, payment: BadBeatPayment) -> str:
        return display_cents(payment.share.amount_cents)

    @admin.display(description="Credential")
    def paid_by_credential(self, payment: BadBeatPayment) -> str:
        return credential(payment.paid_by)

    @admin.display(description="Signatures")
    def signed_by(self, payment: BadBeatPayment) -> str:
        return signatures_html(payment)

    def changelist_totals(self, queryset: QuerySet[Any]) -> list[tuple[str, int]]:
        total = BadBeatShare.objects.filter(payment__in=queryset.values("pk")).aggregate(
            total=Sum("amount_cents", default=0)
        )["total"]
        return [("Paid", int(total))]
