"""``/api/rooms/`` and ``/api/tables/``, and what every app's API shares about rooms: a room named
in a body or a query, and a time as the room's clock reads it.

A person sees and names only the rooms they work in (``tables.selectors.visible_to``): a room of
another is answered as a room that does not exist, so its existence is not disclosed."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.urls import path
from drf_spectacular.utils import extend_schema_field
from rest_framework import generics, serializers
from rest_framework.exceptions import ValidationError

from casino_backoffice.core.clock import local_iso
from casino_backoffice.staff.permissions import Action

from .models import PokerRoom, Table
from .selectors import rooms_of, visible_to

# --- Rooms named in a body or a query, and their clocks -------------------------------------------


def room_named(code: str | None, *, user: Any, field: str = "room") -> PokerRoom | None:
    """The room of that code among those ``user`` works in, None when no code is given; a 400 naming
    ``field`` when unknown, or of another room (the same answer)."""
    if not code:
        return None
    room = rooms_of(user).filter(code=code).first()
    if room is None:
        raise ValidationError({field: [f"There is no room {code}."]})
    return room


def room_required(code: str | None, *, user: Any, field: str = "room") -> PokerRoom:
    """The room of that code, or the only room ``user`` works in when none is given and there is one."""
    room = room_named(code, user=user, field=field)
    if room is not None:
        return room
    rooms = list(rooms_of(user)[:2])
    if len(rooms) != 1:
        raise ValidationError({field: ["Say which room (its code, such as main)."]})
    return rooms[0]


def local(at: datetime | None, room: PokerRoom) -> str | None:
    """An aware datetime in the room's time zone, ISO-8601 with its offset."""
    return local_iso(at, room)


# --- The rooms and the tables ---------------------------------------------------------------------


class TableSerializer(serializers.ModelSerializer):
    room: serializers.SlugRelatedField[PokerRoom] = serializers.SlugRelatedField(slug_field="code", read_only=True)

    class Meta:
        model = Table
        fields = ["id", "room", "number", "game", "seats", "is_open"]


@extend_schema_field({"type": "string", "pattern": r"^\d{2}:\d{2}:\d{2}$", "example": "06:00:00"})
class WallClockTimeField(serializers.TimeField):
    """A wall-clock time of the room's own zone ("06:00:00"): not an RFC 3339 time, which carries an offset."""


class RoomSerializer(serializers.ModelSerializer):
    gaming_day_starts = WallClockTimeField(
        format="%H:%M:%S", read_only=True, help_text='When the gaming day starts on the room\'s clock, "06:00:00".'
    )

    class Meta:
        model = PokerRoom
        fields = ["id", "code", "name", "timezone", "gaming_day_starts"]


class RoomList(generics.ListAPIView):
    """The poker rooms the signed-in person works in, their time zones and when their gaming day starts."""

    serializer_class = RoomSerializer
    required_actions = {"GET": Action.ROOMS_READ}

    def get_queryset(self):
        return rooms_of(self.request.user)


class TableList(generics.ListAPIView):
    """Every table of the rooms the signed-in person works in, with its game, seats and whether it is
    open; filter with ``?room=main``."""

    serializer_class = TableSerializer
    required_actions = {"GET": Action.TABLES_READ}

    def get_queryset(self):
        tables = visible_to(self.request.user, Table.objects.select_related("room"))
        if room := self.request.query_params.get("room"):
            tables = tables.filter(room__code=room)
        return tables


urlpatterns = [
    path("rooms/", RoomList.as_view(), name="api-rooms"),
    path("tables/", TableList.as_view(), name="api-tables"),
]
