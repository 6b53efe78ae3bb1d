"""The five cards of a High Hand, chosen from the cards as the table's game deals them.

§637a.16(f): the floorperson 'shall verify the hand and record the value on the High Hand Tracking
Slip'. The slip records the five cards that make the hand (``jackpots.high_hand.services.slip.entry_record``); a
table system or a tablet may give instead what lies on the table, and the evaluator chooses the five:

- Texas Hold'em: the player's 2 hole cards and the 5 board cards, the best five of the seven;
- Omaha (high, high-low): 4 hole cards and the 5 board cards, exactly two of the hole cards and three
  of the board (§637a.12(k));
- Seven-card Stud: the player's 7 cards, the best five;
- Five-card Stud and Draw: the player's 5 cards.
"""

from __future__ import annotations

from casino_backoffice.poker import InvalidCards, best_high, omaha_high, parse_cards
from casino_backoffice.poker.cards import format_cards
from jackpots.high_hand.exceptions import HighHandErrorCode, HighHandRefused
from tables.games import Game

# (hole cards, board cards) of a player's hand at each game; a game not listed: the five cards.
DEALT: dict[str, tuple[int, int]] = {
    Game.HOLDEM: (2, 5),
    Game.OMAHA_HIGH: (4, 5),
    Game.OMAHA_HIGH_LOW: (4, 5),
    Game.SEVEN_CARD_STUD: (7, 0),
    Game.FIVE_CARD_STUD: (5, 0),
    Game.DRAW_HIGH: (5, 0),
    Game.DRAW_LOW: (5, 0),
}
_OMAHA = frozenset({Game.OMAHA_HIGH, Game.OMAHA_HIGH_LOW})


def dealt_at(game: str) -> tuple[int, int]:
    """How many hole cards and board cards a player's hand has at ``game``."""
    return DEALT.get(game, (5, 0))


def game_label(game: str) -> str:
    return Game(game).label if game in Game.values else game


def dealt_words(game: str) -> str:
    """What a hand is picked from at ``game``, in words: '2 hole cards and the 5 board cards'."""
    hole, board = dealt_at(game)
    if board:
        return f"{hole} hole cards and the {board} board cards"
    return f"the player's {hole} cards"


def best_five_words(game: str) -> str:
    """How the evaluator picks the hand at ``game``, in words."""
    if game in _OMAHA:
        return "the evaluator takes exactly two of the hole cards and three of the board (§637a.12(k))"
    return "the evaluator picks the best five"


def high_hand_cards(*, game: str, hole: str, board: str = "") -> str:
    """The five cards of the best high hand of ``hole`` and ``board`` as ``game`` plays them, as text
    ("As Ah Ad Ks Kh"); ``HighHandRefused`` ``cards_invalid`` naming the card or the count otherwise."""
    hole_count, board_count = dealt_at(game)
    where = f"At {game_label(game)} a High Hand is picked from {dealt_words(game)}"
    try:
        hole_cards = parse_cards(hole or "")
        board_cards = parse_cards(board or "")
        if (len(hole_cards), len(board_cards)) != (hole_count, board_count):
            given = f"{len(hole_cards)} hole cards" + (f" and {len(board_cards)} board cards" if board_count else "")
            if not board_count and board_cards:
                given += f" and {len(board_cards)} board cards (the game has no board)"
            raise InvalidCards(f"{where}; {given} given")
        shared = set(hole_cards) & set(board_cards)
        if shared:
            names = " ".join(str(card) for card in sorted(shared))
            raise InvalidCards(f"card {names} is both in the hole and on the board")
        hand = omaha_high(hole_cards, board_cards) if game in _OMAHA else best_high(hole_cards + board_cards)
    except InvalidCards as error:
        raise HighHandRefused(f"The hand: {error}.", code=HighHandErrorCode.CARDS_INVALID) from None
    return format_cards(hand.cards)
