"""Exact returns of the paytables paid on the player's cards alone (§655a.12, §657a.12), and the batch evaluators.

The full 2,598,960-hand enumerations are marked ``exhaustive``; the three-card ones take milliseconds.
"""

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from casino_backoffice.poker import (
    HandCategory,
    InvalidCards,
    crazy4_batch,
    crazy4_best,
    parse_cards,
    three_card,
    three_card_batch,
)
from casino_backoffice.poker.crazy4 import crazy4_strength
from casino_backoffice.poker.paytables import (
    CRAZY4_PROGRESSIVE_A,
    CRAZY4_PROGRESSIVE_B,
    CRAZY4_QUEENS_UP_A,
    CRAZY4_QUEENS_UP_B,
    CRAZY4_QUEENS_UP_C,
    CRAZY4_QUEENS_UP_D,
    CRAZY4_SUPER_BONUS,
    MISSISSIPPI_STUD,
    MISSISSIPPI_STUD_ENVY_1,
    MISSISSIPPI_STUD_PROGRESSIVE,
    PAYTABLES,
    THREE_CARD_BONUS_A,
    THREE_CARD_BONUS_B,
    THREE_CARD_BONUS_C,
    THREE_CARD_BONUS_D,
    Paytable,
)
from casino_backoffice.poker.returns import (
    ReturnNotSettledByCards,
    all_hands,
    paytable_return,
    percent,
    return_with_meter,
)
from casino_backoffice.poker.three_card import three_card_strength

C = HandCategory
FIVE_CARD_HANDS = comb(52, 5)
THREE_CARD_HANDS = comb(52, 3)
_THREE_CARD_BONUSES = (THREE_CARD_BONUS_A, THREE_CARD_BONUS_B, THREE_CARD_BONUS_C, THREE_CARD_BONUS_D)


def _hands_by_line(table: Paytable) -> dict[str, int]:
    return {line.line.hand: line.hands for line in paytable_return(table).lines}


# --- Three Card Bonus, §655a.12(d): all 22,100 sets of three community cards --------------------------


def test_three_card_bonus_counts_every_three_card_hand() -> None:
    result = paytable_return(THREE_CARD_BONUS_A)

    assert result.hands_total == THREE_CARD_HANDS == 22_100
    assert _hands_by_line(THREE_CARD_BONUS_A) == {
        "Mini-royal": 4,
        "Straight flush": 44,
        "Three-of-a-kind": 52,
        "Straight": 720,
        "Flush": 1_096,
        "Pair": 3_744,
    }
    assert result.losing_hands == 16_440
    assert [line.probability for line in result.lines] == [Fraction(n, 22_100) for n in (4, 44, 52, 720, 1_096, 3_744)]


@pytest.mark.parametrize(
    ("table", "mini_royal", "straight", "flush"),
    [
        (THREE_CARD_BONUS_A, 40, 6, 4),
        (THREE_CARD_BONUS_B, 40, 5, 4),
        (THREE_CARD_BONUS_C, 50, 5, 4),
        (THREE_CARD_BONUS_D, 50, 6, 3),
    ],
)
def test_three_card_bonus_exact_return(table: Paytable, mini_royal: int, straight: int, flush: int) -> None:
    # "W to 1" returns the win and the wager: W + 1 per unit; a losing hand returns nothing.
    returned = 4 * (mini_royal + 1) + 44 * 41 + 52 * 31 + 720 * (straight + 1) + 1_096 * (flush + 1) + 3_744 * 2

    result = paytable_return(table)

    assert result.exact_return == result.fixed_return == Fraction(returned, 22_100)
    assert result.house_edge == 1 - Fraction(returned, 22_100)
    assert not result.has_meter and result.meter_lines == () and result.meter_probability == 0
    assert sum(line.returned or 0 for line in result.lines) == result.fixed_return


def test_three_card_bonus_returns_as_percentages() -> None:
    assert [percent(paytable_return(t).exact_return or Fraction(0)) for t in _THREE_CARD_BONUSES] == [
        "97.6833%",
        "94.4253%",
        "94.6063%",
        "92.9050%",
    ]


@pytest.mark.parametrize("table", _THREE_CARD_BONUSES, ids=lambda t: t.name)
def test_three_card_bonus_batch_equals_per_call(table: Paytable) -> None:
    assert paytable_return(table, method="per_call") == paytable_return(table, use_cache=False)


# --- Mississippi Stud progressive, §655a.12(c)(1)-(2): every five cards, the highest hand only ---------


@pytest.mark.exhaustive
def test_mississippi_stud_progressive_counts_and_fixed_return() -> None:
    result = paytable_return(MISSISSIPPI_STUD_PROGRESSIVE)

    assert result.hands_total == FIVE_CARD_HANDS == 2_598_960
    assert _hands_by_line(MISSISSIPPI_STUD_PROGRESSIVE) == {
        "Royal flush": 4,
        "Straight flush": 36,
        "Four-of-a-kind": 624,
        "Full house": 3_744,
        "Flush": 5_108,
        "Straight": 10_200,
        "Three-of-a-kind": 54_912,
    }
    # "W for 1" includes the wager: W per unit.
    fixed = Fraction(624 * 300 + 3_744 * 50 + 5_108 * 40 + 10_200 * 30 + 54_912 * 9, FIVE_CARD_HANDS)
    assert result.fixed_return == fixed
    assert result.exact_return is None and result.house_edge is None
    assert result.has_meter
    assert [line.line.hand for line in result.meter_lines] == ["Royal flush", "Straight flush"]
    assert [line.returned for line in result.meter_lines] == [None, None]
    assert result.meter_probability == Fraction(40, FIVE_CARD_HANDS)


@pytest.mark.exhaustive
def test_mississippi_stud_progressive_return_at_a_meter() -> None:
    result = paytable_return(MISSISSIPPI_STUD_PROGRESSIVE)

    # A $1 wager, the meter at $10,000: a royal flush pays 100% of it, a straight flush 10%.
    with_meter = return_with_meter(result, meter_cents=1_000_000, wager_cents=100)

    assert with_meter == result.fixed_return + Fraction(4 * 10_000 + 36 * 1_000, FIVE_CARD_HANDS)
    assert return_with_meter(result, meter_cents=0, wager_cents=100) == result.fixed_return


@pytest.mark.exhaustive
def test_mississippi_stud_envy_bonus_frequencies_have_no_return() -> None:
    result = paytable_return(MISSISSIPPI_STUD_ENVY_1)

    assert _hands_by_line(MISSISSIPPI_STUD_ENVY_1) == {"Royal flush": 4, "Straight flush": 36}
    assert result.exact_return is None and result.fixed_return == 0
    with pytest.raises(ValueError, match="pays fixed amounts"):
        return_with_meter(result, meter_cents=1_000_000, wager_cents=100)


@pytest.mark.exhaustive
def test_mississippi_stud_progressive_batch_equals_per_call() -> None:
    assert paytable_return(MISSISSIPPI_STUD_PROGRESSIVE, method="per_call") == paytable_return(
        MISSISSIPPI_STUD_PROGRESSIVE
    )


# --- Crazy 4 Poker, §657a.12(c)-(d): the best four of every five cards ---------------------------------

# The categories as tests/poker/test_exhaustive.py counts them with the reference evaluator; the pair of
# queens or better counted once with tests/poker/reference.py over all 2,598,960 hands.
QUEENS_UP_COUNTS = {
    "Four-of-a-kind": 624,
    "Straight flush": 2_072,
    "Three-of-a-kind": 58_656,
    "Flush": 114_616,
    "Straight": 101_808,
    "Two pair": 123_552,
    "Pair of queens or better": 242_916,
}


@pytest.mark.exhaustive
def test_crazy4_progressive_four_aces_and_four_of_a_kind() -> None:
    result = paytable_return(CRAZY4_PROGRESSIVE_A)

    hands = _hands_by_line(CRAZY4_PROGRESSIVE_A)
    assert hands == {"Four aces": 48, "Four-of-a-kind": 576, "Straight flush": 2_072, "Three-of-a-kind": 58_656}
    assert hands["Four aces"] + hands["Four-of-a-kind"] == 624 == 13 * 48
    assert sum(hands.values()) + result.losing_hands == result.hands_total == FIVE_CARD_HANDS
    assert result.meter_probability == Fraction(48, FIVE_CARD_HANDS)
    assert result.fixed_return == Fraction(576 * 300 + 2_072 * 100 + 58_656 * 9, FIVE_CARD_HANDS)
    assert paytable_return(CRAZY4_PROGRESSIVE_B).fixed_return == Fraction(
        576 * 300 + 2_072 * 100 + 58_656 * 15, FIVE_CARD_HANDS
    )


@pytest.mark.exhaustive
@pytest.mark.parametrize(
    ("table", "straight_flush", "three"),
    [
        (CRAZY4_QUEENS_UP_A, 30, 9),
        (CRAZY4_QUEENS_UP_B, 40, 8),
        (CRAZY4_QUEENS_UP_C, 30, 8),
        (CRAZY4_QUEENS_UP_D, 40, 7),
    ],
    ids=lambda v: v.name if isinstance(v, Paytable) else str(v),
)
def test_crazy4_queens_up_exact_return(table: Paytable, straight_flush: int, three: int) -> None:
    n = QUEENS_UP_COUNTS
    returned = (
        n["Four-of-a-kind"] * 51
        + n["Straight flush"] * (straight_flush + 1)
        + n["Three-of-a-kind"] * (three + 1)
        + n["Flush"] * 5
        + n["Straight"] * 4
        + n["Two pair"] * 3
        + n["Pair of queens or better"] * 2
    )

    result = paytable_return(table)

    assert _hands_by_line(table) == QUEENS_UP_COUNTS
    assert sum(QUEENS_UP_COUNTS.values()) + result.losing_hands == FIVE_CARD_HANDS
    assert result.exact_return == Fraction(returned, FIVE_CARD_HANDS)
    assert result.house_edge == 1 - Fraction(returned, FIVE_CARD_HANDS)


@pytest.mark.exhaustive
def test_crazy4_queens_up_returns_as_percentages() -> None:
    tables = (CRAZY4_QUEENS_UP_A, CRAZY4_QUEENS_UP_B, CRAZY4_QUEENS_UP_C, CRAZY4_QUEENS_UP_D)
    assert [percent(paytable_return(t).exact_return or Fraction(0)) for t in tables] == [
        "96.9394%",
        "95.4797%",
        "94.6825%",
        "93.2228%",
    ]


@pytest.mark.exhaustive
def test_crazy4_queens_up_batch_equals_per_call() -> None:
    assert paytable_return(CRAZY4_QUEENS_UP_A, method="per_call") == paytable_return(CRAZY4_QUEENS_UP_A)


# --- What the player's cards alone do not settle, and other refusals ------------------------------------


@pytest.mark.parametrize("table", [MISSISSIPPI_STUD, CRAZY4_SUPER_BONUS], ids=lambda t: t.name)
def test_wagers_settled_by_decisions_or_the_dealer_are_refused(table: Paytable) -> None:
    with pytest.raises(ReturnNotSettledByCards, match=r"§65[57]a\.11"):
        paytable_return(table)


def test_an_unknown_method_is_refused() -> None:
    with pytest.raises(ValueError, match="'batch' or 'per_call'"):
        paytable_return(THREE_CARD_BONUS_A, method="fast")


def test_return_with_meter_refuses_a_wager_of_nothing_and_a_negative_meter() -> None:
    result = paytable_return(THREE_CARD_BONUS_A)

    with pytest.raises(ValueError, match="positive amount"):
        return_with_meter(result, meter_cents=1_000_000, wager_cents=0)
    with pytest.raises(ValueError, match="non-negative"):
        return_with_meter(result, meter_cents=-1, wager_cents=100)
    assert return_with_meter(result, meter_cents=1_000_000, wager_cents=100) == result.exact_return


def test_results_are_kept_per_paytable_for_the_batch_method_only() -> None:
    assert paytable_return(THREE_CARD_BONUS_B) is paytable_return(PAYTABLES["three_card_bonus_b"])
    assert paytable_return(THREE_CARD_BONUS_B, method="per_call") is not paytable_return(THREE_CARD_BONUS_B)
    assert paytable_return(THREE_CARD_BONUS_B, use_cache=False) is not paytable_return(THREE_CARD_BONUS_B)


def test_a_paytable_outside_paytables_is_not_mistaken_for_its_namesake() -> None:
    lines = THREE_CARD_BONUS_A.lines[:1]
    mini_royal_only = Paytable(THREE_CARD_BONUS_A.name, "§655a.12(d)", THREE_CARD_BONUS_A.hand_type, lines)

    result = paytable_return(mini_royal_only)

    assert [line.hands for line in result.lines] == [4]
    assert result.exact_return == Fraction(4 * 41, 22_100)


def test_percent_rounds_half_away_from_zero_without_floats() -> None:
    assert percent(Fraction(5_397, 5_525)) == "97.6833%"
    assert percent(Fraction(1, 8), places=1) == "12.5%"
    assert percent(Fraction(1, 16), places=2) == "6.25%"
    assert percent(Fraction(1, 16), places=1) == "6.3%"
    assert percent(Fraction(-1, 16), places=1) == "-6.3%"
    assert percent(Fraction(1, 10**9)) == "0.0000%"
    assert percent(Fraction(3), places=0) == "300%"
    with pytest.raises(ValueError, match="non-negative number"):
        percent(Fraction(1, 2), places=-1)


def test_all_hands_lists_every_set_once_in_order() -> None:
    hands = all_hands(3)

    assert hands.shape == (22_100, 3)
    assert (np.diff(hands, axis=1) > 0).all()
    assert len({tuple(row) for row in hands.tolist()}) == 22_100
    assert all_hands(5).shape == (FIVE_CARD_HANDS, 5)


# --- crazy4_batch and three_card_batch --------------------------------------------------------------------


def _random_rows(size: int, rows: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((rows, 52)), axis=1)[:, :size]


@pytest.mark.parametrize("size", [5, 4])
def test_crazy4_batch_equals_crazy4_strength_on_random_rows(size: int) -> None:
    cards = _random_rows(size, 5_000, seed=657)

    assert crazy4_batch(cards).tolist() == [crazy4_strength(tuple(row)) for row in cards.tolist()]


@pytest.mark.parametrize(
    ("text", "category", "top"),
    [
        ("Ac 2c 3c 4c Kd", C.STRAIGHT_FLUSH, 2),  # A-2-3-4, the lowest straight flush (four high)
        ("As Ah Ad Ac 2c", C.FOUR_OF_A_KIND, 12),
        ("Ks Qs Js Ts As", C.STRAIGHT_FLUSH, 12),
        ("Kc Ac 2c 3c 9d", C.FLUSH, 12),  # never around the corner
        ("9h 9d 9c 5s 2d", C.THREE_OF_A_KIND, 7),
        ("Ac 2c 3c 4c", C.STRAIGHT_FLUSH, 2),
    ],
)
def test_crazy4_batch_edge_cases(text: str, category: HandCategory, top: int) -> None:
    cards = parse_cards(text)
    best = crazy4_best(cards)

    assert crazy4_batch([cards]).tolist() == [best.strength]
    assert (best.category, best.ranks[0]) == (category, top)


def test_three_card_batch_equals_three_card_strength_on_every_hand() -> None:
    cards = all_hands(3)

    assert three_card_batch(cards).tolist() == [three_card_strength(tuple(row)) for row in cards.tolist()]


@pytest.mark.parametrize(
    ("text", "category"),
    [("Qh Kh Ah", C.MINI_ROYAL), ("Ah 2h 3h", C.STRAIGHT_FLUSH), ("3d 2c Ah", C.STRAIGHT), ("Kd As 2c", C.HIGH_CARD)],
)
def test_three_card_batch_edge_cases(text: str, category: HandCategory) -> None:
    cards = parse_cards(text)

    assert three_card_batch([cards]).tolist() == [three_card(cards).strength]
    assert three_card(cards).category is category


def test_batches_take_any_integer_dtype_and_empty_input() -> None:
    five, three = [[48, 49, 50, 51, 0]], [[40, 44, 48]]
    for dtype in (np.int8, np.uint8, np.int16, np.int32, np.int64):
        assert crazy4_batch(np.array(five, dtype=dtype)).tolist() == [crazy4_strength(tuple(five[0]))]
        assert three_card_batch(np.array(three, dtype=dtype)).tolist() == [three_card_strength(tuple(three[0]))]
    assert crazy4_batch(np.zeros((0, 5), dtype=np.int64)).shape == (0,)
    assert three_card_batch(np.zeros((0, 3), dtype=np.int64)).shape == (0,)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([[0, 1, 2]], "crazy4_batch takes an N x 4 or 5 array"),
        ([[0, 1, 2, 3, 4, 5]], "crazy4_batch takes an N x 4 or 5 array"),
        ([0, 1, 2, 3, 4], "crazy4_batch takes an N x 4 or 5 array"),
        ([[0, 1, 2, 3, 52]], "outside 0-51"),
        ([[0, 1, 2, 3, -1]], "outside 0-51"),
        ([[0, 1, 2, 3, 4], [0, 1, 2, 3, 3]], "row 1 holds a card twice"),
        ([[0.0, 1, 2, 3, 4]], "integer card indices"),
    ],
)
def test_crazy4_batch_refuses_bad_input(rows: list, message: str) -> None:
    cards = np.array(rows)
    before = cards.copy()

    with pytest.raises(InvalidCards, match=message):
        crazy4_batch(cards)
    assert np.array_equal(cards, before)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([[0, 1, 2, 3]], "three_card_batch takes an N x 3 array"),
        ([[0, 1]], "three_card_batch takes an N x 3 array"),
        ([[0, 1, 52]], "outside 0-51"),
        ([[5, 9, 4], [7, 7, 8]], "row 1 holds a card twice"),
        ([[0.5, 1, 2]], "integer card indices"),
    ],
)
def test_three_card_batch_refuses_bad_input(rows: list, message: str) -> None:
    cards = np.array(rows)
    before = cards.copy()

    with pytest.raises(InvalidCards, match=message):
        three_card_batch(cards)
    assert np.array_equal(cards, before)
