"""Lookup tables, built once at import from the ranking rules (well under a second).

Every game's hand classes are enumerated from its ranking rule, sorted, and numbered from
1 (the worst hand) upward, so a class number is the hand's strength:

- five-card high (§655a.6(a)-(b), §637a.12(k)): 7,462 classes;
- five-card high without the ace-low straight, for deuce-to-seven low;
- Crazy 4 Poker four-card hands (§657a.6);
- three-card hands (§655a.6(c)).

A rank multiset is keyed by the sum of ``5 ** rank`` over its cards (at most four of a
rank, so sums never collide); a suited rank set is keyed by its 13-bit rank mask.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations_with_replacement

from .cards import ACE
from .hands import HandCategory

C = HandCategory
Key = tuple[int, tuple[int, ...]]

HIGH_ORDER: tuple[HandCategory, ...] = (
    C.HIGH_CARD,
    C.PAIR,
    C.TWO_PAIR,
    C.THREE_OF_A_KIND,
    C.STRAIGHT,
    C.FLUSH,
    C.FULL_HOUSE,
    C.FOUR_OF_A_KIND,
    C.STRAIGHT_FLUSH,
    C.ROYAL_FLUSH,
)
# §657a.6(b): four of a kind > straight flush > three of a kind > flush > straight > two pair > pair.
CRAZY4_ORDER: tuple[HandCategory, ...] = (
    C.HIGH_CARD,
    C.PAIR,
    C.TWO_PAIR,
    C.STRAIGHT,
    C.FLUSH,
    C.THREE_OF_A_KIND,
    C.STRAIGHT_FLUSH,
    C.FOUR_OF_A_KIND,
)
# §655a.6(c): mini-royal > straight flush > three of a kind > straight > flush > pair.
THREE_CARD_ORDER: tuple[HandCategory, ...] = (
    C.HIGH_CARD,
    C.PAIR,
    C.FLUSH,
    C.STRAIGHT,
    C.THREE_OF_A_KIND,
    C.STRAIGHT_FLUSH,
    C.MINI_ROYAL,
)

RANK_WEIGHT: tuple[int, ...] = tuple(5**r for r in range(13))


def straight_high(mask: int, length: int, ace_low: bool) -> int:
    """The top rank of the highest straight of ``length`` in the rank ``mask``, or -1.

    With ``ace_low`` the ace also ends the lowest straight (A-2-3-4-5, A-2-3-4, A-2-3),
    whose top card is then the five, four or three; never around the corner (K-A-2).
    """
    window = (1 << length) - 1
    for top in range(ACE, length - 2, -1):
        if (mask >> (top - length + 1)) & window == window:
            return top
    low = (1 << (length - 1)) - 1
    if ace_low and mask >> ACE & 1 and mask & low == low:
        return length - 2
    return -1


def _desc(counts: list[int], at_least: int) -> list[int]:
    return [r for r in range(ACE, -1, -1) if counts[r] >= at_least]


def _mask(counts: list[int]) -> int:
    return sum(1 << r for r in range(13) if counts[r])


def best_five_key(counts: list[int], ace_low: bool = True) -> Key:
    """The best five-card hand without a flush from the rank counts of 5 to 7 cards."""
    present, pairs, trips, quads = (_desc(counts, n) for n in (1, 2, 3, 4))
    if quads:
        return HIGH_ORDER.index(C.FOUR_OF_A_KIND), (quads[0], next(r for r in present if r != quads[0]))
    if trips:
        other = [r for r in pairs if r != trips[0]]
        if other:
            return HIGH_ORDER.index(C.FULL_HOUSE), (trips[0], other[0])
    top = straight_high(_mask(counts), 5, ace_low)
    if top >= 0:
        return HIGH_ORDER.index(C.STRAIGHT), (top,)
    if trips:
        return HIGH_ORDER.index(C.THREE_OF_A_KIND), (trips[0], *[r for r in present if r != trips[0]][:2])
    if len(pairs) >= 2:
        kicker = next(r for r in present if r not in pairs[:2])
        return HIGH_ORDER.index(C.TWO_PAIR), (pairs[0], pairs[1], kicker)
    if pairs:
        return HIGH_ORDER.index(C.PAIR), (pairs[0], *[r for r in present if r != pairs[0]][:3])
    return HIGH_ORDER.index(C.HIGH_CARD), tuple(present[:5])


def flush_five_key(mask: int, ace_low: bool = True) -> Key:
    """The best five-card hand from five or more cards of one suit with ranks ``mask``."""
    top = straight_high(mask, 5, ace_low)
    if top == ACE:
        return HIGH_ORDER.index(C.ROYAL_FLUSH), (top,)
    if top >= 0:
        return HIGH_ORDER.index(C.STRAIGHT_FLUSH), (top,)
    return HIGH_ORDER.index(C.FLUSH), tuple(r for r in range(ACE, -1, -1) if mask >> r & 1)[:5]


def four_card_key(counts: list[int], suited: bool) -> Key:
    """A Crazy 4 Poker four-card hand under §657a.6 from its rank counts."""
    present, pairs, trips, quads = (_desc(counts, n) for n in (1, 2, 3, 4))
    o = CRAZY4_ORDER.index
    if quads:
        return o(C.FOUR_OF_A_KIND), (quads[0],)
    top = straight_high(_mask(counts), 4, True) if len(present) == 4 else -1
    if suited and top >= 0:
        return o(C.STRAIGHT_FLUSH), (top,)
    if trips:
        return o(C.THREE_OF_A_KIND), (trips[0], *[r for r in present if r != trips[0]])
    if suited:
        return o(C.FLUSH), tuple(present)
    if top >= 0:
        return o(C.STRAIGHT), (top,)
    if len(pairs) == 2:
        return o(C.TWO_PAIR), (pairs[0], pairs[1])
    if pairs:
        return o(C.PAIR), (pairs[0], *[r for r in present if r != pairs[0]])
    return o(C.HIGH_CARD), tuple(present)


def three_card_key(counts: list[int], suited: bool) -> Key:
    """A three-card hand under §655a.6(c): the ace is high in A-K-Q and low in A-2-3."""
    present, pairs, trips = (_desc(counts, n) for n in (1, 2, 3))
    o = THREE_CARD_ORDER.index
    if trips:
        return o(C.THREE_OF_A_KIND), (trips[0],)
    if pairs:
        return o(C.PAIR), (pairs[0], *[r for r in present if r != pairs[0]])
    top = straight_high(_mask(counts), 3, True)
    if suited and top == ACE:
        return o(C.MINI_ROYAL), (top,)
    if suited and top >= 0:
        return o(C.STRAIGHT_FLUSH), (top,)
    if top >= 0:
        return o(C.STRAIGHT), (top,)
    if suited:
        return o(C.FLUSH), tuple(present)
    return o(C.HIGH_CARD), tuple(present)


def rank_multisets(size: int) -> Iterator[tuple[list[int], int]]:
    """Every multiset of ``size`` ranks with at most four of a rank: (counts, key)."""
    for combo in combinations_with_replacement(range(13), size):
        counts = [0] * 13
        for r in combo:
            counts[r] += 1
        if max(counts) <= 4:
            yield counts, sum(RANK_WEIGHT[r] for r in combo)


def _number(keys: set[Key]) -> dict[Key, int]:
    return {key: strength for strength, key in enumerate(sorted(keys), start=1)}


def _counts_of(mask: int) -> list[int]:
    return [mask >> r & 1 for r in range(13)]


class GameTables:
    """Strength numbering and lookups for one game: ``classes[strength] = (category, ranks)``."""

    def __init__(self, order: tuple[HandCategory, ...], keys: set[Key]) -> None:
        self.number = _number(keys)
        self.classes: list[tuple[HandCategory, tuple[int, ...]]] = [(C.HIGH_CARD, ())]
        self.classes += [(order[cat], ranks) for cat, ranks in sorted(keys)]


def _build_high(ace_low: bool) -> tuple[GameTables, dict[int, int], list[int]]:
    five = [(key, best_five_key(counts, ace_low)) for counts, key in rank_multisets(5)]
    suited = [(m, flush_five_key(m, ace_low)) for m in range(1 << 13) if m.bit_count() == 5]
    game = GameTables(HIGH_ORDER, {hand for _, hand in five} | {hand for _, hand in suited})
    nonflush = {key: game.number[hand] for key, hand in five}
    flush = [0] * (1 << 13)
    for m, hand in suited:
        flush[m] = game.number[hand]
    for size in range(6, 14):
        for m in range(1 << 13):
            if m.bit_count() == size:
                flush[m] = max(flush[m & ~(1 << r)] for r in range(13) if m >> r & 1)
    return game, nonflush, flush


def _extend(smaller: dict[int, int]) -> dict[int, int]:
    """Best of each rank multiset one card larger: the best of its sub-multisets one card smaller."""
    larger: dict[int, int] = {}
    get = larger.get
    for key, strength in smaller.items():
        for weight in RANK_WEIGHT:
            if key // weight % 5 != 4 and get(key + weight, 0) < strength:
                larger[key + weight] = strength
    return larger


@cache
def deuce_seven() -> tuple[GameTables, dict[int, int], list[int]]:
    """Five-card high hands where the ace is only high (no A-2-3-4-5 straight), for deuce-to-seven low."""
    return _build_high(ace_low=False)


def _build_crazy4() -> tuple[GameTables, dict[int, int], list[int]]:
    keys = {four_card_key(counts, False) for counts, _ in rank_multisets(4)}
    keys |= {four_card_key(_counts_of(m), True) for m in range(1 << 13) if m.bit_count() == 4}
    game = GameTables(CRAZY4_ORDER, keys)
    nonflush = {key: game.number[four_card_key(counts, False)] for counts, key in rank_multisets(4)}
    nonflush.update(_extend(nonflush))
    flush = [0] * (1 << 13)
    for m in range(1 << 13):
        if m.bit_count() == 4:
            flush[m] = game.number[four_card_key(_counts_of(m), True)]
    for m in range(1 << 13):
        if m.bit_count() == 5:
            flush[m] = max(flush[m & ~(1 << r)] for r in range(13) if m >> r & 1)
    return game, nonflush, flush


def _build_three_card() -> tuple[GameTables, dict[int, int], list[int]]:
    three = [(counts, key) for counts, key in rank_multisets(3) if max(counts) <= 3]
    keys = {three_card_key(counts, False) for counts, _ in three}
    masks = [m for m in range(1 << 13) if m.bit_count() == 3]
    keys |= {three_card_key(_counts_of(m), True) for m in masks}
    game = GameTables(THREE_CARD_ORDER, keys)
    nonflush = {key: game.number[three_card_key(counts, False)] for counts, key in three}
    flush = [0] * (1 << 13)
    for m in masks:
        flush[m] = game.number[three_card_key(_counts_of(m), True)]
    return game, nonflush, flush


HIGH, HIGH_NONFLUSH, HIGH_FLUSH = _build_high(ace_low=True)
_six = _extend(HIGH_NONFLUSH)
HIGH_NONFLUSH.update(_six)
HIGH_NONFLUSH.update(_extend(_six))
CRAZY4, CRAZY4_NONFLUSH, CRAZY4_FLUSH = _build_crazy4()
THREE_CARD, THREE_CARD_NONFLUSH, THREE_CARD_FLUSH = _build_three_card()
