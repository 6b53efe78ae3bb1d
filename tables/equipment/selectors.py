"""Reads of the equipment and deck logs: a device's state, the decks overdue, the logs filtered."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet, Subquery

from ..games import HOUSE_BANKED
from ..models import Table
from ..selectors import visible_to
from .models import DECK_FIRST_WITHIN, DeckChange, Device, DeviceEvent, DeviceStep

DEVICE_RELATED = ("room", "table", "recorded_by")
DECK_RELATED = ("room", "table", "inspected_by", "verification__verified_by", "overdue")


def device_latest(*, table: Table, device: str) -> DeviceEvent | None:
    """The latest step recorded of a table's device (by the order recorded): its state."""
    return DeviceEvent.objects.filter(table=table, device=device).select_related("recorded_by").order_by("-pk").first()


@dataclass(frozen=True)
class DeviceState:
    device: str
    out_of_order: bool
    since: DeviceEvent | None  # the out-of-order step, while out of order


def device_states(*, table: Table) -> list[DeviceState]:
    """Each device of the table: out of order (since which step) or in service."""
    states = []
    for device in Device.values:
        latest = device_latest(table=table, device=device)
        out = latest is not None and latest.step == DeviceStep.OUT_OF_ORDER
        states.append(DeviceState(device=device, out_of_order=out, since=latest if out else None))
    return states


def devices_at(table: Table) -> tuple[str, ...]:
    """The devices a table may have: a shuffler, and at a banked table a dealing shoe (§655a.13(f))."""
    return tuple(Device.values) if table.game in HOUSE_BANKED else (Device.SHUFFLER,)


@dataclass(frozen=True)
class TableEquipment:
    """A table's devices by their latest step (None: nothing recorded, in service), and at a banked
    table the deck in play, as the tablet's list shows them."""

    table: Table
    latest: dict[str, DeviceEvent | None]
    deck: DeckChange | None


def tables_equipment(tables: list[Table], *, at: datetime) -> list[TableEquipment]:
    """Each of ``tables`` with its devices' latest steps and its deck in play at ``at``, in three
    queries whatever the number of tables."""
    steps = {
        device: Subquery(
            DeviceEvent.objects.filter(table=OuterRef("pk"), device=device).order_by("-pk").values("pk")[:1]
        )
        for device in Device.values
    }
    deck = DeckChange.objects.filter(table=OuterRef("pk"), changed_at__lte=at).order_by("-changed_at", "-pk")
    rows = Table.objects.filter(pk__in=[table.pk for table in tables]).annotate(
        **{f"latest_{device}": subquery for device, subquery in steps.items()}, deck_id=Subquery(deck.values("pk")[:1])
    )
    ids: dict[int, Any] = {row.pk: row for row in rows}
    events = DeviceEvent.objects.select_related("recorded_by").in_bulk(
        [getattr(row, f"latest_{device}") for row in ids.values() for device in Device.values]
    )
    decks = DeckChange.objects.select_related(*DECK_RELATED).in_bulk([row.deck_id for row in ids.values()])
    found = []
    for table in tables:
        row = ids[table.pk]
        latest = {device: events.get(getattr(row, f"latest_{device}")) for device in devices_at(table)}
        found.append(TableEquipment(table=table, latest=latest, deck=decks.get(row.deck_id)))
    return found


def deck_in_play(*, table: Table, at: datetime) -> DeckChange | None:
    """The deck put into play last at the table by ``at``."""
    return DeckChange.objects.filter(table=table, changed_at__lte=at).order_by("-changed_at", "-pk").first()


def decks_overdue(*, at: datetime) -> list[DeckChange]:
    """The decks in play at ``at`` at the open banked tables, changed longer ago than their limit
    (§655a.3(c), §657a.3(c): 'at least every 4 hours if the cards are dealt by hand ... every 8 hours if
    the cards are dealt from a manual or automated dealing shoe'). Whether a table is open is its state
    now (the schedule asks at now). An open banked table with no deck on the record is
    ``tables_without_deck``'s."""
    latest = DeckChange.objects.filter(table=OuterRef("pk"), changed_at__lte=at).order_by("-changed_at", "-pk")
    ids = (
        Table.objects.filter(is_open=True, game__in=HOUSE_BANKED)
        .annotate(deck_id=Subquery(latest.values("pk")[:1]))
        .exclude(deck_id=None)
        .values_list("deck_id", flat=True)
    )
    decks = DeckChange.objects.filter(pk__in=list(ids)).select_related("table", "room").order_by("table_id")
    return [deck for deck in decks if deck.due_by < at]


@dataclass(frozen=True)
class TableWithoutDeck:
    """An open banked table with no deck on the record, and when it opened."""

    table: Table
    opened_at: datetime


def tables_without_deck(*, at: datetime) -> list[TableWithoutDeck]:
    """The open banked tables with no deck put into play by ``at``, open since ``DECK_FIRST_WITHIN``
    before it or longer (§655a.4(a), §657a.4(a): the cards are inspected before they are put into play;
    §655a.3(c), §657a.3(c): a deck in play has a limit, a table with none has nothing to check). When a
    table opened is its history's word: the first change to open after its last change to closed (a
    table whose history never says it opened is left out). Two queries whatever the number of tables."""
    decks = DeckChange.objects.filter(table=OuterRef("pk"), changed_at__lte=at)
    tables = list(
        Table.objects.filter(is_open=True, game__in=HOUSE_BANKED)
        .exclude(Exists(decks))
        .select_related("room")
        .order_by("room_id", "number")
    )
    if not tables:
        return []
    opened: dict[int, datetime | None] = {}
    steps = Table.history.filter(id__in=[table.pk for table in tables]).order_by("history_date", "history_id")
    for table_id, is_open, when in steps.values_list("id", "is_open", "history_date"):
        if not is_open:
            opened[table_id] = None
        elif opened.get(table_id) is None:
            opened[table_id] = when
    found = []
    for table in tables:
        since = opened.get(table.pk)
        if since is not None and since <= at - DECK_FIRST_WITHIN:
            found.append(TableWithoutDeck(table=table, opened_at=since))
    return found


def _filtered(
    queryset: QuerySet[Any], *, user: Any, room_id: int | None, gaming_day: date | None, table_number: str | None
) -> QuerySet[Any]:
    found = visible_to(user, queryset)
    if room_id is not None:
        found = found.filter(room_id=room_id)
    if gaming_day is not None:
        found = found.filter(gaming_day=gaming_day)
    if table_number:
        found = found.filter(table__number=table_number)
    return found


def device_events_filtered(
    *, user: Any, room_id: int | None = None, gaming_day: date | None = None, table_number: str | None = None
) -> QuerySet[DeviceEvent]:
    """The equipment log of the rooms ``user`` works in, filtered as given, newest first."""
    events = DeviceEvent.objects.select_related(*DEVICE_RELATED)
    return _filtered(events, user=user, room_id=room_id, gaming_day=gaming_day, table_number=table_number).order_by(
        "-occurred_at", "-pk"
    )


def deck_changes_filtered(
    *, user: Any, room_id: int | None = None, gaming_day: date | None = None, table_number: str | None = None
) -> QuerySet[DeckChange]:
    """The deck log of the rooms ``user`` works in, filtered as given, newest first."""
    decks = DeckChange.objects.select_related(*DECK_RELATED)
    return _filtered(decks, user=user, room_id=room_id, gaming_day=gaming_day, table_number=table_number).order_by(
        "-changed_at", "-pk"
    )


def deck_shown(pk: int) -> DeckChange:
    return DeckChange.objects.select_related(*DECK_RELATED).get(pk=pk)


def device_event_shown(pk: int) -> DeviceEvent:
    return DeviceEvent.objects.select_related(*DEVICE_RELATED).get(pk=pk)
