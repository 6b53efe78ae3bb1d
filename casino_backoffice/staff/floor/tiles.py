"""The staff app's tiles on the tablet home page."""

from casino_backoffice.core.floor.tiles import Tile

from ..permissions import Action

TILES = (
    Tile("My signing PIN", "Set or change the PIN you sign with.", "floor:pin"),
    Tile(
        "My second factor",
        "A code from an app on your phone, asked at sign-in after your password.",
        "floor:second-factor",
        action=Action.SECOND_FACTOR_USE,
    ),
    Tile(
        "Back office", "Counts, verifications, payouts, reports (admin).", "admin:index", action=Action.BACK_OFFICE_USE
    ),
)
