"""Ace-to-five, deuce-to-seven and Omaha eight-or-better lows."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino_backoffice.poker import HandCategory, InvalidCards, low_27, low_a5, omaha_low8, parse_cards
from tests.poker import reference

five = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


def test_ace_to_five_reads_aloud_and_ranks_the_wheel_best() -> None:
    assert str(low_a5("8h 6d 4c 3s As")) == "Eight-six low"
    assert str(low_a5("5s 4s 3s 2s As")) == "Five-four low"  # straight and flush do not count
    assert low_a5("5s 4s 3s 2s As") > low_a5("6d 4c 3s 2h Ad") > low_a5("6d 5c 3s 2h Ad")
    assert low_a5("8h 6d 4c 3s As") > low_a5("8h 6d 5c 3s As")
    assert low_a5("Kh Qd Jc Ts 9s") > low_a5("2h 2d 3c 4s 5s")  # any pair is worse than no pair
    assert low_a5("8h 6d 4c 3s As").cards == parse_cards("8h 6d 4c 3s As")
    assert low_a5("2h 2d 3c 4s 5s").category is HandCategory.PAIR


def test_deuce_to_seven_counts_straights_and_flushes_against_the_hand() -> None:
    assert str(low_27("7h 5d 4c 3s 2s")) == "Seven-five low"
    assert low_27("7h 5d 4c 3s 2s") > low_27("7h 6d 4c 3s 2s")
    assert low_27("8h 5d 4c 3s 2s") > low_27("7h 6d 5c 4s 3s")  # the straight loses
    assert low_27("8h 5h 4h 3h 2h").category is HandCategory.FLUSH
    assert low_27("5h 4d 3c 2s As").category is HandCategory.HIGH_CARD  # the ace is high, no wheel
    assert low_27("Kh Qd Jc 9s 8s") > low_27("5h 4d 3c 2s As")


def test_lows_of_different_games_never_compare() -> None:
    assert low_a5("7h 5d 4c 3s 2s") != low_27("7h 5d 4c 3s 2s")
    with pytest.raises(TypeError):
        _ = low_a5("7h 5d 4c 3s 2s") < low_27("7h 5d 4c 3s 2s")  # type: ignore[operator]


def test_low_takes_exactly_five_cards() -> None:
    with pytest.raises(InvalidCards, match="low_a5 takes 5 cards, not 6"):
        low_a5("8h 6d 4c 3s As 2c")
    with pytest.raises(InvalidCards):
        low_27("8h 6d 4c 3s")


def test_omaha_low_needs_two_hole_and_three_board_cards_eight_or_better() -> None:
    # §637a.12(l)-(m)
    assert str(omaha_low8("As 2d Kc Kd", "3h 4h 8c Qs Js")) == "Eight-four low"
    assert omaha_low8("As 2d Kc Kd", "9h Th 8c Qs Js") is None
    # one low card in the hole is not enough, however good the board
    assert omaha_low8("As Kd Kc Qd", "2h 3h 4c 5s 6s") is None
    # a paired hole card does not spoil the other two
    assert str(omaha_low8("As Ad 2c Kd", "3h 4h 7c Qs Js")) == "Seven-four low"
    assert omaha_low8("As 2d 3c 4d", "5h 6h 7c Ks Ks".replace("Ks Ks", "Ks Qs")) is not None


@given(five, five)
def test_ace_to_five_order_agrees_with_the_reference(a: list[int], b: list[int]) -> None:
    ra, rb = reference.low_a5(a), reference.low_a5(b)
    la, lb = low_a5(a), low_a5(b)
    # a smaller reference key is a better low, which compares greater
    assert (la > lb, la == lb) == (ra < rb, ra == rb)


@given(five, five)
def test_deuce_to_seven_is_the_reverse_of_high_without_the_wheel(a: list[int], b: list[int]) -> None:
    ra, rb = reference.high5(a, ace_low=False), reference.high5(b, ace_low=False)
    assert (low_27(a) > low_27(b), low_27(a) == low_27(b)) == (ra < rb, ra == rb)
