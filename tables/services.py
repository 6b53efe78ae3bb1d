"""Every write about rooms and tables."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import time

from django.db import transaction

from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.selectors import manages

from .exceptions import SeatLimitExceeded, TableError
from .games import Game, seat_limit_problem
from .models import PokerRoom, Table
from .time_zones import time_zone_problem


def room_upsert(*, code: str, name: str, timezone_name: str, gaming_day_starts: time, actor: User) -> PokerRoom:
    """Create a room or bring its name, time zone and gaming-day start up to date."""
    action_require(actor=actor, action=Action.ROOM_UPSERT)
    if problem := time_zone_problem(timezone_name):
        raise TableError(f"{problem}.")
    room, _ = PokerRoom.objects.update_or_create(
        code=code, defaults={"name": name, "timezone": timezone_name, "gaming_day_starts": gaming_day_starts}
    )
    return room


def table_upsert(*, room: PokerRoom, number: str, game: Game, seats: int, actor: User) -> Table:
    """Create a table or change its game and seats, within the game's seat limit."""
    action_require(actor=actor, action=Action.TABLE_UPSERT, of=room)
    try:
        game = Game(game)
    except ValueError:
        raise TableError(f"{game!r} is not a game this room deals.") from None
    if problem := seat_limit_problem(game=game, seats=seats):
        raise SeatLimitExceeded(f"Table {number}: {problem}.")
    table, _ = Table.objects.update_or_create(room=room, number=number, defaults={"game": game, "seats": seats})
    return table


def table_set_open(*, table: Table, is_open: bool, actor: User) -> Table:
    """Open or close a table for play: a floorperson or above."""
    action_require(actor=actor, action=Action.TABLE_OPEN_CLOSE, of=table)
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.is_open != is_open:
            locked.is_open = is_open
            # The table's history keeps who and when (django-simple-history's reason and user of a change),
            # whether the change came from a page, the API or a task.
            locked._change_reason = f"{'opened' if is_open else 'closed'} by {actor}"  # type: ignore[attr-defined]
            locked._history_user = actor  # type: ignore[attr-defined]
            locked.save(update_fields=["is_open"])
    return locked


def room_staff_set(*, room: PokerRoom, staff: Iterable[User], actor: User) -> PokerRoom:
    """Say who works in ``room`` (``PokerRoom.staff``): an administrator, who manages the staff. A person
    assigned to rooms works only in those; a person assigned to none works nowhere. An administrator of
    the room puts in it or takes out of it only people of their rooms, never themselves; an all-rooms
    administrator anyone but themselves (issue 25, item 2: a room-B administrator pulling a room-A
    person into room B would then manage them)."""
    action_require(actor=actor, action=Action.STAFF_MANAGE, of=room)
    staff = list(staff)
    with transaction.atomic():
        locked = PokerRoom.objects.select_for_update().get(pk=room.pk)
        changed = set(locked.staff.all()) ^ set(staff)
        if outside := sorted(str(person) for person in changed if person.pk == actor.pk or not manages(actor, person)):
            raise ActionNotPermitted(
                f"{actor} cannot put in room {room.code} or take out of it {', '.join(outside)}: an administrator "
                "of their rooms does, and nobody for themselves. Nothing was changed.",
                action=Action.STAFF_MANAGE,
            )
        locked.staff.set(staff)
    return locked
