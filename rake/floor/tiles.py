"""The rake app's tiles on the tablet home page."""

from casino_backoffice.core.floor.tiles import Tile
from casino_backoffice.staff.permissions import Action

TILES = (
    Tile(
        "Log a round",
        "Record a round of play: its rake and each jackpot drop, with the rule behind each.",
        "floor:round-log",
        action=Action.ROUND_RECORD,
    ),
    Tile(
        "Void a round",
        "Missing or extra cards in a round already recorded: void it, its rake and drops returned (§637a.18(i)).",
        "floor:round-void-list",
        action=Action.ROUND_VOID,
    ),
    Tile(
        "Rake calculator",
        "Enter a pot: see the rake and each jackpot drop, and the rule behind each.",
        "floor:rake-calculator",
        action=Action.RAKE_CALCULATE,
    ),
    Tile(
        "Time charges",
        "Verify time charges with your PIN (§637a.17(b)(3)).",
        "floor:time-charges",
        action=Action.TIME_CHARGE_VERIFY,
    ),
)
