"""Every write about rooms and tables."""

from __future__ import annotations

from datetime import time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import transaction

from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require

from .exceptions import SeatLimitExceeded, TableError
from .games import MAX_SEATS, MIN_SEATS, SEAT_LIMIT_SECTION, Game
from .models import PokerRoom, Table


def time_zone_check(timezone_name: str) -> None:
    """A room's time zone is one the time-zone database knows: its gaming day is computed in it."""
    try:
        ZoneInfo(timezone_name)
    except (ZoneInfoNotFoundError, ValueError):
        raise TableError(f"{timezone_name!r} is not a time zone (use a name such as America/New_York).") from None


def room_upsert(*, code: str, name: str, timezone_name: str, gaming_day_starts: time, actor: User) -> PokerRoom:
    """Create a room or bring its name, time zone and gaming-day start up to date."""
    action_require(actor=actor, action=Action.ROOM_UPSERT)
    time_zone_check(timezone_name)
    room, _ = PokerRoom.objects.update_or_create(
        code=code, defaults={"name": name, "timezone": timezone_name, "gaming_day_starts": gaming_day_starts}
    )
    return room


def check_seats(*, game: Game, seats: int) -> None:
    """A table never seats more than its game allows, nor fewer than two."""
    game = Game(game)
    limit = MAX_SEATS[game]
    if seats > limit:
        raise SeatLimitExceeded(
            f"{game.label} seats at most {limit} players ({SEAT_LIMIT_SECTION[game]}); {seats} were asked for."
        )
    if seats < MIN_SEATS:
        raise SeatLimitExceeded(f"A poker table seats at least {MIN_SEATS} players; {seats} were asked for.")


def table_upsert(*, room: PokerRoom, number: str, game: Game, seats: int, actor: User) -> Table:
    """Create a table or change its game and seats, within the game's seat limit."""
    action_require(actor=actor, action=Action.TABLE_UPSERT)
    try:
        game = Game(game)
    except ValueError:
        raise TableError(f"{game!r} is not a game this room deals.") from None
    check_seats(game=game, seats=seats)
    table, _ = Table.objects.update_or_create(room=room, number=number, defaults={"game": game, "seats": seats})
    return table


def table_set_open(*, table: Table, is_open: bool, actor: User) -> Table:
    """Open or close a table for play: a floorperson or above."""
    action_require(actor=actor, action=Action.TABLE_OPEN_CLOSE)
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.is_open != is_open:
            locked.is_open = is_open
            locked._change_reason = f"{'opened' if is_open else 'closed'} by {actor}"  # type: ignore[attr-defined]
            locked.save(update_fields=["is_open"])
    return locked
