from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from casino_backoffice.core.admin import ReadOnlyAdmin

from .models import Account, Correction, Transfer
from .selectors import account_balance


@admin.register(Account)
class AccountAdmin(SimpleHistoryAdmin):
    list_display = ["code", "name", "kind", "opened_at", "closed_at"]
    list_filter = ["kind"]
    search_fields = ["code", "name"]
    readonly_fields = ["code", "kind", "opened_at", "balance"]

    @admin.display(description="Balance (derived from transfers)")
    def balance(self, account: Account) -> str:
        from casino_backoffice.money import display_cents

        return display_cents(account_balance(account=account))

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Transfer)
class TransferAdmin(ReadOnlyAdmin):
    list_display = ["id", "posted_at", "kind", "amount", "credit", "debit", "reference_type", "reference_id", "posted_by"]
    list_filter = ["kind", "debit__kind", "credit__kind"]
    list_select_related = ["debit", "credit", "posted_by", "reference_type"]
    search_fields = ["idempotency_key", "reference_id", "memo", "debit__code", "credit__code"]
    date_hierarchy = "posted_at"


@admin.register(Correction)
class CorrectionAdmin(ReadOnlyAdmin, SimpleHistoryAdmin):
    list_display = ["id", "transfer", "reason", "created_at", "reversal"]
    list_select_related = ["transfer", "reversal"]
