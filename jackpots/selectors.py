"""Reads for the display board and reports of jackpots."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.utils import timezone

from tables.models import PokerRoom
from tables.selectors import gaming_day


@dataclass(frozen=True)
class DisplayState:
    """What the display board of a room shows. Jackpot amounts join with the jackpot issues."""

    room: PokerRoom
    now_local: datetime
    gaming_day_on: date
    open_tables: int
    total_tables: int
    jackpots: tuple = ()
    notices: tuple[str, ...] = ()


def display_state(*, room: PokerRoom) -> DisplayState:
    now = timezone.now()
    tables = list(room.tables.values_list("is_open", flat=True))
    return DisplayState(
        room=room,
        now_local=now.astimezone(ZoneInfo(room.timezone)),
        gaming_day_on=gaming_day(room=room, at=now),
        open_tables=sum(tables),
        total_tables=len(tables),
    )
