"""A gaming day's package of a room of 50 tables (issue 29, item 5): the time to build it and the peak
memory, printed; the target is under 30 s.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_package_bench \\
        .venv/bin/python benchmarks/day_package.py [--tables 50] [--rounds 40000] [--irregularities 50] [--fresh]

What it does:
1. Creates (``--fresh``: drops first) and migrates the database named by ``DATABASE_URL``, unless a
   previous run already built it (then it only measures).
2. Builds one gaming day of room ``bench`` with the cage benchmark's builder (``bench_cage.build``,
   one day): ``--rounds`` rounds over ``--tables`` Hold'em tables (rake, a Bad Beat and a High Hand box
   each), written set-based as ``round_record`` writes them; at 06:02 the next morning, through the
   real services, the notice, the count and witness of every box, one sealed container per table
   carried and verified at the cage, every variance explained. Then ``--irregularities`` misdeals
   reported through ``irregularity_report`` at the tables, during the day, each with its incident PDF
   in the package.
3. Closes nothing (the package of an open day is built the same way, its manifest says so) and
   builds the package of the day played (its count sheets, counts and irregularities, and the
   transports and verifications of the next morning that carried its boxes) into a temporary file,
   ``--runs`` times untraced for the wall time, then once under tracemalloc for the peak Python
   memory; the process's peak resident memory (maxrss), the package's size and files, and whether
   ``package_verify`` finds it whole. Then the time to read the day's data files as the schedule
   seals a closed day (``audit.package.seal``).

``--quick``: the same code path on a fresh 2-table room of 400 rounds and 2 irregularities (the tests
run it). Building the full day takes a few minutes on 2 shared cores.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
import tracemalloc
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_cage  # noqa: E402  # the cage benchmark's builder of rooms, rounds and counts

TARGET_S = 30.0


def irregularities_report(*, room: Any, day: Any, count: int) -> int:
    """``count`` misdeals reported at the room's tables during ``day``, by a dealer, through the service."""
    from casino_backoffice.staff.models import User
    from tables.irregularities.models import Irregularity
    from tables.irregularities.services import irregularity_report
    from tables.selectors import gaming_day_bounds

    dealer = User.objects.get(username="bench-dealer")
    tables = list(room.tables.order_by("pk"))
    opens, _ = gaming_day_bounds(room=room, day=day)
    for n in range(count):
        at = opens + timedelta(hours=1, minutes=n)
        with bench_cage.CLOCK.at_moment(at):
            irregularity_report(
                table=tables[n % len(tables)],
                kind="misdeal",
                cause="wrong_starting_position",
                description=f"Dealt from the wrong seat ({n + 1}).",
                actor=dealer,
                pin=bench_cage.PIN,
                idempotency_key=f"bench-misdeal-{n}",
                occurred_at=at,
            )
    return Irregularity.objects.filter(room=room, gaming_day=day).count()


def _reader() -> Any:
    from casino_backoffice.staff.models import User
    from casino_backoffice.staff.roles import Role
    from casino_backoffice.staff.services import staff_create

    username = "bench-compliance"
    return User.objects.filter(username=username).first() or staff_create(
        username=username,
        role=Role.COMPLIANCE,
        credential_number="PA-BENCH-0099",
        password=f"{username}-password",
        pin=bench_cage.PIN,
        first_name="Bench",
        last_name="Compliance",
        all_rooms=True,
    )


def _build_once(*, room: Any, day: Any, actor: Any, traced: bool) -> tuple[float, float, Any, int, list[str]]:
    """One package built into a temporary file: seconds, peak traced bytes (0 untraced), manifest,
    size, problems."""
    from audit.package.build import package_build, package_verify

    with tempfile.NamedTemporaryFile(suffix=".zip") as out:
        if traced:
            tracemalloc.start()
        started = time.perf_counter()
        manifest = package_build(room=room, day=day, actor=actor, out=out)
        out.flush()
        seconds = time.perf_counter() - started
        peak = 0
        if traced:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        return seconds, peak, manifest, Path(out.name).stat().st_size, package_verify(out.name)


def measure(*, room: Any, day: Any, runs: int) -> None:
    """``runs`` builds timed (tracemalloc slows Python several times over: it is off for these), then
    one build traced for its peak memory."""
    actor = _reader()
    times = []
    for _ in range(runs):
        seconds, _, manifest, size, problems = _build_once(room=room, day=day, actor=actor, traced=False)
        times.append(seconds)
    traced_s, peak, _, _, _ = _build_once(room=room, day=day, actor=actor, traced=True)
    maxrss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    files = manifest.files
    largest = max(files, key=lambda entry: entry["size"])
    print(
        f"package of room {room.code}, gaming day {day} ({manifest.state}): {len(files)} files + manifest, "
        f"{size / 1e6:.2f} MB zipped, {sum(entry['size'] for entry in files) / 1e6:.2f} MB unzipped"
    )
    print(f"  largest file: {largest['name']} {largest['size'] / 1e6:.2f} MB")
    verdict = "met" if max(times) < TARGET_S else "MISSED"
    print(f"  build time: {', '.join(f'{t:.1f} s' for t in times)} (target < {TARGET_S:.0f} s: {verdict})")
    print(f"  peak Python memory while building (tracemalloc, a run of {traced_s:.1f} s traced): {peak / 1e6:.1f} MB")
    print(f"  peak resident memory of the process (maxrss, data building included): {maxrss_mb:.0f} MB")
    print(f"  package_verify: {'OK' if not problems else problems}")
    measure_seal(room=room, day=day, actor=actor)


def measure_seal(*, room: Any, day: Any, actor: Any) -> None:
    """What the schedule reads to seal the day once it is closed: its data files, the PDFs left out."""
    from audit.package.seal import seal_digest, sealed_files

    started = time.perf_counter()
    files, content = sealed_files(room=room, day=day, actor=actor)
    seconds = time.perf_counter() - started
    size = sum(entry["size"] for entry in files) / 1e6
    print(
        f"  seal of the day (data files only): {len(files)} files, {size:.2f} MB, stored zipped in "
        f"{len(content) / 1e6:.2f} MB, read in {seconds:.1f} s, digest {seal_digest(files)[:12]}…"
    )


def _played_day(room: Any) -> Any:
    """The gaming day played and counted: its count sheets, counts and irregularities; its boxes were
    carried and verified the next morning, which the package holds as well."""
    from cage.models import Count

    return Count.objects.filter(box__room=room).order_by("gaming_day").values_list("gaming_day", flat=True)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=40_000, help="rounds of the day, over every table")
    parser.add_argument("--irregularities", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--fresh", action="store_true", help="drop the database first and build everything again")
    parser.add_argument(
        "--quick", action="store_true", help="the same code path in seconds: 2 tables (make test runs it)"
    )
    args = parser.parse_args()
    if args.quick:
        args.tables, args.rounds, args.irregularities, args.runs, args.fresh = 2, 400, 2, 1, True

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        raise SystemExit("Set DATABASE_URL to a PostgreSQL database of its own (it is created when missing).")
    bench_cage._ensure_database(url, fresh=args.fresh)  # noqa: SLF001  # the same database set-up
    bench_cage._django()  # noqa: SLF001
    from django.core.management import call_command

    from tables.models import PokerRoom

    call_command("migrate", verbosity=0, interactive=False)
    if not PokerRoom.objects.filter(code=bench_cage.MAIN).exists():
        print(
            f"building: room {bench_cage.MAIN} ({args.tables} tables, {args.rounds:,} rounds, 1 gaming day counted)",
            flush=True,
        )
        started = time.perf_counter()
        # bench_cage's room ``large`` comes with it, kept small: it is not measured here.
        bench_cage.build(rounds=args.rounds, tables=args.tables, days=1, large_transfers=2_000)
        room = PokerRoom.objects.get(code=bench_cage.MAIN)
        day = _played_day(room)
        reported = irregularities_report(room=room, day=day, count=args.irregularities)
        print(f"  {reported} irregularities reported; built in {time.perf_counter() - started:.0f}s", flush=True)
    room = PokerRoom.objects.get(code=bench_cage.MAIN)
    day = _played_day(room)
    print(f"machine: {os.cpu_count()} cores (shared)")
    measure(room=room, day=day, runs=args.runs)


if __name__ == "__main__":
    main()
