"""The jackpots app's tiles on the tablet home page."""

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
    Tile(
        "Record a High Hand",
        "Record a full house or better you verified at the table on the period's Tracking Slip (§637a.16(f)).",
        "floor:high-hand-record",
        action=Action.HIGH_HAND_RECORD,
    ),
    Tile(
        "High Hand slip",
        "The period's Tracking Slip as it stands: the high hand, ties, voided entries; void a wrong entry.",
        "floor:high-hand-slip",
        action=Action.HIGH_HAND_READ,
    ),
    Tile(
        "Progressive round",
        "Record a round's Progressive Payout Wagers and chips collected, then its winning hands.",
        "floor:progressive-round",
        action=Action.PROGRESSIVE_ROUND_RECORD,
    ),
    Tile(
        "Progressive payouts to validate",
        "Validate each progressive payout and its Envy Bonuses with your PIN (§655a.11(i)(4), §657a.11(e)).",
        "floor:progressive-validate",
        action=Action.PROGRESSIVE_VALIDATE,
    ),
    Tile(
        "Progressive meters",
        "Each meter's amount; reset a meter after a 100% payout; explain wager count exceptions.",
        "floor:progressive-meters",
        action=Action.PROGRESSIVE_RESET,
    ),
    Tile("Display board", "What the players see: jackpot amounts and notices.", "display:index"),
)
