"""Every benchmark still runs: each script under benchmarks/ with ``--quick``, in a subprocess, as a
person would run it (issue 26, item 8).

``--quick`` takes the same code path as the full run at small sizes; these tests time nothing, they
check that each script ends with exit code 0 and printed the figures it exists for. A benchmark with a
database gets one of its own per script and per xdist worker (named after the suite's database), which
the script creates and this test drops afterwards; bench_load's Celery gets a Redis db of its own.
None of these tests uses the suite's database, so none asks for the ``db`` fixture.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 150  # each quick run takes 1 to 40 s on 2 shared cores
LOAD_REDIS_DB = 12  # bench_load's Celery broker: not the suite's (13 in the examples), not the demo's

# The lines each benchmark prints when it measured what it is for.
EXPECTED: dict[str, tuple[str, ...]] = {
    "bench_poker": (
        "5,000 hands",
        "5 cards/s",
        "best_high (HighHand)",
        "high_rank (int only)",
        "best_high_batch (NumPy, one array)",
    ),
    "bench_paytable_returns": ("per call s", "three_card_bonus_a", "return 97.6833%, house edge 2.3167%"),
    "bench_bad_beat": (
        "3 Bad Beats, each from the claim to the adjusted display",
        "whole Bad Beat",
        "display board after 3 Bad Beats",
        "3 people paying one share at once: 1 paid, 2 refused",
        "ledger: debits equal credits",
    ),
    "bench_progressive": (
        "Rounds of one meter from 2 tables, 2 threads: 40 rounds",
        "(exact); 40 rounds recorded",
        "3 Mississippi Stud rounds with two straight flushes",
        "Display board after 43 rounds",
        "Ledger total: 0 (0: no cent created or lost)",
    ),
    "bench_rounds": (
        "POST /api/rounds/ (HTTP)",
        "POST /api/rounds/batch/ (10/req)",
        "GET /api/me/ (auth only, floor)",
        "plain single-row INSERT",
        "ratio HTTP / plain INSERT",
    ),
    "bench_load": (
        "2 clients x 40 posts",
        "writes: p50",
        "[ok] lost: every document answered 2xx is stored under its key",
        "[ok] ledger total 0 (debits = credits)",
        "[ok] contention: exactly one 200",
        "[ok] same key twice at once: Bad Beat share payment answers one document twice",
    ),
    "bench_cage": (
        "building: room bench (2 tables, 2,000 rounds, 2 gaming days of counts), room large",
        "checks: ledger total 0",
        "(a) boxes list",
        "(b) official record of room large",
        "(c) a fund's balance and the display board",
        "(d) official-record export (CSV)",
    ),
    "day_package": (
        "building: room bench (2 tables, 400 rounds, 1 gaming day counted)",
        "2 irregularities reported",
        "package of room bench, gaming day",
        "build time:",
        "peak Python memory while building (tracemalloc",
        "package_verify: OK",
        "seal of the day (data files only):",
    ),
    "trace_payment": (
        "building: room bench (2 tables, 2,000 rounds, 2 days)",
        "trace_of(payment): median",
        "reconciles=True",
        "raw SQL, one query: median",
    ),
}
NO_DATABASE = {"bench_poker", "bench_paytable_returns"}
# What a quick run must never print, though it may still end with 0.
NEVER = ("Traceback", "[FAILED]", "requests failed", "WRONG")


def _suite_database_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("the benchmarks with a database run on PostgreSQL: set DATABASE_URL")
    return url


def _database_of_its_own(suite_url: str, bench: str, worker_id: str) -> str:
    """The suite's server, a database named after the suite's, the benchmark and the xdist worker."""
    parts = urlsplit(suite_url)
    suite_name = parts.path.lstrip("/") or "casino"
    return urlunsplit(parts._replace(path=f"/{suite_name}_{bench.removeprefix('bench_')}_{worker_id}"))


def _drop(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def bench_env(request, worker_id: str) -> Iterator[dict[str, str]]:
    bench = request.node.callspec.params["bench"]
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    if bench in NO_DATABASE:
        yield env
        return
    url = _database_of_its_own(_suite_database_url(), bench, worker_id)
    _drop(url)  # a fresh database, whatever an interrupted run left
    env["DATABASE_URL"] = url
    try:
        yield env
    finally:
        _drop(url)


def _redis_url(db: int) -> str:
    broker = urlsplit(os.environ.get("CELERY_BROKER_URL", "") or "redis://127.0.0.1:6379/13")
    if broker.scheme not in ("redis", "rediss"):
        broker = urlsplit("redis://127.0.0.1:6379/13")
    return urlunsplit(broker._replace(path=f"/{db}"))


@pytest.mark.parametrize("bench", sorted(EXPECTED))
def test_benchmark_runs_quick(bench: str, bench_env: dict[str, str]) -> None:
    command = [sys.executable, f"benchmarks/{bench}.py", "--quick"]
    if bench == "bench_load":
        command += ["--redis", _redis_url(LOAD_REDIS_DB)]
    result = subprocess.run(command, cwd=ROOT, env=bench_env, capture_output=True, text=True, timeout=TIMEOUT_S)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    missing = [line for line in EXPECTED[bench] if line not in result.stdout]
    assert missing == [], f"{bench} did not print {missing}:\n{result.stdout[-4000:]}"
    wrong = [word for word in NEVER if word in output]
    assert wrong == [], f"{bench} printed {wrong}:\n{output[-4000:]}"
