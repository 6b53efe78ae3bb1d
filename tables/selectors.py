"""Reads about rooms and tables, and the one place the gaming day is computed."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone

from .models import PokerRoom, RulesVersion


def gaming_day(*, room: PokerRoom, at: datetime) -> date:
    """The gaming day of the moment ``at`` in ``room``.

    A gaming day starts at the room's ``gaming_day_starts`` in the room's own time zone; a moment
    before that hour belongs to the previous calendar day (a 3 a.m. hand with a 6 a.m. start is the
    previous day's business).
    """
    if timezone.is_naive(at):
        raise ValueError("gaming_day needs an aware datetime")
    local = at.astimezone(ZoneInfo(room.timezone))
    day = local.date()
    return day - timedelta(days=1) if local.time() < room.gaming_day_starts else day


def gaming_day_bounds(*, room: PokerRoom, day: date) -> tuple[datetime, datetime]:
    """The first moment of ``day`` and the first moment of the next, as aware datetimes."""
    zone = ZoneInfo(room.timezone)
    start = datetime.combine(day, room.gaming_day_starts, tzinfo=zone)
    end = datetime.combine(day + timedelta(days=1), room.gaming_day_starts, tzinfo=zone)
    return start, end


def rules_version_in_effect(*, room: PokerRoom, at: datetime) -> RulesVersion | None:
    """The version of a room's rules in effect at ``at``: the latest ``effective_from`` not after it,
    the later loaded when two share a moment (``RulesVersion``)."""
    return RulesVersion.objects.filter(room=room, effective_from__lte=at).order_by("-effective_from", "-number").first()
