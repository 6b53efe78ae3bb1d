"""best_high, omaha_high and the HighHand value."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino_backoffice.poker import (
    HandCategory,
    HighHand,
    InvalidCards,
    best_high,
    high_hand_of,
    high_rank,
    low_a5,
    omaha_high,
    parse_cards,
)
from tests.poker import reference

C = HandCategory
REFERENCE_CATEGORY = [
    C.HIGH_CARD,
    C.PAIR,
    C.TWO_PAIR,
    C.THREE_OF_A_KIND,
    C.STRAIGHT,
    C.FLUSH,
    C.FULL_HOUSE,
    C.FOUR_OF_A_KIND,
    C.STRAIGHT_FLUSH,
    C.ROYAL_FLUSH,
]
hands = st.integers(5, 7).flatmap(lambda n: st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True))
seven = st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True)


@pytest.mark.parametrize(
    ("cards", "words", "category", "chosen"),
    [
        ("As Ks Qs Js Ts 9s 2d", "Royal flush", C.ROYAL_FLUSH, "As Ks Qs Js Ts"),
        ("5h 4h 3h 2h Ah Kh Qd", "Straight flush, five high", C.STRAIGHT_FLUSH, "5h 4h 3h 2h Ah"),
        ("9c 9d 9h 9s Ad Kc 2s", "Four of a kind, nines, ace kicker", C.FOUR_OF_A_KIND, "9s 9h 9d 9c Ad"),
        ("As Ah Ac Kd Ks 2c 3d", "Full house, aces full of kings", C.FULL_HOUSE, "As Ah Ac Ks Kd"),
        ("Ks Kh Kc Qd Qs Qc 3d", "Full house, kings full of queens", C.FULL_HOUSE, "Ks Kh Kc Qs Qd"),
        ("Ad 9d 7d 4d 2d Kc Ks", "Flush, ace-nine-seven-four-two", C.FLUSH, "Ad 9d 7d 4d 2d"),
        ("Ad 2c 3h 4s 5d Kc Ks", "Straight, five high", C.STRAIGHT, "5d 4s 3h 2c Ad"),
        ("Ts Jd Qh Kc As 2c 2d", "Straight, ace high", C.STRAIGHT, "As Kc Qh Jd Ts"),
        ("7s 7d 7h Kc 2s", "Three of a kind, sevens, king-two kickers", C.THREE_OF_A_KIND, "7s 7h 7d Kc 2s"),
        ("As Ad Ks Kd Qs Qd 2c", "Two pair, aces and kings, queen kicker", C.TWO_PAIR, "As Ad Ks Kd Qs"),
        ("Js Jd 4c 8h 2s", "Pair of jacks, eight-four-two kickers", C.PAIR, "Js Jd 8h 4c 2s"),
        ("As Kd 9c 7h 4s 3d 2c", "High card, ace-king-nine-seven-four", C.HIGH_CARD, "As Kd 9c 7h 4s"),
    ],
)
def test_named_hands(cards: str, words: str, category: HandCategory, chosen: str) -> None:
    hand = best_high(cards)
    assert str(hand) == words
    assert hand.category is category
    assert hand.cards == parse_cards(chosen)


def test_ace_is_low_only_in_the_wheel() -> None:
    # §655a.6(a): no straight around the corner (K-A-2-3-4 is ace high)
    assert best_high("Kd Ac 2h 3s 4d").category is C.HIGH_CARD
    assert best_high("6d 5c 4h 3s 2d") > best_high("5d 4c 3h 2s Ad")
    assert best_high("5d 4c 3h 2s Ad") > best_high("Ad Ac Ah Ks Qd")


def test_ties_compare_equal_and_hash_alike_whatever_the_suits() -> None:
    a, b = best_high("As Kd Qh Jc 9s"), best_high("Ac Kh Qd Js 9d")
    assert a == b and hash(a) == hash(b) and not a < b and a <= b
    assert len({a, b}) == 1


def test_a_high_hand_never_equals_or_orders_against_a_low_hand() -> None:
    high, low = best_high("8h 6d 4c 3s As"), low_a5("8h 6d 4c 3s As")
    assert high != low
    with pytest.raises(TypeError):
        _ = high < low  # type: ignore[operator]


@pytest.mark.parametrize("bad", ["As Kd Qh Jc", "As Kd Qh Jc Tc 9c 8c 7c", "As Kd Qh Jc Jc", "As Kd Qh Jc Tx", ""])
def test_wrong_cards_raise_invalid_cards(bad: str) -> None:
    with pytest.raises(InvalidCards):
        best_high(bad)
    with pytest.raises(InvalidCards):
        high_rank(bad)


def test_out_of_range_indices_are_refused_not_wrapped() -> None:
    with pytest.raises(InvalidCards, match="-1 is not a card"):
        best_high([0, 5, 10, 15, -1])
    with pytest.raises(InvalidCards, match="52 is not a card"):
        best_high([0, 5, 10, 15, 52])


def test_a_list_given_is_copied() -> None:
    cards = list(parse_cards("As Ks Qs Js Ts"))
    hand = best_high(cards)
    cards[0] = parse_cards("2c")[0]
    assert str(hand) == "Royal flush"


def test_high_hand_of_each_strength_round_trips() -> None:
    for strength in (1, 2, 1000, 7296, 7461, 7462):
        hand = high_hand_of(strength)
        assert best_high(hand.cards).strength == strength
    with pytest.raises(InvalidCards):
        high_hand_of(0)


def test_omaha_uses_exactly_two_hole_cards() -> None:
    # §637a.12(k): four spades on board and the ace of spades in hand is no flush
    assert str(omaha_high("As 2h 3d 4c", "Ks Qs Js Ts 9d")) == "High card, ace-king-queen-jack-four"
    # three of a kind in the hole plays as a pair plus the board
    assert str(omaha_high("Ah Ad Ac 2s", "Kd Kh 7s 8c 9d")) == "Two pair, aces and kings, nine kicker"
    assert str(omaha_high("Ah Ad 3c 2s", "Ac Kh Ks 8c 9d")) == "Full house, aces full of kings"
    hand = omaha_high("As Ks 2d 3c", "Qs Js Ts 4h 4d")
    assert str(hand) == "Royal flush" and len(hand.cards) == 5


def test_omaha_refuses_wrong_counts_and_shared_cards() -> None:
    with pytest.raises(InvalidCards, match="Omaha hole takes 4 cards"):
        omaha_high("As Ks 2d", "Qs Js Ts 4h 4d")
    with pytest.raises(InvalidCards, match="Omaha board takes 5 cards"):
        omaha_high("As Ks 2d 3d", "Qs Js Ts 4h")
    with pytest.raises(InvalidCards, match="both in the hole and on the board"):
        omaha_high("As Ks 2d 3d", "As Js Ts 4h 4d")


@given(hands)
def test_matches_the_reference_ranking(cards: list[int]) -> None:
    hand = best_high(cards)
    category, _ = reference.best_high(cards)
    assert hand.category is REFERENCE_CATEGORY[category]
    assert hand.strength == high_rank(cards)
    assert reference.high5(hand.cards) == reference.best_high(cards)


@given(hands, hands)
def test_order_agrees_with_the_reference(a: list[int], b: list[int]) -> None:
    ra, rb = reference.best_high(a), reference.best_high(b)
    ha, hb = best_high(a), best_high(b)
    assert (ha < hb, ha == hb, ha > hb) == (ra < rb, ra == rb, ra > rb)
    assert (ha < hb) == (hb > ha)


@given(seven, st.randoms())
def test_card_order_does_not_matter(cards: list[int], random: object) -> None:
    shuffled = cards[:]
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    assert best_high(shuffled) == best_high(cards)
    assert best_high(shuffled).cards == best_high(cards).cards


@given(seven)
def test_seven_cards_are_the_best_of_their_fives(cards: list[int]) -> None:
    from itertools import combinations

    assert best_high(cards).strength == max(best_high(five).strength for five in combinations(cards, 5))


@given(hands)
def test_value_is_hashable_and_readable(cards: list[int]) -> None:
    hand = best_high(cards)
    assert isinstance(hand, HighHand)
    assert {hand: 1}[best_high(list(reversed(cards)))] == 1
    assert str(hand)[0].isupper() and repr(hand).startswith("HighHand(")
