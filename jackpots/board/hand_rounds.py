"""The jackpot hands of both products that wait for their round: a Bad Beat claim or a Tracking Slip
entry recorded before its round was logged is linked when the round arrives (``round_link_hands``,
called by ``rake`` in the round's own transaction), and the hands still without a round are
compliance's list (``hands_without_round``). How a hand and a round agree is ``jackpots.funds.hand_rounds``;
each product finds its own hands' rounds (``jackpots.bad_beat.hand_rounds``, ``jackpots.high_hand.hand_rounds``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Exists, OuterRef, QuerySet

from jackpots.bad_beat.hand_rounds import (
    CLAIM_AFTER_ROUND_END,
    ROUND_END_AFTER_CLAIM,
    claim_round_find,
    claims_without_round,
)
from jackpots.bad_beat.models import BadBeatClaimRound, ClaimStatus
from jackpots.funds.hand_rounds import CLOCK_TOLERANCE, HAND_BEFORE_ROUND_END, hand_round_lock
from jackpots.high_hand.hand_rounds import entries_without_round, entry_round_find
from jackpots.high_hand.models import HighHandEntryRound
from tables.models import Round


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
    for entry in entries_without_round().filter(
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
        claims_without_round()
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
    claims = claims_without_round().filter(_logs_rounds()).select_related("room", "table")
    entries = entries_without_round().filter(_logs_rounds()).select_related("period__room", "table", "void")
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
