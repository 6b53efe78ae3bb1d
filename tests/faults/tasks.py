"""The fault tests' Celery tasks and the hook that holds a task where a test kills its process.

Each task is thin as the project's are (ids in, one service called), with the project's delivery
settings (``acks_late``, ``reject_on_worker_lost``: nothing here overrides them). Before it runs, a
task takes the next *kill point* of its plan from Redis (``faults:<run>:plan:<key>``, one per delivery):

- ``start``: before the service runs;
- ``statement:N``: before the service's Nth SQL statement, inside its transaction;
- ``commit``: when the service's transaction is about to commit;
- ``after``: after the service committed, before the message is acknowledged;
- none left: the task runs through.

At its point the task says where it is and which process runs it (``faults:<run>:events``) and waits
for the test to kill that process with SIGKILL; it never goes on past a kill point. A task that ran
through says so with the number of SQL statements its service ran, so a test can aim at any of them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import redis
from celery import shared_task
from django.conf import settings
from django.db import connection

from cage.services import schedule_run
from casino_backoffice.staff.models import User
from rake.services import round_record
from tables.models import Table

# How long a task held at a kill point waits for its process to be killed before it gives up (and fails).
HELD_FOR_SECONDS = 60


def control(*, waits_seconds: float = HELD_FOR_SECONDS) -> redis.Redis:
    """The Redis the tests steer the tasks with, for BLPOPs of up to ``waits_seconds`` (redis-py's
    default socket timeout, 5 s, or any shorter than the BLPOP, would end it early with a TimeoutError)."""
    return redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=waits_seconds + 30)


class NotKilled(RuntimeError):
    """A task was held at a kill point and nobody killed its process."""


def _hold(run: str, key: str, point: str) -> None:
    r = control()
    r.rpush(f"faults:{run}:events", json.dumps({"held": key, "point": point, "pid": os.getpid()}))
    r.blpop([f"faults:{run}:never"], timeout=HELD_FOR_SECONDS)
    raise NotKilled(f"{key} was held at {point} for {HELD_FOR_SECONDS} s and its process was not killed")


@contextmanager
def kill_point(run: str, key: str) -> Iterator[Callable[[], int]]:
    """Hold the task at the next point of its plan; yields a function giving the statements run so far."""
    raw = control().lpop(f"faults:{run}:plan:{key}")
    point = raw.decode() if raw else ""
    statements = 0

    def counted(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal statements
        statements += 1
        if point == f"statement:{statements}":
            _hold(run, key, point)
        return execute(sql, params, many, context)

    if point == "start":
        _hold(run, key, point)
    commit = connection._commit
    if point == "commit":

        def held_commit() -> None:
            _hold(run, key, point)

        connection._commit = held_commit  # type: ignore[method-assign]
    try:
        with connection.execute_wrapper(counted):
            yield lambda: statements
    finally:
        connection._commit = commit  # type: ignore[method-assign]
    if point == "after":
        _hold(run, key, point)


def _done(run: str, key: str, statements: int) -> None:
    control().rpush(f"faults:{run}:events", json.dumps({"done": key, "statements": statements, "pid": os.getpid()}))


@shared_task(name="tests.faults.round_record", ignore_result=True)
def round_task(*, run: str, key: str, table_id: int, dealer_id: int, ended_at: str, pot_cents: int) -> None:
    """Log one round of play: the round, its drops and their transfers into the table's boxes."""
    table = Table.objects.select_related("room").get(pk=table_id)
    dealer = User.objects.get(pk=dealer_id)
    with kill_point(run, key) as statements:
        round_record(
            table=table,
            ended_at=datetime.fromisoformat(ended_at),
            players_dealt_in=9,
            pot_cents=pot_cents,
            uncalled_bet_cents=0,
            flop_dealt=True,
            voided=False,
            actor=dealer,
            idempotency_key=key,
        )
    _done(run, key, statements())


@shared_task(name="tests.faults.schedule_run", ignore_result=True)
def schedule_task(*, run: str, key: str, at: str) -> None:
    """Run the count schedule at a moment: count sheets, High Hand periods opened and closed, pools."""
    with kill_point(run, key) as statements:
        schedule_run(at=datetime.fromisoformat(at))
    _done(run, key, statements())
