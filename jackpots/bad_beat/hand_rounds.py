"""A Bad Beat claim belongs to its round (``jackpots.funds.hand_rounds``): the window a claim's round
ended in, the one round not claimed yet that agrees with a claim, and the claims still without one."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Exists, OuterRef, QuerySet

from jackpots.bad_beat.models import BadBeatClaim, BadBeatClaimRound, ClaimStatus
from jackpots.funds.hand_rounds import HandWindow, rounds_agreeing, the_one_round
from tables.models import Round, Table

# A Bad Beat is claimed at the table while its players are there (§637a.15(f): the shift supervisor
# verifies the hand there): its round ended at most 30 minutes before the claim, or is pushed up to
# 10 minutes after it was opened.
CLAIM_AFTER_ROUND_END = timedelta(minutes=30)
ROUND_END_AFTER_CLAIM = timedelta(minutes=10)


def claim_round_window(claimed_at: datetime) -> HandWindow:
    """A claim's round ended from 30 minutes before the claim was opened to 10 minutes after."""
    return HandWindow(earliest=claimed_at - CLAIM_AFTER_ROUND_END, latest=claimed_at + ROUND_END_AFTER_CLAIM)


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
    agreeing = rounds_agreeing(
        table=table, players_dealt_in=players_dealt_in, pot_cents=pot_cents, window=claim_round_window(claimed_at)
    )
    return the_one_round(_claimed(agreeing))


def claims_without_round() -> QuerySet[BadBeatClaim]:
    return BadBeatClaim.objects.filter(round__isnull=True, round_link__isnull=True)


def hand_round_of_claim(claim: BadBeatClaim) -> int | None:
    """The id of a claim's round: named or found when it was opened, else linked when it arrived."""
    if claim.round_id is not None:
        return claim.round_id
    link = getattr(claim, "round_link", None)
    return link.round_id if link is not None else None
