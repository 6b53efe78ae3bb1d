"""Five-card high hands: ``best_high`` (5 to 7 cards) and ``omaha_high`` (two hole + three board).

Rankings of §655a.6(a)-(b) and §637a.6: the ace is high, and low only in A-2-3-4-5; suits
are equal in rank. ``best_high`` is the hot path of the room, so it only sums per-card
table entries and looks the sum up:

- bits 0-31 hold the sum of ``5 ** rank``, a key of the rank multiset (non-flush table);
- bits 32-47 count each suit in four bits, offset by 3, so bit 3 of a field is set exactly
  when that suit has five cards or more (a flush: with at most seven cards a flush beats
  any full house or four of a kind the other cards could make);
- bits 64 up give each card three bits, so a repeated card sets bit 1 or 2 of its field.

The ``HighHand`` it returns keeps the strength and the cards given; which five cards play,
the category and the words are worked out only when asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from .cards import DECK, Card, InvalidCards, parse_cards
from .hands import Grouping, HandCategory, HandValue, choose_grouping, high_card_key, plays_ace_low
from .tables import HIGH, HIGH_FLUSH, HIGH_NONFLUSH, RANK_WEIGHT

_RANK_BITS = (1 << 32) - 1
_SUIT_OFFSET = 0x3333 << 32
_FLUSH_BITS = 0x8888 << 32
# Keyed by the ``DECK`` cards themselves: a parsed card is found by identity, a plain int by value.
# Typed as probed with anything: a text card or a non-card raises KeyError, which sends the hot
# paths below to the parsing path rather than paying for a type check per card.
_CARD_VALUE: dict[object, int] = {
    card: RANK_WEIGHT[card >> 2] | 1 << (32 + 4 * (card & 3)) | 1 << (64 + 3 * card) for card in DECK
}
_DUPLICATE_BITS = sum(0b110 << (64 + 3 * c) for c in range(52))
_SPECIAL_BITS = _DUPLICATE_BITS | _FLUSH_BITS
_FLUSH_SUIT = {0x8 << 32: 0, 0x80 << 32: 1, 0x800 << 32: 2, 0x8000 << 32: 3}
_value = _CARD_VALUE.__getitem__
_nonflush = HIGH_NONFLUSH.__getitem__
_tuple_new = tuple.__new__

CardsLike = str | Iterable[str | int]


class HighHand(HandValue):
    """A five-card high hand; compares by rank only (``==`` is a tie), better hands greater.

    >>> hand = best_high('As Ah Ac Kd Ks 2c 3d')
    >>> str(hand), hand.category, ' '.join(map(str, hand.cards))
    ('Full house, aces full of kings', <HandCategory.FULL_HOUSE: 'full_house'>, 'As Ah Ac Ks Kd')
    >>> best_high('Ts Js Qs Ks As') > best_high('9s Ts Js Qs Ks')
    True
    """

    __slots__ = ()

    def _info(self) -> tuple[HandCategory, tuple[int, ...]]:
        return HIGH.classes[self[0]]

    def _chosen(self) -> tuple[int, ...]:
        cards = self[1]
        if len(cards) == 5:
            return cards
        return best_grouping(combinations(cards, 5))[1]


def _flush_strength(cards: Iterable[int], total: int) -> int:
    suit = _FLUSH_SUIT[total & _FLUSH_BITS]
    mask = 0
    for c in cards:
        if c & 3 == suit:
            mask |= 1 << (c >> 2)
    return HIGH_FLUSH[mask]


def _strength(cards: Sequence[int]) -> int:
    """Strength of distinct, valid cards (no checks)."""
    total = sum(map(_value, cards), _SUIT_OFFSET)
    if total & _FLUSH_BITS:
        return _flush_strength(cards, total)
    return _nonflush(total & _RANK_BITS)


def _odd_chip_key(five: Grouping, strength: int) -> tuple[int, ...]:
    return high_card_key(five, ace_low=plays_ace_low(*HIGH.classes[strength]))


def best_grouping(groupings: Iterable[Grouping]) -> HighHand:
    """The best high hand among five-card groupings of distinct, valid cards (no checks).

    Of groupings making the same hand, the one holding the highest ranking high card by suit
    plays (§637a.12(k)(2)(ii), (iv)), whatever order the groupings come in.

    >>> from .cards import parse_cards
    >>> ace_of_clubs, ace_of_spades = parse_cards('Ac Kh Qh Jd Ts'), parse_cards('As Kh Qh Jd Ts')
    >>> ' '.join(map(str, best_grouping([ace_of_clubs, ace_of_spades]).cards))
    'As Kh Qh Jd Ts'
    """
    best = choose_grouping(groupings, _strength, _odd_chip_key)
    if best is None:
        raise InvalidCards("no five cards to make a hand of")
    return HighHand._make(*best)


def checked_cards(cards: CardsLike, counts: tuple[int, ...], what: str) -> tuple[Card, ...]:
    """Parsed cards, refused with ``InvalidCards`` unless there are ``counts`` of them."""
    parsed = parse_cards(cards)
    if len(parsed) not in counts:
        wanted = str(counts[0]) if len(counts) == 1 else f"{', '.join(map(str, counts[:-1]))} or {counts[-1]}"
        raise InvalidCards(f"{what} takes {wanted} cards, not {len(parsed)}: {' '.join(map(str, parsed))}")
    return parsed


def _total(cards: CardsLike) -> int:
    """The summed card values of 5-7 cards, or a value that fails the duplicate check."""
    v = _CARD_VALUE
    try:
        n = len(cards)  # type: ignore[arg-type]  # an iterator raises TypeError: parsing path
        if n == 7:
            a, b, c, d, e, f, g = cards  # type: ignore[str-unpack]  # text falls through to KeyError
            return v[a] + v[b] + v[c] + v[d] + v[e] + v[f] + v[g] + _SUIT_OFFSET
        if n == 5:
            a, b, c, d, e = cards  # type: ignore[str-unpack]  # text falls through to KeyError
            return v[a] + v[b] + v[c] + v[d] + v[e] + _SUIT_OFFSET
        if n == 6:
            a, b, c, d, e, f = cards  # type: ignore[str-unpack]  # text falls through to KeyError
            return v[a] + v[b] + v[c] + v[d] + v[e] + v[f] + _SUIT_OFFSET
    except (KeyError, TypeError, ValueError):
        pass
    return _DUPLICATE_BITS


def high_rank(cards: CardsLike) -> int:
    """The strength of the best five-card high hand of 5, 6 or 7 cards, as ``best_high(cards).strength``.

    1 is seven-five-four-three-two, 7462 a royal flush.

    >>> high_rank([0, 4, 8, 12, 21]), high_rank('Ts Js Qs Ks As')
    (1, 7462)
    """
    total = _total(cards)
    if total & _SPECIAL_BITS:
        if total & _DUPLICATE_BITS:
            cards = checked_cards(cards, (5, 6, 7), "best_high")
            total = sum(map(_value, cards), _SUIT_OFFSET)
        if total & _FLUSH_BITS:
            return _flush_strength(cards, total)  # type: ignore[arg-type]  # no duplicate bits: all DECK ints
    return _nonflush(total & _RANK_BITS)


def best_high(cards: CardsLike) -> HighHand:
    """The best five-card high hand from 5, 6 or 7 cards (Hold'em, Stud, Draw, Mississippi Stud).

    >>> str(best_high('5d 4c 3s 2h Ad'))
    'Straight, five high'
    """
    v = _CARD_VALUE
    try:
        n = len(cards)  # type: ignore[arg-type]  # an iterator raises TypeError: parsing path
        if n == 7:
            a, b, c, d, e, f, g = cards  # type: ignore[str-unpack]  # text falls through to KeyError
            total = v[a] + v[b] + v[c] + v[d] + v[e] + v[f] + v[g] + _SUIT_OFFSET
        elif n == 5:
            a, b, c, d, e = cards  # type: ignore[str-unpack]  # text falls through to KeyError
            total = v[a] + v[b] + v[c] + v[d] + v[e] + _SUIT_OFFSET
        else:
            total = _total(cards)
    except (KeyError, TypeError, ValueError):
        total = _DUPLICATE_BITS
    if total & _SPECIAL_BITS:
        if total & _DUPLICATE_BITS:
            cards = checked_cards(cards, (5, 6, 7), "best_high")
            total = sum(map(_value, cards), _SUIT_OFFSET)
        elif type(cards) is not tuple:
            cards = tuple(cards)
        if total & _FLUSH_BITS:
            return _tuple_new(HighHand, (_flush_strength(cards, total), cards))  # type: ignore[arg-type]  # DECK ints
    elif type(cards) is not tuple:
        cards = tuple(cards)
    return _tuple_new(HighHand, (HIGH_NONFLUSH[total & _RANK_BITS], cards))


def example_cards(category: HandCategory, ranks: tuple[int, ...]) -> tuple[Card, ...]:
    """Five cards making a hand of this category and deciding ranks: spades for flushes."""
    c = HandCategory
    pattern = {
        c.PAIR: (0, 0, 1, 2, 3),
        c.TWO_PAIR: (0, 0, 1, 1, 2),
        c.THREE_OF_A_KIND: (0, 0, 0, 1, 2),
        c.FULL_HOUSE: (0, 0, 0, 1, 1),
        c.FOUR_OF_A_KIND: (0, 0, 0, 0, 1),
    }
    if category in (c.STRAIGHT, c.STRAIGHT_FLUSH, c.ROYAL_FLUSH):
        five = [(ranks[0] - i) % 13 if ranks[0] - i >= 0 else 12 for i in range(5)]
    elif category in pattern:
        five = [ranks[i] for i in pattern[category]]
    else:
        five = list(ranks)
    suited = category in (c.FLUSH, c.STRAIGHT_FLUSH, c.ROYAL_FLUSH)
    return tuple(Card(4 * r + (3 if suited else 3 - i % 4)) for i, r in enumerate(five))


def high_hand_of(strength: int) -> HighHand:
    """The ``HighHand`` of the given strength (1-7462), with the cards of one example hand.

    >>> str(high_hand_of(7462)), str(high_hand_of(1))
    ('Royal flush', 'High card, seven-five-four-three-two')
    """
    if not 1 <= strength <= len(HIGH.classes) - 1:
        raise InvalidCards(f"no five-card high hand has strength {strength}")
    return HighHand._make(strength, example_cards(*HIGH.classes[strength]))


def omaha_high(hole: CardsLike, board: CardsLike) -> HighHand:
    """Omaha high: exactly two of the four hole cards and three of the five board cards (§637a.12(k)).

    Of equal hands made with cards of other suits, the one holding the highest ranking card by
    suit plays (§637a.12(k)(2)(ii), (iv)), however the hole cards and the board were typed.

    >>> str(omaha_high('As 2h 3d 4c', 'Ks Qs Js Ts 9d'))  # one ace is not enough for the royal flush
    'High card, ace-king-queen-jack-four'
    >>> ' '.join(map(str, omaha_high('Ac Kc As Kh', 'Ts Jd Qh 2c 3c').cards))
    'As Kh Qh Jd Ts'
    """
    hole_cards, board_cards = checked_omaha(hole, board)
    return best_grouping(pair + three for pair in combinations(hole_cards, 2) for three in combinations(board_cards, 3))


def checked_omaha(hole: CardsLike, board: CardsLike) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Four hole cards and five board cards, all different (§637a.12(f), (j))."""
    hole_cards = checked_cards(hole, (4,), "Omaha hole")
    board_cards = checked_cards(board, (5,), "Omaha board")
    shared = set(hole_cards) & set(board_cards)
    if shared:
        names = " ".join(str(c) for c in sorted(shared))
        raise InvalidCards(f"card {names} is both in the hole and on the board")
    return hole_cards, board_cards
