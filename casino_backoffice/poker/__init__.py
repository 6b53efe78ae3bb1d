"""The room's poker hand evaluator: every hand the rules name, exact and fast. No Django here.

Cards
    ``parse_cards('As Kd 10h')`` -> tuple of ``Card`` (an ``int``: ``4 * rank + suit``, rank 0
    deuce .. 12 ace, suit 0 clubs .. 3 spades). Text with or without spaces, lists of text or
    of integers; ranks 2-9, T or 10, J, Q, K, A; suits s h d c in either case. Malformed,
    duplicate or miscounted cards raise ``InvalidCards`` (a ``ValueError``) naming the card.

Hands (each returns a value that is totally ordered within its kind, hashable, with
``.category`` (a ``HandCategory``), ``.cards`` (chosen, best first), ``.ranks``,
``.strength`` and a ``str()`` to read aloud)
    ``best_high(cards)`` -> ``HighHand``: best five of 5, 6 or 7 cards (§655a.6).
    ``high_rank(cards)`` -> int: the same strength without building the value.
    ``omaha_high(hole, board)`` -> ``HighHand``: two of four hole cards and three of five board (§637a.12(k)).
    ``omaha_low8(hole, board)`` -> ``AceToFiveLow`` or ``None``: eight-or-better (§637a.12(l)-(m)).
    ``low_a5(cards)`` -> ``AceToFiveLow`` and ``low_27(cards)`` -> ``DeuceToSevenLow`` (both ``LowHand``).
    ``crazy4_best(cards)`` -> ``Crazy4Hand``: best four of five (§657a.6).
    ``three_card(cards)`` -> ``ThreeCardHand``: §655a.6(c).
    ``best_high_batch(array)`` -> NumPy strengths of an N x 5/6/7 array of card indices.
    ``crazy4_batch(array)`` (N x 5 or 4, best four of five) and ``three_card_batch(array)`` (N x 3):
    the same for ``crazy4_best`` and ``three_card``.
    ``high_hand_of(strength)`` -> the ``HighHand`` of a strength (1 = 7-5-4-3-2 .. 7462 = royal flush).
    Where the same hand can be made with cards of other suits, the grouping holding the card the
    odd-chip rule favours plays (§637a.12(k)(2)), so no result depends on the order cards were typed.

Jackpots and pots
    ``BadBeatQualifier``, ``HighHandMinimum`` (and ``QualifierResult``): qualifiers as data with ``check``.
    ``split_odd_chip``, ``split_high_low``: integer-cent shares, odd chip by §637a.12(k)(2).
    ``PAYTABLES``, ``winning_line(paytable, hand)``: §655a.12 and §657a.12 paytables as data.
    ``returns.paytable_return(paytable)``: exact hit frequencies and return of a paytable paid on
    the player's cards alone, every hand enumerated.

>>> hand = best_high('Ah Kh As Ad Ks 2c 7d')
>>> str(hand), hand.category, ' '.join(str(c) for c in hand.cards)
('Full house, aces full of kings', <HandCategory.FULL_HOUSE: 'full_house'>, 'As Ah Ad Ks Kh')
>>> best_high('As Ks Qs Js Ts') > best_high('Ah Ad Ac As Kd') > best_high('2c 2d 2h 2s 3c')
True
>>> str(omaha_low8('As 2d Kc Kd', '3h 6h 8c Qs Js'))
'Eight-six low'
>>> str(crazy4_best('9h 9d 9c 5s 2d')), str(three_card('Qh Kh Ah'))
('Three of a kind, nines, five kicker', 'Mini-royal')
>>> str(winning_line(PAYTABLES['crazy4_queens_up_a'], crazy4_best('Qs Qd 9s 4d 2c')))
'Pair of queens or better: 1 to 1'
>>> BadBeatQualifier('AAATT').check(
...     losing_hole='As Ts', winning_hole='7d 7c', board='Ad Ac Th 7s 7h', players_dealt=6).qualifies
True
>>> best_high_batch([[48, 49, 50, 44, 45, 0, 1]]).tolist() == [best_high('Ac Ad Ah Kc Kd 2c 2d').strength]
True
"""

from .batch import best_high_batch, crazy4_batch, three_card_batch
from .cards import Card, InvalidCards, parse_cards
from .crazy4 import Crazy4Hand, crazy4_best
from .hands import HandCategory
from .high import HighHand, best_high, high_hand_of, high_rank, omaha_high
from .low import AceToFiveLow, DeuceToSevenLow, LowHand, low_27, low_a5, omaha_low8
from .paytables import PAYTABLES, winning_line
from .qualifiers import BadBeatQualifier, HighHandMinimum, QualifierResult
from .split import split_high_low, split_odd_chip
from .three_card import ThreeCardHand, three_card

__all__ = [
    "PAYTABLES",
    "AceToFiveLow",
    "BadBeatQualifier",
    "Card",
    "Crazy4Hand",
    "DeuceToSevenLow",
    "HandCategory",
    "HighHand",
    "HighHandMinimum",
    "InvalidCards",
    "LowHand",
    "QualifierResult",
    "ThreeCardHand",
    "best_high",
    "best_high_batch",
    "crazy4_batch",
    "crazy4_best",
    "high_hand_of",
    "high_rank",
    "low_27",
    "low_a5",
    "omaha_high",
    "omaha_low8",
    "parse_cards",
    "split_high_low",
    "split_odd_chip",
    "three_card",
    "three_card_batch",
    "winning_line",
]
