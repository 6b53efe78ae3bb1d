"""The room's clock: the one place a moment is read in a time zone to be shown to a person, written in
a report or an export, or dated by its gaming day (``tables.selectors.gaming_day``).

Moments are stored aware and in UTC (``USE_TZ``); a poker room keeps its own zone (``PokerRoom.timezone``,
an IANA name such as ``America/New_York``), and a moment is shown as that room's clock read it. The
kernel knows no rooms: ``where`` is the room itself (anything with a ``timezone``), the zone's name,
a ``ZoneInfo``, or None for the site's own zone (``settings.TIME_ZONE``, which ``timezone.localtime``
reads too: no page activates another).
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from django.conf import settings

# The formats the pages, reports and refusals use.
MINUTE = "%Y-%m-%d %H:%M"  # '2026-11-30 21:14'
SECOND = "%Y-%m-%d %H:%M:%S"  # '2026-11-30 21:14:05'
ZONED = "%Y-%m-%d %H:%M %Z"  # '2026-11-30 21:14 EST'
ZONED_SECOND = "%Y-%m-%d %H:%M:%S %Z"  # '2026-11-30 21:14:05 EST'
HOUR_MINUTE = "%H:%M"  # '21:14'
HOUR_MINUTE_ZONED = "%H:%M %Z"  # '21:14 EST'


class HasTimeZone(Protocol):
    """A poker room, or anything that keeps a time zone by its IANA name."""

    @property
    def timezone(self) -> str: ...


Where = HasTimeZone | ZoneInfo | str | None


def zone_of(where: Where) -> ZoneInfo:
    """The time zone of ``where``: a room's, a zone's by its name, or the site's own for None."""
    if where is None:
        return ZoneInfo(settings.TIME_ZONE)
    if isinstance(where, ZoneInfo):
        return where
    return ZoneInfo(where if isinstance(where, str) else where.timezone)


def local(at: datetime, where: Where) -> datetime:
    """The aware moment ``at`` as the clock of ``where`` reads it."""
    return at.astimezone(zone_of(where))


def local_text(at: datetime | None, where: Where, fmt: str = MINUTE) -> str:
    """``at`` on the clock of ``where``, written with ``fmt`` (``MINUTE`` unless said); '' for no moment."""
    return "" if at is None else local(at, where).strftime(fmt)


def local_iso(at: datetime | None, where: Where) -> str | None:
    """``at`` on the clock of ``where`` in ISO 8601 with its offset, as the API answers; None for no moment."""
    return None if at is None else local(at, where).isoformat()
