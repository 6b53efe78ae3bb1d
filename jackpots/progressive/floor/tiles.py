"""The progressive meters' tiles on the tablet home page."""

from casino_backoffice.core.floor.tiles import Tile
from casino_backoffice.staff.permissions import Action

TILES = (
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
)
