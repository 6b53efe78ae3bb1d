"""The Bad Beat's tiles on the tablet home page."""

from casino_backoffice.core.floor.tiles import Tile
from casino_backoffice.staff.permissions import Action

TILES = (
    Tile(
        "Open a Bad Beat claim",
        "Pick the cards of the hand at the table, name who was dealt in, and sign (§637a.15(f)).",
        "floor:bad-beat-claim",
        action=Action.BAD_BEAT_CLAIM,
    ),
    Tile(
        "Bad Beat claims to decide",
        "Verify or deny each claim with its evidence and the evaluator's verdict (§637a.15(f)).",
        "floor:bad-beat-decide",
        action=Action.BAD_BEAT_VERIFY,
    ),
    Tile(
        "Bad Beat payouts",
        "Pay each share of a verified Bad Beat with the patron's ID, and sign (§637a.15(f)(2), (g)).",
        "floor:bad-beat-payouts",
        action=Action.BAD_BEAT_PAY,
    ),
    Tile(
        "Bad Beat funds and display",
        "Each fund's official record, owed, available and displayed; adjust the display, prepare distributions.",
        "floor:bad-beat-funds",
        action=Action.DISPLAY_ADJUST,
    ),
    Tile(
        "Witness display adjustments",
        "Sign for each Bad Beat display adjustment made in your presence (§637a.15(h)(1)).",
        "floor:bad-beat-witness",
        action=Action.DISPLAY_WITNESS,
    ),
    Tile(
        "Bad Beat claims",
        "The latest claims: the verdict, the cards, and where each one is now.",
        "floor:bad-beat-claims",
        action=Action.BAD_BEAT_READ,
    ),
)
