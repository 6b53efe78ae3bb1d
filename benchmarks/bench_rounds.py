"""Rounds of play per second through the real HTTP stack, beside plain INSERTs into the same PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_backoffice_bench \\
        .venv/bin/python benchmarks/bench_rounds.py [--rounds 6000] [--clients 16] [--workers 2] [--threads 8] [--quick]

``--quick`` runs the same steps in seconds: 100 rounds (20 to warm up) from one client, 2 gunicorn
workers, batches of 10 (``make test`` runs it). One client, because concurrent batches that name the
same tables in another order can deadlock on the tables' hand locks (answered 500, nothing recorded);
the full run shows it in its count of failed requests.

What it does, in one run:
1. Migrates the database named by ``DATABASE_URL`` (created if missing; PostgreSQL only), loads the
   demo rules file (demo/rules.yaml), opens the tables, makes a dealer with a DRF token.
2. Starts gunicorn (``--workers`` processes of the ``sync`` worker by default, or ``gthread``)
   on the project's WSGI application with the production settings (DEBUG off).
3. Posts ``--rounds`` rounds from ``--clients`` concurrent keep-alive HTTP clients (split over a few
   client processes so the client is not one GIL), each with its own ``Idempotency-Key``, spread over
   the ten raked tables, and records each request's latency. Every answer must be 201.
4. Baseline: the same number of plain single-row INSERTs (one autocommit statement per round, same
   concurrency, one connection per client) into an unlogged-free ordinary table of the same database.
5. Prints rounds per second, p50/p99 latency for both, and the ratio.

The target of issue 4 is 1,000 rounds per second on 2 cores. Client, server and PostgreSQL share the
machine's cores here, so the figures are a floor for what the server alone does. The tests run it with ``--quick`` only.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RAKED_TABLES = [f"T{n}" for n in range(1, 11)]


def _setup() -> str:
    """Migrate, load the demo rules, open the tables, and return a dealer's API token."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_backoffice.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from casino_backoffice.staff.models import User
    from casino_backoffice.staff.roles import Role
    from casino_backoffice.staff.services import api_token_create, staff_create
    from rake.services import rules_load
    from tables.models import Table

    call_command("migrate", verbosity=0, interactive=False)
    from django.utils import timezone

    from tables.models import RulesVersion

    if not RulesVersion.objects.filter(room__code="main").exists():
        # In effect since yesterday, so that rounds that ended a minute ago are rated.
        since = (timezone.now() - timedelta(days=1)).isoformat()
        text = (ROOT / "demo" / "rules.yaml").read_text() + f'effective_from: "{since}"\n'
        manager = User.objects.filter(username="bench-manager").first() or staff_create(
            username="bench-manager",
            role=Role.POKER_ROOM_MANAGER,
            credential_number="PA-BENCH-0002",
            password=uuid.uuid4().hex,
            all_rooms=True,
            extra_roles=[Role.ADMINISTRATOR],
        )
        rules_load(text=text, actor=manager, source_name="demo/rules.yaml (benchmark)")
    Table.objects.filter(number__in=RAKED_TABLES).update(is_open=True)
    dealer = User.objects.filter(username="bench-dealer").first() or staff_create(
        username="bench-dealer",
        role=Role.DEALER,
        credential_number="PA-BENCH-0001",
        password=uuid.uuid4().hex,
        all_rooms=True,
    )
    return api_token_create(user=dealer)


def _ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1].split("?")[0]
    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not start")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- HTTP clients ---------------------------------------------------------------------------------


def _round(i: int, n_thread: int, ended_at: str) -> dict:
    return {
        "table": RAKED_TABLES[(i + n_thread) % len(RAKED_TABLES)],
        "ended_at": ended_at,
        "players_dealt_in": 6,
        "pot": f"{20 + i % 200}.00",
        "uncalled_bet": "0.00",
        "flop_dealt": True,
        "voided": False,
    }


def _http_client_process(
    port: int,
    token: str,
    count: int,
    threads: int,
    run_id: str,
    proc: int,
    out: multiprocessing.Queue,
    path: str,
    batch: int = 0,
) -> None:
    """``count`` requests; with ``batch``, each request carries ``batch`` rounds (POST /api/rounds/batch/)."""
    ended_at = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    latencies: list[float] = []
    failures: list[str] = []
    lock = threading.Lock()

    def worker(n_thread: int, n: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine: list[float] = []
        for i in range(n):
            if batch:
                body = json.dumps(
                    {
                        "rounds": [
                            {
                                **_round(i * batch + j, n_thread, ended_at),
                                "idempotency_key": f"{run_id}-{proc}-{n_thread}-{i}-{j}",
                            }
                            for j in range(batch)
                        ]
                    }
                )
            else:
                body = json.dumps(_round(i, n_thread, ended_at))
            headers = {
                "Authorization": f"Token {token}",
                "Content-Type": "application/json",
                "Idempotency-Key": f"{run_id}-{proc}-{n_thread}-{i}",
            }
            started = time.perf_counter()
            try:
                if path.startswith("/api/rounds/"):
                    conn.request("POST", path, body=body, headers=headers)
                else:
                    conn.request("GET", path, headers={"Authorization": f"Token {token}"})
                response = conn.getresponse()
                payload = response.read()
            except (OSError, http.client.HTTPException) as error:
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                failures.append(repr(error))
                continue
            mine.append(time.perf_counter() - started)
            if response.status not in (200, 201):
                failures.append(f"{response.status} {payload[:200]!r}")
            elif batch and json.loads(payload)["recorded"] != batch:
                failures.append(f"batch recorded {json.loads(payload)['recorded']} of {batch}")
        with lock:
            latencies.extend(mine)

    per_thread = [count // threads + (1 if t < count % threads else 0) for t in range(threads)]
    pool = [threading.Thread(target=worker, args=(t, n)) for t, n in enumerate(per_thread)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    out.put((latencies, failures))


def _run_http(
    port: int, token: str, rounds: int, clients: int, processes: int, path: str = "/api/rounds/", batch: int = 0
) -> tuple[float, list[float], list[str]]:
    run_id = uuid.uuid4().hex[:8]
    out: multiprocessing.Queue = multiprocessing.Queue()
    per_proc = [rounds // processes + (1 if p < rounds % processes else 0) for p in range(processes)]
    threads = max(1, clients // processes)
    procs = [
        multiprocessing.Process(
            target=_http_client_process, args=(port, token, n, threads, run_id, p, out, path, batch)
        )
        for p, n in enumerate(per_proc)
    ]
    started = time.perf_counter()
    for p in procs:
        p.start()
    results = [out.get() for _ in procs]
    elapsed = time.perf_counter() - started
    for p in procs:
        p.join()
    latencies = [x for lat, _ in results for x in lat]
    failures = [x for _, fail in results for x in fail]
    return elapsed, latencies, failures


# --- Plain INSERT baseline ------------------------------------------------------------------------


def _run_inserts(url: str, rounds: int, clients: int) -> tuple[float, list[float]]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS bench_plain_round")
        conn.execute(
            "CREATE TABLE bench_plain_round (id bigserial PRIMARY KEY, idempotency_key varchar(120) UNIQUE NOT NULL, "
            "table_number varchar(10) NOT NULL, ended_at timestamptz NOT NULL, players smallint NOT NULL, "
            "pot_cents bigint NOT NULL, rake_cents bigint NOT NULL)"
        )
    latencies: list[float] = []
    lock = threading.Lock()
    ended_at = datetime.now(UTC)

    def worker(t: int, n: int) -> None:
        mine = []
        with psycopg.connect(url, autocommit=True) as conn:
            for i in range(n):
                started = time.perf_counter()
                conn.execute(
                    "INSERT INTO bench_plain_round (idempotency_key, table_number, ended_at, players, pot_cents, rake_cents) "
                    "VALUES (%s, %s, %s, %s, %s, %s)",
                    (f"{t}-{i}", RAKED_TABLES[i % 10], ended_at, 6, 2000 + i, 200),
                )
                mine.append(time.perf_counter() - started)
        with lock:
            latencies.extend(mine)

    per_thread = [rounds // clients + (1 if t < rounds % clients else 0) for t in range(clients)]
    pool = [threading.Thread(target=worker, args=(t, n)) for t, n in enumerate(per_thread)]
    started = time.perf_counter()
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    elapsed = time.perf_counter() - started
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE bench_plain_round")
    return elapsed, latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6000)
    parser.add_argument("--warmup", type=int, default=400)
    parser.add_argument("--clients", type=int, default=16, help="concurrent HTTP clients (and INSERT connections)")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker (gthread)")
    parser.add_argument("--worker-class", default="sync", help="sync (measured best here) or gthread (keep-alive)")
    parser.add_argument("--batch", type=int, default=50, help="rounds per request of POST /api/rounds/batch/ (0: skip)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="the same steps in seconds: 100 rounds from one client, 2 workers, batches of 10 (make test runs it)",
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.warmup, args.clients, args.client_processes, args.workers, args.threads, args.batch = (
            100,
            20,
            1,
            1,
            2,
            1,
            10,
        )

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        raise SystemExit("Set DATABASE_URL to a PostgreSQL database (it is created when missing).")
    _ensure_database(url)
    token = _setup()
    from django.db import connections

    connections.close_all()

    port = _free_port()
    env = {**os.environ, "DJANGO_DEBUG": "0", "LOG_LEVEL": "WARNING"}
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "casino_backoffice.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(args.workers),
            "--worker-class",
            args.worker_class,
            "--threads",
            str(args.threads),
            "--keep-alive",
            "30",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    try:
        _wait_for(port)
        _run_http(port, token, args.warmup, args.clients, args.client_processes)  # warm caches and connections
        elapsed, latencies, failures = _run_http(port, token, args.rounds, args.clients, args.client_processes)
        # The framework's floor on this machine: token authentication and a tiny JSON answer, no writes.
        floor_elapsed, floor_latencies, _ = _run_http(
            port, token, args.rounds, args.clients, args.client_processes, "/api/me/"
        )
        if args.batch:
            requests = max(1, args.rounds // args.batch)
            batch_elapsed, batch_latencies, batch_failures = _run_http(
                port, token, requests, args.clients, args.client_processes, "/api/rounds/batch/", args.batch
            )
            failures += batch_failures
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    if failures:
        print(f"{len(failures)} requests failed; first: {failures[0]}")
    base_elapsed, base_latencies = _run_inserts(url, args.rounds, args.clients)

    http_rate = len(latencies) / elapsed
    base_rate = len(base_latencies) / base_elapsed
    cores = os.cpu_count()
    print(
        f"machine: {cores} cores; gunicorn {args.workers} workers x {args.threads} threads ({args.worker_class}); "
        f"{args.clients} keep-alive clients in {args.client_processes} processes"
    )
    print(f"{'':32}{'rounds':>8}{'rounds/s':>11}{'p50 ms':>9}{'p99 ms':>9}")
    print(
        f"{'POST /api/rounds/ (HTTP)':32}{len(latencies):>8}{http_rate:>11.0f}"
        f"{statistics.median(latencies) * 1000:>9.2f}{_percentile(latencies, 0.99) * 1000:>9.2f}"
    )
    if args.batch:
        batch_rounds = len(batch_latencies) * args.batch
        batch_rate = batch_rounds / batch_elapsed
        print(
            f"{f'POST /api/rounds/batch/ ({args.batch}/req)':32}{batch_rounds:>8}{batch_rate:>11.0f}"
            f"{statistics.median(batch_latencies) * 1000:>9.2f}{_percentile(batch_latencies, 0.99) * 1000:>9.2f}"
            "   (latency per request)"
        )
    print(
        f"{'GET /api/me/ (auth only, floor)':32}{len(floor_latencies):>8}{len(floor_latencies) / floor_elapsed:>11.0f}"
        f"{statistics.median(floor_latencies) * 1000:>9.2f}{_percentile(floor_latencies, 0.99) * 1000:>9.2f}"
    )
    print(
        f"{'plain single-row INSERT':32}{len(base_latencies):>8}{base_rate:>11.0f}"
        f"{statistics.median(base_latencies) * 1000:>9.2f}{_percentile(base_latencies, 0.99) * 1000:>9.2f}"
    )
    print(
        f"ratio HTTP / plain INSERT: {http_rate / base_rate:.3f}  (target: 1,000 rounds/s on 2 cores: "
        f"{'met' if http_rate >= 1000 else 'not met'} one round per request)"
    )
    if args.batch:
        print(
            f"ratio batch HTTP / plain INSERT: {batch_rate / base_rate:.3f}  (target: "
            f"{'met' if batch_rate >= 1000 else 'not met'} in batches of {args.batch})"
        )


if __name__ == "__main__":
    main()
