"""A night of High Hand periods driven by ``manage.py run_schedule --at`` on PostgreSQL, across the
night the clocks go back (2026-11-01, America/New_York): periods opened and closed on the wall clock,
boxes counted and verified at the cage after each period, pools announced and awarded, a roll-over, a
tie split to the cent, the schedule down across a period and two workers racing the same close."""

from __future__ import annotations

import itertools
import threading
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.db import connection

from cage.models import CountSheet, ScheduleRun, SheetKind
from cage.services import schedule_run
from casino_backoffice.ledger.selectors import ledger_total
from jackpots.high_hand.models import HighHandAward, HighHandPeriod, PeriodStatus

NEW_YORK = ZoneInfo("America/New_York")
_keys = itertools.count(1)


def _at(text: str, *, fold: int = 0) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=NEW_YORK, fold=fold)


def _run(at: datetime) -> None:
    call_command("run_schedule", at=at.isoformat())


def _period(starts: datetime) -> HighHandPeriod:
    return HighHandPeriod.objects.get(starts_at=starts)


def test_a_night_of_periods_across_the_clocks_going_back(night) -> None:
    assert connection.vendor == "postgresql"
    rounds, hand, count = night

    _run(_at("2026-10-31T23:30"))  # the first run opens the current period only
    # ... and makes no sheet for the 22:00 period, which does not exist (it made one before: a count of
    # the 23:00 box could then fill it).
    assert not CountSheet.objects.filter(kind=SheetKind.PERIOD).exists()
    rounds(_at("2026-10-31T23:35"), 2)  # $4.00 for the 23:00 pool
    hand("9s 9d 9h 4c 4d", _at("2026-10-31T23:40"), seat=3)
    hand("Ts Td Th 4s 4h", _at("2026-10-31T23:50"), seat=5)  # the winner

    _run(_at("2026-11-01T00:01"))  # 23:00 closes; 00:00 opens; the 23:00 count sheets exist now
    count()
    _run(_at("2026-11-01T00:10"))  # every box of 23:00 verified: its pool is announced

    eleven = _period(_at("2026-10-31T23:00"))
    assert (eleven.status, eleven.pool_cents) == (PeriodStatus.AWARDED, 400)
    (award,) = HighHandAward.objects.filter(period=eleven)
    assert (award.entry.seat, award.amount_cents) == (5, 400)

    rounds(_at("2026-11-01T00:30"))  # $2.00 in the midnight period, and no full house
    _run(_at("2026-11-01T01:01"))
    count()
    _run(_at("2026-11-01T01:05"))
    midnight, one = _period(_at("2026-11-01T00:00")), _period(_at("2026-11-01T01:00"))
    assert (midnight.status, midnight.pool_cents) == (PeriodStatus.ROLLED_OVER, 200)
    assert one.rolled_in_cents == 200
    # The clocks go back at 02:00 EDT: the one o'clock period runs until 02:00 EST, two hours.
    assert one.ends_at - one.starts_at == timedelta(hours=2)

    rounds(_at("2026-11-01T01:20"), 3)  # $6.00
    tie_a = hand("Qs Qd Qh 5c 5d", _at("2026-11-01T01:25"), seat=2)
    tie_b = hand("Qc Qd Qh 5s 5h", _at("2026-11-01T01:40", fold=1), seat=8)  # 01:40 EST, the second one
    assert tie_b.tie is True

    # The schedule is down from 01:50 EST until 03:30 EST: the one o'clock period closes late and says
    # so, the two o'clock period is recorded opened and closed at once.
    _run(_at("2026-11-01T03:30"))
    one, two = _period(_at("2026-11-01T01:00")), _period(_at("2026-11-01T02:00"))
    assert one.status == two.status == PeriodStatus.CLOSED
    assert "after its end: the schedule was not running" in one.close_note
    assert "the schedule was not running during this period" in two.close_note
    count()  # the one o'clock sheets and the two o'clock sheets: the box carries the oldest period's content first
    _run(_at("2026-11-01T03:40"))
    one.refresh_from_db()
    assert (one.status, one.contributions_cents, one.pool_cents) == (PeriodStatus.AWARDED, 600, 800)
    assert sorted((award.entry_id, award.amount_cents) for award in one.awards.all()) == [
        (tie_a.pk, 400),
        (tie_b.pk, 400),
    ]
    assert ledger_total() == 0


@pytest.mark.django_db(transaction=True)
def test_two_workers_racing_the_same_close_close_it_once(rated_table) -> None:
    schedule_run(at=_at("2026-06-01T10:20"))
    start = threading.Barrier(2)
    results: list[object] = []

    def worker() -> None:
        try:
            start.wait(timeout=30)
            results.append(schedule_run(at=_at("2026-06-01T11:01")))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sum(result is not None for result in results) == 1
    assert ScheduleRun.objects.filter(at=_at("2026-06-01T11:01")).count() == 1
    ten, eleven = HighHandPeriod.objects.order_by("starts_at")
    assert (ten.status, eleven.status) == (PeriodStatus.CLOSED, PeriodStatus.OPEN)
    assert HighHandPeriod.objects.count() == 2
