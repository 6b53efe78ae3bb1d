"""The odd chip of a split pot does not depend on the order the cards were typed (§637a.12(k)(2))."""

from casino_backoffice.poker import (
    AceToFiveLow,
    best_high,
    omaha_high,
    omaha_low8,
    parse_cards,
    split_high_low,
    split_odd_chip,
)


def _low(hole: str, board: str) -> AceToFiveLow:
    low = omaha_low8(hole, board)
    assert low is not None
    return low


def test_omaha_high_odd_chip_does_not_depend_on_the_order_the_hole_cards_were_typed() -> None:
    # given two ace-high straights; the first player can make his with either ace and either king
    board = "Ts Jd Qh 2c 3c"
    other = omaha_high("Ad Kd 7h 8h", board)
    # when his hole cards are typed in two orders
    splits = [split_odd_chip(101, [omaha_high(hole, board), other]) for hole in ("Ac Kc As Kh", "As Kh Ac Kc")]
    # then the ace of spades plays both times and takes the odd chip from the ace of diamonds
    assert splits == [[51, 50], [51, 50]]
    assert omaha_high("Ac Kc As Kh", board).cards == parse_cards("As Kh Qh Jd Ts")


def test_omaha_low_odd_chip_does_not_depend_on_the_order_the_hole_cards_were_typed() -> None:
    # given two eight-four lows; the first player can make his with the Ac or the As and the 2c or the 2h
    board, other = "3c 4d 8h Kc Ks", "Ad 2d 9s 9c"
    for hole in ("Ac 2c As 2h", "As 2h Ac 2c"):
        # when a pot of 103 cents is split
        shares = split_high_low(103, [omaha_high(hole, board)], [_low(hole, board), _low(other, board)])
        # then his high takes the larger half and his ace of clubs the odd chip of the low half
        assert shares == ([52], [26, 25])
        assert _low(hole, board).cards == parse_cards("8h 4d 3c 2c Ac")


def test_the_five_is_the_highest_ranking_card_of_a_five_high_straight() -> None:
    # given two five-high straights on one board: the As and 5c against the Ah and 5s
    board = "2c 3d 4h Kc 9s"
    first, second = best_high(f"As 5c {board}"), best_high(f"Ah 5s {board}")
    # when 101 cents are split
    shares = split_odd_chip(101, [first, second])
    # then the five of spades takes the odd chip: in this straight the ace counts as a one
    assert shares == [50, 51]
    assert [str(card) for card in second.cards] == ["5s", "4h", "3d", "2c", "Ah"]


def test_tied_hands_of_the_very_same_cards_give_the_odd_chip_to_the_first_listed() -> None:
    # given a board that plays for both players
    board = "As Kd Qh Jc 9s"
    first, second = best_high(f"2c 3d {board}"), best_high(f"4c 5d {board}")
    # when 101 cents are split, the players listed in either order
    # then the first listed takes the odd chip (the order the Rules Submission names)
    assert split_odd_chip(101, [first, second]) == [51, 50]
    assert split_odd_chip(101, [second, first]) == [51, 50]
