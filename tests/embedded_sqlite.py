"""A SQLite database as `make run` makes it (no DATABASE_URL), built once per test run and shared by
the xdist workers: migrating the embedded default takes 20 to 40 seconds on this machine, and three
modules read one.

``embedded_sqlite(tmp_path_factory, name, commands)`` runs ``manage.py`` with each command on a fresh
SQLite database (starting from the database ``start`` names, when given) and keeps the result under
the run's shared temporary folder; a worker that asks while another builds waits on a file lock. Each
caller gets a copy of its own, so what one test writes no other sees.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Under xdist each worker's base folder sits in the run's own folder; without it the base folder is
    # the run's (its parent is shared by every run, and would keep a database of older migrations).
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _manage(var: Path, command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env["CASINO_VAR_DIR"] = str(var)
    result = subprocess.run(
        [sys.executable, "manage.py", *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def embedded_sqlite(
    tmp_path_factory: pytest.TempPathFactory,
    *,
    name: str,
    commands: Sequence[Sequence[str]],
    start: Path | None = None,
    expect: str = "",
) -> Path:
    """A copy, for the caller alone, of the database ``commands`` made (built once per run)."""
    shared = _shared_folder(tmp_path_factory)
    built = shared / f"embedded-{name}" / "db.sqlite3"
    with open(shared / f"embedded-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not built.exists():
            building = Path(tmp_path_factory.mktemp(f"building-{name}"))
            if start is not None:
                shutil.copyfile(start, building / "db.sqlite3")
            output = "".join(_manage(building, command).stdout for command in commands)
            assert expect in output, output
            built.parent.mkdir()
            shutil.copyfile(building / "db.sqlite3", built)
    var = Path(tmp_path_factory.mktemp("var"))
    shutil.copyfile(built, var / "db.sqlite3")
    return var / "db.sqlite3"


def embedded_migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The embedded default's database, migrated as `make run` migrates it."""
    return embedded_sqlite(tmp_path_factory, name="migrated", commands=[["migrate", "--noinput"]])


def embedded_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The embedded default's database after `make run`'s first start: migrated, the demo loaded once
    (each of the ten demo people shown their signing PIN, once)."""
    return embedded_sqlite(
        tmp_path_factory,
        name="demo",
        start=embedded_migrated(tmp_path_factory),
        commands=[["load_demo"]],
        expect="Signing PINs are shown once",
    )
