"""Every five-card hand, every three-card hand, Crazy 4 Poker's best four of every five.

Enumerations split by the first card so pytest-xdist can spread them over workers.
"""

from collections import Counter
from itertools import chain, combinations, pairwise

import numpy as np
import pytest

from casino_backoffice.poker import HandCategory, best_high, best_high_batch, crazy4_best, three_card
from casino_backoffice.poker.tables import HIGH
from tests.poker import reference

pytestmark = pytest.mark.exhaustive
C = HandCategory


def _all_hands(size: int, first: int | None = None) -> np.ndarray:
    if first is None:
        combos = combinations(range(52), size)
    else:
        combos = ((first, *rest) for rest in combinations(range(first + 1, 52), size - 1))
    return np.fromiter(chain.from_iterable(combos), dtype=np.int8).reshape(-1, size)


def test_every_five_card_hand_category_count_and_7462_classes() -> None:
    strengths = best_high_batch(_all_hands(5))
    assert len(strengths) == 2_598_960
    assert len(np.unique(strengths)) == 7462
    category_of = np.array([str(cat) for cat, _ in HIGH.classes])
    counts = Counter(dict(zip(*np.unique(category_of[strengths], return_counts=True), strict=True)))
    assert counts == {
        C.ROYAL_FLUSH: 4,
        C.STRAIGHT_FLUSH: 36,
        C.FOUR_OF_A_KIND: 624,
        C.FULL_HOUSE: 3_744,
        C.FLUSH: 5_108,
        C.STRAIGHT: 10_200,
        C.THREE_OF_A_KIND: 54_912,
        C.TWO_PAIR: 123_552,
        C.PAIR: 1_098_240,
        C.HIGH_CARD: 1_302_540,
    }


def test_the_7462_classes_are_in_the_reference_order() -> None:
    hands = _all_hands(5)
    strengths = best_high_batch(hands)
    _, first = np.unique(strengths, return_index=True)
    keys = [reference.high5(hand) for hand in hands[first].tolist()]
    assert all(a < b for a, b in pairwise(keys))


@pytest.mark.parametrize("first", range(0, 48, 4))
def test_per_call_and_batch_agree_on_every_five_card_hand(first: int) -> None:
    for card in range(first, min(first + 4, 48)):
        hands = _all_hands(5, card)
        batch = best_high_batch(hands)
        per_call = [best_high(hand).strength for hand in map(tuple, hands.tolist())]
        assert per_call == batch.tolist()


def test_every_three_card_hand() -> None:
    counts = Counter(three_card(hand).category for hand in combinations(range(52), 3))
    assert counts == {
        C.MINI_ROYAL: 4,
        C.STRAIGHT_FLUSH: 44,
        C.THREE_OF_A_KIND: 52,
        C.STRAIGHT: 720,
        C.FLUSH: 1_096,
        C.PAIR: 3_744,
        C.HIGH_CARD: 16_440,
    }
    classes = {three_card(hand).strength: reference.three_card(hand) for hand in combinations(range(52), 3)}
    keys = [classes[s] for s in sorted(classes)]
    assert all(a < b for a, b in pairwise(keys))


# Counted once with the reference evaluator (tests/poker/reference.py) over all 2,598,960 hands.
CRAZY4_COUNTS = {
    C.FOUR_OF_A_KIND: 624,
    C.STRAIGHT_FLUSH: 2_072,
    C.THREE_OF_A_KIND: 58_656,
    C.FLUSH: 114_616,
    C.STRAIGHT: 101_808,
    C.TWO_PAIR: 123_552,
    C.PAIR: 1_047_552,
    C.HIGH_CARD: 1_150_080,
}


def test_crazy4_best_of_every_five_cards() -> None:
    counts: Counter[HandCategory] = Counter()
    first_of_class: dict[int, tuple[int, ...]] = {}
    four_aces = 0
    for hand in map(tuple, _all_hands(5).tolist()):
        best = crazy4_best(hand)
        counts[best.category] += 1
        first_of_class.setdefault(best.strength, hand)
        four_aces += best.category is C.FOUR_OF_A_KIND and best.ranks == (12,)
    assert counts == CRAZY4_COUNTS
    assert four_aces == 48
    keys = [reference.crazy4_best(first_of_class[s]) for s in sorted(first_of_class)]
    assert all(a < b for a, b in pairwise(keys))
