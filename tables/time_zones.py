"""The one check that a room's time zone is a time zone: its gaming day and shifts are counted in it."""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def time_zone_problem(name: object) -> str | None:
    """Why ``name`` is not a time zone a room can keep, or None when it is one (an IANA name)."""
    try:
        ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError):
        return f"{name!r} is not a time zone (use a name such as America/New_York)"
    return None
