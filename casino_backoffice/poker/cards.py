"""Cards: the integer encoding, the ``Card`` type, and ``parse_cards``.

A card is an integer ``4 * rank + suit`` with rank 0 (deuce) .. 12 (ace) and suit
0 clubs, 1 diamonds, 2 hearts, 3 spades: the same encoding as ``best_high_batch``
takes. ``Card`` is an ``int`` subclass, so a card is usable as an index and sorts by
rank and then by suit in the order of §637a.12(k)(2)(iv) and §637a.14(d): spades >
hearts > diamonds > clubs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
RANK_NAMES = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
RANK_PLURALS = (
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
)
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
ACE = 12


class InvalidCards(ValueError):
    """Cards that are malformed, duplicated or of the wrong number for the hand asked."""


class Card(int):
    """One card, ``4 * rank + suit``; ``str(card)`` is the two-character name such as ``'As'``.

    >>> Card.from_text('Ts'), int(Card.from_text('Ts')), Card.from_text('2c') < Card.from_text('2d')
    (Card('Ts'), 35, True)
    """

    __slots__ = ()

    @property
    def rank(self) -> int:
        """0 for a deuce up to 12 for an ace."""
        return int(self) >> 2

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades (lowest to highest, §637a.12(k)(2)(iv))."""
        return int(self) & 3

    @classmethod
    def from_text(cls, text: str) -> Card:
        """The card named by ``text`` (``'As'``, ``'10h'``, ``'td'``)."""
        return parse_cards([text])[0]

    def __str__(self) -> str:
        return RANK_CHARS[int(self) >> 2] + SUIT_CHARS[int(self) & 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"


DECK: tuple[Card, ...] = tuple(Card(i) for i in range(52))

_SEPARATORS = re.compile(r"[\s,]+")


def _parse_one(token: str, position: int) -> Card:
    rank_text, suit_text = token[:-1], token[-1:]
    if len(token) < 2 or not rank_text:
        raise InvalidCards(f"card {position} '{token}' is incomplete: a card is a rank and a suit, e.g. 'As'")
    rank_key = "T" if rank_text == "10" else rank_text.upper()
    if len(rank_key) != 1 or rank_key not in RANK_CHARS:
        raise InvalidCards(f"card {position} '{token}': '{rank_text}' is not a rank (use 2-9, T or 10, J, Q, K, A)")
    suit_key = suit_text.lower()
    if suit_key not in SUIT_CHARS:
        raise InvalidCards(f"card {position} '{token}': '{suit_text}' is not a suit (use s, h, d or c)")
    return DECK[4 * RANK_CHARS.index(rank_key) + SUIT_CHARS.index(suit_key)]


def _tokens(text: str) -> list[str]:
    tokens: list[str] = []
    for chunk in _SEPARATORS.split(text.strip()):
        position = 0
        while position < len(chunk):
            take = 3 if chunk.startswith("10", position) else 2
            tokens.append(chunk[position : position + take])
            position += take
    return tokens


def parse_cards(cards: str | Iterable[str | int]) -> tuple[Card, ...]:
    """Cards from text or a list: ``'As Kd Th'``, ``'AsKdTh'``, ``['As', '10d']`` or card integers.

    Ranks are 2-9, T (or 10), J, Q, K, A; suits s, h, d, c in either case.

    >>> parse_cards('As kd 10h')
    (Card('As'), Card('Kd'), Card('Th'))
    >>> parse_cards('As Ks As')
    Traceback (most recent call last):
    ...
    casino_backoffice.poker.cards.InvalidCards: card 3 'As' is a duplicate of card 1
    """
    items: Sequence[str | int] = _tokens(cards) if isinstance(cards, str) else list(cards)
    parsed: list[Card] = []
    seen: dict[int, int] = {}
    for position, item in enumerate(items, start=1):
        if isinstance(item, str):
            card = _parse_one(item.strip(), position)
        elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item < 52:
            card = DECK[item]
        else:
            raise InvalidCards(f"card {position} {item!r} is not a card: give text such as 'As' or an integer 0-51")
        if card in seen:
            raise InvalidCards(f"card {position} '{card}' is a duplicate of card {seen[card]}")
        seen[card] = position
        parsed.append(card)
    return tuple(parsed)


def format_cards(cards: Iterable[int]) -> str:
    """``'As Kd Th'`` for the given cards."""
    return " ".join(str(DECK[c]) for c in cards)
