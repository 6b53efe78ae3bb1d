"""Wrong payouts no other test caught: mutation testing of the evaluator (issue 23, item 13) changed the
code in each of these ways and every test still passed.

Each test names the change it catches; ``make mutation`` runs them against every mutant.
"""

from __future__ import annotations

import pytest

from casino_backoffice.poker import (
    BadBeatQualifier,
    HandCategory,
    HighHandMinimum,
    best_high,
    crazy4_best,
    low_27,
    low_a5,
    omaha_high,
    omaha_low8,
    parse_cards,
    split_high_low,
    split_odd_chip,
)
from casino_backoffice.poker.cards import InvalidCards
from casino_backoffice.poker.paytables import PAYTABLES, winning_line
from casino_backoffice.poker.qualifiers import InvalidQualifier, category_minimum, hand_minimum, hand_ranks

# --- Eight-or-better (§637a.12(l)-(m)) --------------------------------------------------------------


def test_a_nine_low_does_not_qualify_for_the_low_half() -> None:
    # given an ace and a deuce in the hole and a board whose only low cards are a three, a four and a nine
    hole, board = "As 2d Kc Kd", "3h 4h 9c Qs Js"
    # then no low qualifies: nine-four-three-two-ace is not eight or better
    assert omaha_low8(hole, board) is None
    # and the high hand takes the whole pot rather than half of it
    assert split_high_low(1001, [omaha_high(hole, board)], []) == ([1001], [])


def test_an_eight_low_qualifies_whatever_the_other_board_cards() -> None:
    assert str(omaha_low8("As 2d Kc Kd", "3h 4h 8c 9s Ts")) == "Eight-four low"


# --- The ace is the lowest card of an ace-to-five low --------------------------------------------


def test_an_ace_is_lower_than_a_deuce_in_ace_to_five() -> None:
    # six-five-four-three-ace beats six-five-four-three-deuce: the ace counts as a one, not as a two
    assert low_a5("6s 5d 4c 3h As") > low_a5("6s 5d 4c 3h 2s")
    assert low_a5("7s 5d 4c 2h As") > low_a5("7s 5d 4c 3h 2s")
    # and a pair of aces is a better low than a pair of deuces
    assert low_a5("As Ad 3c 4h 5s") > low_a5("2s 2d 3c 4h 5s")


def test_the_ace_is_read_and_shown_as_the_lowest_card() -> None:
    hand = low_a5("As 8h 2d 6c 4s")
    assert str(hand) == "Eight-six low"
    assert hand.ranks == (6, 4, 2, 0, 12)  # eight, six, four, deuce, ace
    assert hand.cards == parse_cards("8h 6c 4s 2d As")


def test_ace_to_five_groups_pairs_first_and_names_them() -> None:
    # a pair is worse than any five different ranks; of two pairs the lower pair is better
    assert low_a5("Kh Qd Jc Ts 9s") > low_a5("As Ad 2c 3h 4s") > low_a5("2s 2d Ac 3h 4s")
    hand = low_a5("3s 3d Ac 2h 4s")
    assert hand.category is HandCategory.PAIR and str(hand) == "Pair of threes, four-two-ace kickers"
    assert hand.cards == parse_cards("3s 3d 4s 2h Ac")
    assert low_a5("4s 4d 4c Ah Ad").category is HandCategory.FULL_HOUSE
    assert str(low_a5("4s 4d 4c Ah Ad")) == "Full house, fours full of aces"
    assert low_a5("4s 4d 4c 4h Ad").category is HandCategory.FOUR_OF_A_KIND


# --- The odd chip of tied lows (§637a.12(k)(2)(iii), (iv)) -----------------------------------------


def test_ace_to_five_odd_chip_goes_to_the_lowest_card_counting_the_ace_as_a_one() -> None:
    # given two tied eight-four lows: the first has the lower deuce, the second the lower ace
    first, second = low_a5("8h 4d 3c 2c Ad"), low_a5("8d 4h 3d 2d Ac")
    # then the ace of clubs is the lowest ranking low hand card and takes the odd chip
    assert split_odd_chip(101, [first, second]) == [50, 51]
    assert split_odd_chip(101, [second, first]) == [51, 50]


def test_ace_to_five_odd_chip_looks_past_equal_lowest_cards() -> None:
    # given tied lows with the same ace of clubs: the next card, the deuce, decides by suit
    first, second = low_a5("8h 4d 3c 2h Ac"), low_a5("8s 4h 3d 2c Ac")
    assert split_odd_chip(101, [first, second]) == [50, 51]


def test_deuce_to_seven_odd_chip_goes_to_the_lowest_card_the_ace_counting_high() -> None:
    # given two tied ace-five lows: the first has the lower ace, the second the lower deuce
    first, second = low_27("Ad 5h 4c 3s 2h"), low_27("Ah 5d 4d 3c 2c")
    # then in deuce-to-seven the ace is only high: the deuce of clubs is the lowest card
    assert split_odd_chip(101, [first, second]) == [50, 51]
    assert split_odd_chip(101, [second, first]) == [51, 50]


def test_deuce_to_seven_odd_chip_by_suit_of_the_lowest_card() -> None:
    first, second = low_27("7h 5d 4c 3s 2d"), low_27("7d 5h 4d 3c 2c")
    assert split_odd_chip(3, [first, second]) == [1, 2]
    assert split_odd_chip(3, [second, first]) == [2, 1]


def test_omaha_low_plays_the_grouping_with_the_lowest_card_counting_the_ace_as_a_one() -> None:
    # given two equal seven-four lows, one with the ace of clubs and the deuce of hearts, the other with
    # the ace of spades and the deuce of clubs
    low = omaha_low8("Ac 2c 7s 8s", "As 2h 3d 4d Kc")
    # then the ace of clubs plays: it is the lowest ranking low hand card
    assert low is not None and low.cards == parse_cards("7s 4d 3d 2h Ac")


def test_a_deuce_to_seven_low_of_the_wrong_count_is_refused_naming_the_game() -> None:
    with pytest.raises(InvalidCards) as refused:
        low_27("8h 6d 4c 3s")
    assert str(refused.value) == "low_27 takes 5 cards, not 4: 8h 6d 4c 3s"


# --- High-low pots: the odd chip to the seat the Rules Submission posts ---------------------------


def test_high_low_split_gives_each_odd_chip_to_the_posted_seat() -> None:
    high = [best_high("As Kd Qh Jc 9d"), best_high("Ad Kc Qs Js 9h")]
    low = [low_a5("8h 6d 4c 3s Ah"), low_a5("8d 6c 4d 3c Ac")]
    # by suit: the ace of spades takes the odd chip of the high half (1001), the ace of clubs that of the low (1003)
    assert split_high_low(1001, high, low) == ([251, 250], [250, 250])
    assert split_high_low(1003, high, low) == ([251, 251], [250, 251])
    # posted seats: the second high winner, the first low winner
    assert split_high_low(1001, high, low, high_odd_chip_to=1) == ([250, 251], [250, 250])
    assert split_high_low(1003, high, low, low_odd_chip_to=0) == ([251, 251], [251, 250])
    assert split_high_low(1003, high, [], high_odd_chip_to=1) == ([501, 502], [])


def test_split_refuses_a_negative_pot_and_more_than_a_dollar_of_excess() -> None:
    hand = best_high("As Kd Qh Jc 9d")
    with pytest.raises(ValueError, match="cannot be negative: -1 cents"):
        split_odd_chip(-1, [hand])
    # an excess of exactly $1.00 goes to one player; $1.01 is more than §637a.12(k)(2) allows
    assert split_odd_chip(101 * 100 + 100, [hand] * 101) == [200] + [100] * 100
    with pytest.raises(ValueError, match="an excess of 101 cents"):
        split_odd_chip(102 * 100 + 101, [hand] * 102)


def test_a_one_cent_high_low_pot_gives_the_low_half_nothing() -> None:
    high, low = [best_high("As Kd Qh Jc 9d")], [low_a5("8h 6d 4c 3s Ah"), low_a5("8d 6c 4d 3c Ac")]
    assert split_high_low(1, high, low) == ([1], [0, 0])
    assert split_odd_chip(0, high) == [0]


def test_split_refusals_say_why() -> None:
    first, second = best_high("As Ks Qs Js 9s"), best_high("As Kd Qs Js 9s")
    with pytest.raises(ValueError) as untied:
        split_odd_chip(100, [first, second])
    assert str(untied.value) == (
        "only tied hands split a pot: Flush, ace-king-queen-jack-nine; High card, ace-king-queen-jack-nine"
    )
    with pytest.raises(ValueError) as nobody:
        split_odd_chip(100, [])
    assert str(nobody.value) == "a pot needs at least one winner"


# --- Jackpot qualifiers -------------------------------------------------------------------------


def test_a_bad_beat_with_exactly_the_posted_minimum_of_players_qualifies() -> None:
    rule = BadBeatQualifier("AAATT", min_players_dealt=4)
    deal = {"losing_hole": "As Ts", "winning_hole": "7d 7c", "board": "Ad Ac Th 7s 7h"}
    result = rule.check(**deal, players_dealt=4)
    assert result.qualifies
    assert result.reasons[2] == "4 players dealt in (at least 4)"
    assert not rule.check(**deal, players_dealt=3).qualifies


def test_a_bad_beat_loser_exactly_at_the_minimum_qualifies() -> None:
    rule = BadBeatQualifier("AAATT")
    result = rule.check(losing_hole="As Ts", winning_hole="7d 7c", board="Ad Ac Th 7s 7h", players_dealt=2)
    assert result.qualifies and result.hand == hand_minimum("AAATT")


def test_a_bad_beat_needs_two_players_dealt_in() -> None:
    assert BadBeatQualifier(min_players_dealt=2).min_players_dealt == 2
    with pytest.raises(ValueError, match="at least two players"):
        BadBeatQualifier(min_players_dealt=1)


def test_a_quads_minimum_written_by_ranks_is_read() -> None:
    minimum = hand_minimum("8888A")
    assert str(minimum) == "Four of a kind, eights, ace kicker"
    assert hand_ranks(minimum) == "8888A"
    assert BadBeatQualifier("8888A").minimum == best_high("8c 8d 8h 8s Ad")
    assert HighHandMinimum("8888A").check(best_high("8c 8d 8h 8s Ad 2c 3d")).qualifies
    assert not HighHandMinimum("8888A").check(best_high("8c 8d 8h 8s Kd 2c 3d")).qualifies


def test_a_minimum_written_by_ranks_with_spaces_or_tens_is_read() -> None:
    assert hand_minimum("10 10 10 a a") == best_high("Tc Td Th Ac Ad")
    assert hand_minimum("k k k q q") == best_high("Kc Kd Kh Qc Qd")
    with pytest.raises(ValueError, match="more than four cards of one rank"):
        hand_minimum("88888")


def test_a_high_hand_exactly_at_the_posted_minimum_of_players_qualifies() -> None:
    rule = HighHandMinimum(min_players_dealt=6)
    result = rule.check(best_high("2s 2d 2h 3c 3d 7s 9h"), players_dealt=6)
    assert result.qualifies and result.reasons[1] == "6 players dealt in (at least 6)"


def test_a_bad_beat_reason_says_why_a_losing_hand_did_not_lose() -> None:
    rule = BadBeatQualifier("AAATT")
    result = rule.check(losing_hole="As Ts", winning_hole="2c 3d", board="Ad Ac Th 7s 8h", players_dealt=6)
    assert result.qualifies is False
    assert result.reasons[1] == (
        "Hand Pair of aces, ten-eight-seven kickers does not beat Full house, aces full of tens: "
        "the qualifying hand did not lose"
    )
    tie = rule.check(losing_hole="As Ks", winning_hole="Ah Kh", board="Ad Ac Kd 7s 2h", players_dealt=6)
    assert tie.reasons[1] == (
        "Hand Full house, aces full of kings ties Full house, aces full of kings: the qualifying hand did not lose"
    )


def test_every_bad_beat_refusal_is_a_refusal() -> None:
    rule = BadBeatQualifier("AAATT", min_players_dealt=4)
    below = rule.check(losing_hole="As 9s", winning_hole="7d 7c", board="Ad Ac 9h 7s 7h", players_dealt=6)
    not_lost = rule.check(losing_hole="As Ts", winning_hole="2c 3d", board="Ad Ac Th 7s 8h", players_dealt=6)
    too_few = rule.check(losing_hole="As Ts", winning_hole="7d 7c", board="Ad Ac Th 7s 7h", players_dealt=3)
    assert (below.qualifies, not_lost.qualifies, too_few.qualifies) == (False, False, False)
    assert below.hand == best_high("As Ad Ac 9s 9h")


def test_an_omaha_bad_beat_says_two_hole_cards_play() -> None:
    rule = BadBeatQualifier("AAATT", game="omaha")
    result = rule.check(losing_hole="As Ah 2c 3d", winning_hole="Ts Td 4c 5d", board="Ad Ks Tc Th 9s", players_dealt=6)
    assert result.reasons[0] == (
        "Losing hand Full house, aces full of tens (two hole cards play) meets the minimum: Full house, aces full of tens"
    )


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ({"losing_hole": "As Ts Td"}, "the losing hand's hole takes 2 cards, not 3: As Ts Td"),
        ({"winning_hole": "7d"}, "the winning hand's hole takes 2 cards, not 1: 7d"),
        ({"board": "Ad Ac Th 7s"}, "the board takes 5 cards, not 4: Ad Ac Th 7s"),
    ],
)
def test_a_bad_beat_refuses_miscounted_cards_naming_whose(deal: dict[str, str], message: str) -> None:
    cards = {"losing_hole": "As Ts", "winning_hole": "7d 7c", "board": "Ad Ac Th 7s 7h"} | deal
    with pytest.raises(InvalidCards) as refused:
        BadBeatQualifier().check(**cards, players_dealt=6)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (123, "123 is not a hand: write a category, five ranks or five cards"),
        ("88888", "'88888' has more than four cards of one rank"),
        ("As Kx", "'As Kx' is not a hand: card 2 'Kx': 'x' is not a suit (use s, h, d or c)"),
    ],
)
def test_a_minimum_that_cannot_be_read_is_refused_saying_why(spec: object, message: str) -> None:
    with pytest.raises(InvalidQualifier) as refused:
        hand_minimum(spec)  # type: ignore[arg-type]  # a rules file may hold anything
    assert str(refused.value) == message


def test_a_bad_beat_for_one_player_is_refused_saying_why() -> None:
    with pytest.raises(InvalidQualifier) as refused:
        BadBeatQualifier(min_players_dealt=1)
    assert str(refused.value) == "a Bad Beat needs at least two players dealt in"


def test_high_hand_reasons_say_why_a_hand_is_not_recorded() -> None:
    rule = HighHandMinimum("AAAKK", min_players_dealt=5)
    hand, recorded = best_high("Ks Kd Kh 3c 3d"), best_high("As Ad Ah Kc Kd")
    result = rule.check(hand, players_dealt=4, recorded=recorded)
    assert result.qualifies is False and result.hand == hand
    assert result.reasons == (
        "Full house, kings full of threes is below the minimum: Full house, aces full of kings",
        "Only 4 players dealt in; at least 5 are required",
        "Lower than the recorded high hand, Full house, aces full of kings",
    )
    assert HighHandMinimum(min_players_dealt=5).check(hand, players_dealt=4).qualifies is False
    assert HighHandMinimum().check(hand, recorded=recorded).qualifies is False


def test_the_lowest_hand_of_a_category_has_its_cards() -> None:
    quads = category_minimum(HandCategory.FOUR_OF_A_KIND)
    assert quads.cards == best_high("2s 2h 2d 2c 3s").cards and hand_ranks(quads) == "22223"
    with pytest.raises(InvalidQualifier) as refused:
        category_minimum(HandCategory.MINI_ROYAL)
    assert str(refused.value) == "mini_royal is not a five-card high hand"


# --- Envy Bonus tables (§655a.12(c)(5), §657a.12(d)(5)) ------------------------------------------

ENVY_BONUSES = {
    "mississippi_stud_envy_1": [("Royal flush", "$1,000", 100_000), ("Straight flush", "$300", 30_000)],
    "mississippi_stud_envy_5": [("Royal flush", "$5,000", 500_000), ("Straight flush", "$1,500", 150_000)],
    "crazy4_envy_a_1": [("Four aces", "$100", 10_000), ("Four-of-a-kind", "$10", 1_000), ("Straight flush", "$5", 500)],
    "crazy4_envy_a_5": [
        ("Four aces", "$500", 50_000),
        ("Four-of-a-kind", "$50", 5_000),
        ("Straight flush", "$25", 2_500),
    ],
    "crazy4_envy_b_1": [("Four aces", "$100", 10_000), ("Four-of-a-kind", "$25", 2_500)],
    "crazy4_envy_b_5": [("Four aces", "$500", 50_000), ("Four-of-a-kind", "$125", 12_500)],
}


@pytest.mark.parametrize(("name", "lines"), ENVY_BONUSES.items())
def test_every_envy_bonus_table_pays_its_posted_amounts(name: str, lines: list[tuple[str, str, int]]) -> None:
    table = PAYTABLES[name]
    assert [(line.hand, str(line.payout), line.payout.amount_cents) for line in table.lines] == lines


def test_an_envy_bonus_is_paid_on_the_line_the_other_players_hand_makes() -> None:
    four_aces, four_kings = crazy4_best("As Ah Ad Ac 2c"), crazy4_best("Ks Kh Kd Kc 2c")
    assert str(winning_line(PAYTABLES["crazy4_envy_b_5"], four_aces)) == "Four aces: $500"
    assert str(winning_line(PAYTABLES["crazy4_envy_b_5"], four_kings)) == "Four-of-a-kind: $125"
    assert str(winning_line(PAYTABLES["crazy4_envy_a_1"], crazy4_best("9s 8s 7s 6s 2c"))) == "Straight flush: $5"
    royal = best_high("As Ks Qs Js Ts")
    assert str(winning_line(PAYTABLES["mississippi_stud_envy_1"], royal)) == "Royal flush: $1,000"


# --- The recorded cards of a hand ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "As Ah Ac Kd Ks",  # five cards, no flush
        "As Ah Ac Kd Ks 2c 3d",  # seven cards, no flush
        "As Ks Qs Js 9s",  # five cards, a flush
        "As Ks Qs Js 9s 2c 3d",  # seven cards, a flush
        "As Ah Ac Kd Ks 2c",  # six cards
    ],
)
def test_a_hand_keeps_its_own_cards_when_the_callers_list_changes(text: str) -> None:
    # given the cards of a hand as the caller's list
    cards = list(parse_cards(text))
    hand = best_high(cards)
    shown = hand.cards
    # when the caller reuses the list for the next hand
    cards[:] = parse_cards("2c 3d 4h 5s 7c 8d 9h")[: len(cards)]
    # then the hand recorded still holds its own cards
    assert hand.cards == shown
    assert hand[1] == tuple(parse_cards(text)) and type(hand[1]) is tuple
