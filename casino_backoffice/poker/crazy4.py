"""Crazy 4 Poker: the best four-card hand from five cards (§657a.6).

§657a.6(b): four of a kind > straight flush > three of a kind > flush > straight > two pair >
pair > high card. §657a.6(a): the ace is high, or low only in A-2-3-4; suits are equal.
§657a.6(c): hands of the same rank are decided by the highest card one holds that the
other does not, then tie.
"""

from __future__ import annotations

from itertools import combinations

from .hands import Grouping, HandCategory, HandValue, choose_grouping, high_card_key, plays_ace_low
from .high import CardsLike, checked_cards
from .tables import CRAZY4, CRAZY4_FLUSH, CRAZY4_NONFLUSH, RANK_WEIGHT

# Per card: rank weight, and four bits per suit offset by 4 so bit 3 marks four of a suit.
_CARD_VALUE: dict[int, int] = {c: RANK_WEIGHT[c >> 2] | 1 << (32 + 4 * (c & 3)) for c in range(52)}
_SUIT_OFFSET = 0x4444 << 32
_FOUR_SUITED = 0x8888 << 32
_SUIT_OF = {0x8 << 32: 0, 0x80 << 32: 1, 0x800 << 32: 2, 0x8000 << 32: 3}
_RANK_BITS = (1 << 32) - 1


def crazy4_strength(cards: tuple[int, ...]) -> int:
    """The strength of the best four of these 4 or 5 distinct, valid cards (no checks)."""
    total = _SUIT_OFFSET
    for c in cards:
        total += _CARD_VALUE[c]
    best = CRAZY4_NONFLUSH[total & _RANK_BITS]
    if total & _FOUR_SUITED:
        suit = _SUIT_OF[total & _FOUR_SUITED]
        mask = 0
        for c in cards:
            if c & 3 == suit:
                mask |= 1 << (c >> 2)
        best = max(best, CRAZY4_FLUSH[mask])
    return best


class Crazy4Hand(HandValue):
    """A Crazy 4 Poker four-card hand.

    >>> hand = crazy4_best('As Ah Ad 2c 3c')
    >>> str(hand), hand > crazy4_best('Ks Qs Js 9s 2d'), ' '.join(map(str, hand.cards))
    ('Three of a kind, aces, three kicker', True, 'As Ah Ad 3c')
    """

    __slots__ = ()

    def _info(self) -> tuple[HandCategory, tuple[int, ...]]:
        return CRAZY4.classes[self[0]]

    def _chosen(self) -> tuple[int, ...]:
        cards = self[1]
        if len(cards) == 4:
            return cards
        best = choose_grouping(combinations(cards, 4), crazy4_strength, _odd_chip_key)
        assert best is not None and best[0] == self[0]  # five cards always hold four
        return best[1]


def _odd_chip_key(four: Grouping, strength: int) -> tuple[int, ...]:
    # Of equal fours, the one holding the highest ranking card by suit (the order §637a.12(k)(2)(iv) gives
    # suits; Crazy 4 Poker itself treats suits as equal, §657a.6(a)), so the cards shown never depend on typing.
    return high_card_key(four, ace_low=plays_ace_low(*CRAZY4.classes[strength]))


def crazy4_best(cards: CardsLike) -> Crazy4Hand:
    """The best four-card Crazy 4 Poker hand from five cards (or the hand of four cards given)."""
    chosen = checked_cards(cards, (5, 4), "crazy4_best")
    return Crazy4Hand._make(crazy4_strength(chosen), chosen)
