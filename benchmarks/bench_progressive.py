"""Progressive meters under a busy floor: rounds of linked tables posted at once, wins paid in the
dealer's order, and the display board after a long history (PostgreSQL only).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_progressive_bench \\
        .venv/bin/python benchmarks/bench_progressive.py [--rounds 2000] [--threads 4] [--wins 100] [--quick]

``--quick`` runs the same steps in seconds: 40 rounds from 2 threads, 3 wins (``make test`` runs it).

What it does, on a fresh database of that name (dropped and created):
1. Staff given all rooms; the all-rooms administrator opens room ``main`` by loading the demo rules (Mississippi Stud meter ``msp`` at T11; Crazy 4 meter ``c4p`` at T12 and T13).
2. ``--rounds`` rounds of three to six wagers each, spread over ``--threads`` threads (each its own
   connection) posting to the two Crazy 4 tables of one meter at once: rounds per second and the
   median and 99th percentile of one round; then checks the meter equals its initial amount plus the
   increments of every round, to the cent.
3. ``--wins`` Mississippi Stud rounds with two straight flushes each, recorded in the dealer's order
   and validated: the time of a hand and of a validation.
4. The display board's state after that history: median time and queries.

Prints figures; asserts only that no cent was created or lost. The tests run it with ``--quick`` only.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN = "2468"
PASSWORD = "bench-password-1"  # noqa: S105 - a throwaway database


def _fresh_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1].split("?")[0]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')


def _django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_backoffice.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)


def _ms(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"median {statistics.median(ordered) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--wins", type=int, default=100)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="the same steps in seconds: 40 rounds, 2 threads, 3 wins (make test runs it)",
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.threads, args.wins = 40, 2, 3
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("Set DATABASE_URL to a PostgreSQL database this benchmark may drop and create.")
    _fresh_database(url)
    _django()

    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from casino_backoffice.ledger.selectors import ledger_total
    from casino_backoffice.staff.roles import Role
    from casino_backoffice.staff.services import staff_create
    from jackpots.board.selectors import display_state
    from jackpots.progressive.models import ProgressiveRound
    from jackpots.progressive.services.hands import progressive_hand_record, progressive_validate
    from jackpots.progressive.services.rounds import SeatWager, progressive_round_record
    from rake.services import rules_load
    from tables.models import Table
    from tables.services import table_set_open

    # A new room is opened by an all-rooms administrator, who loads its first rules.
    administrator = staff_create(
        username="administrator", role=Role.ADMINISTRATOR, credential_number="B-1", password=PASSWORD, all_rooms=True
    )
    dealers = [
        staff_create(
            username=f"dealer{n}",
            role=Role.DEALER,
            credential_number=f"B-D{n}",
            password=PASSWORD,
            pin=PIN,
            all_rooms=True,
        )
        for n in range(args.threads)
    ]
    floor = staff_create(
        username="floor", role=Role.FLOORPERSON, credential_number="B-F", password=PASSWORD, pin=PIN, all_rooms=True
    )
    rules_load(text=(ROOT / "demo" / "rules.yaml").read_text(), actor=administrator)
    tables = {
        t.number: table_set_open(table=t, is_open=True, actor=floor)
        for t in Table.objects.select_related("room").filter(number__in=["T11", "T12", "T13"])
    }
    from jackpots.progressive.selectors import meters_standing

    room = tables["T11"].room
    start_c4 = next(m.amount_cents for m in meters_standing(room=room) if m.meter.code == "c4p")

    # 2. Rounds of one meter from two tables and several threads at once.
    per_thread = args.rounds // args.threads
    timings: list[list[float]] = [[] for _ in range(args.threads)]
    increments = [0] * args.threads
    barrier = threading.Barrier(args.threads)

    failures: list[Exception] = []

    def post(n: int) -> None:
        rng = random.Random(n)
        barrier.wait()
        try:
            for i in range(per_thread):
                seats = rng.sample(range(1, 7), rng.randint(3, 6))
                wagers = [SeatWager(seat, rng.choice((100, 500))) for seat in seats]
                began = time.perf_counter()
                round_ = progressive_round_record(
                    table=tables["T12" if (n + i) % 2 else "T13"],
                    ended_at=timezone.now() - timedelta(seconds=1),
                    wagers=wagers,
                    chips_collected=len(wagers),
                    actor=dealers[n],
                    idempotency_key=f"bench-{n}-{i}",
                )
                timings[n].append(time.perf_counter() - began)
                increments[n] += round_.increment_cents
        except Exception as error:  # noqa: BLE001 - reported below: a thread's failure must not pass unseen
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(n,)) for n in range(args.threads)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    if failures:
        sys.exit(f"{len(failures)} threads failed: {failures[0]!r}")
    rounds = per_thread * args.threads
    after_c4 = next(m.amount_cents for m in meters_standing(room=room) if m.meter.code == "c4p")
    print(
        f"Rounds of one meter from 2 tables, {args.threads} threads: {rounds} rounds in {elapsed:.1f} s, "
        f"{rounds / elapsed:.0f} rounds/s; one round {_ms([t for ts in timings for t in ts])}"
    )
    print(
        f"  meter c4p: {start_c4} + {sum(increments)} increments = {after_c4} cents "
        f"({'exact' if after_c4 == start_c4 + sum(increments) else 'WRONG'}); "
        f"{ProgressiveRound.objects.count()} rounds recorded"
    )
    assert after_c4 == start_c4 + sum(increments)

    # 3. Wins in the dealer's order, each validated.
    hands: list[float] = []
    validations: list[float] = []
    for i in range(args.wins):
        round_ = progressive_round_record(
            table=tables["T11"],
            ended_at=timezone.now() - timedelta(seconds=1),
            wagers=[SeatWager(4, 100), SeatWager(6, 500)],
            chips_collected=2,
            community_cards="9h 8h 7h",
            actor=dealers[0],
            idempotency_key=f"bench-win-{i}",
        )
        for seat, cards in ((6, "Th Jh"), (4, "6h 5h")):
            began = time.perf_counter()
            hand = progressive_hand_record(
                round=round_,
                seat=seat,
                cards=cards,
                light_confirmed=True,
                actor=dealers[0],
                idempotency_key=f"bench-hand-{i}-{seat}",
            )
            hands.append(time.perf_counter() - began)
            began = time.perf_counter()
            progressive_validate(hand=hand, actor=floor, pin=PIN)
            validations.append(time.perf_counter() - began)
    print(
        f"{args.wins} Mississippi Stud rounds with two straight flushes: a hand {_ms(hands)}; "
        f"a validation {_ms(validations)}"
    )

    # 4. The display board after that history.
    board: list[float] = []
    for _ in range(50):
        with CaptureQueriesContext(connection) as queries:
            began = time.perf_counter()
            display_state(room=room)
            board.append(time.perf_counter() - began)
    print(
        f"Display board after {ProgressiveRound.objects.count()} rounds: {len(queries.captured_queries)} queries, "
        f"{_ms(board)}"
    )
    print(f"Ledger total: {ledger_total()} (0: no cent created or lost)")
    assert ledger_total() == 0


if __name__ == "__main__":
    main()
