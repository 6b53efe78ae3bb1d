"""The qualifying periods of a High Hand, as the room's wall clock draws them (§637a.16(b)(1)).

One rule, used by the schedule that opens and closes periods (``jackpots.high_hand.services``) and by
the cage's count sheets of each ended period: every ``every_minutes`` from ``first_starts``, in the
room's time zone. Boundaries are wall-clock times turned into instants; across a daylight-saving change
a period keeps its wall-clock bounds (an hourly period from 01:00 to 02:00 on the night the clocks go
back lasts two hours), and a boundary the clocks skip collapses into the next, so no period is empty.
Periods are half-open, [start, end).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo


def _boundaries(*, zone: ZoneInfo, every_minutes: int, first_starts: time, day: date) -> list[datetime]:
    step = timedelta(minutes=every_minutes)
    wall = datetime.combine(day, first_starts)
    return [(wall + step * n).replace(tzinfo=zone) for n in range(1440 // every_minutes)]


def qualifying_periods(
    *, zone: str, every_minutes: int, first_starts: time, after: datetime, until: datetime
) -> list[tuple[datetime, datetime]]:
    """Every period (start, end) that overlaps (after, until], in order, as UTC instants (aware
    datetimes of one zone compare by their wall clock, which a daylight-saving change makes wrong)."""
    tz = ZoneInfo(zone)
    first_day = after.astimezone(tz).date() - timedelta(days=1)
    last_day = until.astimezone(tz).date() + timedelta(days=1)
    instants: set[datetime] = set()
    day = first_day
    while day <= last_day:
        instants.update(
            moment.astimezone(UTC)
            for moment in _boundaries(zone=tz, every_minutes=every_minutes, first_starts=first_starts, day=day)
        )
        day += timedelta(days=1)
    after, until = after.astimezone(UTC), until.astimezone(UTC)
    return [(start, end) for start, end in pairwise(sorted(instants)) if end > after and start <= until]


def period_at(*, zone: str, every_minutes: int, first_starts: time, at: datetime) -> tuple[datetime, datetime]:
    """The period ``at`` falls in: start <= at < end (UTC instants)."""
    for start, end in qualifying_periods(
        zone=zone, every_minutes=every_minutes, first_starts=first_starts, after=at - timedelta(minutes=1), until=at
    ):
        if start <= at < end:
            return start, end
    raise AssertionError("every moment falls in a period")  # pragma: no cover
