"""Tasks are enqueued on commit only: a transaction that rolls back sends nothing to the broker.

What the code does today: no service, view or admin action enqueues a task at all; every task is
sent by Celery beat (``CELERY_BEAT_SCHEDULE``). These tests keep it so, and check the one way a
service may enqueue one (``transaction.on_commit``, or Celery's ``delay_on_commit`` and
``apply_async_on_commit``, which call it) against the real Redis broker.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from django.conf import settings
from django.db import Error, connection, transaction
from django.utils import timezone

from casino_backoffice.core.tasks import heartbeat
from tests.faults.day import Day, Terminator, fault
from tests.faults.tasks import control

ROOT = Path(__file__).resolve().parents[2]
NOT_APPLICATION = {".venv", "tests", "benchmarks", "scripts", "migrations", "var", "node_modules", ".git"}
SENDS = {"delay", "apply_async", "send_task"}


def _application_files() -> list[Path]:
    return sorted(path for path in ROOT.rglob("*.py") if not NOT_APPLICATION & set(path.relative_to(ROOT).parts[:-1]))


def _sends_outside_on_commit(path: Path, root: Path = ROOT) -> list[str]:
    """Each ``.delay(``, ``.apply_async(`` or ``.send_task(`` not inside the callable given to ``on_commit``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    inside: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) == "on_commit"
        ):
            for argument in node.args:
                inside.update(id(child) for child in ast.walk(argument))
    return [
        f"{path.relative_to(root)}:{node.lineno}: .{node.func.attr}("
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in SENDS
        and id(node.func) not in inside
    ]


def test_the_application_sends_a_task_only_from_on_commit() -> None:
    files = _application_files()
    assert len(files) > 100 and any(path.name == "tasks.py" for path in files)
    assert [send for path in files for send in _sends_outside_on_commit(path)] == []


def test_the_scan_finds_a_send_outside_on_commit(tmp_path) -> None:
    module = tmp_path / "services.py"
    module.write_text(
        "from django.db import transaction\n"
        "def good():\n"
        "    transaction.on_commit(lambda: task.delay(1))\n"
        "    transaction.on_commit(functools.partial(task.apply_async, args=[1]))\n"
        "    task.delay_on_commit(1)\n"
        "def bad():\n"
        "    task.delay(1)\n"
        "    task.apply_async(args=[1])\n"
    )
    assert _sends_outside_on_commit(module, tmp_path) == ["services.py:7: .delay(", "services.py:8: .apply_async("]


@pytest.fixture
def queue() -> Any:
    """A queue of this test's own on the test broker, and its length."""
    name = f"faults-on-commit-{timezone.now().timestamp()}"
    redis = control()
    yield name, lambda: redis.llen(name)
    redis.delete(name)


@pytest.mark.django_db(transaction=True)
def test_a_task_scheduled_in_a_transaction_that_rolls_back_is_never_sent(queue) -> None:
    assert settings.CELERY_BROKER_URL.startswith("redis://") and not settings.CELERY_TASK_ALWAYS_EAGER
    name, waiting = queue

    class RolledBack(Exception):
        pass

    with pytest.raises(RolledBack), transaction.atomic():
        heartbeat.apply_async_on_commit(queue=name)
        transaction.on_commit(functools.partial(heartbeat.apply_async, queue=name))
        raise RolledBack
    assert waiting() == 0

    # Terminated by PostgreSQL before its commit: the transaction is lost, and so are its tasks.
    terminator = Terminator()
    with pytest.raises(Error), fault("commit", terminator), transaction.atomic():
        heartbeat.apply_async_on_commit(queue=name)
        connection.cursor().execute("SELECT 1")
    connection.close()
    assert (terminator.count, waiting()) == (1, 0)

    with transaction.atomic():
        heartbeat.apply_async_on_commit(queue=name)
        transaction.on_commit(functools.partial(heartbeat.apply_async, queue=name))
        assert waiting() == 0  # not before the commit
    assert waiting() == 2


@pytest.mark.django_db(transaction=True)
def test_the_services_of_a_whole_day_send_no_task_committed_or_rolled_back(staff, monkeypatch, queue) -> None:
    sent: list[str] = []
    send = Celery.send_task  # what every delay, apply_async and send_task goes through

    def recorded(self, name, *args, **kwargs):
        sent.append(name)
        return send(self, name, *args, **kwargs)

    monkeypatch.setattr(Celery, "send_task", recorded)
    terminator = Terminator()
    at = timezone.now()
    day = Day(code="oc", staff=staff)
    for step in day.steps(at=at, schedule_at=at):
        # Each step once cut off before its commit, then done.
        with pytest.raises(Error), fault("commit", terminator):
            step.run()
        connection.close()
        step.run()
    assert terminator.count == len(day.steps(at=at, schedule_at=at))
    assert sent == []
    heartbeat.apply_async(queue=queue[0])  # what a send looks like here
    assert sent == [heartbeat.name]
