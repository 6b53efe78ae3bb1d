"""The equipment log and the deck log in the admin (issue 28, item 6): read-only for everyone, as the
floor signed them (``services``), each moment on the room's clock, filtered by room, gaming day, table
and what happened. A busy day's list costs the same queries as a quiet one."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.text import Truncator

from casino_backoffice.core.admin import ReadOnlyAdmin, signatures_html
from casino_backoffice.core.clock import ZONED, local_text
from casino_backoffice.staff.permissions import Action, may

from ..admin_filters import GamingDayFilter, TableFilter
from .models import DeckChange, DeckMissing, DeviceEvent


def _person(user: Any) -> str:
    return f"{user.get_full_name() or user.username} ({user.credential_number})"


class EquipmentAdmin(ReadOnlyAdmin):
    """What the equipment and deck logs share: who reads them, and their room and table columns."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may(request.user, Action.EQUIPMENT_READ) and super().has_view_permission(request, obj)

    @admin.display(description="Room", ordering="room__code")
    def room_code(self, row: Any) -> str:
        return row.room.code

    @admin.display(description="Table", ordering="table__number")
    def table_number(self, row: Any) -> str:
        return row.table.number


@admin.register(DeviceEvent)
class DeviceEventAdmin(EquipmentAdmin):
    """Each step of a shuffler or a dealing shoe (§637a.18(q)-(r), §655a.13(e)-(g), §657a.13(e)-(g)):
    failed, out of order (covered or signed), returned to service; newest first."""

    list_display = [
        "id",
        "occurred_at_local",
        "room_code",
        "table_number",
        "device",
        "serial_number",
        "step_and_section",
        "how",
        "what_happened",
        "recorder",
    ]
    list_display_links = ["id", "occurred_at_local"]
    list_filter = [("room", admin.RelatedOnlyFieldListFilter), GamingDayFilter, TableFilter, "device", "step"]
    list_select_related = ["room", "table", "recorded_by"]
    search_fields = ["description", "serial_number"]
    fields = [
        "room",
        "table",
        "gaming_day",
        "device",
        "serial_number",
        "step_and_section",
        "how",
        "ends",
        "occurred_at_local",
        "description",
        "recorder",
        "recorded_at_local",
        "every_signature",
    ]
    readonly_fields = ["step_and_section", "how", "recorder", "every_signature"]

    @admin.display(description="When (the room's clock)", ordering="occurred_at")
    def occurred_at_local(self, event: DeviceEvent) -> str:
        return local_text(event.occurred_at, event.room, ZONED)

    @admin.display(description="Recorded at", ordering="recorded_at")
    def recorded_at_local(self, event: DeviceEvent) -> str:
        return local_text(event.recorded_at, event.room, ZONED)

    @admin.display(description="Step (provision)", ordering="step")
    def step_and_section(self, event: DeviceEvent) -> str:
        return format_html("{}<br><small>{}</small>", event.get_step_display(), event.section)

    @admin.display(description="How")
    def how(self, event: DeviceEvent) -> str:
        if event.failure:
            return event.get_failure_display()
        if event.marking:
            return event.get_marking_display()
        return f"ends step {event.ends_id}" if event.ends_id else "—"

    @admin.display(description="What happened")
    def what_happened(self, event: DeviceEvent) -> str:
        return Truncator(event.description).chars(80)

    @admin.display(description="Recorded by", ordering="recorded_by__last_name")
    def recorder(self, event: DeviceEvent) -> str:
        return _person(event.recorded_by)

    @admin.display(description="Every signature")
    def every_signature(self, event: DeviceEvent) -> str:
        return signatures_html(event)


class VerificationFilter(admin.SimpleListFilter):
    """A deck's inspection verified by a floorperson or above, still to verify, or received
    preinspected and needing none (§655a.4(a), (e); §657a.4(a), (e))."""

    title = "verification"
    parameter_name = "verification"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("verified", "Verified"), ("to_verify", "Not verified"), ("preinspected", "Preinspected: none needed")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "verified":
            return queryset.filter(verification__isnull=False)
        if self.value() == "to_verify":
            return queryset.filter(verification__isnull=True, preinspected=False)
        if self.value() == "preinspected":
            return queryset.filter(preinspected=True)
        return queryset


class OverdueFilter(admin.SimpleListFilter):
    """The decks the schedule flagged as kept past their limit (§655a.3(c), §657a.3(c))."""

    title = "kept past its limit"
    parameter_name = "overdue"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Flagged"), ("no", "Not flagged")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() in ("yes", "no"):
            return queryset.filter(overdue__isnull=self.value() == "no")
        return queryset


@admin.register(DeckChange)
class DeckChangeAdmin(EquipmentAdmin):
    """Each deck put into play at a banked table, its inspection and its verification (§655a.4(a),
    §657a.4(a)), when it was due to change (§655a.3(c), §657a.3(c)) and whether the schedule flagged it
    kept past that; newest first."""

    list_display = [
        "id",
        "changed_at_local",
        "room_code",
        "table_number",
        "dealt_from",
        "decks",
        "inspector",
        "verification_shown",
        "due_by_local",
        "overdue_shown",
    ]
    list_display_links = ["id", "changed_at_local"]
    list_filter = [
        ("room", admin.RelatedOnlyFieldListFilter),
        GamingDayFilter,
        TableFilter,
        "dealt_from",
        VerificationFilter,
        OverdueFilter,
    ]
    list_select_related = ["room", "table", "inspected_by", "verification__verified_by", "overdue"]
    search_fields = ["note"]
    fields = [
        "room",
        "table",
        "gaming_day",
        "changed_at_local",
        "dealt_from",
        "decks",
        "preinspected",
        "inspector",
        "inspected_at_local",
        "verification_shown",
        "due_by_local",
        "overdue_shown",
        "note",
        "every_signature",
    ]
    readonly_fields = ["inspector", "verification_shown", "due_by_local", "overdue_shown", "every_signature"]

    @admin.display(description="Put into play (the room's clock)", ordering="changed_at")
    def changed_at_local(self, deck: DeckChange) -> str:
        return local_text(deck.changed_at, deck.room, ZONED)

    @admin.display(description="Inspected at", ordering="inspected_at")
    def inspected_at_local(self, deck: DeckChange) -> str:
        return local_text(deck.inspected_at, deck.room, ZONED)

    @admin.display(description="Inspected by", ordering="inspected_by__last_name")
    def inspector(self, deck: DeckChange) -> str:
        return _person(deck.inspected_by)

    @admin.display(description="Verified by")
    def verification_shown(self, deck: DeckChange) -> str:
        verification = getattr(deck, "verification", None)
        if verification is not None:
            return f"{_person(verification.verified_by)} at {local_text(verification.verified_at, deck.room, ZONED)}"
        return "none needed: received preinspected" if deck.preinspected else "not verified"

    @admin.display(description="To change by")
    def due_by_local(self, deck: DeckChange) -> str:
        return local_text(deck.due_by, deck.room, ZONED)

    @admin.display(description="Kept past its limit")
    def overdue_shown(self, deck: DeckChange) -> str:
        overdue = getattr(deck, "overdue", None)
        return f"flagged at {local_text(overdue.flagged_at, deck.room, ZONED)}" if overdue is not None else "—"

    @admin.display(description="Every signature")
    def every_signature(self, deck: DeckChange) -> str:
        verification = getattr(deck, "verification", None)
        signed = signatures_html(deck)
        if verification is None:
            return signed
        return format_html("{}{}", signed, signatures_html(verification, room=deck.room))


@admin.register(DeckMissing)
class DeckMissingAdmin(EquipmentAdmin):
    """Each banked table the schedule found open with no deck on the record 15 minutes after it opened
    (§655a.4(a), §657a.4(a): the cards are inspected before they are put into play); newest first."""

    list_display = ["id", "flagged_at_local", "room_code", "table_number", "opened_at_local"]
    list_display_links = ["id", "flagged_at_local"]
    list_filter = [("room", admin.RelatedOnlyFieldListFilter), TableFilter]
    list_select_related = ["room", "table"]
    fields = ["room", "table", "opened_at_local", "flagged_at_local"]
    readonly_fields = ["opened_at_local", "flagged_at_local"]

    @admin.display(description="Flagged (the room's clock)", ordering="flagged_at")
    def flagged_at_local(self, flag: DeckMissing) -> str:
        return local_text(flag.flagged_at, flag.room, ZONED)

    @admin.display(description="Open since", ordering="opened_at")
    def opened_at_local(self, flag: DeckMissing) -> str:
        return local_text(flag.opened_at, flag.room, ZONED)
