"""Many hands at once with NumPy, for exact enumeration and simulation.

``best_high_batch``: the same tables as ``best_high``: a sorted array of rank-multiset keys
(sum of ``5 ** rank``) searched for each row, and for rows with five or more cards of one suit
a 13-bit rank mask looked up in the flush table. The returned strengths equal
``best_high(row).strength``.

``crazy4_batch`` (the best four of five, §657a.6) and ``three_card_batch`` (§655a.6(c)) do the
same with the Crazy 4 Poker and three-card tables, and equal ``crazy4_strength`` and
``three_card_strength`` of each row.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import numpy.typing as npt

from .cards import InvalidCards
from .tables import (
    CRAZY4_FLUSH,
    CRAZY4_NONFLUSH,
    HIGH_FLUSH,
    HIGH_NONFLUSH,
    RANK_WEIGHT,
    THREE_CARD_FLUSH,
    THREE_CARD_NONFLUSH,
)

_DECK = np.arange(52)
_RANKS = _DECK >> 2
_SUITS = _DECK & 3
# Rank key in bits 0-31, four bits per suit from bit 32 (a flush is a count of 5 or more).
_CARD_VALUE = np.array(RANK_WEIGHT, dtype=np.int64)[_RANKS] + (np.int64(1) << (32 + 4 * _SUITS))
_SUIT_SHIFTS = 32 + 4 * np.arange(4)
_RANK_BIT = (np.int64(1) << _RANKS).astype(np.int64)
_CARD_BIT = np.int64(1) << _DECK.astype(np.int64)
_CHUNK = 1 << 16


def _lookup(table: Mapping[int, int]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """A rank-multiset table as sorted keys and their strengths, for ``np.searchsorted``."""
    keys = np.array(sorted(table), dtype=np.int64)
    return keys, np.array([table[k] for k in keys.tolist()], dtype=np.int32)


_KEYS, _VALUES = _lookup(HIGH_NONFLUSH)
_FLUSH = np.array(HIGH_FLUSH, dtype=np.int32)
# Four- and five-card rank multisets share one table: their keys differ (a key's base-5 digits sum to the card count).
_CRAZY4_KEYS, _CRAZY4_VALUES = _lookup(CRAZY4_NONFLUSH)
_CRAZY4_FLUSH = np.array(CRAZY4_FLUSH, dtype=np.int32)
_THREE_KEYS, _THREE_VALUES = _lookup(THREE_CARD_NONFLUSH)
_THREE_FLUSH = np.array(THREE_CARD_FLUSH, dtype=np.int32)


def _checked(cards: npt.ArrayLike, sizes: tuple[int, ...], what: str) -> npt.NDArray[np.intp]:
    array = np.asarray(cards)
    if array.ndim != 2 or array.shape[1] not in sizes:
        wanted = str(sizes[0]) if len(sizes) == 1 else f"{', '.join(map(str, sizes[:-1]))} or {sizes[-1]}"
        raise InvalidCards(f"{what} takes an N x {wanted} array of card indices, not shape {array.shape}")
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise InvalidCards(f"{what} takes integer card indices 0-51, not {array.dtype}")
    if array.size and (array.min() < 0 or array.max() > 51):
        row = int(np.flatnonzero(((array < 0) | (array > 51)).any(axis=1))[0])
        raise InvalidCards(f"row {row} has a card index outside 0-51: {array[row].tolist()}")
    return array.astype(np.intp, copy=False)


def _summed(table: npt.NDArray[np.int64], cards: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """``table[card]`` summed along each row, a column at a time (NumPy reduces rows of five slowly)."""
    total = table[cards[:, 0]]
    for column in range(1, cards.shape[1]):
        total += table[cards[:, column]]
    return total


def _refuse_duplicates(cards: npt.NDArray[np.intp]) -> None:
    union = _CARD_BIT[cards[:, 0]]
    for column in range(1, cards.shape[1]):
        union |= _CARD_BIT[cards[:, column]]
    duplicated = union != _summed(_CARD_BIT, cards)
    if duplicated.any():
        row = int(np.flatnonzero(duplicated)[0])
        raise InvalidCards(f"row {row} holds a card twice: {cards[row].tolist()}")


def _suited_mask(cards: npt.NDArray[np.intp], suit: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """The 13-bit rank mask of each row's cards of ``suit`` (distinct cards of one suit: distinct ranks)."""
    return np.where(_SUITS[cards] == suit[:, None], _RANK_BIT[cards], 0).sum(axis=1)


def _suited_rows(total: npt.NDArray[np.int64], at_least: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The rows holding ``at_least`` cards of one suit (at most one such suit a row), and that suit."""
    # Offset each four-bit suit count so that bit 3 is set exactly when the count reaches ``at_least``.
    offset = (8 - at_least) * 0x1111 << 32
    rows = np.flatnonzero((total + offset) & (0x8888 << 32))
    suit = (((total[rows, None] >> _SUIT_SHIFTS) & 0xF) >= at_least).argmax(axis=1)
    return rows, suit


def _evaluate(cards: npt.NDArray[np.intp]) -> npt.NDArray[np.int32]:
    _refuse_duplicates(cards)
    total = _summed(_CARD_VALUE, cards)
    strength = _VALUES[np.searchsorted(_KEYS, total & 0xFFFFFFFF)]
    rows, suit = _suited_rows(total, 5)
    if rows.size:
        strength[rows] = _FLUSH[_suited_mask(cards[rows], suit)]
    return strength


def _evaluate_crazy4(cards: npt.NDArray[np.intp]) -> npt.NDArray[np.int32]:
    _refuse_duplicates(cards)
    total = _summed(_CARD_VALUE, cards)
    strength = _CRAZY4_VALUES[np.searchsorted(_CRAZY4_KEYS, total & 0xFFFFFFFF)]
    # Four cards of a suit make a four-card flush; with at most five cards only one suit can.
    rows, suit = _suited_rows(total, 4)
    if rows.size:
        suited = _CRAZY4_FLUSH[_suited_mask(cards[rows], suit)]
        strength[rows] = np.maximum(strength[rows], suited)
    return strength


def _evaluate_three_card(cards: npt.NDArray[np.intp]) -> npt.NDArray[np.int32]:
    _refuse_duplicates(cards)
    strength = _THREE_VALUES[np.searchsorted(_THREE_KEYS, _summed(_CARD_VALUE, cards) & 0xFFFFFFFF)]
    suits = _SUITS[cards]
    rows = np.flatnonzero((suits[:, 0] == suits[:, 1]) & (suits[:, 1] == suits[:, 2]))
    if rows.size:
        strength[rows] = _THREE_FLUSH[_summed(_RANK_BIT, cards[rows])]
    return strength


def _in_chunks(
    array: npt.NDArray[np.intp], evaluate: Callable[[npt.NDArray[np.intp]], npt.NDArray[np.int32]]
) -> npt.NDArray[np.int32]:
    out = np.empty(array.shape[0], dtype=np.int32)
    for start in range(0, array.shape[0], _CHUNK):
        out[start : start + _CHUNK] = evaluate(array[start : start + _CHUNK])
    return out


def best_high_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Strengths of the best five-card high hands of each row of an N x k array (k = 5, 6 or 7).

    A card index is ``4 * rank + suit`` (rank 0 deuce .. 12 ace; suit 0 clubs, 1 diamonds,
    2 hearts, 3 spades). Strengths order exactly as the ``HighHand`` values do.

    >>> best_high_batch([[48, 49, 50, 44, 45], [0, 4, 8, 12, 21]]).tolist()
    [7296, 1]
    """
    return _in_chunks(_checked(cards, (5, 6, 7), "best_high_batch"), _evaluate)


def crazy4_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Strengths of the best four of five cards of each row of an N x 5 (or N x 4) array (§657a.6).

    Each equals ``crazy4_strength`` of the row and orders as the ``Crazy4Hand`` values do:
    four of a kind > straight flush > three of a kind > flush > straight > two pair > pair
    (§657a.6(b)); the ace is high, or low only in A-2-3-4 (§657a.6(a)).

    >>> from casino_backoffice.poker import crazy4_best, parse_cards
    >>> rows = [parse_cards('As Ah Ad Ac 2c'), parse_cards('Ac 2c 3c 4c Kd')]
    >>> crazy4_batch(rows).tolist() == [crazy4_best(row).strength for row in rows]
    True
    """
    return _in_chunks(_checked(cards, (4, 5), "crazy4_batch"), _evaluate_crazy4)


def three_card_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Strengths of the three-card hands of each row of an N x 3 array (§655a.6(c)).

    Each equals ``three_card_strength`` of the row: mini-royal > straight flush > three of a
    kind > straight > flush > pair > high card; the ace is high in A-K-Q and low in A-2-3.

    >>> from casino_backoffice.poker import parse_cards, three_card
    >>> rows = [parse_cards('Qh Kh Ah'), parse_cards('3d 2c Ah'), parse_cards('Kd As 2c')]
    >>> three_card_batch(rows).tolist() == [three_card(row).strength for row in rows]
    True
    """
    return _in_chunks(_checked(cards, (3,), "three_card_batch"), _evaluate_three_card)
