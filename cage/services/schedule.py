"""The schedule of counts: count sheets created when they become due, flagged when overdue.

Celery beat calls ``schedule_run`` every minute (``cage.tasks``); ``manage.py run_schedule --at``
runs it at a given moment (catch-up after downtime, tests). Each sheet has a unique key per box, so
a second run, a late beat or two workers create nothing twice; a moment not after the latest run
changes nothing.

- Every Bad Beat box is counted 'at least once each gaming day' (§637a.15(d)): one sheet per box and
  gaming day, due by the end of that gaming day. Rake drop boxes get the same daily sheet.
- Every High Hand box is counted 'at the end of each qualifying period' (§637a.16(d)): one sheet per
  box and ended period, due ``HIGH_HAND_COUNT_GRACE`` after the period ends.
- Every High Hand fund's qualifying periods are opened and closed as its rules say
  (``jackpots.services.periods_run``); a closed period whose boxes are all verified has its pool
  announced, awarded or rolled over (``high_hand_pools_settle``, §637a.16(g)-(h)); an award not
  collected in time is prepared for finance's approval (§637a.16(i)).
- Every Bad Beat display is adjusted 'no less than once a day' (§637a.15(h)): a gaming day that ended
  without an adjustment of a fund's display is flagged (``jackpots.services.display_overdue_flag``).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from jackpots.models import JackpotKind
from jackpots.periods import qualifying_periods
from jackpots.rules import HighHandRule
from jackpots.services import display_overdue_flag, periods_run, unclaimed_prepare
from rake.selectors import RoomVersions
from tables.models import PokerRoom
from tables.selectors import gaming_day, gaming_day_bounds

from ..models import Box, BoxKind, CountSheet, ScheduleRun, SheetKind
from .boxes import boxes_sync
from .high_hand import high_hand_pools_settle

# A house control: how long after a qualifying period ends its High Hand boxes may wait for their count.
HIGH_HAND_COUNT_GRACE = timedelta(hours=1)
# How far back a first run, or a run after long downtime, looks for sheets it should have created.
CATCH_UP_LIMIT = timedelta(days=7)
# Advisory lock key: one schedule run at a time across every process (PostgreSQL).
SCHEDULE_LOCK = (637, 0)


def sheets_due(*, box: Box, after: datetime, until: datetime) -> list[CountSheet]:
    """The sheets of ``box`` that became due in (after, until], unsaved."""
    room = box.room
    now = timezone.now()
    if box.kind == BoxKind.JACKPOT and box.jackpot is not None and box.jackpot.kind == JackpotKind.HIGH_HAND:
        in_effect = RoomVersions.of(room=room, at=until).in_effect(at=until)
        rule = in_effect[1].jackpots.get(box.jackpot.code) if in_effect else None
        if not isinstance(rule, HighHandRule):
            return []
        return [
            CountSheet(
                room=room,
                box=box,
                kind=SheetKind.PERIOD,
                key=f"period:{start.astimezone(ZoneInfo(room.timezone)).strftime('%Y-%m-%dT%H:%M')}",
                gaming_day=gaming_day(room=room, at=start),
                opens_at=end,
                due_by=end + HIGH_HAND_COUNT_GRACE,
                created_at=now,
            )
            for start, end in qualifying_periods(
                zone=room.timezone,
                every_minutes=rule.period.every_minutes,
                first_starts=rule.period.first_starts,
                after=after,
                until=until,
            )
            if after < end <= until
        ]
    # Each gaming day after the one ``after`` fell in, up to the day of ``until``: the current day
    # always, and the days a stopped schedule missed (they are then overdue, and flagged).
    sheets = []
    last = gaming_day(room=room, at=until)
    day: date = min(gaming_day(room=room, at=after) + timedelta(days=1), last)
    while day <= last:
        starts, ends = gaming_day_bounds(room=room, day=day)
        sheets.append(
            CountSheet(
                room=room,
                box=box,
                kind=SheetKind.DAILY,
                key=f"day:{day.isoformat()}",
                gaming_day=day,
                opens_at=starts,
                due_by=ends,
                created_at=now,
            )
        )
        day += timedelta(days=1)
    return sheets


def schedule_lock_shared() -> None:
    """Wait for a schedule run that is under way, and keep the next one from starting, until this
    transaction ends. Called first in every transaction that counts a box (it creates or fills count
    sheets, which ``schedule_run`` creates and flags across every room in one transaction): the run
    and the counts then take their locks in one order, the schedule's first, and never deadlock.
    Counts do not wait for one another (PostgreSQL; SQLite runs one write transaction at a time)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock_shared(%s, %s)", SCHEDULE_LOCK)


def sheets_create(*, boxes: list[Box], after: datetime, until: datetime) -> int:
    """Insert the sheets due in (after, until] that do not exist yet; returns how many were new."""
    wanted = [sheet for box in boxes for sheet in sheets_due(box=box, after=after, until=until)]
    if not wanted:
        return 0
    existing = set(
        CountSheet.objects.filter(box__in=boxes, key__in={s.key for s in wanted}).values_list("box_id", "key")
    )
    new = [sheet for sheet in wanted if (sheet.box_id, sheet.key) not in existing]
    CountSheet.objects.bulk_create(new, ignore_conflicts=True)
    return len(new)


def schedule_run(*, at: datetime | None = None) -> ScheduleRun | None:
    """Create every count sheet that became due since the latest run, up to ``at`` (now by default),
    and flag the sheets overdue at ``at``. Returns the run, or None when ``at`` is not after the
    latest run (nothing changes)."""
    at = at or timezone.now()
    if timezone.is_naive(at):
        raise ValueError("schedule_run needs an aware moment")
    with transaction.atomic(durable=True):
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", SCHEDULE_LOCK)
        latest = ScheduleRun.objects.order_by("-at").values_list("at", flat=True).first()
        if latest is not None and at <= latest:
            return None
        # The first run starts the schedule: the current gaming day's sheets and the periods that end
        # from now on, not a backlog of periods from before the schedule existed. A later run catches up
        # on what it missed (up to CATCH_UP_LIMIT), and those sheets are flagged overdue at once.
        after = max(latest or at - HIGH_HAND_COUNT_GRACE, at - CATCH_UP_LIMIT)
        created = displays = opened = closed = announced = 0
        for room in PokerRoom.objects.all():
            periods = periods_run(room=room, at=at)
            opened, closed = opened + periods.opened, closed + periods.closed
            created += sheets_create(boxes=boxes_sync(room=room), after=after, until=at)
            displays += len(display_overdue_flag(room=room, at=at))
            announced += high_hand_pools_settle(room=room, at=at)
            unclaimed_prepare(room=room, at=at)
        flagged = 0
        for sheet in CountSheet.objects.filter(due_by__lt=at, count__isnull=True, overdue_flagged_at__isnull=True):
            sheet.overdue_flagged_at = at  # saved one by one so the audit trail records the flag
            sheet.save(update_fields=["overdue_flagged_at"])
            flagged += 1
        try:
            with transaction.atomic():
                return ScheduleRun.objects.create(
                    at=at,
                    ran_at=timezone.now(),
                    sheets_created=created,
                    sheets_flagged=flagged,
                    displays_flagged=displays,
                    periods_opened=opened,
                    periods_closed=closed,
                    pools_announced=announced,
                )
        except IntegrityError:
            return None
