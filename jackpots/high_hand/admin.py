"""The High Hand Jackpot in the admin (§637a.16): each qualifying period with its High Hand Tracking
Slip, the slip's entries and voids, the awards, their payments at the cage and the uncollected awards,
each with every signature (name, role, Board credential number, time); all read-only, read by the
back office (``Action.HIGH_HAND_RECORDS_READ``).

A cage cashier pays an award at the cage, and finance approves where an uncollected award goes, here,
each on a page that shows what is signed and asks for the PIN; the services (``award_pay``,
``unclaimed_approve``) check every rule, and a refusal shows their message. The reports: the history
of a fund's periods (page, CSV, XLSX) and the Tracking Slip of a period (PDF, CSV, XLSX).

A patron's ID number is shown by its last four characters only: the cashier types the number of the
identification presented, and ``award_pay`` compares it with the one recorded with the hand.
"""

from __future__ import annotations

from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from simple_history.admin import SimpleHistoryAdmin

from casino_backoffice.core.admin import ReadOnlyAdmin, export_links, room_object_or_404, signatures_html
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.exports import export_response, pdf_response
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.funds.admin import SignForm, day_of, require, sign_page
from jackpots.funds.exports import credential, person
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.reports import id_number_masked
from jackpots.funds.selectors import local_time
from jackpots.high_hand.exports import period_history_report, tracking_slip_report
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandAwardPayment,
    HighHandEntry,
    HighHandPeriod,
    HighHandUnclaimed,
    HighHandVoid,
    PeriodStatus,
)
from jackpots.high_hand.reports import (
    STATUS_SHORT,
    award_state,
    awards_filter_state,
    id_words,
    period_history,
    periods_with_counts,
    tracking_slip,
    unclaimed_into,
    unclaimed_words,
)
from jackpots.high_hand.services.awards import award_pay, unclaimed_approve
from tables.selectors import gaming_day


def _local(moment: Any, zone: str) -> str:
    return local_time(moment, zone) if moment else ""


def _period_words(period: HighHandPeriod) -> str:
    """The period by its fund and its start on the room's clock: 'hh 2026-11-30 18:00' (the period's
    jackpot and room selected)."""
    return f"{period.jackpot.code} {period.starts_at.astimezone(ZoneInfo(period.room.timezone)):%Y-%m-%d %H:%M}"


def _period_link(period: HighHandPeriod) -> str:
    return format_html(
        '<a href="{}" style="white-space: nowrap">{}</a>',
        reverse("admin:jackpots_highhandperiod_change", args=[period.pk]),
        _period_words(period),
    )


class HighHandAdmin(ReadOnlyAdmin):
    """High Hand documents and money rows: read by the back office (``Action.HIGH_HAND_RECORDS_READ``),
    never added, changed nor deleted here; services are their only writers."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) and may(request.user, Action.HIGH_HAND_RECORDS_READ)


# --- Periods, their slip and the reports ----------------------------------------------------------


@admin.register(HighHandPeriod)
class HighHandPeriodAdmin(HighHandAdmin, SimpleHistoryAdmin):
    """Every qualifying period (§637a.16(b)(1)), newest first; a period's page is its High Hand
    Tracking Slip (f): every entry with the player, the table, the hand, the dealer and the
    floorperson or above who verified it, the voids, the awards and their payments, every signature."""

    list_display = [
        "starts_at",
        "ends_at",
        "jackpot",
        "state",
        "contributions_cents",
        "rolled_in_cents",
        "pool_cents",
        "entries",
        "high_hand",
        "close_note",
        "waiting_note",
    ]
    list_display_links = ["starts_at"]
    list_filter = ["status", "room", ("jackpot", admin.RelatedOnlyFieldListFilter), "starts_at"]
    list_select_related = ["jackpot", "room"]
    date_hierarchy = "starts_at"
    totals = ["contributions_cents"]
    change_list_template = "admin/jackpots/high_hand/period_change_list.html"
    change_form_template = "admin/jackpots/high_hand/period_change_form.html"
    fieldsets = [
        ("The period", {"fields": ["room", "jackpot", "rules_version", "starts_at", "ends_at", "status"]}),
        ("Opened and closed by the schedule", {"fields": ["opened_at", "closed_at", "close_note"]}),
        (
            "The pool (§637a.16(g)-(h))",
            {"fields": ["contributions", "rolled_in", "pool", "announced_at", "waiting_note"]},
        ),
    ]
    # The money fields by their displays (``MoneyAdmin``), as fieldsets name them.
    readonly_fields = ["contributions", "rolled_in", "pool"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[HighHandPeriod]:
        return periods_with_counts(super().get_queryset(request).select_related(*self.list_select_related))

    def get_ordering(self, request: HttpRequest) -> list[str]:
        return ["-starts_at", "jackpot"]

    @admin.display(description="Status", ordering="status")
    def state(self, period: HighHandPeriod) -> str:
        return STATUS_SHORT[PeriodStatus(period.status)]

    @admin.display(description="Entries (void)")
    def entries(self, period: HighHandPeriod) -> str:
        count, voids = getattr(period, "entry_count", 0), getattr(period, "void_count", 0)
        return f"{count} ({voids})" if voids else str(count)

    @admin.display(description="High hand")
    def high_hand(self, period: HighHandPeriod) -> str:
        return getattr(period, "high_hand_words", None) or "—"

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        context = {"may_pay": may(request.user, Action.HIGH_HAND_PAY), **(extra_context or {})}
        return super().changelist_view(request, context)

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        period = self.get_object(request, object_id)
        context: dict[str, Any] = {**(extra_context or {})}
        if period is not None and self.has_view_permission(request, period):
            may_pay = may(request.user, Action.HIGH_HAND_PAY)
            may_approve = may(request.user, Action.HIGH_HAND_UNCLAIMED_APPROVE)
            slip = tracking_slip(period=period)
            context.update(
                {
                    # The period's start on the room's clock, as its slip says it.
                    "subtitle": _period_words(slip.period),
                    "slip": slip,
                    "zone": ZoneInfo(slip.period.room.timezone),
                    "award_rows": [
                        {
                            "line": line,
                            "state": award_state(line.award),
                            "pay_url": reverse("admin:jackpots_highhandaward_pay", args=[line.award.pk])
                            if may_pay and award_state(line.award) == "to collect"
                            else "",
                            "approve_url": reverse("admin:jackpots_highhandunclaimed_approve", args=[line.unclaimed.pk])
                            if may_approve and line.unclaimed is not None and not line.unclaimed.approved_by_id
                            else "",
                        }
                        for line in slip.awards
                        if line.award is not None
                    ],
                }
            )
        return super().change_view(request, object_id, form_url, context)

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("report/", wrap(self.report_view), name="jackpots_highhandperiod_report"),
            path("<int:period_id>/slip/", wrap(self.slip_view), name="jackpots_highhandperiod_slip"),
            *super().get_urls(),
        ]

    def slip_view(self, request: HttpRequest, period_id: int) -> HttpResponse:
        """The High Hand Tracking Slip of a period (§637a.16(f)) as PDF, or ``?export=csv|xlsx``: every
        entry with the player's name, phone, seat and identification (its last four characters), the
        table, the hand in cards and in words, the dealer and their credential number, the
        floorperson or above who verified it (name, role, credential number, time), the players dealt
        in, the pot, the moment it was made, a tie, a void with its reason and the supervisor's
        signature; the awards and their payments; every signature."""
        require(request, Action.HIGH_HAND_RECORDS_READ)
        period = room_object_or_404(request, HighHandPeriod, pk=period_id)
        slip = tracking_slip(period=period)
        if (extension := request.GET.get("export")) in ("csv", "xlsx"):
            return export_response(tracking_slip_report(slip=slip), extension)
        report = tracking_slip_report(slip=slip)
        return pdf_response(
            template_name="jackpots/reports/high_hand/tracking_slip.html",
            context={"slip": slip, "printed_at": timezone.now(), "printed_by": acting_user(request)},
            filename=report.filename,
            request=request,
        )

    def report_view(self, request: HttpRequest) -> HttpResponse:
        """The history of a High Hand fund's periods over a range of gaming days (``?jackpot=&from=&to=``;
        by default the first fund and the month so far): each period's pool, entries, winners, awards,
        payments, roll-over, uncollected awards and close note; ``&export=csv|xlsx``."""
        require(request, Action.HIGH_HAND_RECORDS_READ)
        funds = list(
            Jackpot.objects.filter(kind=JackpotKind.HIGH_HAND).select_related("room").order_by("room__code", "code")
        )
        chosen = request.GET.get("jackpot", "")
        jackpot = next((fund for fund in funds if str(fund.pk) == chosen), funds[0] if funds else None)
        if jackpot is None:
            return TemplateResponse(
                request,
                "admin/jackpots/high_hand/period_history.html",
                self._context(request, "High Hand period history", funds=funds, history=None),
            )
        start, end = self._range(request, jackpot)
        history = period_history(jackpot=jackpot, start=start, end=end)
        if (extension := request.GET.get("export")) in ("csv", "xlsx"):
            return export_response(period_history_report(history=history), extension)
        return TemplateResponse(
            request,
            "admin/jackpots/high_hand/period_history.html",
            self._context(
                request,
                f"{jackpot.name} ({jackpot.code}) period history",
                funds=funds,
                jackpot=jackpot,
                history=history,
                zone=ZoneInfo(jackpot.room.timezone),
                export_links=export_links(request),
                printed_at=timezone.now(),
                printed_by=acting_user(request),
            ),
        )

    def _range(self, request: HttpRequest, jackpot: Jackpot) -> tuple[date, date]:
        """The gaming days of the room the report covers: ``?from=&to=``, by default the month so far."""
        today = gaming_day(room=jackpot.room, at=timezone.now())
        start = day_of(request.GET.get("from")) or today.replace(day=1)
        end = day_of(request.GET.get("to")) or today
        return (start, end) if start <= end else (end, start)

    def _context(self, request: HttpRequest, title: str, **extra: Any) -> dict[str, Any]:
        return {**self.admin_site.each_context(request), "title": title, "opts": self.model._meta, **extra}


# --- The slip's entries and voids -----------------------------------------------------------------


class VoidFilter(admin.SimpleListFilter):
    title = "void"
    parameter_name = "void"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("no", "Standing"), ("yes", "Void")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "no":
            return queryset.filter(void__isnull=True)
        if self.value() == "yes":
            return queryset.filter(void__isnull=False)
        return queryset


@admin.register(HighHandEntry)
class HighHandEntryAdmin(HighHandAdmin):
    """Every line of every High Hand Tracking Slip (§637a.16(f)), newest first."""

    list_display = [
        "period_link",
        "made",
        "table_number",
        "player_name",
        "hand",
        "dealer_shown",
        "verified_by",
        "voided",
    ]
    list_display_links = ["made"]
    list_filter = [
        VoidFilter,
        "tie",
        "period__room",
        ("period__jackpot", admin.RelatedOnlyFieldListFilter),
        "recorded_at",
    ]
    list_select_related = ["period__jackpot", "period__room", "table", "recorded_by", "void"]
    search_fields = ["player_name", "player_phone", "table__number"]
    date_hierarchy = "recorded_at"
    fieldsets = [
        ("(1) The player", {"fields": ["player_name", "player_phone", "seat", "identification"]}),
        ("(2) The table", {"fields": ["period_shown", "table"]}),
        ("(3) The hand", {"fields": ["cards", "words", "made_at", "players_dealt_in", "pot", "tie"]}),
        ("(4) The dealer", {"fields": ["dealer_name", "dealer_credential_number"]}),
        ("(5) Verified and recorded by", {"fields": ["recorded_by", "recorded_at", "signed_by"]}),
        ("Void", {"fields": ["void_shown"]}),
    ]
    readonly_fields = ["identification", "period_shown", "pot", "signed_by", "void_shown"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[HighHandEntry]:
        return super().get_queryset(request).select_related(*self.list_select_related)

    @admin.display(description="Period", ordering="period__starts_at")
    def period_link(self, entry: HighHandEntry) -> str:
        return _period_link(entry.period)

    @admin.display(description="Period")
    def period_shown(self, entry: HighHandEntry) -> str:
        return _period_link(entry.period)

    @admin.display(description="Made at", ordering="made_at")
    def made(self, entry: HighHandEntry) -> str:
        return entry.made_at.astimezone(ZoneInfo(entry.period.room.timezone)).strftime("%H:%M:%S")

    @admin.display(description="Table, seat", ordering="table__number")
    def table_number(self, entry: HighHandEntry) -> str:
        return f"{entry.table.number} seat {entry.seat}"

    @admin.display(description="Hand", ordering="strength")
    def hand(self, entry: HighHandEntry) -> str:
        tie = " (a tie)" if entry.tie else ""
        return format_html('{}{}<br><span style="white-space: nowrap">{}</span>', entry.words, tie, entry.cards)

    @admin.display(description="Dealer, credential", ordering="dealer_name")
    def dealer_shown(self, entry: HighHandEntry) -> str:
        return format_html("{}<br>{}", entry.dealer_name, entry.dealer_credential_number)

    @admin.display(description="Verified by, credential", ordering="recorded_by")
    def verified_by(self, entry: HighHandEntry) -> str:
        return format_html("{}<br>{}", person(entry.recorded_by), credential(entry.recorded_by))

    @admin.display(description="Void", boolean=True)
    def voided(self, entry: HighHandEntry) -> bool:
        return getattr(entry, "void", None) is not None

    @admin.display(description="Identification")
    def identification(self, entry: HighHandEntry) -> str:
        return f"{entry.id_type} {id_number_masked(entry.id_number)}"

    @admin.display(description="Signatures")
    def signed_by(self, entry: HighHandEntry) -> str:
        return signatures_html(entry)

    @admin.display(description="Reason and signature")
    def void_shown(self, entry: HighHandEntry) -> str:
        void = getattr(entry, "void", None)
        if void is None:
            return "standing"
        return format_html("{}{}", void.reason, signatures_html(void))


@admin.register(HighHandVoid)
class HighHandVoidAdmin(HighHandAdmin):
    """Every void of a slip's entry, with its reason and the shift supervisor's signature."""

    list_display = ["voided_at", "entry_link", "period_link", "reason", "voided_by_shown"]
    list_filter = ["entry__period__room", ("entry__period__jackpot", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["entry__period__jackpot", "entry__period__room", "entry__table", "voided_by"]
    date_hierarchy = "voided_at"
    readonly_fields = ["signed_by"]

    @admin.display(description="Entry", ordering="entry")
    def entry_link(self, void: HighHandVoid) -> str:
        entry = void.entry
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:jackpots_highhandentry_change", args=[entry.pk]),
            f"{entry.words}, {entry.player_name} ({entry.table.number} seat {entry.seat})",
        )

    @admin.display(description="Period", ordering="entry__period__starts_at")
    def period_link(self, void: HighHandVoid) -> str:
        return _period_link(void.entry.period)

    @admin.display(description="Voided by (credential)", ordering="voided_by")
    def voided_by_shown(self, void: HighHandVoid) -> str:
        return f"{person(void.voided_by)} ({credential(void.voided_by)})"

    @admin.display(description="Signatures")
    def signed_by(self, void: HighHandVoid) -> str:
        return signatures_html(void)


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
    id_type = forms.CharField(
        label="Identification presented",
        max_length=60,
        help_text="The kind of document, as recorded with the hand, such as Driver's license or Passport.",
        widget=forms.TextInput(attrs={"size": 30, "autocomplete": "off"}),
    )
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
        return _period_link(award.period)

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
        return f"{_local(payment.paid_at, award.period.room.timezone)} by {person(payment.paid_by)} ({credential(payment.paid_by)})"

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
            context["subtitle"] = f"Award of {award.entry.player_name} in {_period_words(award.period)}"
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
        form = PayAwardForm(request.POST or None)
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
            ("Period", f"{_local(period.starts_at, zone)} to {_local(period.ends_at, zone)}"),
            ("Player", f"{entry.player_name}, {entry.player_phone}"),
            ("Table and seat", f"{entry.table.number}, seat {entry.seat}"),
            ("Hand", f"{entry.words} ({entry.cards})"),
            ("Amount", display_cents(award.amount_cents)),
            ("Collect by", _local(award.collect_by, zone)),
            ("Identification recorded with the hand", id_words(entry.id_type, entry.id_number)),
            ("State", state),
        ]
        if state == "paid":
            facts.append(("Paid", self.paid(award)))
        return sign_page(
            request,
            title=f"Pay award {award.pk} at the cage",
            facts=facts,
            rule=HighHandAwardPayment.PAYER.name,
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


# --- Uncollected awards (§637a.16(i)) -------------------------------------------------------------


class ApprovedFilter(admin.SimpleListFilter):
    title = "approval"
    parameter_name = "approved"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("no", "To approve"), ("yes", "Approved")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "no":
            return queryset.filter(approved_by__isnull=True)
        if self.value() == "yes":
            return queryset.filter(approved_by__isnull=False)
        return queryset


@admin.register(HighHandUnclaimed)
class HighHandUnclaimedAdmin(HighHandAdmin, SimpleHistoryAdmin):
    """Awards not collected in time (§637a.16(b)(6)): the schedule prepares where each goes as the
    posted rules say (§637a.16(i)), finance approves and signs, and the money moves then."""

    list_display = ["prepared_at", "award_link", "amount", "destination_words", "approval", "into"]
    list_filter = [
        ApprovedFilter,
        "award__period__room",
        ("award__period__jackpot", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = [
        "award__entry",
        "award__period__room",
        "approved_by",
        "into_period__jackpot",
        "into_period__room",
    ]
    date_hierarchy = "prepared_at"
    fields = ["award_link", "destination_words", "prepared_at", "approved_by", "approved_at", "into", "signed_by"]
    readonly_fields = ["award_link", "destination_words", "into", "signed_by"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[HighHandUnclaimed]:
        return super().get_queryset(request).select_related(*self.list_select_related)

    def get_list_display(self, request: HttpRequest) -> Any:
        shown = list(super().get_list_display(request))
        return [*shown, "approve_link"] if may(request.user, Action.HIGH_HAND_UNCLAIMED_APPROVE) else shown

    @admin.display(description="Award", ordering="award")
    def award_link(self, unclaimed: HighHandUnclaimed) -> str:
        return format_html(
            '<a href="{}">award {}</a>: {}',
            reverse("admin:jackpots_highhandaward_change", args=[unclaimed.award_id]),
            unclaimed.award_id,
            unclaimed.award.entry.player_name,
        )

    @admin.display(description="Amount", ordering="award__amount_cents")
    def amount(self, unclaimed: HighHandUnclaimed) -> str:
        return display_cents(unclaimed.award.amount_cents)

    @admin.display(description="The rules send it", ordering="destination")
    def destination_words(self, unclaimed: HighHandUnclaimed) -> str:
        return unclaimed_words(unclaimed.destination)

    @admin.display(description="Approved", ordering="approved_at")
    def approval(self, unclaimed: HighHandUnclaimed) -> str:
        if unclaimed.approved_by is None:
            return "not yet"
        return (
            f"{_local(unclaimed.approved_at, unclaimed.award.period.room.timezone)} by {person(unclaimed.approved_by)} "
            f"({credential(unclaimed.approved_by)})"
        )

    @admin.display(description="Into the pool of", ordering="into_period__starts_at")
    def into(self, unclaimed: HighHandUnclaimed) -> str:
        return _period_link(unclaimed.into_period) if unclaimed.into_period else "—"

    @admin.display(description="Signatures")
    def signed_by(self, unclaimed: HighHandUnclaimed) -> str:
        return signatures_html(unclaimed)

    @admin.display(description="", empty_value="")
    def approve_link(self, unclaimed: HighHandUnclaimed) -> str:
        if unclaimed.approved_by_id is not None:
            return ""
        return format_html(
            '<a class="button" style="white-space: nowrap" href="{}">Approve and sign…</a>',
            reverse("admin:jackpots_highhandunclaimed_approve", args=[unclaimed.pk]),
        )

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.approve_view)
        return [
            path("<int:unclaimed_id>/approve/", view, name="jackpots_highhandunclaimed_approve"),
            *super().get_urls(),
        ]

    def approve_view(self, request: HttpRequest, unclaimed_id: int) -> HttpResponse:
        """Finance approves where an uncollected award goes and signs (``unclaimed_approve``,
        §637a.16(i)): its money moves back from the awards to collect into the fund's next pool."""
        require(request, Action.HIGH_HAND_UNCLAIMED_APPROVE)
        unclaimed = room_object_or_404(
            request,
            HighHandUnclaimed.objects.select_related(
                "award__entry__table", "award__period__jackpot", "award__period__room", "approved_by", "into_period"
            ),
            pk=unclaimed_id,
        )
        award = unclaimed.award
        form = SignForm(request.POST or None)
        error = ""
        if request.method == "POST" and form.is_valid():
            try:
                done = unclaimed_approve(unclaimed=unclaimed, actor=acting_user(request), pin=form.cleaned_data["pin"])
            except DomainError as refused:
                error = refused.message
            else:
                into = done.into_period
                assert into is not None
                self.message_user(
                    request,
                    f"Award {award.pk} not collected: {display_cents(award.amount_cents)} moved into the pool of the "
                    f"period from {_local(into.starts_at, award.period.room.timezone)}.",
                    messages.SUCCESS,
                )
                return redirect("admin:jackpots_highhandunclaimed_changelist")
        zone = award.period.room.timezone
        into = unclaimed_into(unclaimed)
        entry = award.entry
        facts: list[tuple[str, Any]] = [
            ("Award", f"{award.pk}: {award.period.jackpot.name} ({award.period.jackpot.code})"),
            ("Period won", f"{_local(award.period.starts_at, zone)} to {_local(award.period.ends_at, zone)}"),
            ("Player", f"{entry.player_name} ({entry.table.number} seat {entry.seat}), {entry.words}"),
            ("Amount", display_cents(award.amount_cents)),
            ("Collect by", _local(award.collect_by, zone)),
            ("Prepared by the schedule", _local(unclaimed.prepared_at, zone)),
            ("The posted rules send it", unclaimed_words(unclaimed.destination)),
            (
                "Goes into the pool of",
                f"the period from {_local(into.starts_at, zone)} ({into.get_status_display().lower()})"
                if into is not None
                else "the next period to close after the approval (kept in the fund until then)"
                if unclaimed.destination == "fund"
                else "no period open at or after the time limit yet: approve when one opens",
            ),
        ]
        if unclaimed.approved_by is not None:
            facts.append(
                (
                    "Approved",
                    f"by {person(unclaimed.approved_by)} ({credential(unclaimed.approved_by)}) at "
                    f"{_local(unclaimed.approved_at, zone)}",
                )
            )
        back = ("Back to the uncollected awards", reverse("admin:jackpots_highhandunclaimed_changelist"))
        return sign_page(
            request,
            title=f"Approve where award {award.pk} goes",
            facts=facts,
            rule=HighHandUnclaimed.APPROVER.name,
            form=form if unclaimed.approved_by_id is None else None,
            submit_label="Approve, sign and move the money",
            back=back,
            error=error,
            note="An award not collected within the time the rules allow goes where the posted rules say "
            "(§637a.16(i)); the money moves when you sign.",
            breadcrumbs=[("High Hand uncollected awards", back[1])],
        )
