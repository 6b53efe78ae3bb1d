"""The devices' and decks' tile on the tablet home page."""

from casino_backoffice.core.floor.tiles import Tile
from casino_backoffice.staff.permissions import Action

TILES = (
    Tile(
        "Devices and decks",
        "Each table's shuffler and shoe: a failure, out of order, back in service; a banked table's decks "
        "put into play and verified (§637a.18(q)-(r), §655a.4(a)).",
        "floor:equipment",
        action=Action.EQUIPMENT_READ,
    ),
)
