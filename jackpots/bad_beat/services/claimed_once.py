"""A Bad Beat is paid once (§637a.15(f)-(g)): what makes two claims one hand, the claims of a hand, and
the refusal that names the first claim and where it stands."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import Q

from jackpots.funds.selectors import local_time
from tables.models import Table

from ..exceptions import AlreadyClaimed
from ..models import CLAIM_STAGES, BadBeatClaim, BadBeatPayment, ClaimStatus


@dataclass(frozen=True)
class ClaimedHand:
    """What makes two claims one hand: the round when one is given, else the cards at the table on the
    gaming day (the cards count with a round too: the same nine cards are not dealt twice in a day), or
    within ``SAME_HAND_WITHIN`` of it across the day's start: a hand played at 05:58 and claimed with its
    round is dated the day before; claimed again without it at 06:02, it is dated by the claim's time."""

    table: Table
    round_id: int | None
    gaming_day: date
    happened_at: datetime
    cards: str


# A claim's round ends from 30 minutes before the claim to 10 minutes after (``claim_round_window``): the
# times of two claims of one hand, one dated by its round and one by the claim, are that far apart.
SAME_HAND_WITHIN = timedelta(hours=1)


def hand_of(claim: BadBeatClaim) -> ClaimedHand:
    return ClaimedHand(
        table=claim.table,
        round_id=claim.round_id,
        gaming_day=claim.gaming_day,
        happened_at=claim.happened_at,
        cards=claim.cards,
    )


def claim_standing(claim: BadBeatClaim) -> tuple[int, int]:
    """Of two claims of one hand, the one further on stands first, then the one opened first."""
    return (-CLAIM_STAGES[claim.status], claim.pk)


def claims_of_hand(hand: ClaimedHand) -> list[BadBeatClaim]:
    """The claims of ``hand`` not denied, the one that stands first first."""
    near = Q(happened_at__gte=hand.happened_at - SAME_HAND_WITHIN, happened_at__lte=hand.happened_at + SAME_HAND_WITHIN)
    same = Q(table_id=hand.table.pk, cards=hand.cards) & (Q(gaming_day=hand.gaming_day) | near)
    if hand.round_id is not None:
        same |= Q(round_id=hand.round_id)
    claims = (
        BadBeatClaim.objects.filter(same)
        .exclude(status=ClaimStatus.DENIED)
        .select_related("room", "table", "opened_by", "decision__decided_by", "distribution")
    )
    return sorted(claims, key=claim_standing)


def _where_it_stands(claim: BadBeatClaim) -> str:
    """Where a claim is, by the room's clock: 'verified by <the supervisor> at 2026-11-30 21:14 EST'."""
    zone = claim.room.timezone
    if claim.status == ClaimStatus.CLAIMED:
        return f"opened by {claim.opened_by} at {local_time(claim.opened_at, zone)}, awaiting the shift supervisor"
    decision = getattr(claim, "decision", None)
    if claim.status == ClaimStatus.VERIFIED and decision is not None:
        return f"verified by {decision.decided_by} at {local_time(decision.decided_at, zone)}"
    distribution = getattr(claim, "distribution", None)
    if claim.status == ClaimStatus.DISTRIBUTED and distribution is not None:
        return f"distributed at {local_time(distribution.prepared_at, zone)}, its shares being paid"
    if claim.status == ClaimStatus.PAID:
        payments = BadBeatPayment.objects.filter(share__distribution__claim=claim).order_by("-paid_at")
        paid_at = payments.values_list("paid_at", flat=True).first()
        if paid_at is not None:
            return f"paid at {local_time(paid_at, zone)}"
    return claim.get_status_display().lower()


def _the_hand_in_words(hand: ClaimedHand, first: BadBeatClaim) -> str:
    if hand.round_id is not None and first.round_id == hand.round_id:
        return f"Round {hand.round_id} at {hand.table.number}"
    return (
        f"The same cards at {hand.table.number} on gaming day {first.gaming_day.isoformat()} (board {first.board}, "
        f"{first.losing_hole} against {first.winning_hole})"
    )


def already_claimed(hand: ClaimedHand, first: BadBeatClaim) -> AlreadyClaimed:
    return AlreadyClaimed(
        f"{_the_hand_in_words(hand, first)} was already claimed: claim {first.pk}, {_where_it_stands(first)}. "
        f"A Bad Beat is paid once (§637a.15(f)-(g)): if claim {first.pk} is wrong, the shift supervisor denies it "
        "and the corrected claim is recorded then. Nothing was recorded."
    )


def hand_not_claimed(hand: ClaimedHand) -> None:
    first = claims_of_hand(hand)
    if first:
        raise already_claimed(hand, first[0])


def claim_require_first(claim: BadBeatClaim) -> None:
    """Refuse to take further (verify, distribute, pay) a claim of a hand that another claim not denied
    stands before: further on, or as far and opened first (§637a.15(f)-(g): the same Bad Beat is paid
    once). Since a hand is claimed once, only claims recorded before that rule can meet this."""
    hand = hand_of(claim)
    ahead = [other for other in claims_of_hand(hand) if claim_standing(other) < claim_standing(claim)]
    if ahead:
        first = ahead[0]
        raise AlreadyClaimed(
            f"Claim {claim.pk} is of the same hand as claim {first.pk}: {_the_hand_in_words(hand, first)}, claim "
            f"{first.pk} {_where_it_stands(first)}. A Bad Beat is paid once (§637a.15(f)-(g)): claim {claim.pk} goes "
            "no further; the shift supervisor denies it. Nothing was changed."
        )
