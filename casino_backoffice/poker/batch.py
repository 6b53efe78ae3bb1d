"""``best_high_batch``: many high hands at once with NumPy, for exact enumeration and simulation.

The same tables as ``best_high``: a sorted array of rank-multiset keys (sum of ``5 ** rank``)
searched for each row, and for rows with five or more cards of one suit a 13-bit rank mask
looked up in the flush table. The returned strengths equal ``best_high(row).strength``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .cards import InvalidCards
from .tables import HIGH_FLUSH, HIGH_NONFLUSH, RANK_WEIGHT

_DECK = np.arange(52)
_RANKS = _DECK >> 2
_SUITS = _DECK & 3
# Rank key in bits 0-31, four bits per suit from bit 32 (a flush is a count of 5 or more).
_CARD_VALUE = np.array(RANK_WEIGHT, dtype=np.int64)[_RANKS] + (np.int64(1) << (32 + 4 * _SUITS))
_KEYS = np.array(sorted(HIGH_NONFLUSH), dtype=np.int64)
_VALUES = np.array([HIGH_NONFLUSH[k] for k in _KEYS.tolist()], dtype=np.int32)
_FLUSH = np.array(HIGH_FLUSH, dtype=np.int32)
_RANK_BIT = (np.int64(1) << _RANKS).astype(np.int64)
_CARD_BIT = np.int64(1) << _DECK.astype(np.int64)
_CHUNK = 1 << 16


def _checked(cards: npt.ArrayLike) -> npt.NDArray[np.intp]:
    array = np.asarray(cards)
    if array.ndim != 2 or array.shape[1] not in (5, 6, 7):
        raise InvalidCards(f"best_high_batch takes an N x 5, 6 or 7 array of card indices, not shape {array.shape}")
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise InvalidCards(f"best_high_batch takes integer card indices 0-51, not {array.dtype}")
    if array.size and (array.min() < 0 or array.max() > 51):
        row = int(np.flatnonzero(((array < 0) | (array > 51)).any(axis=1))[0])
        raise InvalidCards(f"row {row} has a card index outside 0-51: {array[row].tolist()}")
    return array.astype(np.intp, copy=False)


def _evaluate(cards: npt.NDArray[np.intp]) -> npt.NDArray[np.int32]:
    values = _CARD_VALUE[cards]
    total = values.sum(axis=1)
    bits = _CARD_BIT[cards]
    duplicated = np.bitwise_or.reduce(bits, axis=1) != bits.sum(axis=1)
    if duplicated.any():
        row = int(np.flatnonzero(duplicated)[0])
        raise InvalidCards(f"row {row} holds a card twice: {cards[row].tolist()}")
    strength = _VALUES[np.searchsorted(_KEYS, total & 0xFFFFFFFF)]
    suit_counts = (total[:, None] >> (32 + 4 * np.arange(4))) & 0xF
    flush_suit = suit_counts >= 5
    rows = np.flatnonzero(flush_suit.any(axis=1))
    if rows.size:
        suit = flush_suit[rows].argmax(axis=1)
        hand = cards[rows]
        mask = np.where(_SUITS[hand] == suit[:, None], _RANK_BIT[hand], 0).sum(axis=1)
        strength[rows] = _FLUSH[mask]
    return strength


def best_high_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Strengths of the best five-card high hands of each row of an N x k array (k = 5, 6 or 7).

    A card index is ``4 * rank + suit`` (rank 0 deuce .. 12 ace; suit 0 clubs, 1 diamonds,
    2 hearts, 3 spades). Strengths order exactly as the ``HighHand`` values do.

    >>> best_high_batch([[48, 49, 50, 44, 45], [0, 4, 8, 12, 21]]).tolist()
    [7296, 1]
    """
    array = _checked(cards)
    out = np.empty(array.shape[0], dtype=np.int32)
    for start in range(0, array.shape[0], _CHUNK):
        out[start : start + _CHUNK] = _evaluate(array[start : start + _CHUNK])
    return out
