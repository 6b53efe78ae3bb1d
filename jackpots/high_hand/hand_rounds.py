"""A Tracking Slip entry belongs to its round (``jackpots.funds.hand_rounds``): the window an entry's
round ended in, the one round that agrees with an entry, and the entries still without one."""

from __future__ import annotations

from datetime import datetime

from django.db.models import QuerySet

from jackpots.funds.hand_rounds import (
    CLOCK_TOLERANCE,
    HAND_BEFORE_ROUND_END,
    HandWindow,
    rounds_agreeing,
    the_one_round,
)
from jackpots.high_hand.models import HighHandEntry
from tables.models import Round, Table


def entry_round_window(made_at: datetime) -> HandWindow:
    """A Tracking Slip entry's round ended from a minute before the hand to 10 minutes after it."""
    return HandWindow(earliest=made_at - CLOCK_TOLERANCE, latest=made_at + HAND_BEFORE_ROUND_END)


def entry_round_find(*, table: Table, players_dealt_in: int, pot_cents: int, made_at: datetime) -> Round | None:
    """The one logged round that agrees with a Tracking Slip entry, or None (none yet, or several)."""
    return the_one_round(
        rounds_agreeing(
            table=table, players_dealt_in=players_dealt_in, pot_cents=pot_cents, window=entry_round_window(made_at)
        )
    )


def entries_without_round() -> QuerySet[HighHandEntry]:
    return HighHandEntry.objects.filter(round__isnull=True, round_link__isnull=True)


def hand_round_of_entry(entry: HighHandEntry) -> int | None:
    """The id of an entry's round: named or found when it was recorded, else linked when it arrived."""
    if entry.round_id is not None:
        return entry.round_id
    link = getattr(entry, "round_link", None)
    return link.round_id if link is not None else None
