"""A jackpot hand belongs to its round: a Bad Beat claim or a High Hand Tracking Slip entry names the
logged round it was played in, so that the round's rake and contributions (§637a.15(c), §637a.16(c))
and the hand paid from them are one story.

A hand and a round agree when they were at the same table, with the same players dealt in and the
same pot, and the round ended when the hand says it was played (``hand_round_window``). A round named
with a hand that does not agree is refused, naming what differs (``round_mismatch``). A hand recorded
without a round is given the one round that agrees with it, if exactly one does; a hand recorded
before its round was logged is linked when the round arrives (``round_link_hands``, called by
``rake`` in the round's own transaction). A link made after the hand was signed is a row of its own
(``BadBeatClaimRound``, ``HighHandEntryRound``): the signed hand never changes. The hands still
without a round are compliance's list (``hands_without_round``).

The table's hand lock (``hand_round_lock``) makes the two orders meet: a hand recorded while its round
is being posted either sees the round or is seen by it, never neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection
from django.db.models import Exists, OuterRef, QuerySet

from casino_backoffice.money import display_cents
from tables.models import Round, Table

from ..models import BadBeatClaim, ClaimStatus, HighHandEntry
from ..models.bad_beat import BadBeatClaimRound
from ..models.high_hand import HighHandEntryRound
from ..selectors import local_time

# A High Hand is made during its round and the round ends when its pot is pushed, after the showdown
# the floorperson verifies: the round ends no more than 10 minutes after the hand. The slip's time is
# taken to the minute on the tablet, and the tablet's and the table system's clocks are not one clock:
# a round that ended up to a minute before the hand's time still agrees.
HAND_BEFORE_ROUND_END = timedelta(minutes=10)
CLOCK_TOLERANCE = timedelta(minutes=1)
# A Bad Beat is claimed at the table while its players are there (§637a.15(f): the shift supervisor
# verifies the hand there): its round ended at most 30 minutes before the claim, or is pushed up to
# 10 minutes after it was opened.
CLAIM_AFTER_ROUND_END = timedelta(minutes=30)
ROUND_END_AFTER_CLAIM = timedelta(minutes=10)

# The advisory lock of a table's hands and rounds: (this namespace, the table's id). The rules lock
# (rake.locks) uses 637 with the room's id.
HAND_ROUND_LOCK_NAMESPACE = 63716


@dataclass(frozen=True)
class HandWindow:
    """When a hand's round may have ended: ``earliest <= ended_at <= latest``."""

    earliest: datetime
    latest: datetime


def entry_round_window(made_at: datetime) -> HandWindow:
    """A Tracking Slip entry's round ended from a minute before the hand to 10 minutes after it."""
    return HandWindow(earliest=made_at - CLOCK_TOLERANCE, latest=made_at + HAND_BEFORE_ROUND_END)


def claim_round_window(claimed_at: datetime) -> HandWindow:
    """A claim's round ended from 30 minutes before the claim was opened to 10 minutes after."""
    return HandWindow(earliest=claimed_at - CLAIM_AFTER_ROUND_END, latest=claimed_at + ROUND_END_AFTER_CLAIM)


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


def _rounds_agreeing(*, table: Table, players_dealt_in: int, pot_cents: int, window: HandWindow) -> QuerySet[Round]:
    return Round.objects.filter(
        table=table,
        voided=False,
        players_dealt_in=players_dealt_in,
        pot_cents=pot_cents,
        ended_at__gte=window.earliest,
        ended_at__lte=window.latest,
    )


def _the_one(rounds: QuerySet[Round]) -> Round | None:
    found = list(rounds.order_by("pk")[:2])
    return found[0] if len(found) == 1 else None


def entry_round_find(*, table: Table, players_dealt_in: int, pot_cents: int, made_at: datetime) -> Round | None:
    """The one logged round that agrees with a Tracking Slip entry, or None (none yet, or several)."""
    return _the_one(
        _rounds_agreeing(
            table=table, players_dealt_in=players_dealt_in, pot_cents=pot_cents, window=entry_round_window(made_at)
        )
    )


def _claimed(rounds: QuerySet[Round]) -> QuerySet[Round]:
    """Rounds without a claim that stands (not denied), named or linked: a hand is claimed once."""
    named = BadBeatClaim.objects.filter(round=OuterRef("pk")).exclude(status=ClaimStatus.DENIED)
    linked = BadBeatClaimRound.objects.filter(round=OuterRef("pk")).exclude(claim__status=ClaimStatus.DENIED)
    return rounds.exclude(Exists(named)).exclude(Exists(linked))


def claim_round_find(
    *, table: Table, players_dealt_in: int, pot_cents: int | None, claimed_at: datetime
) -> Round | None:
    """The one logged round not claimed yet that agrees with a claim, or None. Without its pot a claim
    is not matched: the players dealt in and the time alone do not tell one round from the next."""
    if pot_cents is None:
        return None
    agreeing = _rounds_agreeing(
        table=table, players_dealt_in=players_dealt_in, pot_cents=pot_cents, window=claim_round_window(claimed_at)
    )
    return _the_one(_claimed(agreeing))


def _entries_without_round() -> QuerySet[HighHandEntry]:
    return HighHandEntry.objects.filter(round__isnull=True, round_link__isnull=True)


def _claims_without_round() -> QuerySet[BadBeatClaim]:
    return BadBeatClaim.objects.filter(round__isnull=True, round_link__isnull=True)


def round_link_hands(*, round: Round) -> tuple[list[HighHandEntryRound], list[BadBeatClaimRound]]:
    """Link the hands recorded before ``round`` was logged that agree with it and with no other round,
    in the caller's transaction (``rake`` posts the round, then calls this). A voided round has no
    winning hand (§637a.18(i)) and links nothing; a claim is linked only to a round no other standing
    claim has, and only when it is the one claim that agrees (a hand is claimed once)."""
    if round.voided:
        return [], []
    table = round.table
    hand_round_lock(table=table)
    now = round.created_at
    entries = []
    for entry in _entries_without_round().filter(
        table=table,
        players_dealt_in=round.players_dealt_in,
        pot_cents=round.pot_cents,
        made_at__gte=round.ended_at - HAND_BEFORE_ROUND_END,
        made_at__lte=round.ended_at + CLOCK_TOLERANCE,
    ):
        found = entry_round_find(
            table=table, players_dealt_in=entry.players_dealt_in, pot_cents=entry.pot_cents, made_at=entry.made_at
        )
        if found is not None and found.pk == round.pk:
            entries.append(HighHandEntryRound.objects.create(entry=entry, round=round, linked_at=now))
    claims = []
    candidates = list(
        _claims_without_round()
        .exclude(status=ClaimStatus.DENIED)
        .filter(
            table=table,
            players_dealt_in=round.players_dealt_in,
            pot_cents=round.pot_cents,
            opened_at__gte=round.ended_at - ROUND_END_AFTER_CLAIM,
            opened_at__lte=round.ended_at + CLAIM_AFTER_ROUND_END,
        )[:2]
    )
    if len(candidates) == 1:
        claim = candidates[0]
        found = claim_round_find(
            table=table, players_dealt_in=claim.players_dealt_in, pot_cents=claim.pot_cents, claimed_at=claim.opened_at
        )
        if found is not None and found.pk == round.pk:
            claims.append(BadBeatClaimRound.objects.create(claim=claim, round=round, linked_at=now))
    return entries, claims


# --- Compliance's list ----------------------------------------------------------------------------


@dataclass(frozen=True)
class HandWithoutRound:
    """A jackpot hand at a table that logs rounds with no round named, found or linked."""

    kind: str  # "Bad Beat claim" or "High Hand entry"
    pk: int
    room: str
    table: str
    at: datetime
    players_dealt_in: int
    pot_cents: int | None
    status: str


def _logs_rounds() -> Exists:
    return Exists(Round.objects.filter(table=OuterRef("table")))


def hands_without_round(*, rooms: QuerySet | None = None) -> list[HandWithoutRound]:
    """The Bad Beat claims and Tracking Slip entries still without a round, at tables that log rounds,
    newest first: two queries, whatever their number. ``rooms`` limits them to those rooms."""
    claims = _claims_without_round().filter(_logs_rounds()).select_related("room", "table")
    entries = _entries_without_round().filter(_logs_rounds()).select_related("period__room", "table", "void")
    if rooms is not None:
        claims = claims.filter(room__in=rooms)
        entries = entries.filter(period__room__in=rooms)
    hands = [
        HandWithoutRound(
            kind="Bad Beat claim",
            pk=claim.pk,
            room=claim.room.code,
            table=claim.table.number,
            at=claim.happened_at,
            players_dealt_in=claim.players_dealt_in,
            pot_cents=claim.pot_cents,
            status=claim.get_status_display(),
        )
        for claim in claims
    ]
    hands += [
        HandWithoutRound(
            kind="High Hand entry",
            pk=entry.pk,
            room=entry.period.room.code,
            table=entry.table.number,
            at=entry.made_at,
            players_dealt_in=entry.players_dealt_in,
            pot_cents=entry.pot_cents,
            status="Voided" if getattr(entry, "void", None) is not None else "On the slip",
        )
        for entry in entries
    ]
    return sorted(hands, key=lambda hand: (hand.at, hand.kind, hand.pk), reverse=True)


def hand_round_of_claim(claim: BadBeatClaim) -> int | None:
    """The id of a claim's round: named or found when it was opened, else linked when it arrived."""
    if claim.round_id is not None:
        return claim.round_id
    link = getattr(claim, "round_link", None)
    return link.round_id if link is not None else None


def hand_round_of_entry(entry: HighHandEntry) -> int | None:
    """The id of an entry's round: named or found when it was recorded, else linked when it arrived."""
    if entry.round_id is not None:
        return entry.round_id
    link = getattr(entry, "round_link", None)
    return link.round_id if link is not None else None
