"""Exact paytable returns by enumerating every hand: the per-call evaluator beside the NumPy batch one.

    .venv/bin/python benchmarks/bench_paytable_returns.py [--only crazy4_queens_up_a ...] [--meter-dollars 10000] [--quick]

For each paytable settled on the player's cards alone (§655a.12(c)-(d), §657a.12(c)-(d)) it
enumerates every hand twice, with ``method="per_call"`` and ``method="batch"``, each timed on
its own with the caches bypassed (the times include generating the hands), checks that the two
results are identical, and prints the return and house edge, or for a progressive the hit
frequency of each line and the return at one meter reading on a $1 wager.

``--quick`` enumerates one small paytable (``three_card_bonus_a``, 22,100 hands) the same way, in a
second or two (``make test`` runs it).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from casino_backoffice.poker.paytables import PAYTABLES
from casino_backoffice.poker.returns import PaytableReturn, paytable_return, percent, return_with_meter

TABLES = (
    "three_card_bonus_a",
    "three_card_bonus_b",
    "three_card_bonus_c",
    "three_card_bonus_d",
    "crazy4_queens_up_a",
    "crazy4_queens_up_b",
    "crazy4_queens_up_c",
    "crazy4_queens_up_d",
    "crazy4_progressive_a",
    "crazy4_progressive_b",
    "mississippi_stud_progressive",
)


def timed(name: str, method: str) -> tuple[PaytableReturn, float]:
    start = time.perf_counter()
    result = paytable_return(PAYTABLES[name], method=method, use_cache=False)
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=TABLES, default=list(TABLES))
    parser.add_argument("--meter-dollars", type=int, default=10_000, help="meter reading for the progressives")
    parser.add_argument(
        "--quick", action="store_true", help="one small paytable, three_card_bonus_a, in seconds (make test runs it)"
    )
    args = parser.parse_args()
    if args.quick:
        args.only = ["three_card_bonus_a"]
    print(f"Python {platform.python_version()} on {platform.machine()}, numpy {np.__version__}")
    print(f"{'paytable':<30}{'hands':>11}{'per call s':>12}{'batch s':>10}{'speed-up':>10}  result")
    for name in args.only:
        per_call, per_call_s = timed(name, "per_call")
        batch, batch_s = timed(name, "batch")
        if per_call != batch:
            raise SystemExit(f"{name}: the per-call and batch enumerations differ")
        if batch.exact_return is not None and batch.house_edge is not None:
            result = f"return {percent(batch.exact_return)}, house edge {percent(batch.house_edge)}"
        else:
            at_meter = return_with_meter(batch, meter_cents=args.meter_dollars * 100, wager_cents=100)
            result = (
                f"fixed lines return {percent(batch.fixed_return)}; "
                f"with the meter at ${args.meter_dollars:,} on $1: {percent(at_meter)}"
            )
        print(
            f"{name:<30}{batch.hands_total:>11,}{per_call_s:>12.2f}{batch_s:>10.2f}"
            f"{per_call_s / batch_s:>9.1f}x  {result}"
        )
        if batch.exact_return is None:
            for line in batch.lines:
                odds = f"1 in {round(1 / line.probability):,}" if line.hands else "never"
                print(f"{'':<32}{line.line}: {line.hands:,} hands, {percent(line.probability, 6)} ({odds})")


if __name__ == "__main__":
    main()
