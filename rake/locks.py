"""The rules lock of a room: rating money and loading a new rules version never interleave.

A round is rated by the rules version in effect at its ``ended_at``, and a version may not take
effect before a round already recorded (``rules_load``, §637a.17(e)). Without a lock, a round could
read version 1, a version 2 taking effect before that round could be checked and committed, and the
round could then be written rated by version 1. So every service that rates money takes the room's
rules lock shared, before it reads the version, until it commits; ``rules_load`` takes it exclusive
before it checks for later rounds. Shared holders never wait for each other.

On PostgreSQL it is a transaction-level advisory lock; SQLite runs one write transaction at a time
(``transaction_mode = IMMEDIATE``), which serialises the two already.
"""

from __future__ import annotations

from django.db import connection

from tables.models import PokerRoom

# Advisory locks are keyed by two integers: this namespace (the chapter, §637a) and the room's id.
RULES_LOCK_NAMESPACE = 637


def lock_room_rules(*, room: PokerRoom, exclusive: bool) -> None:
    """Take the room's rules lock until the end of the current transaction."""
    if not connection.in_atomic_block:
        raise RuntimeError("The rules lock is held until commit: take it inside a transaction.")
    if connection.vendor != "postgresql":
        return
    function = "pg_advisory_xact_lock" if exclusive else "pg_advisory_xact_lock_shared"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {function}(%s, %s)", [RULES_LOCK_NAMESPACE, room.pk])
