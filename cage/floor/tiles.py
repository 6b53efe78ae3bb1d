"""The cage's tiles on the tablet home page."""

from casino_backoffice.core.floor.tiles import Tile
from casino_backoffice.staff.permissions import Action

TILES = (
    Tile(
        "Count a box",
        "Count a box at a closed table on the number pad, and sign (§637a.15(d)(1)).",
        "floor:cage-count",
        action=Action.COUNT_RECORD,
    ),
    Tile(
        "Notice to compliance",
        "Record the notice to compliance before Bad Beat boxes are counted (§637a.15(d)).",
        "floor:cage-notice",
        action=Action.NOTICE_RECORD,
    ),
    Tile(
        "Witness counts",
        "Witness each count with the surveillance recording reference, and sign.",
        "floor:cage-witness",
        action=Action.COUNT_WITNESS,
    ),
    Tile(
        "Recount a box",
        "Supersede a wrong count still at the table with your recount and the reason, and sign.",
        "floor:cage-recount",
        action=Action.COUNT_RECOUNT,
    ),
    Tile(
        "Carry to the cage",
        "Sign for a sealed container of counts, or locked boxes, and carry it to the cage.",
        "floor:cage-custody",
        action=Action.TRANSPORT_CREATE,
    ),
    Tile(
        "Counts to record",
        "Today's table counts, with table, box, time and who counted and witnessed.",
        "floor:cage-surveillance",
        action=Action.COUNTS_TO_RECORD_READ,
    ),
    Tile(
        "Boxes at the cage",
        "Account for every box security carried to the cage, and sign (§637a.15(d)(2)).",
        "floor:cage-arrivals",
        action=Action.TRANSPORT_ACCOUNT,
    ),
    Tile(
        "Explain variances",
        "Each count variance over the room's threshold, explained in words and signed before the day closes.",
        "floor:cage-variances",
        action=Action.VARIANCE_EXPLAIN,
    ),
    Tile(
        "Close a gaming day",
        "Each open gaming day of your rooms, what still blocks its close, and the close with your PIN (§637a.17).",
        "floor:cage-close-days",
        action=Action.GAMING_DAY_CLOSE,
    ),
)
