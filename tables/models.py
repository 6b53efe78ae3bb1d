"""Poker rooms and their tables.

The database enforces what it can: a table number is unique in its room, and a table never has more
seats than its game allows (``games.MAX_SEATS``, one check constraint per game).
"""

from __future__ import annotations

from datetime import time

from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from .games import MAX_SEATS, MIN_SEATS, Game


class PokerRoom(models.Model):
    """A poker room: its time zone and the hour its gaming day starts."""

    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=120)
    timezone = models.CharField(max_length=64, default="America/New_York")
    gaming_day_starts = models.TimeField(default=time(6, 0))

    history = HistoricalRecords()

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return self.name


def _seat_limit_condition() -> Q:
    condition = Q()
    for game, seats in MAX_SEATS.items():
        condition |= Q(game=game, seats__lte=seats)
    return condition & Q(seats__gte=MIN_SEATS)


class Table(models.Model):
    room = models.ForeignKey(PokerRoom, on_delete=models.PROTECT, related_name="tables")
    number = models.CharField(max_length=10)
    game = models.CharField(max_length=20, choices=Game.choices)
    seats = models.PositiveSmallIntegerField()
    is_open = models.BooleanField(default=False)

    history = HistoricalRecords()

    class Meta:
        ordering = ["room", "number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="tables_table_number_unique_in_room"),
            models.CheckConstraint(condition=_seat_limit_condition(), name="tables_table_seats_within_game_limit"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} ({self.get_game_display()})"
