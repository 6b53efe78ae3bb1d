"""Qualifiers, paytables and odd-chip splits."""

import pytest

from casino_backoffice.poker import (
    PAYTABLES,
    BadBeatQualifier,
    HighHandMinimum,
    best_high,
    crazy4_best,
    low_a5,
    split_high_low,
    split_odd_chip,
    three_card,
    winning_line,
)
from casino_backoffice.poker.cards import InvalidCards
from casino_backoffice.poker.paytables import (
    CRAZY4_ENVY_B_1,
    CRAZY4_PROGRESSIVE_A,
    CRAZY4_QUEENS_UP_D,
    CRAZY4_SUPER_BONUS,
    MISSISSIPPI_STUD,
    MISSISSIPPI_STUD_ENVY_5,
    MISSISSIPPI_STUD_PROGRESSIVE,
    THREE_CARD_BONUS_D,
    envy_bonuses,
)
from casino_backoffice.poker.qualifiers import InvalidQualifier, hand_minimum

# --- Bad Beat ---------------------------------------------------------------


def test_bad_beat_aces_full_of_tens_losing_to_quads_qualifies() -> None:
    rule = BadBeatQualifier("AAATT", min_players_dealt=4)
    result = rule.check(losing_hole="As Ts", winning_hole="7d 7c", board="Ad Ac Th 7s 7h", players_dealt=6)
    assert result.qualifies and bool(result)
    assert result.reasons == (
        "Losing hand Full house, aces full of tens meets the minimum: Full house, aces full of tens",
        "Winning hand Four of a kind, sevens, ace kicker beats Full house, aces full of tens",
        "6 players dealt in (at least 4)",
    )


def test_bad_beat_refusals_say_why() -> None:
    rule = BadBeatQualifier("AAATT", min_players_dealt=4)
    below = rule.check(losing_hole="As 9s", winning_hole="7d 7c", board="Ad Ac 9h 7s 7h", players_dealt=3)
    assert not below.qualifies
    assert below.reasons[0].startswith("Losing hand Full house, aces full of nines is below the minimum")
    assert below.reasons[2] == "Only 3 players dealt in; at least 4 are required"
    tie = rule.check(losing_hole="As Ks", winning_hole="Ah Kh", board="Ad Ac Kd 7s 2h", players_dealt=6)
    assert not tie.qualifies and "ties" in tie.reasons[1]


def test_bad_beat_both_hole_cards_must_play() -> None:
    # the best hand, aces full of kings, uses one hole card: with both, only three aces
    rule = BadBeatQualifier("AAATT", both_hole_cards_play=True)
    result = rule.check(losing_hole="As Ts", winning_hole="Ks Kh", board="Ad Ac Kc Kd 2h", players_dealt=6)
    assert not result.qualifies
    assert "Three of a kind, aces" in result.reasons[0] and "both hole cards play" in result.reasons[0]
    assert (
        BadBeatQualifier("AAATT")
        .check(losing_hole="As Ts", winning_hole="Ks Kh", board="Ad Ac Kc Kd 2h", players_dealt=6)
        .qualifies
    )


def test_bad_beat_in_omaha_uses_two_hole_cards() -> None:
    rule = BadBeatQualifier("AAATT", game="omaha")
    result = rule.check(losing_hole="As Ah 2c 3d", winning_hole="Ts Td 4c 5d", board="Ad Ks Tc Th 9s", players_dealt=6)
    assert result.qualifies and str(result.hand) == "Full house, aces full of tens"


def test_bad_beat_refuses_a_card_seen_twice_and_odd_minimums() -> None:
    rule = BadBeatQualifier()
    with pytest.raises(InvalidCards, match="duplicate"):
        rule.check(losing_hole="As Ts", winning_hole="As 7c", board="Ad Ac Th 7s 7h", players_dealt=6)
    with pytest.raises(InvalidQualifier):
        BadBeatQualifier("AAAAA")
    with pytest.raises(InvalidQualifier):
        BadBeatQualifier("AAAT")
    assert str(hand_minimum("10 10 10 A A")) == "Full house, tens full of aces"


# --- High Hand ---------------------------------------------------------------


def test_high_hand_minimum_is_a_full_house_or_better() -> None:
    with pytest.raises(InvalidQualifier, match=r"§637a.16\(f\)"):
        HighHandMinimum("AAAKQ")
    rule = HighHandMinimum(min_players_dealt=5)
    assert rule.check(best_high("2s 2d 2h 3c 3d 7s 9h"), players_dealt=5).qualifies
    assert not rule.check(best_high("As Ad Ah Kc Qd 7s 9h"), players_dealt=5).qualifies
    assert not rule.check(best_high("2s 2d 2h 3c 3d 7s 9h"), players_dealt=4).qualifies


def test_high_hand_is_recorded_when_it_ties_or_beats_the_slip() -> None:
    rule = HighHandMinimum()
    recorded = best_high("Ks Kd Kh 3c 3d")
    assert rule.check(best_high("Kc Kd Kh 3s 3h 2c 4d"), recorded=recorded).reasons[-1].startswith("Ties")
    assert rule.check(best_high("As Ad Ah 3s 3h"), recorded=recorded).reasons[-1].startswith("Beats")
    assert not rule.check(best_high("Qs Qd Qh 3s 3h"), recorded=recorded).qualifies


# --- Paytables ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "line", "payout"),
    [
        ("As Ks Qs Js Ts", "Royal flush", "500 to 1"),
        ("9s Ks Qs Js Ts", "Straight flush", "100 to 1"),
        ("9s 9d 9h 9c Ts", "Four-of-a-kind", "40 to 1"),
        ("9s 9d 9h Tc Ts", "Full house", "10 to 1"),
        ("2s 9s 4s Js Ts", "Flush", "6 to 1"),
        ("5s 4d 3h 2c As", "Straight", "4 to 1"),
        ("9s 9d 9h 2c Ts", "Three-of-a-kind", "3 to 1"),
        ("9s 9d 2h 2c Ts", "Two pair", "2 to 1"),
        ("As Ad 2h 3c Ts", "Pair of jacks or better", "1 to 1"),
        ("Ts Td 2h 3c 8s", "Pair of 6s to 10s", "Push"),
        ("6s 6d 2h 3c 8s", "Pair of 6s to 10s", "Push"),
    ],
)
def test_mississippi_stud_main_paytable(cards: str, line: str, payout: str) -> None:
    won = winning_line(MISSISSIPPI_STUD, best_high(cards))
    assert won is not None and (won.hand, str(won.payout)) == (line, payout)


def test_mississippi_stud_losing_hands_and_progressive() -> None:
    assert winning_line(MISSISSIPPI_STUD, best_high("5s 5d 2h 3c 8s")) is None
    assert winning_line(MISSISSIPPI_STUD, best_high("As Kd 2h 3c 8s")) is None
    royal = winning_line(MISSISSIPPI_STUD_PROGRESSIVE, best_high("As Ks Qs Js Ts"))
    assert royal is not None and str(royal) == "Royal flush: 100% of meter"
    trips = winning_line(MISSISSIPPI_STUD_PROGRESSIVE, best_high("9s 9d 9h 2c Ts"))
    assert trips is not None and str(trips.payout) == "9 for 1"
    assert winning_line(MISSISSIPPI_STUD_PROGRESSIVE, best_high("9s 9d 2h 2c Ts")) is None


def test_envy_bonus_is_for_other_players_hands_only() -> None:
    hands = {1: best_high("As Ks Qs Js Ts"), 2: best_high("9h Kh Qh Jh Th"), 3: best_high("2s 2d 2h 3c 3d")}
    assert [
        (seat, str(line)) for seat, line in envy_bonuses(MISSISSIPPI_STUD_ENVY_5, player_seat=1, hands_by_seat=hands)
    ] == [(2, "Straight flush: $1,500")]
    assert len(envy_bonuses(MISSISSIPPI_STUD_ENVY_5, player_seat=3, hands_by_seat=hands)) == 2


def test_three_card_bonus_paytable_d() -> None:
    cases = {
        "Ah Kh Qh": "50 to 1",
        "Jh Qh Kh": "40 to 1",
        "7h 7d 7c": "30 to 1",
        "3c 2d Ah": "6 to 1",
        "2h 9h Kh": "3 to 1",
        "2h 2d Kh": "1 to 1",
    }
    for cards, payout in cases.items():
        line = winning_line(THREE_CARD_BONUS_D, three_card(cards))
        assert line is not None and str(line.payout) == payout
    assert winning_line(THREE_CARD_BONUS_D, three_card("2h 9d Kh")) is None


def test_crazy4_paytables() -> None:
    four_aces = crazy4_best("As Ah Ad Ac 2c")
    assert str(winning_line(CRAZY4_SUPER_BONUS, four_aces)) == "Four aces: 200 to 1"
    assert str(winning_line(CRAZY4_SUPER_BONUS, crazy4_best("Ks Kh Kd Kc 2c"))) == "Four-of-a-kind: 30 to 1"
    assert str(winning_line(CRAZY4_SUPER_BONUS, crazy4_best("As 9s 7s 4s 2c"))) == "Flush: 3 to 2"
    assert winning_line(CRAZY4_SUPER_BONUS, crazy4_best("As Ad Ks Kd 2c")) is None
    assert str(winning_line(CRAZY4_QUEENS_UP_D, crazy4_best("Qs Qd 9s 4d 2c"))) == "Pair of queens or better: 1 to 1"
    assert winning_line(CRAZY4_QUEENS_UP_D, crazy4_best("Js Jd 9s 4d 2c")) is None
    assert str(winning_line(CRAZY4_QUEENS_UP_D, crazy4_best("7s 7d 7h 4d 2c")).payout) == "7 to 1"  # type: ignore[union-attr]
    assert str(winning_line(CRAZY4_PROGRESSIVE_A, four_aces)) == "Four aces: 100% of meter"
    assert winning_line(CRAZY4_ENVY_B_1, crazy4_best("9s 8s 7s 6s 2c")) is None  # no straight flush line in B
    assert str(winning_line(CRAZY4_ENVY_B_1, four_aces)) == "Four aces: $100"


def test_paytables_are_named_and_refuse_the_wrong_kind_of_hand() -> None:
    assert len(PAYTABLES) == 19 and PAYTABLES["three_card_bonus_a"].section == "§655a.12(d)"
    with pytest.raises(TypeError):
        winning_line(MISSISSIPPI_STUD, crazy4_best("As Ah Ad Ac 2c"))


# --- Odd chips -----------------------------------------------------------------


def test_tied_high_hands_odd_chip_to_the_highest_card_by_suit() -> None:
    # §637a.12(k)(2)(ii), (iv): spades > hearts > diamonds > clubs
    a, b, c = best_high("Ah Kd Qs Jc 9d"), best_high("As Kc Qd Jd 9h"), best_high("Ad Kh Qc Js 9s")
    assert split_odd_chip(1000, [a, b, c]) == [333, 334, 333]
    assert split_odd_chip(1002, [a, b, c]) == [334, 334, 334]
    assert split_odd_chip(1001, [a, b, c], odd_chip_to=0) == [335, 333, 333]


def test_tied_low_hands_odd_chip_to_the_lowest_card_by_suit() -> None:
    # §637a.12(k)(2)(iii): the lowest low-hand card, clubs lowest
    a, b = low_a5("8h 6d 4c 3s Ah"), low_a5("8d 6c 4d 3c Ac")
    assert split_odd_chip(101, [a, b]) == [50, 51]


def test_high_low_split_odd_chip_to_the_high_hand() -> None:
    high = [best_high("As Ks Qs Js 9s")]
    low = [low_a5("8h 6d 4c 3s As"), low_a5("8d 6c 4d 3c Ac")]
    assert split_high_low(1001, high, low) == ([501], [250, 250])
    assert split_high_low(1003, high, low) == ([502], [250, 251])
    assert split_high_low(1001, high, []) == ([1001], [])


def test_split_refuses_untied_hands_and_too_much_excess() -> None:
    with pytest.raises(ValueError, match="only tied hands"):
        split_odd_chip(100, [best_high("As Ks Qs Js 9s"), best_high("As Kd Qs Js 9s")])
    with pytest.raises(ValueError, match="at least one winner"):
        split_odd_chip(100, [])
    amounts = split_odd_chip(99_999, [best_high("As Kd Qh Jc 9d")] * 7)
    assert sum(amounts) == 99_999 and all(isinstance(x, int) for x in amounts)
