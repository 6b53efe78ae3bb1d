"""The progressive payouts in the admin (§655a.11(i)(4), §657a.11(e)): the winning hands with their
Envy Bonuses, the validations, the payments at the cage and the meters' initial and reset amounts,
read-only; a cage cashier pays a validated payout that may not be paid from the table inventory
(§655a.11(i)(4)(i)(D), §657a.11(e)(4)) on a page that shows what is signed and asks for the patron's
identification and the PIN (``progressive_pay`` checks every rule)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.html import format_html

from casino_backoffice.core.admin import ReadOnlyInline, room_object_or_404, signatures_html
from casino_backoffice.core.clock import ZONED, local_text
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.money import display_cents, display_percent
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.funds.admin import SignForm, require, sign_page
from jackpots.funds.floor import id_type_field
from jackpots.funds.reports import id_number_masked
from jackpots.progressive.admin.meters import (
    ProgressiveAdmin,
    _hand_words,
    _link,
    _round_words,
    _who,
    paid_words,
    payable_at_cage,
)
from jackpots.progressive.models import (
    EnvyBonus,
    MeterFunding,
    PayoutPlace,
    ProgressiveHand,
    ProgressivePayment,
    ProgressiveValidation,
)
from jackpots.progressive.services.hands import progressive_pay

# --- Hands, Envy Bonuses, validations and payments ------------------------------------------------------


class EnvyInline(ReadOnlyInline):
    model = EnvyBonus
    fields = readonly_fields = ("seat", "wager", "line", "amount")
    verbose_name_plural = "Envy Bonuses to the other players, by their wager"

    @admin.display(description="Receiver's wager")
    def wager(self, bonus: EnvyBonus) -> str:
        return display_cents(bonus.wager_cents)

    @admin.display(description="Envy Bonus")
    def amount(self, bonus: EnvyBonus) -> str:
        return display_cents(bonus.amount_cents)


class PaidFilter(admin.SimpleListFilter):
    title = "payout"
    parameter_name = "paid"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("cage", "To pay at the cage"), ("validate", "To validate"), ("paid", "Paid")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        pays = queryset.filter(amount_cents__gt=0)
        if self.value() == "cage":
            return pays.filter(place=PayoutPlace.CAGE, validation__isnull=False, payment__isnull=True)
        if self.value() == "validate":
            return pays.filter(validation__isnull=True)
        if self.value() == "paid":
            return pays.filter(validation__isnull=False).exclude(place=PayoutPlace.CAGE, payment__isnull=True)
        return queryset


class PayForm(SignForm):
    patron_name = forms.CharField(
        label="Patron's name",
        max_length=120,
        widget=forms.TextInput(attrs={"size": 30, "autocomplete": "off"}),
    )
    id_type = id_type_field(label="Identification presented")
    id_number = forms.CharField(
        label="Its number",
        max_length=60,
        help_text="As printed on the document presented.",
        widget=forms.TextInput(attrs={"size": 30, "autocomplete": "off"}),
    )


@admin.register(ProgressiveHand)
class ProgressiveHandAdmin(ProgressiveAdmin):
    """Every hand recorded: a winning Progressive Payout Hand or an Envy Bonus Qualifying Hand, its
    cards and the hand the evaluator made of them, the line and payout, the meter as it stood at the
    player's turn (§655a.12(c)(4), §657a.12(d)(4)), where it is paid, its validation and payment, and
    the Envy Bonuses it gave the other players. A cage cashier pays a validated payout through the cage
    here."""

    list_display = [
        "recorded",
        "table_seat",
        "hand_words",
        "line_shown",
        "meter_before_cents",
        "amount_cents",
        "validated",
        "paid",
    ]
    list_display_links = ["recorded"]
    list_filter = [
        PaidFilter,
        "place",
        "envy_qualifying",
        "round__meter__room",
        ("round__meter", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = ["round__table", "round__meter__room", "validation", "payment"]
    search_fields = ["round__table__number", "words"]
    date_hierarchy = "recorded_at"
    totals = ["amount_cents"]
    change_form_template = "admin/jackpots/progressive/hand_change_form.html"
    fieldsets = [
        ("The round", {"fields": ["round_link", "seat"]}),
        (
            "The hand (§655a.11(i)(4)(i)(A)-(B), §657a.11(e)(1)-(2))",
            {"fields": ["cards", "hand_cards", "words", "folded", "wager", "envy_qualifying", "light_confirmed"]},
        ),
        # The money fields by their displays (``MoneyAdmin``), as fieldsets name them.
        ("The payout", {"fields": ["line", "payout", "meter_share", "meter_before", "amount", "place"]}),
        ("Recorded by the dealer", {"fields": ["recorded_by", "recorded_at"]}),
        ("Validation (§655a.11(i)(4)(i)(C), §657a.11(e)(3))", {"fields": ["validation_shown"]}),
        ("Payment at the cage (§655a.11(i)(4)(i)(D), §657a.11(e)(4))", {"fields": ["paid", "payment_shown"]}),
    ]
    readonly_fields = [
        "round_link",
        "wager",
        "meter_share",
        "meter_before",
        "amount",
        "validation_shown",
        "paid",
        "payment_shown",
    ]
    inlines = [EnvyInline]

    def get_list_display(self, request: HttpRequest) -> Any:
        shown = list(super().get_list_display(request))
        return [*shown, "pay_link"] if may(request.user, Action.PROGRESSIVE_PAY) else shown

    def get_ordering(self, request: HttpRequest) -> list[str]:
        return ["-recorded_at", "-id"]

    @admin.display(description="Recorded", ordering="recorded_at")
    def recorded(self, hand: ProgressiveHand) -> str:
        return local_text(hand.recorded_at, hand.round.meter.room.timezone, ZONED)

    @admin.display(description="Table, seat", ordering="round__table__number")
    def table_seat(self, hand: ProgressiveHand) -> str:
        return f"{hand.round.table.number} seat {hand.seat}"

    @admin.display(description="Hand", ordering="strength")
    def hand_words(self, hand: ProgressiveHand) -> str:
        return format_html('{}<br><span style="white-space: nowrap">{}</span>', hand.words, hand.cards)

    @admin.display(description="Line, payout", ordering="line")
    def line_shown(self, hand: ProgressiveHand) -> str:
        if hand.line:
            return format_html('{}<br><span style="white-space: nowrap">{}</span>', hand.line, hand.payout)
        return "folded: Envy Bonuses only" if hand.folded else "Envy Bonuses only"

    @admin.display(description="Validated", boolean=True)
    def validated(self, hand: ProgressiveHand) -> bool:
        return getattr(hand, "validation", None) is not None

    @admin.display(description="Paid (where)", ordering="place")
    def paid(self, hand: ProgressiveHand) -> str:
        return paid_words(hand)

    @admin.display(description="Round")
    def round_link(self, hand: ProgressiveHand) -> str:
        return _link("progressiveround", hand.round_id, _round_words(hand.round))

    @admin.display(description="Share of the meter")
    def meter_share(self, hand: ProgressiveHand) -> str:
        return display_percent(hand.meter_bp) if hand.meter_bp else "—"

    @admin.display(description="Validated by")
    def validation_shown(self, hand: ProgressiveHand) -> str:
        validation = getattr(hand, "validation", None)
        if validation is None:
            return "not yet"
        return format_html(
            "{}{}",
            local_text(validation.validated_at, hand.round.meter.room.timezone, ZONED),
            signatures_html(validation),
        )

    @admin.display(description="Payment")
    def payment_shown(self, hand: ProgressiveHand) -> str:
        payment = getattr(hand, "payment", None)
        if payment is None:
            return "—"
        return format_html(
            "{} to {}, {} {}{}",
            local_text(payment.paid_at, hand.round.meter.room.timezone, ZONED),
            payment.patron_name,
            payment.id_type,
            id_number_masked(payment.id_number),
            signatures_html(payment),
        )

    @admin.display(description="", empty_value="")
    def pay_link(self, hand: ProgressiveHand) -> str:
        if not payable_at_cage(hand):
            return ""
        return format_html(
            '<a class="button" style="white-space: nowrap" href="{}">Pay at the cage…</a>',
            reverse("admin:jackpots_progressivehand_pay", args=[hand.pk]),
        )

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        hand = self.get_object(request, object_id)
        context: dict[str, Any] = {**(extra_context or {})}
        if hand is not None:
            context["subtitle"] = f"{hand.words} at {hand.round.table.number} seat {hand.seat}"
            if may(request.user, Action.PROGRESSIVE_PAY) and payable_at_cage(hand):
                context["pay_url"] = reverse("admin:jackpots_progressivehand_pay", args=[hand.pk])
        return super().change_view(request, object_id, form_url, context)

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.pay_view)
        return [path("<int:hand_id>/pay/", view, name="jackpots_progressivehand_pay"), *super().get_urls()]

    def pay_view(self, request: HttpRequest, hand_id: int) -> HttpResponse:
        """A cage cashier pays a validated payout that may not be paid from the table inventory, against
        the patron's identification, and signs (``progressive_pay``, §655a.11(i)(4)(i)(D),
        §657a.11(e)(4)). Once: a second payment, or any other refusal, shows the service's message."""
        require(request, Action.PROGRESSIVE_PAY)
        hand = room_object_or_404(
            request,
            ProgressiveHand.objects.select_related(
                "round__table", "round__meter__room", "validation__validated_by", "payment__paid_by"
            ),
            pk=hand_id,
        )
        zone = hand.round.meter.room.timezone
        form = PayForm(request.POST or None)
        error = ""
        if request.method == "POST" and form.is_valid():
            try:
                progressive_pay(
                    hand=hand,
                    patron_name=form.cleaned_data["patron_name"],
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
                    f"{hand.words} at {hand.round.table.number} seat {hand.seat} paid at the cage to "
                    f"{form.cleaned_data['patron_name'].strip()}: {display_cents(hand.amount_cents)}.",
                    messages.SUCCESS,
                )
                return redirect("admin:jackpots_progressivehand_change", hand.pk)
        state = paid_words(hand)
        validation = getattr(hand, "validation", None)
        facts: list[tuple[str, Any]] = [
            ("Meter", f"{hand.round.meter.name} ({hand.round.meter.code})"),
            ("Table and seat", f"{hand.round.table.number}, seat {hand.seat}"),
            ("Round ended", local_text(hand.round.ended_at, zone, ZONED)),
            ("Cards", hand.cards),
            ("Hand", hand.words),
            ("Line won", f"{hand.line}: {hand.payout}" if hand.line else "none"),
            ("Meter at the player's turn", display_cents(hand.meter_before_cents)),
            ("Amount", display_cents(hand.amount_cents)),
            ("Where it is paid", hand.get_place_display()),
            (
                "Validated",
                f"by {_who(validation.validated_by)} at {local_text(validation.validated_at, zone, ZONED)}"
                if validation is not None
                else "not yet",
            ),
            ("State", state),
        ]
        payment = getattr(hand, "payment", None)
        if payment is not None:
            facts.append(("Payment", f"{local_text(payment.paid_at, zone, ZONED)} by {_who(payment.paid_by)}"))
        back = ("Back to the hand", reverse("admin:jackpots_progressivehand_change", args=[hand.pk]))
        return sign_page(
            request,
            title=f"Pay the {hand.words} of {hand.round.table.number} seat {hand.seat} at the cage",
            facts=facts,
            rule=ProgressivePayment.PAYER.words,
            # Only a validated payout still to pay at the cage is paid; the page of any other says why not.
            form=form if state == "to pay at the cage" else None,
            submit_label="Sign the payment",
            back=back,
            error=error,
            note="Ask for the patron's identification and type their name and the document's kind and number as "
            "presented. The player's cards stay on the table until this documentation is completed "
            "(§655a.11(i)(4)(i)(D), §657a.11(e)(4)).",
            breadcrumbs=[("Progressive hands", reverse("admin:jackpots_progressivehand_changelist"))],
        )


@admin.register(EnvyBonus)
class EnvyBonusAdmin(ProgressiveAdmin):
    """Every Envy Bonus, by the receiver's wager (§655a.12(c)(5), §657a.12(d)(5)); paid at the table with
    the qualifying hand's validation."""

    list_display = ["hand_link", "table_seat", "wager_cents", "line", "amount_cents", "paid"]
    list_filter = ["hand__round__meter__room", ("hand__round__meter", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["hand__round__table", "hand__validation"]
    totals = ["amount_cents"]
    fields = ["hand_link", "seat", "wager_cents", "line", "amount_cents", "paid"]
    readonly_fields = ["hand_link", "paid"]

    def get_ordering(self, request: HttpRequest) -> list[str]:
        return ["-hand__recorded_at", "-seat"]

    @admin.display(description="For the qualifying hand", ordering="hand__recorded_at")
    def hand_link(self, bonus: EnvyBonus) -> str:
        return _link("progressivehand", bonus.hand_id, _hand_words(bonus.hand))

    @admin.display(description="To table, seat")
    def table_seat(self, bonus: EnvyBonus) -> str:
        return f"{bonus.hand.round.table.number} seat {bonus.seat}"

    @admin.display(description="Paid")
    def paid(self, bonus: EnvyBonus) -> str:
        return "at the table" if getattr(bonus.hand, "validation", None) is not None else "with the validation"


@admin.register(ProgressiveValidation)
class ProgressiveValidationAdmin(ProgressiveAdmin):
    """Every validation of a progressive payout by a floorperson or above, not the person who recorded
    the hand (§655a.11(i)(4)(i)(C), §657a.11(e)(3))."""

    list_display = ["validated", "hand_link", "amount", "place", "validated_by_shown"]
    list_filter = ["hand__round__meter__room", ("hand__round__meter", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["hand__round__table", "hand__round__meter__room", "validated_by"]
    date_hierarchy = "validated_at"
    fields = ["hand_link", "amount", "place", "hand_recorded_by", "validated_by", "validated_at", "signed_by"]
    readonly_fields = ["hand_link", "amount", "place", "signed_by"]

    @admin.display(description="Validated", ordering="validated_at")
    def validated(self, validation: ProgressiveValidation) -> str:
        return local_text(validation.validated_at, validation.hand.round.meter.room.timezone, ZONED)

    @admin.display(description="Hand", ordering="hand__recorded_at")
    def hand_link(self, validation: ProgressiveValidation) -> str:
        return _link("progressivehand", validation.hand_id, _hand_words(validation.hand))

    @admin.display(description="Amount", ordering="hand__amount_cents")
    def amount(self, validation: ProgressiveValidation) -> str:
        return display_cents(validation.hand.amount_cents)

    @admin.display(description="Paid", ordering="hand__place")
    def place(self, validation: ProgressiveValidation) -> str:
        return validation.hand.get_place_display()

    @admin.display(description="Validated by (credential)", ordering="validated_by")
    def validated_by_shown(self, validation: ProgressiveValidation) -> str:
        return _who(validation.validated_by)

    @admin.display(description="Signatures")
    def signed_by(self, validation: ProgressiveValidation) -> str:
        return signatures_html(validation)


@admin.register(ProgressivePayment)
class ProgressivePaymentAdmin(ProgressiveAdmin):
    """Every progressive payout paid through the cage, with the patron's identification (its number by
    its last four characters) and the cashier's signature."""

    list_display = ["paid", "hand_link", "patron_name", "id_type", "id_shown", "amount", "paid_by_shown"]
    list_filter = ["hand__round__meter__room", ("hand__round__meter", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["hand__round__table", "hand__round__meter__room", "paid_by"]
    search_fields = ["patron_name"]
    date_hierarchy = "paid_at"
    fields = ["hand_link", "patron_name", "id_type", "id_shown", "amount", "paid_by", "paid_at", "signed_by"]
    readonly_fields = ["hand_link", "id_shown", "amount", "signed_by"]

    @admin.display(description="Paid", ordering="paid_at")
    def paid(self, payment: ProgressivePayment) -> str:
        return local_text(payment.paid_at, payment.hand.round.meter.room.timezone, ZONED)

    @admin.display(description="Hand", ordering="hand__recorded_at")
    def hand_link(self, payment: ProgressivePayment) -> str:
        return _link("progressivehand", payment.hand_id, _hand_words(payment.hand))

    @admin.display(description="ID number")
    def id_shown(self, payment: ProgressivePayment) -> str:
        return id_number_masked(payment.id_number)

    @admin.display(description="Amount", ordering="hand__amount_cents")
    def amount(self, payment: ProgressivePayment) -> str:
        return display_cents(payment.hand.amount_cents)

    @admin.display(description="Paid by (credential)", ordering="paid_by")
    def paid_by_shown(self, payment: ProgressivePayment) -> str:
        return _who(payment.paid_by)

    @admin.display(description="Signatures")
    def signed_by(self, payment: ProgressivePayment) -> str:
        return signatures_html(payment)


@admin.register(MeterFunding)
class MeterFundingAdmin(ProgressiveAdmin):
    """The house's initial amount of each meter and its reset amount after each 100% payout, signed by a
    supervisor (§655a.12(c)(3), §657a.12(d)(3))."""

    list_display = ["funded", "meter", "reason", "amount_cents", "after", "funded_by_shown"]
    list_filter = ["reason", "meter__room", ("meter", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["meter__room", "after_hand__round__table", "funded_by"]
    date_hierarchy = "funded_at"
    totals = ["amount_cents"]
    fields = ["meter", "reason", "amount_cents", "after", "rules_version", "funded_by", "funded_at", "signed_by"]
    readonly_fields = ["after", "signed_by"]

    @admin.display(description="Funded", ordering="funded_at")
    def funded(self, funding: MeterFunding) -> str:
        return local_text(funding.funded_at, funding.meter.room.timezone, ZONED)

    @admin.display(description="After the payout of")
    def after(self, funding: MeterFunding) -> str:
        hand = funding.after_hand
        return _link("progressivehand", hand.pk, _hand_words(hand)) if hand else "—"

    @admin.display(description="Funded by (credential)", ordering="funded_by")
    def funded_by_shown(self, funding: MeterFunding) -> str:
        return _who(funding.funded_by)

    @admin.display(description="Signatures")
    def signed_by(self, funding: MeterFunding) -> str:
        return signatures_html(funding)
