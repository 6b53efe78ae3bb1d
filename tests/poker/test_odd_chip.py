"""The odd chip of a split pot does not depend on the order the cards were typed (§637a.12(k)(2))."""

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino_backoffice.poker import (
    AceToFiveLow,
    BadBeatQualifier,
    LowHand,
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
from casino_backoffice.poker.hands import HandValue

Cards = Sequence[int]
H = TypeVar("H", bound=HandValue)


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


# --- The split never depends on the order of the cards ---------------------------------------------


@dataclass(frozen=True)
class Game:
    """How a game deals (cards per player, board cards) and which hands it splits the pot between."""

    name: str
    hole: int
    board: int
    max_players: int
    high: Callable[[Cards, Cards], HandValue] | None
    low: Callable[[Cards, Cards], LowHand | None] | None = None


GAMES = [
    Game("holdem", 2, 5, 10, lambda hole, board: best_high((*hole, *board))),
    Game("omaha_high", 4, 5, 10, omaha_high),
    Game("omaha_high_low", 4, 5, 10, omaha_high, omaha_low8),
    Game("seven_card_stud", 7, 0, 7, lambda hole, board: best_high(hole)),
    Game("five_card_stud_or_draw_high", 5, 0, 8, lambda hole, board: best_high(hole)),
    Game("draw_low_ace_to_five", 5, 0, 8, None, lambda hole, board: low_a5(hole)),
    Game("draw_low_deuce_to_seven", 5, 0, 8, None, lambda hole, board: low_27(hole)),
]
# Amounts whose halves leave every remainder between up to ten tied players.
AMOUNTS_CENTS = range(100, 140)


@dataclass(frozen=True)
class Deal:
    game: Game
    holes: tuple[tuple[int, ...], ...]
    board: tuple[int, ...]


@st.composite
def deals(draw: st.DrawFn, game: Game) -> Deal:
    """A deal in a few neighbouring ranks, the hole cards in fewer of them: tied hands that can be
    made with cards of other suits (straights above all) are common, as they are rare in a full deck."""
    players = draw(st.integers(2, 3) | st.integers(2, game.max_players))
    hole_ranks = -(-players * game.hole // 4)
    size = min(13, hole_ranks + 3)
    start = draw(st.integers(-1, 13 - size))  # -1: the ace below the deuce
    window = [rank % 13 for rank in range(start, start + size)]
    in_hole = draw(st.permutations(window))[:hole_ranks]
    hole_cards = draw(st.permutations([4 * rank + suit for rank in in_hole for suit in range(4)]))
    hole_cards = hole_cards[: players * game.hole]
    rest = [card for card in range(52) if card not in hole_cards]
    near = [card for card in rest if card >> 2 in window]
    board = draw(st.permutations(near if len(near) >= game.board else rest))[: game.board]
    holes = tuple(tuple(hole_cards[game.hole * p : game.hole * (p + 1)]) for p in range(players))
    return Deal(game, holes, tuple(board))


def _winners(hands: Sequence[H | None]) -> list[tuple[int, H]]:
    """The seats and hands of the best hands (a low that does not qualify is ``None``)."""
    present = [hand for hand in hands if hand is not None]
    return [(seat, hand) for seat, hand in enumerate(hands) if hand is not None and hand == max(present)]


def _split(deal: Deal) -> dict[int, list[int]]:
    """Every player's share of each amount, in the order the players are listed."""
    game = deal.game
    high_winners = _winners([game.high(hole, deal.board) for hole in deal.holes] if game.high else [])
    low_winners = _winners([game.low(hole, deal.board) for hole in deal.holes] if game.low else [])
    highs, lows = [hand for _, hand in high_winners], [hand for _, hand in low_winners]
    shares = {amount: [0] * len(deal.holes) for amount in AMOUNTS_CENTS}
    for amount in AMOUNTS_CENTS:
        if highs:
            high, low = split_high_low(amount, highs, lows)
        else:
            high, low = [], split_odd_chip(amount, lows)
        for (seat, _), cents in [*zip(high_winners, high, strict=True), *zip(low_winners, low, strict=True)]:
            shares[amount][seat] += cents
    return shares


def _same_cards_tie(deal: Deal) -> bool:
    """Whether two winning hands are the very same cards (both play the board): the listed order decides."""
    game = deal.game
    for evaluate in (game.high, game.low):
        if evaluate is None:
            continue
        cards = [frozenset(hand.cards) for _, hand in _winners([evaluate(hole, deal.board) for hole in deal.holes])]
        if len(set(cards)) < len(cards):
            return True
    return False


def _reordered(deal: Deal, holes: Sequence[Cards], board: Cards, seating: Sequence[int]) -> Deal:
    return Deal(deal.game, tuple(tuple(holes[p]) for p in seating), tuple(board))


def _by_player(shares: dict[int, list[int]], seating: Sequence[int]) -> dict[int, list[int]]:
    """Shares of a reordered table back in the original players' order."""
    return {amount: [cents[seating.index(p)] for p in range(len(seating))] for amount, cents in shares.items()}


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
@given(data=st.data())
def test_the_split_never_depends_on_the_order_of_the_cards_or_of_the_players(game: Game, data: st.DataObject) -> None:
    # given a deal and every player's share of each amount
    deal = data.draw(deals(game))
    shares = _split(deal)
    # when every player's cards and the board are reversed, or reordered at random, and the players
    # too unless two of them tie with the very same cards (then the Rules Submission's order decides)
    players = list(range(len(deal.holes)))
    seating = players if _same_cards_tie(deal) else data.draw(st.permutations(players))
    reversed_cards = _reordered(deal, [hole[::-1] for hole in deal.holes], deal.board[::-1], seating)
    shuffled = _reordered(
        deal, [data.draw(st.permutations(hole)) for hole in deal.holes], data.draw(st.permutations(deal.board)), seating
    )
    # then every player's share of every amount is the same
    assert _by_player(_split(reversed_cards), seating) == shares
    assert _by_player(_split(shuffled), seating) == shares


def _low_cards(hole: Cards, board: Cards) -> tuple[int, ...] | None:
    low = omaha_low8(hole, board)
    return None if low is None else low.cards


def test_every_order_of_the_hole_cards_and_of_the_board_chooses_the_same_omaha_cards() -> None:
    # given seeded deals from five ranks (in 14 of these 40 the best high hand can be made more than one way)
    rng = random.Random(637_12)
    for _ in range(40):
        deck = [4 * rank + suit for rank in rng.sample(range(13), 5) for suit in range(4)]
        cards = rng.sample(deck, 9)
        hole, board = cards[:4], cards[4:]
        # when the hole cards are typed in each of their 24 orders, against the board in five
        boards = [board[i:] + board[:i] for i in range(5)]
        chosen = {(omaha_high(order, b).cards, _low_cards(order, b)) for order in permutations(hole) for b in boards}
        # then one grouping plays, high and low
        assert len(chosen) == 1, (hole, board, chosen)


few_ranks = st.lists(st.integers(0, 19), min_size=7, max_size=7, unique=True).map(lambda cards: [c + 20 for c in cards])


@given(few_ranks, st.data())
def test_the_cards_shown_for_crazy4_and_for_a_bad_beat_do_not_depend_on_their_order(
    cards: list[int], data: st.DataObject
) -> None:
    # given cards of five ranks (ties of several suits are common), and the same cards reordered
    reordered = data.draw(st.permutations(cards))
    hole, board = cards[:2], cards[2:]
    other_hole, other_board = sorted(hole, key=reordered.index), sorted(board, key=reordered.index)
    rule = BadBeatQualifier("22233", both_hole_cards_play=True)
    # when Crazy 4 Poker's best four of five and the Bad Beat hand using both hole cards are chosen
    # then the same cards play
    assert crazy4_best(cards[:5]).cards == crazy4_best(sorted(cards[:5], key=reordered.index)).cards
    first = rule.check(losing_hole=hole, winning_hole="2c 2d", board=board, players_dealt=6).hand
    second = rule.check(losing_hole=other_hole, winning_hole="2c 2d", board=other_board, players_dealt=6).hand
    assert first is not None and second is not None and first.cards == second.cards
