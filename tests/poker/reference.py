"""A slow, independent reading of the ranking rules, to check the table-driven evaluator against.

Written straight from §655a.6, §657a.6 and §655a.6(c) with ``Counter`` and no tables: a hand
maps to (category order, deciding ranks), compared as tuples.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

ACE = 12


def _groups(ranks: Sequence[int]) -> list[tuple[int, int]]:
    return sorted(((n, r) for r, n in Counter(ranks).items()), reverse=True)


def _straight_top(ranks: Sequence[int], ace_low: bool = True) -> int | None:
    distinct = sorted(set(ranks))
    n = len(ranks)
    if len(distinct) != n:
        return None
    if distinct[-1] - distinct[0] == n - 1:
        return distinct[-1]
    if ace_low and distinct == [*range(n - 1), ACE]:
        return n - 2
    return None


def high5(cards: Sequence[int], ace_low: bool = True) -> tuple[int, tuple[int, ...]]:
    """0 high card .. 8 straight flush, 9 royal flush."""
    ranks = [c // 4 for c in cards]
    flush = len({c % 4 for c in cards}) == 1
    top = _straight_top(ranks, ace_low)
    groups = _groups(ranks)
    shape = [n for n, _ in groups]
    order = tuple(r for _, r in groups)
    if top is not None and flush:
        return (9 if top == ACE else 8), (top,)
    if shape == [4, 1]:
        return 7, order
    if shape == [3, 2]:
        return 6, order
    if flush:
        return 5, order
    if top is not None:
        return 4, (top,)
    if shape == [3, 1, 1]:
        return 3, order
    if shape == [2, 2, 1]:
        return 2, order
    if shape == [2, 1, 1, 1]:
        return 1, order
    return 0, order


def best_high(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    return max(high5(five) for five in combinations(cards, 5))


def crazy4(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """0 high, 1 pair, 2 two pair, 3 straight, 4 flush, 5 three of a kind, 6 straight flush, 7 four of a kind."""
    ranks = [c // 4 for c in cards]
    flush = len({c % 4 for c in cards}) == 1
    top = _straight_top(ranks)
    groups = _groups(ranks)
    shape = [n for n, _ in groups]
    order = tuple(r for _, r in groups)
    if shape == [4]:
        return 7, order
    if top is not None and flush:
        return 6, (top,)
    if shape == [3, 1]:
        return 5, order
    if flush:
        return 4, order
    if top is not None:
        return 3, (top,)
    if shape == [2, 2]:
        return 2, order
    if shape == [2, 1, 1]:
        return 1, order
    return 0, order


def crazy4_best(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    return max(crazy4(four) for four in combinations(cards, 4))


def three_card(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """0 high, 1 pair, 2 flush, 3 straight, 4 three of a kind, 5 straight flush, 6 mini-royal."""
    ranks = [c // 4 for c in cards]
    flush = len({c % 4 for c in cards}) == 1
    top = _straight_top(ranks)
    groups = _groups(ranks)
    order = tuple(r for _, r in groups)
    if top is not None and flush:
        return (6 if top == ACE else 5), (top,)
    if groups[0][0] == 3:
        return 4, order
    if top is not None:
        return 3, (top,)
    if flush:
        return 2, order
    if groups[0][0] == 2:
        return 1, order
    return 0, order


def low_a5(cards: Sequence[int]) -> tuple[int, ...]:
    """Smaller is a better low: pairing first, then ranks high to low with the ace as one."""
    values = [1 if c // 4 == ACE else c // 4 + 2 for c in cards]
    groups = sorted(((n, v) for v, n in Counter(values).items()), reverse=True)
    return (len(values) - len(groups), *[n for n, _ in groups], *[v for n, v in groups for _ in range(n)])
