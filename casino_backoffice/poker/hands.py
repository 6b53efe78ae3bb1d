"""What every hand value shares: categories, total order, hashing, words read aloud, and the
order of cards that gives the odd chip (§637a.12(k)(2)) and chooses among equal groupings.

A hand value is a small immutable pair ``(strength, cards)``. Comparisons look at the
strength only and only between values of the same kind, so a ``HighHand`` never compares
with a ``LowHand``; for every kind a *better* hand compares *greater*.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
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

    def odd_chip_key(self) -> tuple[int, ...]:
        """Of tied hands, the one with the greatest key holds the highest ranking high card by suit
        (§637a.12(k)(2)(ii), (iv)); a low hand says the same of its lowest card (``LowHand``)."""
        category, ranks = self._info()
        return high_card_key(self._chosen(), ace_low=plays_ace_low(category, ranks))

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


_STRAIGHTS = (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH)


def plays_ace_low(category: HandCategory, ranks: tuple[int, ...]) -> bool:
    """Whether an ace in this hand counts as a one: in a straight below ace high (A-2-3-4-5, A-2-3-4, A-2-3)."""
    return category in _STRAIGHTS and bool(ranks) and ranks[0] != ACE


def _ranked(cards: Iterable[int], ace_low: bool) -> list[int]:
    # An ace counting as a one ranks below the deuce of its suit: ``4 * -1 + suit``.
    return [c - 4 * 13 if ace_low and c >> 2 == ACE else c for c in cards]


def high_card_key(cards: Iterable[int], *, ace_low: bool = False) -> tuple[int, ...]:
    """The cards from the highest ranking down, by rank and then suit (§637a.12(k)(2)(ii), (iv)).

    Of two tied high hands, the greater key holds the highest ranking high card by suit: the
    first card that differs, from the top, decides. With ``ace_low`` the ace ranks as a one.

    >>> from .cards import parse_cards
    >>> wheel_5s, wheel_5c = parse_cards('Ah 5s 4h 3d 2c'), parse_cards('As 5c 4h 3d 2c')
    >>> high_card_key(wheel_5s, ace_low=True) > high_card_key(wheel_5c, ace_low=True)
    True
    """
    return tuple(sorted(_ranked(cards, ace_low), reverse=True))


def low_card_key(cards: Iterable[int], *, ace_low: bool) -> tuple[int, ...]:
    """The cards from the lowest ranking up, by rank and then suit, negated (§637a.12(k)(2)(iii), (iv)).

    Of two tied low hands, the greater key holds the lowest ranking low hand card by suit.

    >>> from .cards import parse_cards
    >>> ace_of_clubs, ace_of_diamonds = parse_cards('8h 4d 3c 2h Ac'), parse_cards('8h 4d 3c 2d Ad')
    >>> low_card_key(ace_of_clubs, ace_low=True) > low_card_key(ace_of_diamonds, ace_low=True)
    True
    """
    return tuple(-c for c in sorted(_ranked(cards, ace_low)))


Grouping = tuple[int, ...]


def choose_grouping(
    groupings: Iterable[Grouping],
    strength_of: Callable[[Grouping], int],
    odd_chip_key: Callable[[Grouping, int], tuple[int, ...]],
) -> tuple[int, Grouping] | None:
    """The strongest grouping and its strength, ``None`` when there is none.

    Among equally strong groupings (the same hand made with cards of other suits) the one
    with the greatest ``odd_chip_key`` plays: the grouping holding the card that §637a.12(k)(2)
    favours. Different groupings have different keys, so the choice, and the odd chip, do not
    depend on the order the cards were typed.

    >>> choose_grouping([(2, 3), (1, 4), (0, 4)], sum, lambda cards, _: high_card_key(cards))
    (5, (1, 4))
    """
    best_strength, chosen = 0, None
    best_key: tuple[int, ...] = ()
    for grouping in groupings:
        strength = strength_of(grouping)
        if chosen is None or strength > best_strength:
            # The key waits for a tie: most groupings are never tied with another.
            best_strength, best_key, chosen = strength, (), grouping
        elif strength == best_strength:
            best_key = best_key or odd_chip_key(chosen, strength)
            key = odd_chip_key(grouping, strength)
            if key > best_key:
                best_key, chosen = key, grouping
    return None if chosen is None else (best_strength, chosen)


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


_WORDS: dict[HandCategory, Callable[[tuple[int, ...]], str]] = {
    HandCategory.ROYAL_FLUSH: lambda ranks: "Royal flush",
    HandCategory.MINI_ROYAL: lambda ranks: "Mini-royal",
    HandCategory.STRAIGHT_FLUSH: lambda ranks: f"Straight flush, {RANK_NAMES[ranks[0]]} high",
    HandCategory.FOUR_OF_A_KIND: lambda ranks: f"Four of a kind, {RANK_PLURALS[ranks[0]]}{_kickers(ranks[1:])}",
    HandCategory.FULL_HOUSE: lambda ranks: f"Full house, {RANK_PLURALS[ranks[0]]} full of {RANK_PLURALS[ranks[1]]}",
    HandCategory.FLUSH: lambda ranks: f"Flush, {rank_words(ranks)}",
    HandCategory.STRAIGHT: lambda ranks: f"Straight, {RANK_NAMES[ranks[0]]} high",
    HandCategory.THREE_OF_A_KIND: lambda ranks: f"Three of a kind, {RANK_PLURALS[ranks[0]]}{_kickers(ranks[1:])}",
    HandCategory.TWO_PAIR: lambda ranks: (
        f"Two pair, {RANK_PLURALS[ranks[0]]} and {RANK_PLURALS[ranks[1]]}{_kickers(ranks[2:])}"
    ),
    HandCategory.PAIR: lambda ranks: f"Pair of {RANK_PLURALS[ranks[0]]}{_kickers(ranks[1:])}",
}


def describe(category: HandCategory, ranks: tuple[int, ...]) -> str:
    """Words a floorperson reads aloud for a hand of this category and these deciding ranks."""
    words = _WORDS.get(category)
    return words(ranks) if words is not None else f"High card, {rank_words(ranks)}"
