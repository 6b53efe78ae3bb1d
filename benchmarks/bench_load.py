"""Load: many clients posting money-moving requests to a real server, with retries, then a check of every
cent against what the clients were told; one share paid by fifty people at once; a soak at a steady rate.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_load \\
        .venv/bin/python benchmarks/bench_load.py [--clients 32] [--posts 500] [--workers 4] [--threads 4]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_load \\
        .venv/bin/python benchmarks/bench_load.py --soak-minutes 10 [--rounds-per-second 16.7]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_load \
        .venv/bin/python benchmarks/bench_load.py --quick [--redis redis://127.0.0.1:6379/12]

``--quick`` runs the same steps and checks in seconds (``make test`` runs it): 2 clients x 40 posts,
a count cycle every 5 rounds and a Bad Beat every 2 cycles, 3 contenders, the same-key races, gunicorn
2 workers x 2 threads, no soak.

What it does (PostgreSQL only; the database is dropped and created; Redis db 10 is the broker):
1. Loads a rules file of its own (room ``load``: Hold'em tables with rake nl10, the Bad Beat ``bb`` and a
   High Hand ``hh`` of 5-minute periods, in effect since yesterday), three tables per client, and six
   people per client (dealer, floorperson, shift supervisor, finance, security, cage cashier), each with
   a PIN (an HMAC under PIN_KEY, as in production) and an API token; the compliance notice of the gaming day.
2. Starts gunicorn (``gthread``, ``--workers`` x ``--threads``) with the production settings (DEBUG off),
   and a Celery worker with beat (the count schedule, the High Hand periods, the balance checkpoints
   every minute), both on that database.
3. Each client (a thread with one keep-alive connection) plays cycles at its tables, every request a
   POST with its own Idempotency-Key: ``--rounds-per-cycle`` rounds (``POST /api/rounds/``); then the
   table is closed (``tables.services.table_set_open``, in this process: the API has no endpoint for
   it), its boxes counted by the dealer (the drop and Bad Beat boxes once a gaming day, the High Hand
   box once per ended period; every 20th count $1.00 short), each count witnessed by the floorperson,
   carried by security in a sealed container, verified at the cage by the cashier, and the table
   reopened; every ``--bad-beat-every`` cycles a Bad Beat: the claim, its verification, finance's
   distribution and the payment of its six shares at the cage. ``--retry-fraction`` of the keyed posts
   are sent again with the same key and body: most after their answer (it must be the same document,
   ``Idempotent-Replayed: true``), a third after a forced client-side timeout of 1 ms (the first may
   still be running on the server when the retry arrives).
4. The clients keep what each accepted post should have moved: the rake and each drop of a round (also
   checked against ``POST /api/rake-calculator/`` for its pot), what each count took from its box and
   its variance, what each verification made official, what each share paid.
5. Checks, against the database: 0 lost (every key answered 2xx is there, with the id answered), 0
   duplicated (one row per key, retries answered with the first document), each account of the room
   equal to the clients' record, its balance (read through checkpoints) equal to the sum of its
   transfers, the ledger's total 0, ``invariants_check() == []``.
6. Fifty cage cashiers paying one Bad Beat share at the same moment, each with their own connection and
   key (``--contenders``): exactly one 200, the others 409 ``share_already_paid``, one payment and one
   transfer; no fund, box, custody, revenue or payout account below zero.
7. Each keyed write (round, count, transport, cage verification, claim, distribution, share payment)
   sent twice at the same moment with one key and one body, at a table nobody else plays (``--races``):
   both answers must be the same document.
8. Prints requests, req/s, p50/p95/p99 of the writes, statuses by kind, retries, and every check.

``--soak-minutes N``: the same clients, with the rounds paced at ``--rounds-per-second`` in all, 50 times
a busy room: 40 tables x 30 rounds an hour = 0.33 rounds/s, so 16.7 rounds/s. A table's High Hand box
is counted, witnessed, carried and verified every 30 rounds at it (``--rounds-per-cycle`` 30: the end of
each hourly period of a table dealing 30 rounds an hour, so counts come at 50 times a busy room's rate
too), its drop and Bad Beat boxes on the first of those (once a gaming day), and every
``--bad-beat-every`` cycles a Bad Beat (far more often than a room has one). For N minutes a thread
checks ``invariants_check()`` every ``--check-every`` seconds inside one REPEATABLE READ snapshot, and
``manage.py check_invariants --every`` runs beside it as a process (in autocommit, as it is documented);
the p99 of writes is printed each minute and at the end, then the checks of step 5.

The clients, the server, Celery and PostgreSQL share the machine's cores: the figures are a floor.
Latencies are measured from the moment a request is sent (in the soak, a client behind its pace sends
at once, up to ``CATCH_UP_SECONDS`` of rounds it owes: a slow answer delays the next request rather
than being hidden, and the rounds owed while its counts ran are sent when they end). The tests run it with ``--quick`` only.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ROOM = "load"
PIN = "2468"
PASSWORD = "bench-load-password-1"  # noqa: S105 - a throwaway database
ROLES = ("dealer", "floorperson", "shift_supervisor", "finance", "security", "cage_cashier")
TABLES_PER_CLIENT = 3
RACE_TABLE = "RACE"  # the table of the same-key races, played by nobody else
CATCH_UP_SECONDS = 15  # soak: how far behind its pace a client may fall and still catch up
CONTEND_TABLE = "CONTEND"  # the table of the Bad Beat fifty cashiers pay, played by nobody else
# Pots the rounds are drawn from: under every minimum, over the High Hand's, at the rake's cap.
POTS = ("8.00", "25.00", "45.00", "120.00", "300.00")
CLAIM = {
    "jackpot": "bb",
    "players_dealt_in": 6,
    "board": "Ad Ac Kc 7s 7h",
    "losing": {"seat": 3, "name": "Ann Loser", "hole": "As Ks"},
    "winning": {"seat": 7, "name": "Walt Winner", "hole": "7d 7c"},
    "others": [
        {"seat": 1, "name": "Pat One"},
        {"seat": 2, "name": "Sam Two"},
        {"seat": 5, "name": "Lee Five"},
        {"seat": 9, "name": "Kim Nine"},
    ],
    "surveillance_reference": "CAM-LOAD",
}
_SUIT_ORDERS = list(itertools.permutations("cdhs"))


def claim_hand(n: int) -> dict:
    """The ``n``-th Bad Beat of a client's tables, a hand of its own (a hand is claimed once): CLAIM's
    four sevens beating aces full of kings, queens, jacks or tens, in each order of the suits."""
    suits = dict(zip("cdhs", _SUIT_ORDERS[n % 24], strict=True))
    pair = "KQJT"[n // 24 % 4]

    def cards(text: str) -> str:
        return " ".join(card[0].replace("K", pair) + suits[card[1]] for card in text.split())

    return {
        "board": cards(CLAIM["board"]),
        "losing": {**CLAIM["losing"], "hole": cards(CLAIM["losing"]["hole"])},
        "winning": {**CLAIM["winning"], "hole": cards(CLAIM["winning"]["hole"])},
    }


def cents(amount: str) -> int:
    return int(Decimal(amount) * 100)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def rules_text(tables: list[str]) -> str:
    since = "{since}"
    lines = [
        f"room: {ROOM}",
        "name: Load Test Room",
        f'effective_from: "{since}"',
        "timezone: America/New_York",
        'gaming_day_starts: "06:00"',
        'shifts: [{name: day, starts: "06:00"}, {name: swing, starts: "14:00"}, {name: grave, starts: "22:00"}]',
        'controls: {variance_threshold: "5.00"}',
        "rake_policies:",
        '  - {code: nl10, kind: percentage, rate_percent: 10, max_per_round: "5.00", increment: "1.00",',
        '     min_pot: "10.00", no_flop_no_drop: true}',
        "jackpots:",
        "  - code: bb",
        "    kind: bad_beat",
        "    name: Bad Beat",
        '    contribution: {method: fixed, amount: "1.00", min_pot: "20.00", base: after_rake, no_flop_no_drop: true}',
        "    reserve_percent: 10",
        '    discontinuation: {approved_on: "2025-12-01", reference: "PGCB approval 2025-117"}',
        "    hands:",
        "      - {code: bad_beat, name: Bad Beat, games: [holdem], payout_percent: 100,",
        '         qualifier: {losing_hand_at_least: "AAATT", both_hole_cards_play: true, min_players: 4},',
        "         shares: {losing_hand: 50, winning_hand: 25, table_share: 25}}",
        '    seed: "0.00"',
        "  - code: hh",
        "    kind: high_hand",
        "    name: High Hand",
        '    contribution: {method: percent, rate_percent: 5, max: "2.00", min_pot: "30.00", base: after_rake,',
        "                   no_flop_no_drop: true}",
        '    period: {every_minutes: 5, first_starts: "10:00"}',
        '    collection_period: {every_minutes: 5, first_starts: "10:00"}',
        "    min_players: 6",
        "    min_hand: full_house",
        "    ties: split",
        "    claim_within_days: 7",
        "    id_required: true",
        "    unclaimed: next_period",
        "    show_player_name: false",
        '    seed: "0.00"',
        "tables:",
        *(f'  - {{number: "{t}", game: holdem, seats: 10, rake_policy: nl10, jackpots: [bb, hh]}}' for t in tables),
    ]
    return "\n".join(lines) + "\n"


# --- The database, the staff, the server ----------------------------------------------------------


def fresh_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1].split("?")[0]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def django_setup() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_backoffice.settings")
    import django

    django.setup()


def setup(clients: int, contenders: int) -> tuple[list[dict[str, str]], list[str], str]:
    """Migrate, load the rules, open the tables; return each client's tokens, the contenders' tokens and
    a floorperson's token."""
    from django.conf import settings
    from django.core.management import call_command
    from django.utils import timezone

    from casino_backoffice.staff.models import User
    from casino_backoffice.staff.pins import pin_hash_make
    from casino_backoffice.staff.roles import Role
    from casino_backoffice.staff.services import api_token_create, staff_create
    from rake.services import rules_load
    from tables.models import Table

    # Passwords are never checked here (API tokens): hashed fast. PINs are set below.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0, interactive=False)
    manager = staff_create(
        username="manager",
        role=Role.POKER_ROOM_MANAGER,
        credential_number="PA-L-MGR",
        password=PASSWORD,
        all_rooms=True,
        extra_roles=[Role.ADMINISTRATOR],
    )
    tables = [client_table(c, k) for c in range(clients) for k in range(TABLES_PER_CLIENT)] + [
        RACE_TABLE,
        CONTEND_TABLE,
    ]
    since = (timezone.now() - timedelta(days=1)).isoformat()
    rules_load(text=rules_text(tables).replace("{since}", since), actor=manager, source_name="bench_load")
    Table.objects.filter(room__code=ROOM).update(is_open=True)
    tokens: list[dict[str, str]] = []
    for c in range(clients):
        mine = {}
        for role in ROLES:
            user = staff_create(
                username=f"{role}{c}",
                role=Role(role),
                credential_number=f"PA-L-{role[:4]}-{c}",
                password=PASSWORD,
                all_rooms=True,
            )
            mine[role] = api_token_create(user=user)
        tokens.append(mine)
    contender_tokens = []
    for n in range(contenders):
        user = staff_create(
            username=f"contender{n}",
            role=Role.CAGE_CASHIER,
            credential_number=f"PA-L-K-{n}",
            password=PASSWORD,
            all_rooms=True,
        )
        contender_tokens.append(api_token_create(user=user))
    # The PIN as production stores it (an HMAC under PIN_KEY, ``staff.pins``), one salt for everyone.
    User.objects.exclude(username="manager").update(pin_hash=pin_hash_make(PIN))
    return tokens, contender_tokens, tokens[0]["floorperson"]


def client_table(c: int, k: int) -> str:
    return f"L{c:03d}{k}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("gunicorn did not start")


def start_processes(args: argparse.Namespace, port: int, workdir: Path) -> list[subprocess.Popen]:
    env = {**os.environ, "DJANGO_DEBUG": "0", "LOG_LEVEL": "WARNING", "CELERY_BROKER_URL": args.redis}
    bin_dir = Path(sys.executable).parent
    log = open(workdir / "gunicorn.log", "w")
    server = subprocess.Popen(
        [
            str(bin_dir / "gunicorn"),
            "casino_backoffice.wsgi:application",
            f"--bind=127.0.0.1:{port}",
            f"--workers={args.workers}",
            "--worker-class=gthread",
            f"--threads={args.threads}",
            "--keep-alive=30",
            "--timeout=120",
            "--log-level=warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    worker = subprocess.Popen(
        [
            str(bin_dir / "celery"),
            "-A",
            "casino_backoffice",
            "worker",
            "-B",
            "--concurrency=1",
            "--loglevel=WARNING",
            f"--schedule={workdir / 'beat-schedule'}",
            f"--logfile={workdir / 'celery.log'}",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    return [server, worker]


def stop_processes(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


# --- The clients ----------------------------------------------------------------------------------


class Done(Exception):
    """The client posted what it was to post."""


_TABLE_LOCK = threading.Lock()


def table_set(number: str, *, is_open: bool) -> None:
    """Open or close a table through its service (one database connection at a time, closed after)."""
    from django.db import connection

    from casino_backoffice.staff.models import User
    from tables.models import Table
    from tables.services import table_set_open

    with _TABLE_LOCK:
        try:
            table = Table.objects.get(room__code=ROOM, number=number)
            table_set_open(table=table, is_open=is_open, actor=User.objects.get(username="manager"))
        finally:
            connection.close()


@dataclass
class Write:
    kind: str
    status: int
    seconds: float
    ended: float


@dataclass
class Record:
    """What one client was told: the documents accepted under each key, and the money they moved."""

    accepted: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))  # kind -> key -> id
    refused: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # kind -> keys answered 4xx
    moved: Counter = field(default_factory=Counter)  # account code -> cents
    writes: list[Write] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)  # (kind, status, code)
    retries: Counter = field(default_factory=Counter)  # (mode, outcome)
    problems: list[str] = field(default_factory=list)
    posts: int = 0
    rounds: int = 0


class Client:
    def __init__(
        self, n: int, port: int, tokens: dict[str, str], args: argparse.Namespace, expected: dict[str, dict]
    ) -> None:
        self.n, self.port, self.tokens, self.args, self.expected = n, port, tokens, args, expected
        self.rng = random.Random(n)
        self.record = Record()
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.tables = [client_table(n, k) for k in range(TABLES_PER_CLIENT)]
        self.box_held: Counter = Counter()  # box code -> cents the clients put in since its last count
        self.counted_today: set[str] = set()
        self.no_sheet: dict[str, float] = {}  # box code -> when it had no open count sheet
        self.counts = 0
        self.deadline = float("inf")
        self.pace = 0.0
        self.next_round_at = 0.0
        self.hands = itertools.count()

    # -- HTTP --

    def _send(
        self, conn: http.client.HTTPConnection, path: str, body: dict, role: str, key: str | None
    ) -> tuple[int, dict, dict]:
        headers = {"Authorization": f"Token {self.tokens[role]}", "Content-Type": "application/json"}
        if key is not None:
            headers["Idempotency-Key"] = key
        conn.request("POST", path, body=json.dumps(body), headers=headers)
        response = conn.getresponse()
        payload = response.read()
        try:
            data = json.loads(payload) if payload else {}
        except ValueError:
            data = {"detail": payload[:200].decode(errors="replace"), "code": "not_json"}
        return response.status, data, {k.lower(): v for k, v in response.getheaders()}

    def _timed(self, kind: str, path: str, body: dict, role: str, key: str | None) -> tuple[int, dict, dict]:
        for attempt in range(3):
            started = time.perf_counter()
            try:
                status, data, headers = self._send(self.conn, path, body, role, key)
            except (OSError, http.client.HTTPException) as error:
                self.conn.close()
                self.record.statuses[(kind, "connection", type(error).__name__)] += 1
                if key is None or attempt == 2:
                    raise
                continue  # the key makes sending it again safe
            ended = time.perf_counter()
            self.record.writes.append(Write(kind, status, ended - started, ended))
            code = data.get("code", "") if isinstance(data, dict) and status >= 400 else ""
            self.record.statuses[(kind, status, code)] += 1
            if status >= 500:
                self.record.problems.append(f"{kind} {path} key={key}: {status} {str(data)[:300]}")
            return status, data, headers
        raise AssertionError("unreachable")

    def next_content(self, box: str) -> int:
        """What the next count of a High Hand box takes, as ``GET /api/boxes/`` says: one qualifying
        period's box content (§637a.16(d)), not all the client dropped into the box since its last count.
        Asked as the cage: whoever counts gets the boxes without what they should hold (the blind count)."""
        table = box.rsplit("-", 1)[0]
        self.conn.request(
            "GET",
            f"/api/boxes/?room={ROOM}&table={table}&jackpot=hh",
            headers={"Authorization": f"Token {self.tokens['cage_cashier']}"},
        )
        response = self.conn.getresponse()
        rows = json.loads(response.read())["results"]
        return cents(rows[0]["expected"]) if response.status == 200 and rows else 0

    def post(self, kind: str, path: str, body: dict, role: str, *, keyed: bool = True) -> tuple[int, dict]:
        """One write; a keyed one is sometimes sent again with its key (after its answer, or after a 1 ms
        timeout); the accepted document is recorded under its key."""
        if time.monotonic() > self.deadline or (not self.args.soak_minutes and self.record.posts >= self.args.posts):
            raise Done
        self.record.posts += 1
        if kind != "round":  # every write but a round is signed
            body = {**body, "pin": PIN}
        key = f"{kind}-{self.n}-{uuid.uuid4().hex}" if keyed else None
        mode = None
        if keyed and self.rng.random() < self.args.retry_fraction:
            mode = "after_timeout" if self.rng.random() < 1 / 3 else "after_answer"
        if mode == "after_timeout":
            hasty = http.client.HTTPConnection("127.0.0.1", self.port, timeout=0.001)
            try:
                self._send(hasty, path, body, role, key)
                self.record.retries[(mode, kind, "answered before the timeout")] += 1
            except (OSError, http.client.HTTPException):
                self.record.retries[(mode, kind, "timed out")] += 1
            finally:
                hasty.close()
        status, data, _ = self._timed(kind, path, body, role, key)
        if keyed and 200 <= status < 300:
            self.record.accepted[kind][key] = data["id"]
        elif keyed and 400 <= status < 500:
            self.record.refused[kind].add(key)
        if mode == "after_answer":
            again, data_again, headers = self._timed(kind, path, body, role, key)
            same = again == status and data_again == data
            if 200 <= status < 300:
                same = same and headers.get("idempotent-replayed") == "true"
            self.record.retries[(mode, kind, "same answer" if same else f"DIFFERENT: {status} then {again}")] += 1
            if not same:
                self.record.problems.append(
                    f"retry of {kind} key={key}: first {status} {str(data)[:200]}, again {again} {str(data_again)[:200]}"
                )
        elif mode == "after_timeout":
            code = f" {data.get('code', '')}" if status >= 400 else ""
            self.record.retries[(mode, kind, f"retry answered {status}{code}")] += 1
            if status >= 400:
                self.record.problems.append(
                    f"retry after a timeout of {kind} key={key} answered {status} {str(data)[:200]}"
                )
        return status, data

    # -- The floor --

    def round(self, table: str) -> None:
        if self.pace:
            delay = self.next_round_at - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            # Up to CATCH_UP_SECONDS of rounds owed are sent at once: the rounds the client's tables dealt
            # while it counted a box (a first soak lost 7% of the rate to its counts with 1 s).
            self.next_round_at = max(self.next_round_at, time.monotonic() - CATCH_UP_SECONDS) + self.pace
        pot = self.rng.choice(POTS)
        body = {
            "table": table,
            "room": ROOM,
            "ended_at": (datetime.now(UTC) - timedelta(seconds=1)).isoformat(),
            "players_dealt_in": 6,
            "pot": pot,
            "uncalled_bet": "0.00",
            "flop_dealt": self.rng.random() > 0.05,
            "voided": False,
        }
        status, data = self.post("round", "/api/rounds/", body, "dealer")
        if status != 201:
            return
        self.record.rounds += 1
        rake = cents(data["rake"])
        drops = {code: cents(amount) for code, amount in data["drops"].items() if cents(amount)}
        want = self.expected[(pot, body["flop_dealt"])]
        if (rake, drops) != (want["rake"], want["drops"]):
            self.record.problems.append(f"round {data['id']} at {table}, pot {pot}: {rake} {drops}, calculator {want}")
        moved = {f"{table}-drop": rake, **{f"{table}-{code}": amount for code, amount in drops.items()}}
        for box, amount in moved.items():
            self.box_held[box] += amount
            self.record.moved[box_account(box)] += amount
            self.record.moved[f"room:{ROOM}:pots"] -= amount

    def count_cycle(self, table: str) -> None:
        table_set(table, is_open=False)
        counts: list[tuple[int, str, int]] = []
        for kind in ("drop", "bb", "hh"):
            box = f"{table}-{kind}"
            if box in self.counted_today or time.monotonic() - self.no_sheet.get(box, -1e9) < 300:
                continue
            # A High Hand box holds one content per qualifying period: a count takes the oldest one.
            held = self.next_content(box) if kind == "hh" else self.box_held[box]
            self.counts += 1
            counted = max(0, held - 100) if self.counts % 20 == 0 else held
            status, data = self.post(
                "count", "/api/counts/", {"box": box, "room": ROOM, "counted": f"{counted / 100:.2f}"}, "dealer"
            )
            if status == 409 and data.get("code") == "box_already_counted":
                self.no_sheet[box] = time.monotonic()  # the next High Hand period ends within 5 minutes
                continue
            if status != 201:
                continue
            if kind != "hh":
                self.counted_today.add(box)
            if cents(data["expected"]) != held:
                self.record.problems.append(f"count {data['id']} of {box}: expected {data['expected']}, clients {held}")
            self.box_held[box] -= held
            self.record.moved[box_account(box)] -= held
            self.record.moved[f"room:{ROOM}:custody"] += counted
            self.record.moved[f"room:{ROOM}:variance"] += held - counted
            counts.append((data["id"], box, counted))
        witnessed = []
        for count_id, box, counted in counts:
            status, _ = self.post(
                "witness",
                f"/api/counts/{count_id}/witness/",
                {"surveillance_reference": f"CAM-{count_id}"},
                "floorperson",
                keyed=False,
            )
            if status == 200:
                witnessed.append((count_id, box, counted))
        if witnessed:
            status, transport = self.post(
                "transport",
                "/api/transports/",
                {"seal": f"S-{self.n}-{uuid.uuid4().hex[:10]}", "room": ROOM, "counts": [c for c, _, _ in witnessed]},
                "security",
            )
            if status == 201:
                declared = sum(counted for _, _, counted in witnessed)
                status, _ = self.post(
                    "verification",
                    "/api/cage-verifications/",
                    {"transport": transport["id"], "counted": f"{declared / 100:.2f}"},
                    "cage_cashier",
                )
                if status == 201:
                    self.record.moved[f"room:{ROOM}:custody"] -= declared
                    for _, box, counted in witnessed:
                        self.record.moved[official_account(box)] += counted
        table_set(table, is_open=True)

    def bad_beat(self, table: str) -> None:
        status, claim = self.post(
            "claim",
            "/api/bad-beat/claims/",
            {**CLAIM, **claim_hand(next(self.hands)), "table": table, "room": ROOM},
            "floorperson",
        )
        if status != 201:
            return
        status, _ = self.post(
            "claim_verify", f"/api/bad-beat/claims/{claim['id']}/verify/", {}, "shift_supervisor", keyed=False
        )
        if status != 200:
            return
        status, distribution = self.post(
            "distribution", f"/api/bad-beat/claims/{claim['id']}/distribution/", {}, "finance"
        )
        if status != 201:
            return
        for share in distribution["shares"]:
            status, _ = self.post(
                "share_pay",
                f"/api/bad-beat/shares/{share['id']}/pay/",
                {"id_type": "Driver's license", "id_number": f"PA-{share['id']:08d}"},
                "cage_cashier",
            )
            if status == 200:
                self.record.moved[f"jackpot:{ROOM}:bb:fund"] -= cents(share["amount"])
                self.record.moved[f"jackpot:{ROOM}:bb:paid"] += cents(share["amount"])

    def run(self) -> None:
        try:
            cycle = 0
            while True:
                table = self.tables[cycle % len(self.tables)]
                for _ in range(self.args.rounds_per_cycle):
                    self.round(table)
                self.count_cycle(table)
                if cycle % self.args.bad_beat_every == self.args.bad_beat_every - 1:
                    self.bad_beat(table)
                cycle += 1
        except Done:
            pass
        except Exception as error:  # noqa: BLE001 - reported: a client's failure must not pass unseen
            self.record.problems.append(f"client {self.n} stopped: {error!r}")
        finally:
            self.conn.close()


def box_account(box: str) -> str:
    table, kind = box.rsplit("-", 1)
    return f"table:{ROOM}:{table}:{'drop_box' if kind == 'drop' else f'{kind}_box'}"


def box_of(code: str) -> str:
    """A High Hand box content of one period (``table:load:T1:hh_box:20261203T1500Z``) is its box's, for
    the clients' record: they drop into a box and count what the server says a period holds."""
    parts = code.split(":")
    return ":".join(parts[:4]) if len(parts) == 5 and parts[0] == "table" and parts[3].endswith("_box") else code


def official_account(box: str) -> str:
    kind = box.rsplit("-", 1)[1]
    return f"room:{ROOM}:revenue" if kind == "drop" else f"jackpot:{ROOM}:{kind}:fund"


def calculator(port: int, token: str, table: str) -> dict[tuple[str, bool], dict]:
    """What each pot of the clients' rounds should take, asked of the rake calculator (records nothing)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    expected = {}
    for pot in POTS:
        for flop in (True, False):
            body = {
                "table": table,
                "room": ROOM,
                "pot": pot,
                "uncalled_bet": "0.00",
                "flop_dealt": flop,
                "players_dealt_in": 6,
            }
            headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
            conn.request("POST", "/api/rake-calculator/", body=json.dumps(body), headers=headers)
            response = conn.getresponse()
            data = json.loads(response.read())
            if response.status != 200:
                raise SystemExit(f"rake calculator: {response.status} {data}")
            expected[(pot, flop)] = {
                "rake": cents(data["rake"]),
                "drops": {d["jackpot"]: cents(d["amount"]) for d in data["drops"] if cents(d["amount"])},
            }
    conn.close()
    return expected


def notice(port: int, token: str) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json", "Idempotency-Key": "notice-1"}
    body = {"room": ROOM, "notified": "Compliance desk", "method": "phone", "pin": PIN}
    conn.request("POST", "/api/compliance-notices/", body=json.dumps(body), headers=headers)
    response = conn.getresponse()
    if response.status != 201:
        raise SystemExit(f"compliance notice: {response.status} {response.read()[:300]!r}")
    conn.close()


# --- The invariant checker -------------------------------------------------------------------------


class Checker(threading.Thread):
    """``invariants_check()`` every ``every`` seconds, each inside one REPEATABLE READ snapshot."""

    def __init__(self, every: float) -> None:
        super().__init__(daemon=True)
        self.every = every
        self.stop = threading.Event()
        self.checks = 0
        self.failed = 0
        self.violations: list[str] = []
        self.seconds: list[float] = []

    def run(self) -> None:
        from django.db import connection, transaction

        from casino_backoffice.ledger.invariants import invariants_check

        try:
            while not self.stop.wait(self.every):
                started = time.perf_counter()
                with transaction.atomic():
                    with connection.cursor() as cursor:
                        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                    found = invariants_check()
                self.seconds.append(time.perf_counter() - started)
                self.checks += 1
                if found:
                    self.failed += 1
                    self.violations.extend(found)
        finally:
            connection.close()


# --- The checks ------------------------------------------------------------------------------------


def database_checks(records: list[Record]) -> list[tuple[str, bool, str]]:
    """(check, held, detail) for lost, duplicated, every account against the clients, the ledger."""
    from django.db import connection
    from django.db.models import Count as N

    from cage.models import CageVerification, Count, Transport
    from casino_backoffice.core.idempotency import key_as_sent
    from casino_backoffice.ledger.invariants import NON_NEGATIVE_KINDS, invariants_check
    from casino_backoffice.ledger.models import Account, Transfer
    from casino_backoffice.ledger.selectors import account_balance, ledger_total
    from jackpots.bad_beat.models import BadBeatClaim, BadBeatDistribution, BadBeatPayment
    from tables.models import Round

    models: dict[str, Any] = {
        "round": Round,
        "count": Count,
        "transport": Transport,
        "verification": CageVerification,
        "claim": BadBeatClaim,
        "distribution": BadBeatDistribution,
        "share_pay": BadBeatPayment,
    }
    results = []
    lost: list[str] = []
    duplicated: list[str] = []
    wrong_id: list[str] = []
    stored_refused: list[str] = []
    accepted_total = 0
    for kind, model in models.items():
        accepted = {key: doc for r in records for key, doc in r.accepted[kind].items()}
        accepted_total += len(accepted)
        # The API records each key as its sender's (``<sender id>:<key as sent>``): compare the keys as sent.
        stored = {key_as_sent(key): pk for key, pk in model.objects.values_list("idempotency_key", "pk")}
        in_db = {key: stored[key] for key in accepted if key in stored}
        lost += [f"{kind} {key}" for key in accepted if key not in in_db]
        wrong_id += [
            f"{kind} {key}: answered {doc}, stored {in_db[key]}"
            for key, doc in accepted.items()
            if key in in_db and in_db[key] != doc
        ]
        refused = {key for r in records for key in r.refused[kind]}
        stored_refused += [f"{kind} {key} -> {kind} {stored[key]}" for key in refused if key in stored]
        duplicated += [
            f"{kind} {row['idempotency_key']} x{row['n']}"
            for row in model.objects.values("idempotency_key").annotate(n=N("pk")).filter(n__gt=1)
        ]
    rounds_in_db = Round.objects.filter(table__room__code=ROOM).count()
    rounds_accepted = sum(len(r.accepted["round"]) for r in records)
    results.append(
        (
            "lost: every document answered 2xx is stored under its key",
            not lost and not wrong_id,
            f"{accepted_total} documents; lost {len(lost)} {lost[:3]} {wrong_id[:3]}",
        )
    )
    results.append(
        (
            "a refusal records nothing: no key answered 4xx is stored",
            not stored_refused,
            f"{len(stored_refused)} {stored_refused[:5]}",
        )
    )
    results.append(("duplicated: one row per key", not duplicated, f"{len(duplicated)} {duplicated[:3]}"))
    results.append(
        (
            "rounds stored = rounds accepted (a timed-out post that was never answered would show here)",
            rounds_in_db == rounds_accepted,
            f"{rounds_in_db} stored, {rounds_accepted} accepted",
        )
    )
    moved: Counter = Counter()
    for r in records:
        moved.update(r.moved)
    accounts = {a.code: a for a in Account.objects.filter(code__contains=f":{ROOM}:")}
    transfer = connection.ops.quote_name(Transfer._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT account_id, SUM(amount) FROM (SELECT debit_id AS account_id, amount_cents AS amount FROM {transfer} "
            f"UNION ALL SELECT credit_id, -amount_cents FROM {transfer}) m GROUP BY account_id"
        )
        history = {account_id: int(total) for account_id, total in cursor.fetchall()}
    off_record, off_history = [], []
    folded: Counter = Counter()
    for code, account in accounts.items():
        balance = account_balance(account=account)
        if balance != history.get(account.pk, 0):
            off_history.append(f"{code}: balance {balance}, transfers {history.get(account.pk, 0)}")
        folded[box_of(code)] += balance
    for code in sorted(set(moved) | set(folded)):
        if folded.get(code, 0) != moved.get(code, 0):
            off_record.append(f"{code}: ledger {folded.get(code, 0)}, clients {moved.get(code, 0)}")
    funds = {code: moved.get(code, 0) for code in sorted(moved) if code.startswith(("jackpot:", "room:"))}
    results.append(
        (
            "each account's balance = the sum of its transfers",
            not off_history,
            f"{len(accounts)} accounts {off_history[:3]}",
        )
    )
    results.append(
        (
            "each account = what the clients were told it moved",
            not off_record,
            f"{len(off_record)} differ {off_record[:5]}; "
            + ", ".join(f"{c.split(':', 2)[2]} {v / 100:,.2f}" for c, v in funds.items()),
        )
    )
    below = [a.code for a in Account.objects.filter(kind__in=NON_NEGATIVE_KINDS) if history.get(a.pk, 0) < 0]
    results.append(("no box, custody, fund, revenue or payout account below zero", not below, str(below[:5])))
    total = ledger_total()
    results.append(
        ("ledger total 0 (debits = credits)", total == 0, f"{total} over {Transfer.objects.count()} transfers")
    )
    found = invariants_check()
    results.append(("invariants_check() == []", not found, f"{len(found)} {found[:3]}"))
    return results


def post_once(
    port: int, token: str, path: str, body: dict, conn: http.client.HTTPConnection | None = None
) -> tuple[int, dict]:
    """One post with a key of its own (on ``conn`` when given, else on a connection of its own)."""
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    headers = {
        "Authorization": f"Token {token}",
        "Content-Type": "application/json",
        "Idempotency-Key": uuid.uuid4().hex,
    }
    conn.request("POST", path, body=json.dumps(body), headers=headers)
    response = conn.getresponse()
    answer = response.status, json.loads(response.read())
    if own:
        conn.close()
    return answer


def fund_from_table(port: int, tokens: dict[str, str], table: str, *, rounds: int) -> int:
    """``rounds`` rounds at ``table`` (nobody else plays it), then its Bad Beat box counted at what they
    dropped, witnessed, carried and verified at the cage: what the Bad Beat fund gained (cents)."""
    from casino_backoffice.ledger.models import Account
    from casino_backoffice.ledger.selectors import account_balance

    ended = (datetime.now(UTC) - timedelta(seconds=1)).isoformat()
    for _ in range(rounds):
        round_body = {"table": table, "room": ROOM, "ended_at": ended, "players_dealt_in": 6, "pot": "120.00"}
        status, answer = post_once(port, tokens["dealer"], "/api/rounds/", round_body)
        assert status == 201, answer
    table_set(table, is_open=False)
    held = account_balance(account=Account.objects.get(code=f"table:{ROOM}:{table}:bb_box"))
    counted = f"{held / 100:.2f}"

    def step(role: str, path: str, body: dict, want: int) -> dict:
        status, answer = post_once(port, tokens[role], path, {**body, "pin": PIN})
        assert status == want, (path, answer)
        return answer

    count = step("dealer", "/api/counts/", {"box": f"{table}-bb", "room": ROOM, "counted": counted}, 201)
    step("floorperson", f"/api/counts/{count['id']}/witness/", {"surveillance_reference": f"CAM-{table}"}, 200)
    seal = f"S-{uuid.uuid4().hex[:8]}"
    transport = step("security", "/api/transports/", {"seal": seal, "room": ROOM, "counts": [count["id"]]}, 201)
    step("cage_cashier", "/api/cage-verifications/", {"transport": transport["id"], "counted": counted}, 201)
    table_set(table, is_open=True)
    return held


def same_key_races(port: int, tokens: dict[str, str]) -> list[tuple[str, bool, str]]:
    """Each keyed write sent twice at the same moment with one key and one body, as a client retrying
    before its first answer came: both answers must be the same document (201/200, the second
    ``Idempotent-Replayed``), and one document stored."""
    from casino_backoffice.ledger.models import Account
    from casino_backoffice.ledger.selectors import account_balance

    def pair(path: str, body: dict, token: str) -> list[tuple[int, dict]]:
        key = f"race-{uuid.uuid4().hex}"
        conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=120) for _ in range(2)]
        for conn in conns:
            conn.connect()
        barrier = threading.Barrier(2)
        answers: list[tuple[int, dict]] = [(0, {}), (0, {})]

        def send(n: int) -> None:
            headers = {"Authorization": f"Token {token}", "Content-Type": "application/json", "Idempotency-Key": key}
            barrier.wait(timeout=60)
            conns[n].request("POST", path, body=json.dumps(body), headers=headers)
            response = conns[n].getresponse()
            answers[n] = (response.status, json.loads(response.read()))

        threads = [threading.Thread(target=send, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for conn in conns:
            conn.close()
        return answers

    def outcome(kind: str, answers: list[tuple[int, dict]]) -> tuple[str, bool, str]:
        (s1, d1), (s2, d2) = answers
        same = s1 == s2 and 200 <= s1 < 300 and d1.get("id") == d2.get("id")
        said = " and ".join(
            f"{s} {d.get('code', '')} {str(d.get('detail', ''))[:150]!r}" if s >= 400 else f"{s} id {d.get('id')}"
            for s, d in answers
        )
        return (f"same key twice at once: {kind} answers one document twice", same, said)

    def once(path: str, body: dict, token: str) -> tuple[int, dict]:
        return post_once(port, token, path, body)

    def first(answers: list[tuple[int, dict]]) -> dict | None:
        """The document the pair recorded; None when both were refused (the races stop there, and the
        refusal is in the line of the results that says so)."""
        return next((d for s, d in answers if 200 <= s < 300), None)

    results = []
    ended = (datetime.now(UTC) - timedelta(seconds=1)).isoformat()
    round_body = {"table": RACE_TABLE, "room": ROOM, "ended_at": ended, "players_dealt_in": 6, "pot": "120.00"}
    answers = pair("/api/rounds/", round_body, tokens["dealer"])
    results.append(outcome("round", answers))
    table_set(RACE_TABLE, is_open=False)
    answers = pair(
        "/api/counts/", {"box": f"{RACE_TABLE}-drop", "room": ROOM, "counted": "5.00", "pin": PIN}, tokens["dealer"]
    )
    results.append(outcome("count", answers))
    count = first(answers)
    if count is None:
        return results
    # The race table's Bad Beat box, counted at what its round dropped and carried with the drop box, so
    # that the fund holds official money for the claim below whatever the clients' Bad Beats paid out.
    bb_held = account_balance(account=Account.objects.get(code=f"table:{ROOM}:{RACE_TABLE}:bb_box"))
    status, bb_count = once(
        "/api/counts/",
        {"box": f"{RACE_TABLE}-bb", "room": ROOM, "counted": f"{bb_held / 100:.2f}", "pin": PIN},
        tokens["dealer"],
    )
    counts = [count["id"]] + ([bb_count["id"]] if status == 201 else [])
    for count_id in counts:
        once(
            f"/api/counts/{count_id}/witness/",
            {"surveillance_reference": f"CAM-R{count_id}", "pin": PIN},
            tokens["floorperson"],
        )
    answers = pair(
        "/api/transports/",
        {"seal": f"R-{uuid.uuid4().hex[:8]}", "room": ROOM, "counts": counts, "pin": PIN},
        tokens["security"],
    )
    results.append(outcome("transport", answers))
    transport = first(answers)
    if transport is None:
        return results
    declared = 500 + (bb_held if len(counts) == 2 else 0)
    answers = pair(
        "/api/cage-verifications/",
        {"transport": transport["id"], "counted": f"{declared / 100:.2f}", "pin": PIN},
        tokens["cage_cashier"],
    )
    results.append(outcome("cage verification", answers))
    answers = pair(
        "/api/bad-beat/claims/", {**CLAIM, "table": RACE_TABLE, "room": ROOM, "pin": PIN}, tokens["floorperson"]
    )
    results.append(outcome("Bad Beat claim", answers))
    claim = first(answers)
    if claim is None:
        return results
    once(f"/api/bad-beat/claims/{claim['id']}/verify/", {"pin": PIN}, tokens["shift_supervisor"])
    answers = pair(f"/api/bad-beat/claims/{claim['id']}/distribution/", {"pin": PIN}, tokens["finance"])
    results.append(outcome("Bad Beat distribution", answers))
    distribution = first(answers)
    if distribution is None:
        return results
    share = distribution["shares"][0]
    body = {"id_type": "Driver's license", "id_number": "PA-RACE-0001", "pin": PIN}
    answers = pair(f"/api/bad-beat/shares/{share['id']}/pay/", body, tokens["cage_cashier"])
    results.append(outcome("Bad Beat share payment", answers))
    table_set(RACE_TABLE, is_open=True)
    return results


def contention(port: int, tokens: dict[str, str], contenders: list[str]) -> tuple[list[tuple[str, bool, str]], str]:
    """A fresh Bad Beat at a table of its own, its fund first made official there (the clients' Bad Beats
    may have paid out all of it); fifty cashiers pay its first share at once, each with their own
    connection and key."""
    from django.db import connection

    from casino_backoffice.ledger.models import Account, Transfer
    from jackpots.bad_beat.models import BadBeatPayment

    def send(token: str, path: str, body: dict, conn: http.client.HTTPConnection | None = None) -> tuple[int, dict]:
        return post_once(port, token, path, {**body, "pin": PIN}, conn)

    fund_from_table(port, tokens, CONTEND_TABLE, rounds=20)
    status, claim = send(
        tokens["floorperson"], "/api/bad-beat/claims/", {**CLAIM, "table": CONTEND_TABLE, "room": ROOM}
    )
    assert status == 201, claim
    status, verified = send(tokens["shift_supervisor"], f"/api/bad-beat/claims/{claim['id']}/verify/", {})
    assert status == 200, verified
    status, distribution = send(tokens["finance"], f"/api/bad-beat/claims/{claim['id']}/distribution/", {})
    assert status == 201, distribution
    share = distribution["shares"][0]
    before = Transfer.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=120) for _ in contenders]
    for conn in conns:
        conn.connect()
    barrier = threading.Barrier(len(contenders))
    outcomes: list[tuple[int, str, float]] = []
    lock = threading.Lock()

    def contend(n: int) -> None:
        barrier.wait(timeout=60)
        started = time.perf_counter()
        status, data = send(
            contenders[n],
            f"/api/bad-beat/shares/{share['id']}/pay/",
            {"id_type": "Driver's license", "id_number": "PA-00000001"},
            conns[n],
        )
        with lock:
            outcomes.append((status, data.get("code", ""), time.perf_counter() - started))

    threads = [threading.Thread(target=contend, args=(n,)) for n in range(len(contenders))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    by_status = Counter((s, c) for s, c, _ in outcomes)
    payments = list(BadBeatPayment.objects.filter(share_id=share["id"]).select_related("paid_by"))
    paid = Account.objects.get(code=f"jackpot:{ROOM}:bb:paid")
    transfers = Transfer.objects.filter(pk__gt=before, debit=paid).count()
    connection.close()
    ok_200 = by_status.get((200, ""), 0)
    refused = by_status.get((409, "share_already_paid"), 0)
    summary = (
        f"{len(contenders)} cashiers paying share {share['id']} (${share['amount']}) at once: "
        + ", ".join(f"{s} {c or ''}".strip() + f" x{n}" for (s, c), n in sorted(by_status.items()))
        + f"; slowest answer {max(t for _, _, t in outcomes) * 1000:.0f} ms, median {statistics.median(t for _, _, t in outcomes) * 1000:.0f} ms"
    )
    return (
        [
            ("contention: exactly one 200", ok_200 == 1, str(dict(by_status))),
            ("contention: the others 409 share_already_paid", refused == len(contenders) - 1, f"{refused}"),
            (
                "contention: one payment, one transfer",
                len(payments) == 1 and transfers == 1,
                f"{len(payments)} payment by {[p.paid_by.username for p in payments]}, {transfers} transfer",
            ),
        ],
        summary,
    )


# --- Main ------------------------------------------------------------------------------------------


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f}"


def report(records: list[Record], elapsed: float, args: argparse.Namespace) -> list[float]:
    writes = [w for r in records for w in r.writes]
    latencies = [w.seconds for w in writes]
    statuses: Counter = Counter()
    retries: Counter = Counter()
    for r in records:
        statuses.update(r.statuses)
        retries.update(r.retries)
    posts = sum(r.posts for r in records)
    print(
        f"{len(records)} clients; {posts} posts ({sum(r.rounds for r in records)} rounds accepted), "
        f"{len(writes)} requests answered (retries included) in {elapsed:.1f} s: {len(writes) / elapsed:.1f} req/s"
    )
    print(
        f"writes: p50 {statistics.median(latencies) * 1000:.1f} ms, p95 {percentile(latencies, 0.95) * 1000:.1f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"
    )
    by_kind: dict[str, list[float]] = defaultdict(list)
    for w in writes:
        by_kind[w.kind].append(w.seconds)
    for kind, values in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
        print(
            f"  {kind:<13}{len(values):>7}  p50 {statistics.median(values) * 1000:7.1f}  p95 "
            f"{percentile(values, 0.95) * 1000:7.1f}  p99 {percentile(values, 0.99) * 1000:7.1f} ms"
        )
    print(
        "statuses: "
        + ", ".join(f"{k} {s}{' ' + c if c else ''}: {n}" for (k, s, c), n in sorted(statuses.items(), key=str))
    )
    print(
        "retries with the same key: "
        + (", ".join(f"{m} / {k} / {o}: {n}" for (m, k, o), n in sorted(retries.items())) or "none")
    )
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--posts", type=int, default=500, help="posts per client (retries not counted)")
    parser.add_argument("--soak-minutes", type=float, default=0, help="post at a steady rate for so many minutes")
    parser.add_argument(
        "--rounds-per-second", type=float, default=50 * 40 * 30 / 3600, help="soak: rounds/s, all clients"
    )
    parser.add_argument("--check-every", type=float, default=10, help="soak: seconds between invariant checks")
    parser.add_argument(
        "--rounds-per-cycle", type=int, help="rounds at a table between its counts (default 40; soak 30: hourly)"
    )
    parser.add_argument("--bad-beat-every", type=int, default=6, help="a Bad Beat every so many count cycles")
    parser.add_argument("--retry-fraction", type=float, default=0.10)
    parser.add_argument("--contenders", type=int, default=50, help="cashiers paying one share at once (0: skip)")
    parser.add_argument(
        "--races", action=argparse.BooleanOptionalAction, default=True, help="each keyed write twice at once, one key"
    )
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/10", help="Celery broker")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="the same steps in seconds: 2 clients x 40 posts, counts every 5 rounds, 3 contenders, no soak",
    )
    args = parser.parse_args()
    if args.quick:
        args.clients, args.posts, args.soak_minutes, args.rounds_per_cycle = 2, 40, 0, 5
        args.bad_beat_every, args.contenders, args.workers, args.threads = 2, 3, 2, 2

    if args.rounds_per_cycle is None:
        args.rounds_per_cycle = 30 if args.soak_minutes else 40
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("Set DATABASE_URL to a PostgreSQL database this benchmark may drop and create.")
    print(f"setup: {load_average()}", flush=True)
    fresh_database(url)
    django_setup()
    tokens, contender_tokens, floor_token = setup(args.clients, args.contenders)
    from django.db import connection

    connection.close()
    workdir = Path(tempfile.mkdtemp(prefix="bench_load-"))
    port = free_port()
    processes = start_processes(args, port, workdir)
    results: list[tuple[str, bool, str]] = []
    printed = 0
    summary = ""
    command: subprocess.Popen | None = None
    try:
        wait_for(port)
        notice(port, floor_token)
        expected = calculator(port, tokens[0]["dealer"], client_table(0, 0))
        clients = [Client(n, port, tokens[n], args, expected) for n in range(args.clients)]
        checker = None
        if args.soak_minutes:
            duration = args.soak_minutes * 60
            for client in clients:
                client.deadline = time.monotonic() + duration
                client.pace = args.clients / args.rounds_per_second
                client.next_round_at = time.monotonic() + client.rng.random() * client.pace
            checker = Checker(args.check_every)
            checker.start()
            command = subprocess.Popen(
                [
                    sys.executable,
                    "manage.py",
                    "check_invariants",
                    f"--every={args.check_every:g}",
                    f"--for={duration:g}",
                ],
                cwd=ROOT,
                stdout=open(workdir / "check_invariants.out", "w"),
                stderr=open(workdir / "check_invariants.err", "w"),
            )
        print(
            f"{args.clients} clients x {f'{args.soak_minutes:g} minutes' if args.soak_minutes else f'{args.posts} posts'}; "
            f"gunicorn {args.workers} workers x {args.threads} threads (gthread), Celery worker with beat; "
            f"{os.cpu_count()} cores; {load_average()}",
            flush=True,
        )
        threads = [threading.Thread(target=c.run, daemon=True) for c in clients]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        minute = 1
        while any(t.is_alive() for t in threads):
            time.sleep(1)
            if args.soak_minutes and time.perf_counter() - started >= 60 * minute:
                now = time.perf_counter()
                last = [w.seconds for c in clients for w in list(c.record.writes) if now - w.ended <= 60]
                print(
                    f"  minute {minute}: {len(last)} writes, p99 {percentile(last, 0.99) * 1000:.1f} ms; "
                    f"invariant checks {checker.checks if checker else 0}, with violations {checker.failed if checker else 0}; "
                    f"{load_average()}",
                    flush=True,
                )
                minute += 1
        elapsed = time.perf_counter() - started
        print(f"clients done: {load_average()}", flush=True)
        if checker:
            checker.stop.set()
            checker.join()
        records = [c.record for c in clients]
        report(records, elapsed, args)
        problems = [p for r in records for p in r.problems]
        results.append(
            (
                "no 5xx, no differing retry, no answer off the calculator or the box",
                not problems,
                f"{len(problems)} {problems[:5]}",
            )
        )
        if checker:
            results.append(
                (
                    f"invariants_check every {args.check_every:g} s in a snapshot: 0 violations",
                    checker.failed == 0,
                    f"{checker.checks} checks, {checker.failed} with violations, median {statistics.median(checker.seconds or [0]) * 1000:.0f} ms {checker.violations[:3]}",
                )
            )
        time.sleep(2)  # let the beat's checkpoint tick of the last minute settle nothing in flight
        results += database_checks(records)
        for name, held, detail in results:
            print(f"[{'ok' if held else 'FAILED'}] {name}: {detail}", flush=True)
        printed = len(results)
        if args.contenders:
            try:
                found, summary = contention(port, tokens[1 % len(tokens)], contender_tokens)
                results += found
            except Exception as error:  # noqa: BLE001 - reported with the other checks
                results.append(("contention ran", False, repr(error)[:300]))
        if args.races:
            results += same_key_races(port, tokens[2 % len(tokens)])
        if args.contenders or args.races:
            results += [r for r in database_checks(records) if r[0].startswith(("no box", "ledger", "invariants"))]
    finally:
        if command is not None:
            try:
                command.wait(timeout=120)
            except subprocess.TimeoutExpired:
                command.terminate()
        stop_processes(processes)
    if command is not None:
        out = (workdir / "check_invariants.out").read_text()
        lines = re.findall(r"check \d+: (\d+) violations", out)
        err = (workdir / "check_invariants.err").read_text().strip()
        results.append(
            (
                "manage.py check_invariants beside it (autocommit): 0 violations",
                command.returncode == 0 and not any(int(n) for n in lines),
                f"{len(lines)} checks, {sum(1 for n in lines if int(n))} with violations; exit {command.returncode} {err[:300]}",
            )
        )
    if summary:
        print(summary)
    for name, held, detail in results[printed:]:
        print(f"[{'ok' if held else 'FAILED'}] {name}: {detail}")
    if not all(held for _, held, _ in results):
        print(f"end: {load_average()}; server and worker logs in {workdir}")
        sys.exit(1)
    if args.quick:  # make test runs it at every merge: its logs are kept only when a check failed
        shutil.rmtree(workdir, ignore_errors=True)
        print(f"end: {load_average()}")
    else:
        print(f"end: {load_average()}; server and worker logs in {workdir}")


if __name__ == "__main__":
    main()
