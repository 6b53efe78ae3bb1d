"""High Hand awards and their payment at the cage in the admin (§637a.16)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.html import format_html

from casino_backoffice.core.admin import room_object_or_404, signatures_html
from casino_backoffice.core.clock import ZONED, local_text
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.funds.admin import SignForm, require, sign_page
from jackpots.funds.exports import credential, person
from jackpots.funds.floor import id_type_field
from jackpots.funds.reports import id_number_masked
from jackpots.high_hand.admin.common import HighHandAdmin, period_link, period_named
from jackpots.high_hand.models import HighHandAward, HighHandAwardPayment
from jackpots.high_hand.reports import award_state, awards_filter_state, id_words
from jackpots.high_hand.services.awards import award_pay

# --- Awards and their payment at the cage ---------------------------------------------------------


class AwardStateFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("to_collect", "To collect"), ("paid", "Paid"), ("unclaimed", "Not collected in time")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        return queryset.filter(awards_filter_state(value)) if value else queryset


class PayAwardForm(SignForm):
    def __init__(self, *args: Any, recorded_id_type: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Where the page reads it: which document, then its number.
        fields = dict(self.fields)
        self.fields = {}
        for name, field in fields.items():
            if name == "id_number":
                self.fields["id_type"] = id_type_field(
                    label="Identification presented",
                    recorded=recorded_id_type,
                    help_text="The kind of document, as recorded with the hand.",
                )
            self.fields[name] = field

    id_number = forms.CharField(
        label="Its number",
        max_length=60,
        help_text="As printed on the document presented.",
        widget=forms.TextInput(attrs={"size": 30, "autocomplete": "off"}),
    )


@admin.register(HighHandAward)
class HighHandAwardAdmin(HighHandAdmin):
    """Every award of an announced period (§637a.16(h)) and what became of it; a cage cashier pays one
    at the cage against the identification recorded with the hand (§637a.16(b)(7))."""

    list_display = [
        "period_link",
        "player",
        "hand",
        "amount_cents",
        "collect_by",
        "state",
        "paid",
    ]
    list_filter = [AwardStateFilter, "period__room", ("period__jackpot", admin.RelatedOnlyFieldListFilter)]
    list_select_related = [
        "period__jackpot",
        "period__room",
        "entry__table",
        "payment__paid_by",
        "unclaimed",
    ]
    search_fields = ["entry__player_name", "entry__player_phone"]
    date_hierarchy = "collect_by"
    totals = ["amount_cents"]
    fields = ["period_link", "entry", "amount_cents", "collect_by", "state", "paid", "identification"]
    readonly_fields = ["period_link", "state", "paid", "identification"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[HighHandAward]:
        return super().get_queryset(request).select_related(*self.list_select_related)

    def get_list_display(self, request: HttpRequest) -> Any:
        shown = list(super().get_list_display(request))
        return [*shown, "pay_link"] if may(request.user, Action.HIGH_HAND_PAY) else shown

    @admin.display(description="Period", ordering="period__starts_at")
    def period_link(self, award: HighHandAward) -> str:
        return period_link(award.period)

    @admin.display(description="Player", ordering="entry__player_name")
    def player(self, award: HighHandAward) -> str:
        entry = award.entry
        return f"{entry.player_name} ({entry.table.number} seat {entry.seat})"

    @admin.display(description="Hand")
    def hand(self, award: HighHandAward) -> str:
        return award.entry.words

    @admin.display(description="State")
    def state(self, award: HighHandAward) -> str:
        return award_state(award)

    @admin.display(description="Paid")
    def paid(self, award: HighHandAward) -> str:
        payment = getattr(award, "payment", None)
        if payment is None:
            return "—"
        return f"{local_text(payment.paid_at, award.period.room.timezone, ZONED)} by {person(payment.paid_by)} ({credential(payment.paid_by)})"

    @admin.display(description="Identification recorded with the hand")
    def identification(self, award: HighHandAward) -> str:
        return id_words(award.entry.id_type, award.entry.id_number)

    @admin.display(description="", empty_value="")
    def pay_link(self, award: HighHandAward) -> str:
        if award_state(award) != "to collect":
            return ""
        return format_html(
            '<a class="button" style="white-space: nowrap" href="{}">Pay at the cage…</a>',
            reverse("admin:jackpots_highhandaward_pay", args=[award.pk]),
        )

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        award = self.get_object(request, object_id)
        context: dict[str, Any] = {**(extra_context or {})}
        if award is not None:
            # The period by the room's clock, as the rest of the page says it.
            context["subtitle"] = f"Award of {award.entry.player_name} in {period_named(award.period)}"
        return super().change_view(request, object_id, form_url, context)

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.pay_view)
        return [path("<int:award_id>/pay/", view, name="jackpots_highhandaward_pay"), *super().get_urls()]

    def pay_view(self, request: HttpRequest, award_id: int) -> HttpResponse:
        """A cage cashier pays an award at the cage and signs (``award_pay``, §637a.16(h)): the
        identification presented must be the one recorded with the hand (§637a.16(b)(7)); the page
        shows its type and the last four characters of its number to compare."""
        require(request, Action.HIGH_HAND_PAY)
        award = room_object_or_404(
            request,
            HighHandAward.objects.select_related(
                "period__jackpot", "period__room", "entry__table", "payment__paid_by", "unclaimed"
            ),
            pk=award_id,
        )
        period, entry, zone = award.period, award.entry, award.period.room.timezone
        form = PayAwardForm(request.POST or None, recorded_id_type=entry.id_type)
        error = ""
        if request.method == "POST" and form.is_valid():
            try:
                award_pay(
                    award=award,
                    id_type=form.cleaned_data["id_type"],
                    id_number=form.cleaned_data["id_number"],
                    actor=acting_user(request),
                    pin=form.cleaned_data["pin"],
                    idempotency_key=form.cleaned_data["idempotency_key"],
                )
            except DomainError as refused:
                error = refused.message
            else:
                self.message_user(
                    request,
                    f"Award {award.pk} paid at the cage to {entry.player_name}: {display_cents(award.amount_cents)}.",
                    messages.SUCCESS,
                )
                return redirect("admin:jackpots_highhandperiod_change", period.pk)
        state = award_state(award)
        facts: list[tuple[str, Any]] = [
            ("Award", f"{award.pk}: {period.jackpot.name} ({period.jackpot.code})"),
            ("Period", f"{local_text(period.starts_at, zone, ZONED)} to {local_text(period.ends_at, zone, ZONED)}"),
            ("Player", f"{entry.player_name}, {entry.player_phone}"),
            ("Table and seat", f"{entry.table.number}, seat {entry.seat}"),
            ("Hand", f"{entry.words} ({entry.cards})"),
            ("Amount", display_cents(award.amount_cents)),
            ("Collect by", local_text(award.collect_by, zone, ZONED)),
            ("Identification recorded with the hand", id_words(entry.id_type, entry.id_number)),
            ("State", state),
        ]
        if state == "paid":
            facts.append(("Paid", self.paid(award)))
        return sign_page(
            request,
            title=f"Pay award {award.pk} at the cage",
            facts=facts,
            rule=HighHandAwardPayment.PAYER.words,
            # Only an award still to collect is paid; the page of any other says what became of it.
            form=form if state == "to collect" else None,
            submit_label="Sign the payment",
            back=("Back to the period", reverse("admin:jackpots_highhandperiod_change", args=[period.pk])),
            error=error,
            note="Ask for the player's identification and type its kind and number as presented: they must be "
            "those recorded with the hand on the Tracking Slip (§637a.16(b)(7)). Compare the last four characters "
            "shown here before you sign.",
            breadcrumbs=[("High Hand awards", reverse("admin:jackpots_highhandaward_changelist"))],
        )


@admin.register(HighHandAwardPayment)
class HighHandAwardPaymentAdmin(HighHandAdmin):
    """Every award paid at the cage, with the identification presented (its last four characters) and
    the cashier's signature."""

    list_display = ["paid_at", "award_link", "player", "id_type", "id_shown", "amount", "paid_by_shown"]
    list_filter = ["award__period__room", ("award__period__jackpot", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["award__entry", "award__period__jackpot", "paid_by"]
    search_fields = ["award__entry__player_name"]
    date_hierarchy = "paid_at"
    fields = ["award", "id_type", "id_shown", "amount", "paid_by", "paid_at", "signed_by"]
    readonly_fields = ["id_shown", "amount", "signed_by"]

    @admin.display(description="Award", ordering="award")
    def award_link(self, payment: HighHandAwardPayment) -> str:
        return format_html(
            '<a href="{}">award {}</a>',
            reverse("admin:jackpots_highhandaward_change", args=[payment.award_id]),
            payment.award_id,
        )

    @admin.display(description="Player", ordering="award__entry__player_name")
    def player(self, payment: HighHandAwardPayment) -> str:
        return payment.award.entry.player_name

    @admin.display(description="ID number")
    def id_shown(self, payment: HighHandAwardPayment) -> str:
        return id_number_masked(payment.id_number)

    @admin.display(description="Amount", ordering="award__amount_cents")
    def amount(self, payment: HighHandAwardPayment) -> str:
        return display_cents(payment.award.amount_cents)

    @admin.display(description="Paid by (credential)", ordering="paid_by")
    def paid_by_shown(self, payment: HighHandAwardPayment) -> str:
        return f"{person(payment.paid_by)} ({credential(payment.paid_by)})"

    @admin.display(description="Signatures")
    def signed_by(self, payment: HighHandAwardPayment) -> str:
        return signatures_html(payment)

    def changelist_totals(self, queryset: QuerySet[Any]) -> list[tuple[str, int]]:
        total = HighHandAward.objects.filter(payment__in=queryset.values("pk")).aggregate(
            total=Sum("amount_cents", default=0)
        )["total"]
        return [("Paid", int(total))]
