"""Three-card hands for Mississippi Stud's Three Card Bonus (§655a.6(c), §655a.7(d)(4)).

Mini-royal > straight flush > three of a kind > straight > flush > pair > high card. The
ace plays high in A-K-Q and low in A-2-3, the lowest straight; never K-A-2.
"""

from __future__ import annotations

from .hands import HandCategory, HandValue, describe
from .high import CardsLike, checked_cards
from .tables import RANK_WEIGHT, THREE_CARD, THREE_CARD_FLUSH, THREE_CARD_NONFLUSH


def three_card_strength(cards: tuple[int, ...]) -> int:
    """The strength of three distinct, valid cards (no checks)."""
    a, b, c = cards
    if a & 3 == b & 3 == c & 3:
        return THREE_CARD_FLUSH[1 << (a >> 2) | 1 << (b >> 2) | 1 << (c >> 2)]
    return THREE_CARD_NONFLUSH[RANK_WEIGHT[a >> 2] + RANK_WEIGHT[b >> 2] + RANK_WEIGHT[c >> 2]]


class ThreeCardHand(HandValue):
    """A three-card hand.

    >>> str(three_card('Qh Kh Ah')), str(three_card('3d 2c Ah')), three_card('2d 3d 4d') > three_card('Ac Ad As')
    ('Mini-royal', 'Straight, three high', True)
    """

    __slots__ = ()

    def _info(self) -> tuple[HandCategory, tuple[int, ...]]:
        return THREE_CARD.classes[self[0]]

    def __str__(self) -> str:
        return describe(*self._info())


def three_card(cards: CardsLike) -> ThreeCardHand:
    """The three-card hand of exactly three cards."""
    three = checked_cards(cards, (3,), "three_card")
    return ThreeCardHand._make(three_card_strength(three), three)
