"""A jackpot hand belongs to its round: a Bad Beat claim or a High Hand Tracking Slip entry names the
logged round it was played in, so that the round's rake and contributions (§637a.15(c), §637a.16(c))
and the hand paid from them are one story.

A hand and a round agree when they were at the same table, with the same players dealt in and the
same pot, and the round ended when the hand says it was played (``hand_round_window``). A round named
with a hand that does not agree is refused, naming what differs (``round_mismatch``). A hand recorded
without a round is given the one round that agrees with it, if exactly one does; a hand recorded
before its round was logged is linked when the round arrives (``jackpots.board.hand_rounds.round_link_hands``,
called by ``rake`` in the round's own transaction). A link made after the hand was signed is a row of its own
(``BadBeatClaimRound``, ``HighHandEntryRound``): the signed hand never changes. The hands still
without a round are compliance's list (``jackpots.board.hand_rounds.hands_without_round``). Each product
finds its own hands' rounds (``jackpots.bad_beat.hand_rounds``, ``jackpots.high_hand.hand_rounds``) with
the window, the agreement and the lock kept here.

The table's hand lock (``hand_round_lock``) makes the two orders meet: a hand recorded while its round
is being posted either sees the round or is seen by it, never neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection
from django.db.models import QuerySet

from casino_backoffice.money import display_cents
from jackpots.funds.selectors import local_time
from tables.models import Round, Table

# A High Hand is made during its round and the round ends when its pot is pushed, after the showdown
# the floorperson verifies: the round ends no more than 10 minutes after the hand. The slip's time is
# taken to the minute on the tablet, and the tablet's and the table system's clocks are not one clock:
# a round that ended up to a minute before the hand's time still agrees.
HAND_BEFORE_ROUND_END = timedelta(minutes=10)
CLOCK_TOLERANCE = timedelta(minutes=1)

# The advisory lock of a table's hands and rounds: (this namespace, the table's id). The rules lock
# (rake.locks) uses 637 with the room's id.
HAND_ROUND_LOCK_NAMESPACE = 63716


@dataclass(frozen=True)
class HandWindow:
    """When a hand's round may have ended: ``earliest <= ended_at <= latest``."""

    earliest: datetime
    latest: datetime


def hand_round_lock(*, table: Table) -> None:
    """Take the table's hand lock until the end of the current transaction (PostgreSQL; SQLite runs one
    write transaction at a time). Taken by a hand's service before anything else it locks, and by a
    round's post after everything else, so that neither waits for the other holding what it needs."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [HAND_ROUND_LOCK_NAMESPACE, table.pk])


def round_disagreement(
    *, round: Round, table: Table, players_dealt_in: int, pot_cents: int | None, window: HandWindow
) -> str | None:
    """What of ``round`` differs from the hand, in words, or None when they agree: its table, its
    players dealt in, its pot (when the hand gives one) and when it ended (``window``)."""
    zone = table.room.timezone
    if round.table_id != table.pk:
        return f"Round {round.pk} was played at {round.table.number}, not {table.number}: the table differs."
    if round.players_dealt_in != players_dealt_in:
        return (
            f"Round {round.pk} was logged with {round.players_dealt_in} players dealt in, not {players_dealt_in}: "
            "the players dealt in differ."
        )
    if pot_cents is not None and round.pot_cents != pot_cents:
        return (
            f"Round {round.pk} was logged with a pot of {display_cents(round.pot_cents)}, not "
            f"{display_cents(pot_cents)}: the pot differs."
        )
    if not window.earliest <= round.ended_at <= window.latest:
        return (
            f"Round {round.pk} ended at {local_time(round.ended_at, zone)}, outside "
            f"{local_time(window.earliest, zone)} to {local_time(window.latest, zone)}: the time differs."
        )
    return None


def rounds_agreeing(*, table: Table, players_dealt_in: int, pot_cents: int, window: HandWindow) -> QuerySet[Round]:
    return Round.objects.filter(
        table=table,
        voided=False,
        players_dealt_in=players_dealt_in,
        pot_cents=pot_cents,
        ended_at__gte=window.earliest,
        ended_at__lte=window.latest,
    )


def the_one_round(rounds: QuerySet[Round]) -> Round | None:
    found = list(rounds.order_by("pk")[:2])
    return found[0] if len(found) == 1 else None
