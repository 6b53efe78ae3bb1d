"""The room's clock (``casino_backoffice.core.clock``): one place reads a moment in a time zone."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from casino_backoffice.core.clock import HOUR_MINUTE, SECOND, ZONED, local, local_iso, local_text, zone_of


@dataclass
class Room:
    timezone: str


def test_a_moment_reads_on_the_rooms_clock() -> None:
    at = datetime(2026, 11, 30, 2, 14, 5, tzinfo=UTC)
    room = Room("America/Los_Angeles")

    assert local_text(at, room) == "2026-11-29 18:14"
    assert local_text(at, room, SECOND) == "2026-11-29 18:14:05"
    assert local_text(at, room, HOUR_MINUTE) == "18:14"
    assert local_text(at, "America/New_York", ZONED) == "2026-11-29 21:14 EST"
    assert local_iso(at, room) == "2026-11-29T18:14:05-08:00"


def test_where_is_a_room_a_zone_a_name_or_the_sites_own(settings) -> None:
    settings.TIME_ZONE = "Europe/Paris"
    zone = ZoneInfo("America/Chicago")

    assert zone_of(Room("America/Chicago")) is zone
    assert zone_of("America/Chicago") is zone
    assert zone_of(zone) is zone
    assert zone_of(None) == ZoneInfo("Europe/Paris")
    assert local(datetime(2026, 7, 1, 12, tzinfo=UTC), None).hour == 14


def test_no_moment_reads_as_nothing() -> None:
    assert local_text(None, "America/New_York") == ""
    assert local_iso(None, "America/New_York") is None
