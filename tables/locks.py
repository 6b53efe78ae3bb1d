"""The gaming-day lock of a room: what is recorded for a gaming day and the close of that day never
interleave.

§637a.17: the poker revenue of a gaming day is the rake of its rounds and the time charges verified
for it; once finance closes the day, its revenue report and official record are final. A round, a
time charge or a count checks that its day is open and then writes; without a lock, finance could
close the day between the check and the commit. So every service that records money for a gaming day
takes the room's gaming-day lock shared (``gaming_day_hold_open``) before it checks, until it commits;
the close takes it exclusive (``gaming_days_lock``) before it checks what still blocks the day.
Shared holders never wait for each other; a close waits a moment for the writes under way.

On PostgreSQL it is a transaction-level advisory lock; SQLite runs one write transaction at a time
(``transaction_mode = IMMEDIATE``), which serialises them already.
"""

from __future__ import annotations

from datetime import date

from django.db import connection

from .exceptions import GamingDayClosed
from .models import PokerRoom
from .selectors import gaming_day_close_of

# Advisory locks are keyed by two integers: this namespace (§637a.17, the revenue of the day) and the
# room's id. The rules lock (``rake.locks``) is namespace 637, the schedule's (637, 0).
GAMING_DAY_LOCK_NAMESPACE = 63717


def gaming_days_lock(*, room: PokerRoom, exclusive: bool) -> None:
    """Take the room's gaming-day lock until the end of the current transaction."""
    if not connection.in_atomic_block:
        raise RuntimeError("The gaming-day lock is held until commit: take it inside a transaction.")
    if connection.vendor != "postgresql":
        return
    function = "pg_advisory_xact_lock" if exclusive else "pg_advisory_xact_lock_shared"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {function}(%s, %s)", [GAMING_DAY_LOCK_NAMESPACE, room.pk])


def gaming_day_hold_open(*, room: PokerRoom, day: date, what: str, held: set[tuple[int, date]] | None = None) -> None:
    """Hold ``day`` of ``room`` open until the caller's transaction commits, or refuse: a closed gaming
    day stays closed (§637a.17, the revenue of the day), so nothing more is recorded for it
    (``GamingDayClosed``, 409 ``gaming_day_closed``). ``what`` names the thing refused in the message
    ("Round at table T1"). ``held``: the days a batch already holds (the lock is kept to its commit)."""
    if held is not None and (room.pk, day) in held:
        return
    gaming_days_lock(room=room, exclusive=False)
    closed = gaming_day_close_of(room=room, day=day)
    if closed is not None:
        by, at = closed
        raise GamingDayClosed(
            f"{what}: gaming day {day.isoformat()} of room {room.code} was closed by {by} at {at}, and a closed "
            "day stays closed (§637a.17): nothing was recorded. If the time or the day is wrong, send it again "
            "with the true one; if it truly belongs to that day, finance records the correction on the current "
            "gaming day."
        )
    if held is not None:
        held.add((room.pk, day))
