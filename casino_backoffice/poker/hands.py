"""What every hand value shares: categories, total order, hashing and words read aloud.

A hand value is a small immutable pair ``(strength, cards)``. Comparisons look at the
strength only and only between values of the same kind, so a ``HighHand`` never compares
with a ``LowHand``; for every kind a *better* hand compares *greater*.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from .cards import ACE, DECK, RANK_NAMES, RANK_PLURALS, Card


class HandCategory(StrEnum):
    """The name of a hand, as the regulations list them (§655a.6, §657a.6)."""

    HIGH_CARD = "high_card"
    PAIR = "pair"
    TWO_PAIR = "two_pair"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    ROYAL_FLUSH = "royal_flush"
    MINI_ROYAL = "mini_royal"


_tuple_new = tuple.__new__


class HandValue(tuple[int, tuple[int, ...]]):
    """Base of every hand value: ``(strength, cards)``; a greater strength is a better hand."""

    __slots__ = ()

    @classmethod
    def _make(cls, strength: int, cards: tuple[int, ...]) -> Any:
        return _tuple_new(cls, (strength, cards))

    @property
    def strength(self) -> int:
        """An integer that orders exactly as the hands do within this kind of hand."""
        return self[0]

    def _info(self) -> tuple[HandCategory, tuple[int, ...]]:
        raise NotImplementedError

    @property
    def category(self) -> HandCategory:
        """The hand's name in its game (``HandCategory``)."""
        return self._info()[0]

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks that decide ties, most significant first (0 deuce .. 12 ace)."""
        return self._info()[1]

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards chosen for the hand, best first."""
        return tuple(DECK[c] for c in order_best_first(self._chosen(), self.category, self.ranks))

    def _chosen(self) -> tuple[int, ...]:
        return self[1]

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return False
        return self[0] == other[0]

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __lt__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self[0] < other[0]

    def __le__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self[0] <= other[0]

    def __gt__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self[0] > other[0]

    def __ge__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self[0] >= other[0]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self[0]))

    def __repr__(self) -> str:
        cards = " ".join(str(c) for c in self.cards)
        return f"{type(self).__name__}('{self}', cards='{cards}')"

    def __str__(self) -> str:
        return describe(self.category, self.ranks)


def order_best_first(cards: Sequence[int], category: HandCategory, ranks: tuple[int, ...]) -> tuple[int, ...]:
    """Cards grouped by rank (bigger groups first), higher ranks and suits first; ace last in a low straight."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    ordered = sorted(cards, key=lambda c: (counts[c >> 2], c), reverse=True)
    straight = category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH)
    if straight and ranks and ranks[0] != ACE and ordered[0] >> 2 == ACE:
        ordered = ordered[1:] + ordered[:1]
    return tuple(ordered)


def rank_words(ranks: Sequence[int]) -> str:
    """``'ace-king-four'``."""
    return "-".join(RANK_NAMES[r] for r in ranks)


def _kickers(ranks: Sequence[int]) -> str:
    if not ranks:
        return ""
    return f", {rank_words(ranks)} kicker" + ("s" if len(ranks) > 1 else "")


def describe(category: HandCategory, ranks: tuple[int, ...]) -> str:
    """Words a floorperson reads aloud for a hand of this category and these deciding ranks."""
    c = HandCategory
    if category is c.ROYAL_FLUSH:
        return "Royal flush"
    if category is c.MINI_ROYAL:
        return "Mini-royal"
    if category is c.STRAIGHT_FLUSH:
        return f"Straight flush, {RANK_NAMES[ranks[0]]} high"
    if category is c.FOUR_OF_A_KIND:
        return f"Four of a kind, {RANK_PLURALS[ranks[0]]}{_kickers(ranks[1:])}"
    if category is c.FULL_HOUSE:
        return f"Full house, {RANK_PLURALS[ranks[0]]} full of {RANK_PLURALS[ranks[1]]}"
    if category is c.FLUSH:
        return f"Flush, {rank_words(ranks)}"
    if category is c.STRAIGHT:
        return f"Straight, {RANK_NAMES[ranks[0]]} high"
    if category is c.THREE_OF_A_KIND:
        return f"Three of a kind, {RANK_PLURALS[ranks[0]]}{_kickers(ranks[1:])}"
    if category is c.TWO_PAIR:
        return f"Two pair, {RANK_PLURALS[ranks[0]]} and {RANK_PLURALS[ranks[1]]}{_kickers(ranks[2:])}"
    if category is c.PAIR:
        return f"Pair of {RANK_PLURALS[ranks[0]]}{_kickers(ranks[1:])}"
    return f"High card, {rank_words(ranks)}"
