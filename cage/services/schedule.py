"""The schedule of counts: count sheets created when they become due, flagged when overdue.

Celery beat calls ``schedule_run`` every minute (``cage.tasks``); ``manage.py run_schedule --at``
runs it at a given moment (catch-up after downtime, tests). Each sheet has a unique key per box, so
a second run, a late beat or two workers create nothing twice; a moment not after the latest run
changes nothing.

- Every Bad Beat box is counted 'at least once each gaming day' (§637a.15(d)): one sheet per box and
  gaming day, due by the end of that gaming day. Rake drop boxes get the same daily sheet.
- Every High Hand box is counted 'at the end of each qualifying period' (§637a.16(d)): one sheet per
  box and ended period that exists, due ``HIGH_HAND_COUNT_GRACE`` after the period ends; its count
  takes that period's box content.
- Every High Hand fund's qualifying periods are opened and closed as its rules say
  (``jackpots.high_hand.services.periods.periods_run``); a closed period whose boxes are all verified has its pool
  announced, awarded or rolled over (``high_hand_pools_settle``, §637a.16(g)-(h)); an award not
  collected in time is prepared for finance's approval (§637a.16(i)).
- Every Bad Beat display is adjusted 'no less than once a day' (§637a.15(h)): a gaming day that ended
  without an adjustment of a fund's display is flagged (``jackpots.bad_beat.services.display.display_overdue_flag``);
  and 'immediately upon notification of a Bad Beat verification': a verification whose display was not
  adjusted within the limit the rules post is flagged (``jackpots.bad_beat.services.display.display_late_flag``).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from jackpots.bad_beat.services.display import display_late_flag, display_overdue_flag
from jackpots.funds.models import JackpotKind
from jackpots.funds.selectors import tables_listing
from jackpots.high_hand.models import HighHandPeriod, PeriodStatus
from jackpots.high_hand.services.awards import unclaimed_prepare
from jackpots.high_hand.services.periods import periods_run
from jackpots.high_hand.services.settlement import high_hand_pools_settle
from tables.models import PokerRoom
from tables.selectors import gaming_day, gaming_day_bounds

from ..models import Box, BoxKind, CountSheet, ScheduleRun, SheetKind
from ..selectors import high_hand_contents_taken_whole
from .boxes import boxes_sync
from .high_hand import period_sheet_key

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
        return _period_sheets_due(box=box, until=until, now=now)
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


def _period_sheets_due(*, box: Box, until: datetime, now: datetime) -> list[CountSheet]:
    """One sheet per qualifying period of the box's fund that exists and has ended by ``until``
    (§637a.16(d): 'counted at the end of each qualifying period'), among those whose rules version
    listed the box's table, within ``CATCH_UP_LIMIT``. A period exists only if the schedule opened it
    or a round that ended in it did (``jackpots.high_hand.services.periods.period_box_content``), so no sheet is made for
    a period before the rules took effect. A sheet's count takes that period's box content and no
    other; a box content taken whole before its period ended needs none (``_taken_whole``). Sheets
    already made are skipped."""
    room, jackpot = box.room, box.jackpot
    assert jackpot is not None
    periods = (
        HighHandPeriod.objects.filter(
            jackpot=jackpot,
            ends_at__lte=until,
            ends_at__gt=until - CATCH_UP_LIMIT,
        )
        .exclude(status=PeriodStatus.OPEN)  # the schedule closes a period, then its sheets are due
        .exclude(count_sheets__box=box)
        .select_related("room", "rules_version")
    )
    due = [
        period
        for period in periods
        if box.table.number in tables_listing(version=period.rules_version, code=jackpot.code)
        and not _taken_whole(box=box, period=period)
    ]
    return [
        CountSheet(
            room=room,
            box=box,
            kind=SheetKind.PERIOD,
            key=period_sheet_key(period),
            period=period,
            gaming_day=gaming_day(room=room, at=period.starts_at),
            opens_at=period.ends_at,
            due_by=period.ends_at + HIGH_HAND_COUNT_GRACE,
            created_at=now,
        )
        for period in due
    ]


def _taken_whole(*, box: Box, period: HighHandPeriod) -> bool:
    """The box content of ``period`` was counted or carried before the period ended and nothing was
    dropped into it since: no count is left to make (``cage.selectors.high_hand_contents_taken_whole``,
    the rule the cage's list of boxes reads too)."""
    return (box.pk, period.pk) in high_hand_contents_taken_whole(boxes=[box], periods=[period])


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
            displays += len(display_overdue_flag(room=room, at=at)) + len(display_late_flag(room=room, at=at))
            announced += high_hand_pools_settle(room=room, at=at)
            unclaimed_prepare(room=room, at=at)
        flagged = 0
        for sheet in CountSheet.objects.filter(due_by__lt=at, counts__isnull=True, overdue_flagged_at__isnull=True):
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
