"""Low hands: ace-to-five (``low_a5``, ``omaha_low8``) and deuce-to-seven (``low_27``).

A better low compares greater. Ace-to-five: the ace is the lowest card, straights and
flushes do not count, pairs do; eight-or-better for Omaha (§637a.12(l)-(m)) also refuses any
pair and any 9, 10, jack, queen or king. Deuce-to-seven: the ace is only high, straights and
flushes count against the hand: the best low is the worst high hand.
Five-card Draw low (§637a.13(i)(2)) uses whichever the room's Rules Submission names.
"""

from __future__ import annotations

from itertools import combinations

from .cards import ACE, RANK_NAMES, Card
from .hands import Grouping, HandCategory, HandValue, choose_grouping, describe, low_card_key
from .high import CardsLike, checked_cards, checked_omaha
from .tables import RANK_WEIGHT, deuce_seven

_A5_PATTERNS: dict[tuple[int, ...], HandCategory] = {
    (1, 1, 1, 1, 1): HandCategory.HIGH_CARD,
    (2, 1, 1, 1): HandCategory.PAIR,
    (2, 2, 1): HandCategory.TWO_PAIR,
    (3, 1, 1): HandCategory.THREE_OF_A_KIND,
    (3, 2): HandCategory.FULL_HOUSE,
    (4, 1): HandCategory.FOUR_OF_A_KIND,
}
_A5_ORDER = tuple(_A5_PATTERNS.values())
_A5_WORST = len(_A5_ORDER) * 14**5


def _low_value(rank: int) -> int:
    """Ace 1, deuce 2, ... king 13."""
    return 1 if rank == ACE else rank + 2


def _a5_groups(cards: tuple[int, ...]) -> list[tuple[int, int]]:
    counts: dict[int, int] = {}
    for c in cards:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    return sorted(((n, r) for r, n in counts.items()), key=lambda g: (g[0], _low_value(g[1])), reverse=True)


def _a5_strength(cards: tuple[int, ...]) -> int:
    groups = _a5_groups(cards)
    badness = _A5_ORDER.index(_A5_PATTERNS[tuple(n for n, _ in groups)])
    for n, r in groups:
        for _ in range(n):
            badness = badness * 14 + _low_value(r)
    return _A5_WORST - badness


class LowHand(HandValue):
    """A five-card low hand; a better low compares greater; ace-to-five and deuce-to-seven never compare."""

    __slots__ = ()

    def _low_words(self) -> str | None:
        category, ranks = self._info()
        if category is not HandCategory.HIGH_CARD:
            return None
        return f"{RANK_NAMES[ranks[0]]}-{RANK_NAMES[ranks[1]]} low".capitalize()

    def __str__(self) -> str:
        category, ranks = self._info()
        return self._low_words() or describe(category, ranks)


class AceToFiveLow(LowHand):
    """An ace-to-five low (Omaha eight-or-better, Draw low).

    >>> str(low_a5('8h 6d 4c 3s As')), low_a5('5s 4s 3s 2s As') > low_a5('6d 4c 3s 2h Ad')
    ('Eight-six low', True)
    """

    __slots__ = ()

    def _info(self) -> tuple[HandCategory, tuple[int, ...]]:
        groups = _a5_groups(self[1])
        return _A5_PATTERNS[tuple(n for n, _ in groups)], tuple(r for _, r in groups)

    def odd_chip_key(self) -> tuple[int, ...]:
        """From the lowest card, the ace counting as a one (§637a.12(k)(2)(iii))."""
        return low_card_key(self[1], ace_low=True)

    @property
    def cards(self) -> tuple[Card, ...]:
        counts = {r: n for n, r in _a5_groups(self[1])}
        ordered = sorted(self[1], key=lambda c: (counts[c >> 2], _low_value(c >> 2), c & 3), reverse=True)
        return tuple(Card(c) for c in ordered)


class DeuceToSevenLow(LowHand):
    """A deuce-to-seven low (Draw low where the Rules Submission names it).

    >>> str(low_27('7h 5d 4c 3s 2s')), str(low_27('5h 4d 3c 2s As'))
    ('Seven-five low', 'Ace-five low')
    """

    __slots__ = ()

    def _info(self) -> tuple[HandCategory, tuple[int, ...]]:
        game = deuce_seven()[0]
        return game.classes[len(game.classes) - self[0]]

    def odd_chip_key(self) -> tuple[int, ...]:
        """From the lowest card; the ace is only high here."""
        return low_card_key(self[1], ace_low=False)


def low_a5(cards: CardsLike) -> AceToFiveLow:
    """The ace-to-five low of exactly five cards."""
    five = checked_cards(cards, (5,), "low_a5")
    return AceToFiveLow._make(_a5_strength(five), five)


def low_27(cards: CardsLike) -> DeuceToSevenLow:
    """The deuce-to-seven low of exactly five cards."""
    five = checked_cards(cards, (5,), "low_27")
    game, nonflush, flush = deuce_seven()
    if len({c & 3 for c in five}) == 1:
        high = flush[sum(1 << (c >> 2) for c in five)]
    else:
        high = nonflush[sum(RANK_WEIGHT[c >> 2] for c in five)]
    return DeuceToSevenLow._make(len(game.classes) - high, five)


_EIGHT_OR_BETTER = {r for r in range(13) if _low_value(r) <= 8}


def omaha_low8(hole: CardsLike, board: CardsLike) -> AceToFiveLow | None:
    """Omaha eight-or-better low: two hole and three board cards, five different ranks, none above an 8.

    §637a.12(l)-(m); ``None`` when no low qualifies. Of equal lows made with cards of other suits,
    the one holding the lowest ranking card by suit plays (§637a.12(k)(2)(iii), (iv)).

    >>> str(omaha_low8('As 2d Kc Kd', '3h 4h 8c Qs Js'))
    'Eight-four low'
    >>> omaha_low8('As 2d Kc Kd', '9h Th 8c Qs Js') is None
    True
    """
    hole_cards, board_cards = checked_omaha(hole, board)
    groupings = (pair + three for pair in combinations(hole_cards, 2) for three in combinations(board_cards, 3))
    best = choose_grouping(filter(_eight_or_better, groupings), _a5_strength, _low_odd_chip_key)
    return None if best is None else AceToFiveLow._make(*best)


def _eight_or_better(five: Grouping) -> bool:
    ranks = {c >> 2 for c in five}
    return len(ranks) == 5 and ranks <= _EIGHT_OR_BETTER


def _low_odd_chip_key(five: Grouping, strength: int) -> tuple[int, ...]:
    return low_card_key(five, ace_low=True)
