"""The served API against its schema at every merge: ``make proof`` at a smaller budget (issue 26, item 7).

``make proof`` (scripts/proof.py) fuzzes the API served by gunicorn with schemathesis, once with a token
of every role: the schema's examples and the boundary values of every field (coverage phase), then
generated requests and the stateful phase, 200 examples per operation, about 25 minutes on this
machine. Here the same script runs with ``PROOF_MAX_EXAMPLES=5`` and ``PROOF_FUZZ=permitted``: every
role, every operation that role may take (the 403 of every other is tests/staff/test_access_matrix.py's),
every check and phase, a few minutes; so a view whose answers leave its schema, or a request the schema
allows that a serializer refuses for its shape, fails ``make test`` and not only the next proof by hand.

The proof gets a database of its own, named after the suite's (``<suite database>_proof_quick``, dropped
and created by the script, dropped again here), a Redis db of its own for the messages the served app
sends (flushed before and after), and writes its reports under pytest's tmp_path. It does not use the
suite's database, so the test does not ask for the ``db`` fixture.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
import redis
from psycopg import sql

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = "5"
PROOF_REDIS_DB = 7  # not the suite's (15), bench_load's (12) or make proof's (14)
TIMEOUT_S = 1200  # about 4 minutes on 2 shared cores; a hang fails the test, not the run
ROLES = 10
ROLE_LINE = re.compile(
    r"^  (?P<role>\w+)\s+(?P<operations>\d+) operations \((?P<covered>\d+) it may take, with the coverage phase\), "
    r"(?P<cases>\d+) cases, (?P<failures>\d+) failures, (?P<errors>\d+) errors of the tool",
    re.MULTILINE,
)


def _proof_database_url() -> str:
    suite = urlsplit(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/casino_backoffice"))
    if not suite.scheme.startswith("postgres"):
        pytest.skip("the proof serves the API on PostgreSQL, as make test runs it")
    return urlunsplit(suite._replace(path=f"{suite.path}_proof_quick"))


def _broker_url() -> str:
    broker = urlsplit(os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15"))
    return urlunsplit(broker._replace(path=f"/{PROOF_REDIS_DB}"))


def _database_drop(url: str) -> None:
    server, name = url.rsplit("/", 1)
    with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def test_every_role_meets_an_api_that_keeps_to_its_schema(tmp_path: Path) -> None:
    database_url, broker_url = _proof_database_url(), _broker_url()
    messages = redis.Redis.from_url(broker_url)
    messages.flushdb()
    try:
        finished = subprocess.run(
            [sys.executable, "scripts/proof.py"],
            cwd=ROOT,
            env=os.environ
            | {
                "PROOF_DATABASE_URL": database_url,
                "PROOF_BROKER_URL": broker_url,
                "PROOF_MAX_EXAMPLES": EXAMPLES,
                "PROOF_FUZZ": "permitted",
                "PROOF_REPORTS": str(tmp_path),
            },
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            check=False,
        )
    finally:
        _database_drop(database_url)
        messages.flushdb()
    output = finished.stdout + finished.stderr
    reports = "\n".join(
        f"--- {report.relative_to(tmp_path)}\n{report.read_text()[-3000:]}"
        for report in sorted(tmp_path.glob("*/*/output.txt"))
        if " 0 unique failure" not in report.read_text() and " passed" not in report.read_text()
    )
    assert finished.returncode == 0, f"{output}\n{reports}"
    roles = {match["role"]: match for match in ROLE_LINE.finditer(output)}
    assert len(roles) == ROLES, output
    for role, figures in roles.items():
        # every operation the role may take, through every phase, and some cases sent
        assert int(figures["operations"]) == int(figures["covered"]) >= 1, (role, output)
        assert int(figures["cases"]) > int(figures["operations"]), (role, output)
        assert (figures["failures"], figures["errors"]) == ("0", "0"), (role, output)
    assert "make proof: no failure for any role" in output
