from __future__ import annotations

from django.urls import path
from rest_framework import generics, serializers

from .models import PokerRoom, Table


class TableSerializer(serializers.ModelSerializer):
    room: serializers.SlugRelatedField[PokerRoom] = serializers.SlugRelatedField(slug_field="code", read_only=True)

    class Meta:
        model = Table
        fields = ["id", "room", "number", "game", "seats", "is_open"]


class RoomSerializer(serializers.ModelSerializer):
    class Meta:
        model = PokerRoom
        fields = ["id", "code", "name", "timezone", "gaming_day_starts"]


class RoomList(generics.ListAPIView):
    """The poker rooms, their time zones and when their gaming day starts."""

    queryset = PokerRoom.objects.all()
    serializer_class = RoomSerializer


class TableList(generics.ListAPIView):
    """Every table with its game, seats and whether it is open; filter with ``?room=main``."""

    serializer_class = TableSerializer

    def get_queryset(self):
        tables = Table.objects.select_related("room")
        if room := self.request.query_params.get("room"):
            tables = tables.filter(room__code=room)
        return tables


urlpatterns = [
    path("rooms/", RoomList.as_view(), name="api-rooms"),
    path("tables/", TableList.as_view(), name="api-tables"),
]
