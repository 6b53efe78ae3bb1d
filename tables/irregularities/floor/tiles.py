"""The irregularities' tiles on the tablet home page."""

from casino_backoffice.core.floor.tiles import Tile
from casino_backoffice.staff.permissions import Action

TILES = (
    Tile(
        "Report an irregularity",
        "A misdeal, an exposed card, a dispute at your table: report it with the cards involved, and sign (§637a.18).",
        "floor:irregularity-report",
        action=Action.IRREGULARITY_REPORT,
    ),
    Tile(
        "Rule on irregularities",
        "Each irregularity awaiting its ruling: rule in words and sign; a dispute is a shift supervisor's (§637a.18(a)).",
        "floor:irregularity-rule",
        action=Action.IRREGULARITY_RULE,
    ),
    Tile(
        "Irregularities today",
        "The gaming day's irregularities at your tables, ruled or awaiting a ruling.",
        "floor:irregularity-log",
        action=Action.IRREGULARITIES_READ,
    ),
)
