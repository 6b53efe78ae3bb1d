"""PostgreSQL connections terminated in the middle of the money-moving services, again and again: no
operation is ever left half done, a retry does it once, and the records hold after each.

A day of a room is played through the services: the schedule, rounds of play, a progressive round,
its four aces validated and paid at the cage, a High Hand on the Tracking Slip, the table closed, the
notice to compliance, its boxes counted and witnessed, carried to the cage and verified, the Bad
Beat's display adjusted and witnessed, a Bad Beat claimed, verified, distributed and its six shares
paid. Every step runs twice, in two rooms set up alike:

- in the *reference* room once, cleanly: what it changed (the rows of every table) is the step's whole
  operation, and the SQL statements it ran are where a termination can land;
- in the *faulted* room, with PostgreSQL terminating the step's backend (``pg_terminate_backend`` from
  a second connection) before one of its statements (chosen at random), or at its commit, up to three
  times; then once more with no fault. Keyed steps are also terminated right after they committed
  (the caller never hears the answer) and retried with the same idempotency key.

After each termination before the commit, not one row anywhere has changed; once the step succeeds it
has changed exactly what the reference step changed (every document, signature, history row and
transfer); a retry with the same key answers the first result and changes nothing; and
``invariants_check()`` is ``[]``. What is counted is each backend terminated during a step.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.db import Error, connection
from django.utils import timezone

from casino_backoffice.ledger.invariants import invariants_check
from tests.faults.day import Day, Terminator, delta, fault, snapshot, tables_counted


def _terminations(*, staff: dict[str, Any], wanted: int, seed: int) -> None:
    rng = random.Random(seed)
    terminator = Terminator()
    tables = tables_counted()
    done: Counter[str] = Counter()
    points: Counter[str] = Counter()
    services: Counter[str] = Counter()
    day = 0
    while terminator.count < wanted:
        # The faulted room's schedule runs a second after the reference's, and a run closes the periods
        # of every room: both seconds in one minute, so that no period ends between them (a period's
        # bounds are whole minutes) and the reference's High Hand still has its period open.
        at = timezone.now().replace(microsecond=0)
        if at.second == 59:
            at -= timedelta(seconds=1)
        reference, faulted = Day(code=f"r{day}", staff=staff), Day(code=f"f{day}", staff=staff)
        # The faulted room's schedule runs a second later (a moment runs once, for every room).
        steps = zip(
            reference.steps(at=at, schedule_at=at),
            faulted.steps(at=at, schedule_at=at + timedelta(seconds=1)),
            strict=True,
        )
        for ref_step, step in steps:
            # The reference: the step's whole operation, and how many statements it runs.
            before = snapshot(tables)
            with fault("", terminator) as statements:
                ref_step.run()
            expected, reach = delta(before, snapshot(tables)), statements()
            assert expected, f"{step.name} changed nothing"

            before = snapshot(tables)
            kills = rng.choices([0, 1, 2, 3], weights=[1, 4, 3, 2])[0] if terminator.count < wanted else 0
            completed = False
            for _ in range(kills):
                point = "commit" if rng.random() < 0.15 else f"statement:{rng.randint(1, reach)}"
                fired = terminator.count
                try:
                    with fault(point, terminator):
                        step.run()
                except Error:
                    connection.close()  # the service's connection is gone; the next call opens another
                else:
                    # Only a step that ran fewer statements than the reference's may finish.
                    assert terminator.count == fired, f"{step.name} went on past its terminated connection at {point}"
                    completed = True
                    break
                assert terminator.count == fired + 1
                points[point.split(":")[0]] += 1
                services[step.name.split()[0]] += 1
                # Not one row changed: the operation is all or nothing.
                assert snapshot(tables) == before, f"{step.name} left rows behind when terminated at {point}"
                assert invariants_check() == []
            if not completed:
                step.run()
            after = snapshot(tables)
            if step.compare:
                assert delta(before, after) == expected, f"{step.name} did not do all of its operation"
            if step.keyed:
                if terminator.count < wanted and rng.random() < 0.3:
                    # Terminated right after the commit: the caller never heard; it retries with the same key.
                    terminator.terminate()
                    points["after_commit"] += 1
                    services[step.name.split()[0]] += 1
                    connection.close()
                step.run()
                assert snapshot(tables) == after, f"{step.name} did its operation twice on a retry with its key"
            assert invariants_check() == []
            done[step.name] += 1
        day += 1
    print(
        f"\n{terminator.count} backends terminated over {day} days of two rooms ({sum(done.values())} faulted steps): "
        f"{dict(points)}; by service {dict(services.most_common())}"
    )


@pytest.mark.django_db(transaction=True)
def test_connections_terminated_20_times_leave_no_operation_half_done(staff) -> None:
    _terminations(staff=staff, wanted=20, seed=20)


@pytest.mark.soak
@pytest.mark.django_db(transaction=True)
def test_connections_terminated_200_times_leave_no_operation_half_done(staff) -> None:
    _terminations(staff=staff, wanted=200, seed=200)
