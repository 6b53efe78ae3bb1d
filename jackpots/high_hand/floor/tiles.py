"""The High Hand's tiles on the tablet home page."""

from casino_backoffice.core.floor.tiles import Tile
from casino_backoffice.staff.permissions import Action

TILES = (
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
)
