"""The displayed Bad Beat amount in the admin (§637a.15(h)) and the transfer of a discontinued fund
(§637a.15(i)).

The display check lists every Bad Beat fund of each room: the official record, what verified claims
owe, the finance record (available), the amount displayed, whether they match, the pending notice,
the latest adjustment and the days flagged without one. From it finance adjusts a display
(``display_adjust``; the floorperson or above present witnesses it on the floor, and only then does
it take effect); the verifications whose display was not adjusted within the posted limit are listed
as the schedule flagged them. Finance prepares a
fund transfer and another finance employee or an administrator approves it. Each on a page that shows
what is signed and asks for the PIN; a refusal shows the service's message and nothing changes.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from simple_history.admin import SimpleHistoryAdmin

from casino_backoffice.core.admin import RoomScopedAdmin, export_links, room_object_or_404, signatures_html
from casino_backoffice.core.clock import ZONED_SECOND, local_text, zone_of
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.exports import export_response
from casino_backoffice.core.floor.forms import MoneyField
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.bad_beat.admin.common import BadBeatAdmin
from jackpots.bad_beat.exports import display_check_report
from jackpots.bad_beat.models import (
    BadBeatDisplayCheck,
    DisplayAdjustment,
    DisplayAdjustmentLate,
    DisplayOverdue,
    FundTransfer,
    FundTransferStatus,
)
from jackpots.bad_beat.reports import display_check
from jackpots.bad_beat.selectors import fund_position
from jackpots.bad_beat.services.display import display_adjust, fund_transfer_approve, fund_transfer_prepare
from jackpots.funds.admin import SignForm, require, rooms, sign_page
from jackpots.funds.exports import credential
from jackpots.funds.models import Jackpot, JackpotKind


class WitnessedFilter(admin.SimpleListFilter):
    title = "witness"
    parameter_name = "witnessed"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("no", "Awaiting the witness"), ("yes", "Witnessed")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "no":
            return queryset.filter(witnessed_by__isnull=True)
        if self.value() == "yes":
            return queryset.filter(witnessed_by__isnull=False)
        return queryset


@admin.register(DisplayAdjustment)
class DisplayAdjustmentAdmin(BadBeatAdmin, SimpleHistoryAdmin):
    """Every adjustment of a displayed Bad Beat amount: what it set, what the display showed before,
    the finance record then, who adjusted and who witnessed (§637a.15(h)(1)), when it took effect (the
    witness's signature) and how long after the verification it answers (§637a.15(h))."""

    list_display = [
        "adjusted_at",
        "jackpot",
        "gaming_day",
        "amount_cents",
        "previous_cents",
        "official_cents",
        "owed_cents",
        "adjusted_by",
        "witnessed_by",
        "witnessed_at",
        "seconds_from_verification",
    ]
    list_filter = [WitnessedFilter, "room", "jackpot", "gaming_day"]
    list_select_related = ["jackpot", "adjusted_by", "witnessed_by"]
    date_hierarchy = "adjusted_at"
    exclude = ["request_sha256"]
    readonly_fields = ["signed_by"]
    change_list_template = "admin/jackpots/change_list.html"

    @admin.display(description="Signatures")
    def signed_by(self, adjustment: DisplayAdjustment) -> str:
        return signatures_html(adjustment)


@admin.register(DisplayOverdue)
class DisplayOverdueAdmin(BadBeatAdmin):
    """The gaming days that ended without an adjustment of a fund's display (§637a.15(h): 'no less than
    once a day'), as the schedule flagged them."""

    list_display = ["gaming_day", "jackpot", "room", "flagged_at"]
    list_filter = ["jackpot__room", "jackpot", "gaming_day"]
    list_select_related = ["jackpot__room"]
    change_list_template = "admin/jackpots/change_list.html"

    @admin.display(description="Room", ordering="jackpot__room")
    def room(self, flag: DisplayOverdue) -> str:
        return str(flag.jackpot.room)


@admin.register(DisplayAdjustmentLate)
class DisplayAdjustmentLateAdmin(BadBeatAdmin):
    """The verifications of a Bad Beat whose display was not adjusted, witnessed, within the limit the
    rules post (``display_adjust_within_minutes``, §637a.15(h)), as the schedule flagged them."""

    list_display = ["due_at", "jackpot", "room", "verification", "within_minutes", "flagged_at"]
    list_filter = ["jackpot__room", "jackpot"]
    list_select_related = ["jackpot__room", "verification__claim"]
    date_hierarchy = "due_at"
    change_list_template = "admin/jackpots/change_list.html"

    @admin.display(description="Room", ordering="jackpot__room")
    def room(self, flag: DisplayAdjustmentLate) -> str:
        return str(flag.jackpot.room)


# --- The display check ----------------------------------------------------------------------------


@admin.register(BadBeatDisplayCheck)
class DisplayCheckAdmin(RoomScopedAdmin, admin.ModelAdmin):
    """§637a.15(h)(2): 'Verify that the amount of any Bad Beat payout maintained by the finance
    department corresponds to the amount being displayed to patrons.' One page, every Bad Beat fund of
    each room; finance adjusts a display from it."""

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
            path("<int:jackpot_id>/adjust/", wrap(self.adjust_view), name="jackpots_badbeatdisplaycheck_adjust"),
            *super().get_urls(),
        ]

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        require(request, Action.BAD_BEAT_RECORDS_READ)
        now = timezone.now()
        checked = display_check(rooms=rooms(request), at=now)
        if (extension := request.GET.get("export")) in ("csv", "xlsx"):
            rows = [(room, row) for room, funds in checked.items() for row in funds]
            report = display_check_report(rows=rows, filename=f"bad-beat-display-check-{now:%Y-%m-%d}")
            return export_response(report, extension)
        context = {
            **self.admin_site.each_context(request),
            "title": "Bad Beat display check",
            "opts": self.model._meta,
            "checked": [(room, funds, zone_of(room)) for room, funds in checked.items()],
            "checked_at": now,
            "may_adjust": may(request.user, Action.DISPLAY_ADJUST),
            "export_links": export_links(request),
            **(extra_context or {}),
        }
        return TemplateResponse(request, "admin/jackpots/display_check.html", context)

    def adjust_view(self, request: HttpRequest, jackpot_id: int) -> HttpResponse:
        """A finance employee sets the displayed amount of a fund to the finance record and signs
        (``display_adjust``, §637a.15(h)(1)); the floorperson or above present signs as witness on the floor."""
        require(request, Action.DISPLAY_ADJUST)
        jackpot = room_object_or_404(request, Jackpot.objects.select_related("room"), pk=jackpot_id)
        form = SignForm(request.POST or None)
        error = ""
        if request.method == "POST" and form.is_valid():
            try:
                adjustment = display_adjust(
                    jackpot=jackpot,
                    actor=acting_user(request),
                    pin=form.cleaned_data["pin"],
                    idempotency_key=form.cleaned_data["idempotency_key"],
                )
            except DomainError as refused:
                error = refused.message
            else:
                self.message_user(
                    request,
                    f"The display of {jackpot.name} shows {display_cents(adjustment.amount_cents)} once the floorperson "
                    "or above who saw it set signs as witness on the floor tablet; until then it shows what it showed.",
                    messages.SUCCESS,
                )
                return redirect("admin:jackpots_badbeatdisplaycheck_changelist")
        position = fund_position(jackpot=jackpot)
        shown = "never adjusted" if position.displayed_cents is None else display_cents(position.displayed_cents)
        return sign_page(
            request,
            title=f"Adjust the display of {jackpot.name}",
            facts=[
                ("Fund", f"{jackpot.name} ({jackpot.code}), {jackpot.room.name}"),
                ("Official record", display_cents(position.official_cents)),
                ("Owed to verified claims", display_cents(position.owed_cents)),
                ("Finance record (the display will show)", display_cents(position.available_cents)),
                ("Displayed now", shown),
                (
                    "Pending adjustment",
                    "yes: a claim was verified since the last adjustment" if position.pending else "no",
                ),
            ],
            rule=DisplayAdjustment.ADJUSTER.words,
            form=form,
            submit_label="Sign the adjustment",
            back=("Back to the display check", reverse("admin:jackpots_badbeatdisplaycheck_changelist")),
            error=error,
            note="Adjust the display in the presence of a floorperson or above, who then signs as witness: it takes "
            "effect with both signatures (§637a.15(h)(1)).",
            breadcrumbs=[("Bad Beat display check", reverse("admin:jackpots_badbeatdisplaycheck_changelist"))],
        )


# --- Fund transfers (§637a.15(i)) -----------------------------------------------------------------


class PrepareTransferForm(SignForm):
    source = forms.ModelChoiceField(
        label="From the discontinued fund", queryset=Jackpot.objects.none(), empty_label="— choose —"
    )
    destination = forms.ModelChoiceField(
        label="To the Bad Beat", queryset=Jackpot.objects.none(), empty_label="— choose —"
    )
    amount = MoneyField(label="Amount", widget=forms.TextInput(attrs={"inputmode": "decimal", "placeholder": "0.00"}))
    reason = forms.CharField(
        label="The approved discontinuation procedure it follows",
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=2000,
    )

    field_order = ["source", "destination", "amount", "reason"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        funds = Jackpot.objects.filter(kind=JackpotKind.BAD_BEAT).select_related("room").order_by("room__code", "code")
        self.fields["source"].queryset = funds  # type: ignore[attr-defined]
        self.fields["destination"].queryset = funds  # type: ignore[attr-defined]


@admin.register(FundTransfer)
class FundTransferAdmin(BadBeatAdmin, SimpleHistoryAdmin):
    """Transfers of a discontinued Bad Beat fund to another Bad Beat: finance prepares and signs, another
    finance employee or an administrator approves and signs, and the money moves then."""

    list_display = [
        "prepared_at",
        "source",
        "destination",
        "amount_cents",
        "status",
        "prepared_by",
        "approved_by",
        "approved_at",
    ]
    list_filter = ["status", "source__room"]
    list_select_related = ["source", "destination", "prepared_by", "approved_by"]
    date_hierarchy = "prepared_at"
    exclude = ["request_sha256"]
    readonly_fields = ["signed_by"]
    totals = ["amount_cents"]
    change_list_template = "admin/jackpots/fundtransfer/change_list.html"

    def get_list_display(self, request: HttpRequest) -> Any:
        shown = list(super().get_list_display(request))
        return [*shown, "approve_link"] if may(request.user, Action.FUND_TRANSFER_APPROVE) else shown

    @admin.display(description="", empty_value="")
    def approve_link(self, transfer: FundTransfer) -> str:
        if transfer.status != FundTransferStatus.PREPARED:
            return ""
        return format_html(
            '<a class="button" style="white-space: nowrap" href="{}">Approve and sign…</a>',
            reverse("admin:jackpots_fundtransfer_approve", args=[transfer.pk]),
        )

    @admin.display(description="Signatures")
    def signed_by(self, transfer: FundTransfer) -> str:
        return signatures_html(transfer)

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        context = {"may_prepare": may(request.user, Action.FUND_TRANSFER_PREPARE), **(extra_context or {})}
        return super().changelist_view(request, context)

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("prepare/", wrap(self.prepare_view), name="jackpots_fundtransfer_prepare"),
            path("<int:transfer_id>/approve/", wrap(self.approve_view), name="jackpots_fundtransfer_approve"),
            *super().get_urls(),
        ]

    def _back(self) -> tuple[str, str]:
        return ("Back to the fund transfers", reverse("admin:jackpots_fundtransfer_changelist"))

    def prepare_view(self, request: HttpRequest) -> HttpResponse:
        """Finance prepares the transfer of a discontinued fund's money to another Bad Beat and signs
        (``fund_transfer_prepare``); nothing moves until a second person approves it."""
        require(request, Action.FUND_TRANSFER_PREPARE)
        form = PrepareTransferForm(request.POST or None)
        error = ""
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                transfer = fund_transfer_prepare(
                    source=data["source"],
                    destination=data["destination"],
                    amount_cents=data["amount"],
                    reason=data["reason"],
                    actor=acting_user(request),
                    pin=data["pin"],
                    idempotency_key=data["idempotency_key"],
                )
            except DomainError as refused:
                error = refused.message
            else:
                self.message_user(
                    request,
                    f"Transfer {transfer.pk} of {display_cents(transfer.amount_cents)} from {transfer.source.code} to "
                    f"{transfer.destination.code} prepared and signed; another finance employee or an administrator "
                    "approves it.",
                    messages.SUCCESS,
                )
                return redirect("admin:jackpots_fundtransfer_changelist")
        return sign_page(
            request,
            title="Prepare the transfer of a discontinued Bad Beat fund",
            facts=[],
            rule=FundTransfer.PREPARER.words,
            form=form,
            submit_label="Sign the transfer",
            back=self._back(),
            error=error,
            note="A discontinued Bad Beat's money goes to another Bad Beat offered at a table, never elsewhere "
            "(§637a.15(i)); nothing moves until a second person approves.",
            breadcrumbs=[("Fund transfers", self._back()[1])],
        )

    def approve_view(self, request: HttpRequest, transfer_id: int) -> HttpResponse:
        """Another finance employee or an administrator approves a prepared transfer and signs
        (``fund_transfer_approve``); the ledger transfer is posted then."""
        require(request, Action.FUND_TRANSFER_APPROVE)
        transfer = room_object_or_404(
            request,
            FundTransfer.objects.select_related("source__room", "destination", "prepared_by", "approved_by"),
            pk=transfer_id,
        )
        form = SignForm(request.POST or None)
        error = ""
        if request.method == "POST" and form.is_valid():
            try:
                fund_transfer_approve(transfer=transfer, actor=acting_user(request), pin=form.cleaned_data["pin"])
            except DomainError as refused:
                error = refused.message
            else:
                self.message_user(
                    request,
                    f"Transfer {transfer.pk} approved: {display_cents(transfer.amount_cents)} moved from "
                    f"{transfer.source.code} to {transfer.destination.code}.",
                    messages.SUCCESS,
                )
                return redirect("admin:jackpots_fundtransfer_changelist")
        source = fund_position(jackpot=transfer.source)
        facts: list[tuple[str, Any]] = [
            ("From", f"{transfer.source.name} ({transfer.source.code}), {transfer.source.room.name}"),
            ("To", f"{transfer.destination.name} ({transfer.destination.code})"),
            ("Amount", display_cents(transfer.amount_cents)),
            ("Reason", transfer.reason),
            (
                "Prepared by",
                f"{transfer.prepared_by} ({credential(transfer.prepared_by)}) at {local_text(transfer.prepared_at, transfer.source.room, ZONED_SECOND)}",
            ),
            ("Source now", f"official {display_cents(source.official_cents)}, owed {display_cents(source.owed_cents)}"),
            ("Status", transfer.get_status_display()),
        ]
        return sign_page(
            request,
            title=f"Approve transfer {transfer.pk}",
            facts=facts,
            rule=FundTransfer.APPROVER.words,
            form=form if transfer.status == FundTransferStatus.PREPARED else None,
            submit_label="Approve, sign and move the money",
            back=self._back(),
            error=error,
            breadcrumbs=[("Fund transfers", self._back()[1])],
        )
