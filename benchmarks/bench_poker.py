"""Evaluations per second of ``best_high`` beside treys, pokerkit, phevaluator and eval7, in one run.

    .venv/bin/pip install -r benchmarks/requirements-compare.txt   # optional comparison libraries
    .venv/bin/python benchmarks/bench_poker.py [--hands 200000] [--seed 7] [--skip-crazy4] [--quick]

Every evaluator gets the same random hands, converted to its own card type before timing;
each figure is one Python loop calling the evaluator once per hand (the loop is the same for
all). A library that is missing or failed to build is reported and skipped. Also timed: the
batch path ``best_high_batch`` on the same hands as one array, and enumerating all 2,598,960
five-card hands with ``crazy4_best`` (``itertools.combinations`` iteration included).

``--quick`` measures the same way on 5,000 hands, with a short time budget per evaluator, and skips the
enumeration of all five-card hands (as ``--skip-crazy4``): a few seconds (``make test`` runs it).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from casino_backoffice.poker import best_high, best_high_batch, crazy4_best, high_rank, parse_cards

TEXT = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def rate(evaluate: Callable[[Any], object], hands: Sequence[Any], budget_s: float = 1.5) -> float:
    """Hands per second, over as many of ``hands`` as fit in about ``budget_s``."""
    probe = hands[: min(len(hands), 500)]
    start = time.perf_counter()
    for hand in probe:
        evaluate(hand)
    per_hand = (time.perf_counter() - start) / len(probe)
    count = max(len(probe), min(len(hands), int(budget_s / max(per_hand, 1e-9))))
    sample = hands[:count]
    start = time.perf_counter()
    for hand in sample:
        evaluate(hand)
    return count / (time.perf_counter() - start)


def competitors() -> list[tuple[str, Callable[[list[int]], Any], Callable[[Any], object]]]:
    """(name, convert a hand of card indices, evaluate a converted hand) per installed library."""
    found: list[tuple[str, Callable[[list[int]], Any], Callable[[Any], object]]] = []
    try:
        from treys import Card as TreysCard
        from treys import Evaluator

        evaluator = Evaluator()
        found.append(
            (
                "treys",
                lambda h: ([TreysCard.new(TEXT[c]) for c in h[:2]], [TreysCard.new(TEXT[c]) for c in h[2:]]),
                lambda pair: evaluator.evaluate(pair[0], pair[1]),
            )
        )
    except Exception as error:  # noqa: BLE001 - any failure to import means "not measured"
        print(f"treys: not measured ({error})")
    try:
        from pokerkit import Card as PokerkitCard
        from pokerkit import StandardHighHand

        found.append(
            (
                "pokerkit",
                lambda h: tuple(PokerkitCard.parse("".join(TEXT[c] for c in h))),
                StandardHighHand.from_game,
            )
        )
    except Exception as error:  # noqa: BLE001
        print(f"pokerkit: not measured ({error})")
    try:
        from phevaluator import evaluate_cards

        # phevaluator's integer cards are 4 * rank + suit (c, d, h, s), the same as ours.
        found.append(("phevaluator", list, lambda h: evaluate_cards(*h)))
    except Exception as error:  # noqa: BLE001
        print(f"phevaluator: not measured ({error})")
    try:
        import eval7

        found.append(("eval7", lambda h: [eval7.Card(TEXT[c]) for c in h], eval7.evaluate))
    except Exception as error:  # noqa: BLE001
        print(f"eval7: not measured ({error})")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--skip-crazy4", action="store_true")
    parser.add_argument(
        "--quick", action="store_true", help="5,000 hands, a short budget, no enumeration (make test runs it)"
    )
    args = parser.parse_args()
    budget_s = 1.5
    if args.quick:
        args.hands, args.skip_crazy4, budget_s = 5_000, True, 0.2
    rng = np.random.default_rng(args.seed)
    deals = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :7]
    print(f"Python {platform.python_version()} on {platform.machine()}, numpy {np.__version__}; {args.hands:,} hands")
    print(f"{'evaluator':<34}{'5 cards/s':>14}{'7 cards/s':>14}")
    rows: list[tuple[str, float, float]] = []
    ours5 = [parse_cards(h) for h in deals[:, :5].tolist()]
    ours7 = [parse_cards(h) for h in deals.tolist()]
    rows.append(("best_high (HighHand)", rate(best_high, ours5, budget_s), rate(best_high, ours7, budget_s)))
    rows.append(("high_rank (int only)", rate(high_rank, ours5, budget_s), rate(high_rank, ours7, budget_s)))
    for name, convert, evaluate in competitors():
        try:
            five = [convert(h) for h in deals[:, :5].tolist()]
            seven = [convert(h) for h in deals.tolist()]
            rows.append((name, rate(evaluate, five, budget_s), rate(evaluate, seven, budget_s)))
        except Exception as error:  # noqa: BLE001
            print(f"{name}: failed while measuring ({error})")
    for name, five_rate, seven_rate in rows:
        print(f"{name:<34}{five_rate:>14,.0f}{seven_rate:>14,.0f}")
    batch = []
    for size in (5, 7):
        array = np.ascontiguousarray(deals[:, :size])
        best_high_batch(array[:1000])
        start = time.perf_counter()
        best_high_batch(array)
        batch.append(args.hands / (time.perf_counter() - start))
    print(f"{'best_high_batch (NumPy, one array)':<34}{batch[0]:>14,.0f}{batch[1]:>14,.0f}")
    if not args.skip_crazy4:
        start = time.perf_counter()
        for hand in combinations(range(52), 5):
            crazy4_best(hand)
        print(f"crazy4_best over all 2,598,960 five-card hands: {time.perf_counter() - start:.1f} s")
        start = time.perf_counter()
        all_five = np.fromiter((c for hand in combinations(range(52), 5) for c in hand), dtype=np.int8).reshape(-1, 5)
        strengths = best_high_batch(all_five)
        elapsed = time.perf_counter() - start
        print(f"best_high_batch over all five-card hands: {elapsed:.1f} s ({len(np.unique(strengths))} classes)")


if __name__ == "__main__":
    main()
