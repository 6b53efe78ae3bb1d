"""Two actions at once, the second waiting on the first one's locks, on real PostgreSQL connections.

The first action stops inside its transaction, its locks held and its rows written but not
committed; the second starts and waits for those locks, which ``pg_locks`` shows (no sleep stands in
for the order); then the first commits and the second goes on. A client's retry racing its own first
attempt is the same request twice.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any
from unittest import mock

from django.db import connection, connections

FIRST = "first action"


def _waiting_for_a_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
        return cursor.fetchone()[0]


def second_waits_for_first(first: Callable[[], Any], second: Callable[[], Any], *, pause_at: str) -> dict[str, Any]:
    """Run ``first``, and ``second`` while ``first`` holds its locks.

    ``pause_at`` names what ``first`` calls inside its transaction once it holds its locks (the
    ``signature_add`` a module imported, say ``"cage.services.counts.signature_add"``); it stops
    there. Returns each one's answer (``"first"``, ``"second"``), or the exception it raised."""
    assert connection.vendor == "postgresql"
    inside, commit = threading.Event(), threading.Event()
    answers: dict[str, Any] = {}
    target_module, _, name = pause_at.rpartition(".")
    original = getattr(__import__(target_module, fromlist=[name]), name)

    def paused(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        if threading.current_thread().name == FIRST:
            inside.set()
            assert commit.wait(timeout=30), "the second action never waited for the first"
        return result

    def attempt(which: str, call: Callable[[], Any]) -> None:
        try:
            answers[which] = call()
        except Exception as error:  # noqa: BLE001 - the test reads what each one answered, refusals included
            answers[which] = error
        finally:
            connections.close_all()

    with mock.patch(pause_at, paused):
        threads = [threading.Thread(target=attempt, args=("first", first), name=FIRST)]
        threads[0].start()
        assert inside.wait(timeout=30), f"the first action never reached {pause_at}: {answers}"
        threads.append(threading.Thread(target=attempt, args=("second", second), name="second action"))
        threads[1].start()
        deadline = time.monotonic() + 30
        while _waiting_for_a_lock() == 0:
            assert time.monotonic() < deadline, f"the second action never waited for the first one's locks: {answers}"
            time.sleep(0.01)
        commit.set()
        for thread in threads:
            thread.join(timeout=60)
    return answers


def retry_racing_its_first_attempt(call: Callable[[], Any], *, pause_at: str) -> dict[str, Any]:
    """``call`` twice, the retry waiting on the first attempt's locks: answers ``"first"`` and ``"retry"``."""
    answers = second_waits_for_first(call, call, pause_at=pause_at)
    return {"first": answers.get("first"), "retry": answers.get("second")}
