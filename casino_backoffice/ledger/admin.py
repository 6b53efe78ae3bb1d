from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from simple_history.admin import SimpleHistoryAdmin

from casino_backoffice.core.admin import ReadOnlyAdmin, RoomScopedAdmin, TotalsAdmin, room_object_or_404
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.forms import CorrectionForm, SignWithPinForm
from casino_backoffice.staff.permissions import Action, may

from .models import Account, Correction, Transfer
from .selectors import accounts_total_balance, accounts_with_balances
from .services import correction_approve, correction_prepare


def _sign_page(
    request: HttpRequest,
    *,
    title: str,
    summary: str,
    rule: str,
    form: Any,
    submit_label: str,
    signatures: Any = (),
    error: str = "",
) -> TemplateResponse:
    context = {
        **admin.site.each_context(request),
        "title": title,
        "summary": summary,
        "rule": rule,
        "form": form,
        "submit_label": submit_label,
        "signatures": signatures,
        "error": error,
    }
    return TemplateResponse(request, "admin/sign_with_pin.html", context)


@admin.register(Account)
class AccountAdmin(RoomScopedAdmin, TotalsAdmin, SimpleHistoryAdmin):
    """Every account of the rooms a person works in, with its balance, derived from its transfers in
    the list's own query."""

    list_display = ["code", "name", "kind", "balance", "opened_at", "closed_at"]
    list_filter = ["kind"]
    search_fields = ["code", "name"]
    readonly_fields = ["code", "kind", "opened_at", "balance"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Account]:
        return accounts_with_balances(super().get_queryset(request))

    @admin.display(description="Balance (derived from transfers)", ordering="balance_cents")
    def balance(self, account: Account) -> str:
        return display_cents(account.balance_cents)  # type: ignore[attr-defined]

    def changelist_totals(self, queryset: QuerySet[Account]) -> list[tuple[str, int]]:
        return [("Balance", accounts_total_balance(queryset))]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Transfer)
class TransferAdmin(ReadOnlyAdmin):
    list_display = ["id", "posted_at", "kind", "amount", "credit", "debit", "document", "posted_by"]
    list_filter = ["kind", "debit__kind", "credit__kind"]
    list_select_related = ["debit", "credit", "posted_by", "reference_type"]
    totals = ["amount_cents"]
    search_fields = ["idempotency_key", "reference_id", "memo", "debit__code", "credit__code"]
    date_hierarchy = "posted_at"
    readonly_fields = ["correct_link"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # The button to reverse a transfer shows to those who may prepare a correction.
        return ["correct_link" if may(request.user, Action.CORRECTION_PREPARE) else "correction_link"]

    @admin.display(description="Document")
    def document(self, transfer: Transfer) -> str:
        """What caused the transfer, in words: 'Round 12', 'Count 3'."""
        if transfer.reference_type is None:
            return "—"
        return f"{transfer.reference_type.name[:1].upper()}{transfer.reference_type.name[1:]} {transfer.reference_id}"

    @admin.display(description="Correction")
    def correct_link(self, transfer: Transfer) -> str:
        if hasattr(transfer, "correction"):
            return self.correction_link(transfer)
        return format_html(
            '<a class="button" href="{}">Reverse this transfer…</a>',
            reverse("admin:ledger_transfer_correct", args=[transfer.pk]),
        )

    @admin.display(description="Correction")
    def correction_link(self, transfer: Transfer) -> str:
        if not hasattr(transfer, "correction"):
            return "none"
        url = reverse("admin:ledger_correction_change", args=[transfer.correction.pk])
        return format_html('<a href="{}">Correction {}</a>', url, transfer.correction.pk)

    def get_urls(self) -> list:
        view = self.admin_site.admin_view(self.correct_view)
        return [path("<int:transfer_id>/correct/", view, name="ledger_transfer_correct"), *super().get_urls()]

    def correct_view(self, request: HttpRequest, transfer_id: int) -> HttpResponse:
        """Finance prepares and signs the reversal of a transfer posted in error."""
        if not request.user.has_perm("ledger.view_transfer"):
            raise PermissionDenied
        transfer = room_object_or_404(request, Transfer.objects.select_related("debit", "credit"), pk=transfer_id)
        form = CorrectionForm(request.POST or None)
        error = ""
        if request.method == "POST" and form.is_valid():
            try:
                correction = correction_prepare(
                    transfer=transfer,
                    reason=form.cleaned_data["reason"],
                    actor=acting_user(request),
                    pin=form.cleaned_data["pin"],
                )
            except DomainError as exc:
                error = exc.message
            else:
                self.message_user(request, "Correction prepared and signed; a second person approves it.")
                return redirect("admin:ledger_correction_change", correction.pk)
        return _sign_page(
            request,
            title=f"Reverse transfer {transfer.pk}",
            summary=str(transfer),
            rule=Correction.PREPARER.words,
            form=form,
            submit_label="Sign and prepare the reversal",
            error=error,
        )


@admin.register(Correction)
class CorrectionAdmin(ReadOnlyAdmin, SimpleHistoryAdmin):
    list_display = ["id", "transfer", "reason", "created_at", "reversal"]
    list_select_related = ["transfer", "reversal"]
    readonly_fields = ["signed_by", "approve_link"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # The button to approve shows to those who may approve a correction.
        return ["signed_by", "approve_link" if may(request.user, Action.CORRECTION_APPROVE) else "approval"]

    @admin.display(description="Signatures")
    def signed_by(self, correction: Correction) -> str:
        return "; ".join(str(signature) for signature in correction.signatures()) or "none"

    @admin.display(description="Approval")
    def approval(self, correction: Correction) -> str:
        return (
            f"Approved: reversal transfer {correction.reversal_id}"
            if correction.reversal_id
            else "Waiting for approval"
        )

    @admin.display(description="Approval")
    def approve_link(self, correction: Correction) -> str:
        if correction.reversal_id:
            return self.approval(correction)
        return format_html(
            '<a class="button" href="{}">Approve and sign…</a>',
            reverse("admin:ledger_correction_approve", args=[correction.pk]),
        )

    def get_urls(self) -> list:
        view = self.admin_site.admin_view(self.approve_view)
        return [path("<int:correction_id>/approve/", view, name="ledger_correction_approve"), *super().get_urls()]

    def approve_view(self, request: HttpRequest, correction_id: int) -> HttpResponse:
        """A second finance person or an administrator approves; the reversal posts at once."""
        if not request.user.has_perm("ledger.view_correction"):
            raise PermissionDenied
        correction = room_object_or_404(request, Correction.objects.select_related("transfer"), pk=correction_id)
        form = SignWithPinForm(request.POST or None)
        error = ""
        if request.method == "POST" and form.is_valid():
            try:
                reversal = correction_approve(
                    correction=correction, actor=acting_user(request), pin=form.cleaned_data["pin"]
                )
            except DomainError as exc:
                error = exc.message
            else:
                self.message_user(request, f"Approved: reversal transfer {reversal.pk} posted.", messages.SUCCESS)
                return redirect("admin:ledger_correction_change", correction.pk)
        return _sign_page(
            request,
            title=f"Approve correction {correction.pk}",
            summary=f"{correction.transfer} — reason: {correction.reason}",
            rule=Correction.APPROVER.words,
            form=form,
            submit_label="Sign and post the reversal",
            signatures=correction.signatures(),
            error=error,
        )
