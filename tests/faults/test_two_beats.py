"""Two beats over a simulated day, and one of them restarted: one close per period, one count sheet
per box and gaming day.

Two schedulers (threads, each with its own PostgreSQL connection) call the schedule's entry point
(``cage.services.schedule_run``, what beat's ``cage.tasks.schedule_tick`` and ``manage.py run_schedule
--at`` call) at every minute of a day (across the start of a gaming day), both at once each minute (they meet at a
barrier first). Halfway, the second one restarts: it stops, is down for three minutes, sends its last
tick again when it comes back (as a beat that lost its schedule file does), then ticks with the other.
T1 collects for the hourly High Hand ``hh``; rounds of play are logged across the day.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection

from cage.models import Box, CountSheet, ScheduleRun, SheetKind
from cage.services import boxes_sync, schedule_run
from jackpots.high_hand.models import HighHandPeriod, PeriodStatus
from rake.services import round_record
from tables.models import Table
from tests.conftest import PIN

NEW_YORK = ZoneInfo("America/New_York")
# From 05:30 on 2026-11-29 (still gaming day 2026-11-28: a gaming day starts at 06:00), every minute for a day.
FIRST = datetime(2026, 11, 29, 5, 30, tzinfo=NEW_YORK)


def _beat(
    moments: list[datetime],
    barriers: dict[datetime, threading.Barrier],
    ran: list[tuple[datetime, bool]],
    *,
    late: datetime | None = None,
):
    """A beat ticking at each moment, with the other beat when both tick then; ``late`` first, alone."""

    def tick() -> None:
        try:
            if late is not None:
                ran.append((late, schedule_run(at=late) is not None))
            for at in moments:
                barrier = barriers.get(at)
                if barrier is not None:
                    barrier.wait(timeout=60)
                ran.append((at, schedule_run(at=at) is not None))
        finally:
            connection.close()

    return threading.Thread(target=tick)


def _day(table: Table, dealer, *, minutes: int, supervisor=None) -> None:
    boxes_sync(room=table.room)
    moments = [FIRST + timedelta(minutes=m) for m in range(minutes)]
    half = minutes // 2
    first_b, second_b = moments[:half], moments[half + 3 :]
    # Both beats at once at every minute both tick; the restarted beat's repeated tick comes late, alone.
    barriers = {at: threading.Barrier(2) for at in [*first_b, *second_b]}
    ran: list[tuple[datetime, bool]] = []
    started = time.monotonic()
    beat_a = _beat(moments, barriers, ran)
    beat_b = _beat(first_b, barriers, ran)
    beat_a.start()
    beat_b.start()
    beat_b.join()  # the second beat stops ...
    restarted = _beat(second_b, barriers, ran, late=first_b[-1])  # ... and comes back three minutes later
    restarted.start()
    for thread in (beat_a, restarted):
        thread.join()
    elapsed = time.monotonic() - started
    print(f"\n{len(ran)} calls of the schedule over {minutes} minutes in {elapsed:.1f} s")
    # Rounds at T1 every 17 minutes of the day, sent late by the table system, after the schedule ran: each
    # drops into the period the schedule opened for its end (a round before that would open it itself).
    for n, at in enumerate(moments[::17]):
        round_record(
            table=table,
            ended_at=at,
            players_dealt_in=9,
            pot_cents=12_000,
            uncalled_bet_cents=0,
            flop_dealt=True,
            voided=False,
            actor=dealer,
            idempotency_key=f"two-beats-round-{n}",
            # Rounds of days ago are logged late: a shift supervisor signs for each (issue 24).
            late_entry_by=supervisor,
            pin=PIN,
        )

    # Each minute ran once, whoever ran it; every other call changed nothing.
    assert len(ran) == minutes + len(first_b) + 1 + len(second_b)
    assert sorted(at for at, did in ran if did) == moments
    assert list(ScheduleRun.objects.order_by("at").values_list("at", flat=True)) == moments

    # Every hourly period from the one open at the first minute: opened once, closed once when it ended.
    last = moments[-1]
    periods = list(HighHandPeriod.objects.order_by("starts_at"))
    start = FIRST.replace(minute=0)
    assert [p.starts_at for p in periods] == [start + timedelta(hours=h) for h in range(len(periods))]
    assert periods[-1].starts_at <= last < periods[-1].ends_at
    for period in periods:
        ended = period.ends_at <= last
        assert period.status == (PeriodStatus.CLOSED if ended else PeriodStatus.OPEN)
        assert period.history.filter(status=PeriodStatus.CLOSED).count() == int(ended)
        assert period.history.filter(history_type="+").count() == 1
        if ended:
            assert period.closed_at == period.ends_at and period.close_note == ""  # closed on time, by one beat

    # One daily sheet per box and gaming day; one period sheet per High Hand box and ended period that exists
    # (none for the period before the first run: the schedule never opened it).
    days = sorted({(at - timedelta(hours=6)).date() for at in moments})
    for box in Box.objects.filter(table=table):
        sheets = CountSheet.objects.filter(box=box)
        if box.code == "T1-hh":
            ends = [p.ends_at for p in periods if p.ends_at <= last]
            assert list(sheets.order_by("opens_at").values_list("opens_at", flat=True)) == ends
            assert not sheets.filter(kind=SheetKind.DAILY).exists()
        else:
            assert list(sheets.order_by("gaming_day").values_list("gaming_day", "kind")) == [
                (day, SheetKind.DAILY) for day in days
            ]


@pytest.mark.django_db(transaction=True)
def test_two_beats_and_a_restart_over_three_hours_close_each_period_once_and_make_each_sheet_once(
    rated_table, dealer, supervisor
) -> None:
    # 05:30 to 08:29: the start of gaming day 2026-11-29 at 06:00, the hourly periods ending at 06:00,
    # 07:00 and 08:00; the restart at 06:59.
    _day(rated_table, dealer, minutes=3 * 60, supervisor=supervisor)


@pytest.mark.soak
@pytest.mark.django_db(transaction=True)
def test_two_beats_and_a_restart_over_a_day_close_each_period_once_and_make_each_sheet_once(
    rated_table, dealer, supervisor
) -> None:
    _day(rated_table, dealer, minutes=24 * 60, supervisor=supervisor)
