"""Crazy 4 Poker (§657a.6) and three-card hands (§655a.6(c))."""

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino_backoffice.poker import HandCategory, InvalidCards, crazy4_best, parse_cards, three_card
from tests.poker import reference

C = HandCategory
CRAZY4_CATEGORY = [
    C.HIGH_CARD,
    C.PAIR,
    C.TWO_PAIR,
    C.STRAIGHT,
    C.FLUSH,
    C.THREE_OF_A_KIND,
    C.STRAIGHT_FLUSH,
    C.FOUR_OF_A_KIND,
]
THREE_CATEGORY = [C.HIGH_CARD, C.PAIR, C.FLUSH, C.STRAIGHT, C.THREE_OF_A_KIND, C.STRAIGHT_FLUSH, C.MINI_ROYAL]
five = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)
three = st.lists(st.integers(0, 51), min_size=3, max_size=3, unique=True)


@pytest.mark.parametrize(
    ("cards", "words", "chosen"),
    [
        ("As Ah Ad Ac 2c", "Four of a kind, aces", "As Ah Ad Ac"),
        ("Ks Qs Js Ts 2d", "Straight flush, king high", "Ks Qs Js Ts"),
        ("4h 3h 2h Ah Kh", "Straight flush, four high", "4h 3h 2h Ah"),
        ("9s 9h 9d 5c 5d", "Three of a kind, nines, five kicker", "9s 9h 9d 5d"),
        ("Ad 9d 7d 4d 2c", "Flush, ace-nine-seven-four", "Ad 9d 7d 4d"),
        ("Ad Kc Qh Js 2c", "Straight, ace high", "Ad Kc Qh Js"),
        ("Ad 2c 3h 4s 9c", "Straight, four high", "4s 3h 2c Ad"),
        ("Qs Qd 4c 4h 2s", "Two pair, queens and fours", "Qs Qd 4h 4c"),
        ("Qs Qd 9c 4h 2s", "Pair of queens, nine-four kickers", "Qs Qd 9c 4h"),
        ("Kd Ac 2h 3s 7d", "High card, ace-king-seven-three", "Ac Kd 7d 3s"),
    ],
)
def test_crazy4_named_hands(cards: str, words: str, chosen: str) -> None:
    hand = crazy4_best(cards)
    assert str(hand) == words
    assert hand.cards == parse_cards(chosen)


def test_crazy4_ranking_order_of_657a_6_b() -> None:
    order = [
        "2s 2h 2d 2c 3c",
        "5s 4s 3s 2s 9d",
        "As Ah Ad Kc Qc",
        "As Ks 9s 4s 2c",
        "Ad Kc Qh Js 2c",
        "As Ad Ks Kd 2c",
        "As Ad Ks Qd 2c",
        "As Kd Qh Tc 2c",
    ]
    hands = [crazy4_best(c) for c in order]
    assert all(a > b for a, b in pairwise(hands))
    # K-A-2-3 is no straight (§657a.6(a))
    assert crazy4_best("Kd Ac 2h 3s 7d").category is C.HIGH_CARD


def test_crazy4_takes_four_or_five_cards() -> None:
    with pytest.raises(InvalidCards, match="crazy4_best takes 5 or 4 cards"):
        crazy4_best("As Ks Qs")


def test_three_card_ranking_of_655a_6_c() -> None:
    order = ["Ah Kh Qh", "Kh Qh Jh", "3h 2h Ah", "2c 2d 2s", "Ac Kd Qh", "3c 2d Ah", "Ah 9h 2h", "2c 2d Ah", "Ah Kd 9c"]
    hands = [three_card(c) for c in order]
    assert [h.category for h in hands] == [
        C.MINI_ROYAL,
        C.STRAIGHT_FLUSH,
        C.STRAIGHT_FLUSH,
        C.THREE_OF_A_KIND,
        C.STRAIGHT,
        C.STRAIGHT,
        C.FLUSH,
        C.PAIR,
        C.HIGH_CARD,
    ]
    assert all(a > b for a, b in pairwise(hands))
    assert three_card("Kc Ad 2h").category is C.HIGH_CARD
    assert str(three_card("3c 2d Ah")) == "Straight, three high"
    assert three_card("3c 2d Ah").cards == parse_cards("3c 2d Ah")
    with pytest.raises(InvalidCards):
        three_card("Ah Kh")


@given(five, five)
def test_crazy4_agrees_with_the_reference(a: list[int], b: list[int]) -> None:
    ra, rb = reference.crazy4_best(a), reference.crazy4_best(b)
    ha, hb = crazy4_best(a), crazy4_best(b)
    assert ha.category is CRAZY4_CATEGORY[ra[0]]
    assert (ha < hb, ha == hb) == (ra < rb, ra == rb)
    assert reference.crazy4(ha.cards) == ra


@given(three, three)
def test_three_card_agrees_with_the_reference(a: list[int], b: list[int]) -> None:
    ra, rb = reference.three_card(a), reference.three_card(b)
    ha, hb = three_card(a), three_card(b)
    assert ha.category is THREE_CATEGORY[ra[0]]
    assert (ha < hb, ha == hb) == (ra < rb, ra == rb)
