"""The count schedule: sheets created once whatever runs it, overdue ones flagged, late runs catch up."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.core.management import call_command

from cage.models import CountSheet, ScheduleRun, SheetKind
from cage.services import schedule_run

NY = ZoneInfo("America/New_York")


def test_a_gaming_day_gets_one_daily_sheet_per_box_and_each_ended_period_one_per_high_hand_box(
    rules, open_table
) -> None:
    # T1 has a rake drop box, a Bad Beat box and a High Hand box (periods of 60 minutes from 10:00).
    run = schedule_run(at=datetime(2026, 11, 30, 12, 30, tzinfo=NY))
    assert run is not None
    daily = CountSheet.objects.filter(kind=SheetKind.DAILY, box__table__number="T1")
    assert sorted(daily.values_list("box__code", "key")) == [("T1-bb", "day:2026-11-30"), ("T1-drop", "day:2026-11-30")]
    # The first run starts the schedule: it opens the current period (12:00-13:00) and no backlog, so no
    # period has ended that exists: no sheet (§637a.16(d) counts a period's box, and 11:00 was never one).
    periods = CountSheet.objects.filter(kind=SheetKind.PERIOD, box__code="T1-hh").order_by("opens_at")
    assert list(periods.values_list("key", flat=True)) == []
    # An hour later the 12:00 period has ended: its sheet, naming it.
    schedule_run(at=datetime(2026, 11, 30, 13, 30, tzinfo=NY))
    assert list(periods.values_list("key", "period__starts_at")) == [
        ("period:2026-11-30T12:00", datetime(2026, 11, 30, 12, 0, tzinfo=NY))
    ]


def test_a_second_run_or_an_earlier_moment_changes_nothing(rules, open_table) -> None:
    schedule_run(at=datetime(2026, 11, 30, 12, 30, tzinfo=NY))
    sheets = CountSheet.objects.count()
    assert schedule_run(at=datetime(2026, 11, 30, 12, 30, tzinfo=NY)) is None
    assert schedule_run(at=datetime(2026, 11, 30, 9, 0, tzinfo=NY)) is None
    assert CountSheet.objects.count() == sheets and ScheduleRun.objects.count() == 1


def test_a_run_after_downtime_creates_the_missed_sheets_and_flags_them_overdue(rules, open_table) -> None:
    schedule_run(at=datetime(2026, 11, 28, 7, 0, tzinfo=NY))
    run = schedule_run(at=datetime(2026, 11, 30, 7, 0, tzinfo=NY))
    keys = set(CountSheet.objects.filter(box__code="T1-bb").values_list("key", flat=True))
    assert keys == {"day:2026-11-28", "day:2026-11-29", "day:2026-11-30"}
    overdue = set(
        CountSheet.objects.filter(box__code="T1-bb", overdue_flagged_at__isnull=False).values_list("key", flat=True)
    )
    assert overdue == {"day:2026-11-28", "day:2026-11-29"}
    assert run is not None and run.sheets_flagged >= 2


def test_run_schedule_command_at_a_moment_and_again(rules, open_table, capsys) -> None:
    call_command("run_schedule", "--at", "2026-11-30T12:30:00-05:00")
    assert "count sheets created" in capsys.readouterr().out
    call_command("run_schedule", "--at", "2026-11-30T12:00:00-05:00")
    assert "Nothing to do" in capsys.readouterr().out


def test_a_late_count_fills_the_overdue_sheet_which_stays_flagged(rules, open_table, floorperson, dealer, key) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from cage.models import Box
    from cage.services import count_record, notice_record
    from tables.services import table_set_open
    from tests.conftest import PIN

    now = timezone.now()
    schedule_run(at=now - timedelta(days=1))
    schedule_run(at=now)  # yesterday's sheet was not filled: flagged overdue
    drop = Box.objects.get(code="T1-drop")
    yesterday = CountSheet.objects.filter(box=drop).order_by("opens_at").first()
    assert yesterday.overdue_flagged_at is not None
    table_set_open(table=open_table, is_open=False, actor=floorperson)
    notice_record(
        room=open_table.room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key()
    )

    late = count_record(box=drop, counted_cents=0, actor=dealer, pin=PIN, idempotency_key=key())

    yesterday.refresh_from_db()
    assert late.sheet == yesterday and late.gaming_day == yesterday.gaming_day
    assert yesterday.overdue_flagged_at is not None  # the record says the count came late
    today = CountSheet.objects.filter(box=drop).order_by("opens_at").last()
    assert today != yesterday and not CountSheet.objects.filter(pk=today.pk, counts__isnull=False).exists()
