"""The High Hand Tracking Slip's entries and voids in the admin (§637a.16(f))."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from casino_backoffice.core.admin import signatures_html
from casino_backoffice.core.clock import local_text
from jackpots.funds.exports import credential, person
from jackpots.funds.reports import id_number_masked
from jackpots.high_hand.admin.common import HighHandAdmin, period_link
from jackpots.high_hand.models import HighHandEntry, HighHandVoid

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
        return period_link(entry.period)

    @admin.display(description="Period")
    def period_shown(self, entry: HighHandEntry) -> str:
        return period_link(entry.period)

    @admin.display(description="Made at", ordering="made_at")
    def made(self, entry: HighHandEntry) -> str:
        return local_text(entry.made_at, entry.period.room, "%H:%M:%S")

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
        return period_link(void.entry.period)

    @admin.display(description="Voided by (credential)", ordering="voided_by")
    def voided_by_shown(self, void: HighHandVoid) -> str:
        return f"{person(void.voided_by)} ({credential(void.voided_by)})"

    @admin.display(description="Signatures")
    def signed_by(self, void: HighHandVoid) -> str:
        return signatures_html(void)
