"""The poker games a room deals and the most players the regulations allow at each.

Seat limits:
- Omaha (high and high-low): "No more than ten players may participate" (§637a.12(b)).
- Five-card Draw (high and low): "No more than eight players" (§637a.13(b)).
- Five-card Stud: "No more than eight players" (§637a.14(b)).
- Mississippi Stud: "betting positions for no more than six players" (§655a.2(a)).
- Crazy 4 Poker: "betting positions for no more than six players" (§657a.2(a)).
- Texas Hold'em (§637a.10) and Seven-card Stud (§637a.11) are not in the extract we hold; we use
  the limits of 58 Pa. Code: ten players for Hold'em, eight for Seven-card Stud.
"""

from __future__ import annotations

from django.db import models


class Game(models.TextChoices):
    HOLDEM = "holdem", "Texas Hold'em"
    OMAHA_HIGH = "omaha_high", "Omaha high"
    OMAHA_HIGH_LOW = "omaha_high_low", "Omaha high-low eight or better"
    DRAW_HIGH = "draw_high", "Five-card Draw high"
    DRAW_LOW = "draw_low", "Five-card Draw low"
    FIVE_CARD_STUD = "five_card_stud", "Five-card Stud"
    SEVEN_CARD_STUD = "seven_card_stud", "Seven-card Stud"
    MISSISSIPPI_STUD = "mississippi_stud", "Mississippi Stud"
    CRAZY_4_POKER = "crazy_4_poker", "Crazy 4 Poker"


MAX_SEATS: dict[Game, int] = {
    Game.HOLDEM: 10,
    Game.OMAHA_HIGH: 10,
    Game.OMAHA_HIGH_LOW: 10,
    Game.DRAW_HIGH: 8,
    Game.DRAW_LOW: 8,
    Game.FIVE_CARD_STUD: 8,
    Game.SEVEN_CARD_STUD: 8,
    Game.MISSISSIPPI_STUD: 6,
    Game.CRAZY_4_POKER: 6,
}

SEAT_LIMIT_SECTION: dict[Game, str] = {
    Game.HOLDEM: "58 Pa. Code §637a.10",
    Game.OMAHA_HIGH: "§637a.12(b)",
    Game.OMAHA_HIGH_LOW: "§637a.12(b)",
    Game.DRAW_HIGH: "§637a.13(b)",
    Game.DRAW_LOW: "§637a.13(b)",
    Game.FIVE_CARD_STUD: "§637a.14(b)",
    Game.SEVEN_CARD_STUD: "58 Pa. Code §637a.11",
    Game.MISSISSIPPI_STUD: "§655a.2(a)",
    Game.CRAZY_4_POKER: "§657a.2(a)",
}

# Banked games (a dealer against each player) pay progressives, not rake (§655a, §657a).
HOUSE_BANKED = frozenset({Game.MISSISSIPPI_STUD, Game.CRAZY_4_POKER})

MIN_SEATS = 2  # and the fewest players a round of poker deals in


def seat_limit_problem(*, game: Game, seats: int) -> str | None:
    """Why a table of ``game`` cannot have ``seats`` seats, or None when it can: never more than the
    game's limit (the sections above, ``SEAT_LIMIT_SECTION``), never fewer than two. The one check of
    the seat limit: table services, rules files and the database constraint (``MAX_SEATS``) agree."""
    game = Game(game)
    if seats > MAX_SEATS[game]:
        return f"seats {seats} is over {game.label}'s limit of {MAX_SEATS[game]} ({SEAT_LIMIT_SECTION[game]})"
    if seats < MIN_SEATS:
        return f"seats {seats} is under the {MIN_SEATS} players a poker table seats"
    return None
