"""The claim file of a Bad Beat claim for the regulator, and the claims of a period with their amounts."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db.models import Q, QuerySet, Sum

from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.selectors import SignatureLine, signature_key, signature_lines
from jackpots.bad_beat.models import BadBeatClaim, BadBeatDecision, BadBeatDistribution, BadBeatPayment, BadBeatShare
from jackpots.bad_beat.reports.posted import PostedHand, posted_hand
from jackpots.bad_beat.rules import BadBeatRule
from jackpots.funds.reports import card_words, game_words
from jackpots.funds.selectors import jackpot_rule_of_version
from tables.models import PokerRoom
from tables.selectors import gaming_day_bounds

# --- The claim file -------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandLine:
    """A player's hand in a claim: who, where, the hole cards and their names, the hand they made."""

    who: str
    seat: int
    name: str
    hole: str
    hole_words: str
    hand: str


@dataclass
class ClaimFile:
    """Everything about one claim, for the regulator: the evidence, the posted qualifier it was checked
    against, the verdict, the decision, the distribution and each payment, every signature (name,
    role, Board credential number, time) and the ledger transfers that paid it."""

    claim: BadBeatClaim
    posted: PostedHand | None
    hands: tuple[HandLine, ...]
    board_words: str
    decision: BadBeatDecision | None
    distribution: BadBeatDistribution | None
    shares: list[BadBeatShare]
    payments: dict[int, BadBeatPayment]  # by share id
    signatures: list[tuple[str, SignatureLine]] = field(default_factory=list)  # (step, signature)
    transfers: list[Transfer] = field(default_factory=list)

    @property
    def game(self) -> str:
        return game_words(self.claim.game)

    @property
    def rows(self) -> list[tuple[BadBeatShare, BadBeatPayment | None]]:
        """Each share with its payment (None: not paid yet), in the distribution's order."""
        return [(share, self.payments.get(share.pk)) for share in self.shares]

    @property
    def paid_cents(self) -> int:
        return sum(share.amount_cents for share in self.shares if share.pk in self.payments)

    @property
    def unpaid_cents(self) -> int:
        return sum(share.amount_cents for share in self.shares if share.pk not in self.payments)


def claim_file(*, claim: BadBeatClaim) -> ClaimFile:
    """The file of ``claim`` (§637a.15(f)-(g)): a fixed number of queries."""
    claim = BadBeatClaim.objects.select_related("room", "jackpot", "table", "round", "rules_version", "opened_by").get(
        pk=claim.pk
    )
    rule = jackpot_rule_of_version(version=claim.rules_version, code=claim.jackpot.code)
    hand = (
        next((hand for hand in rule.hands if hand.code == claim.hand_code), None)
        if isinstance(rule, BadBeatRule)
        else None
    )
    decision = BadBeatDecision.objects.filter(claim=claim).select_related("decided_by").first()
    distribution = BadBeatDistribution.objects.filter(claim=claim).select_related("prepared_by").first()
    shares = list(distribution.shares.order_by("position")) if distribution else []
    payments = {
        payment.share_id: payment
        for payment in BadBeatPayment.objects.filter(share__in=shares).select_related("paid_by")
    }
    hands = (
        HandLine(
            "Losing hand",
            claim.losing_seat,
            claim.losing_name,
            claim.losing_hole,
            card_words(claim.losing_hole),
            claim.losing_hand,
        ),
        HandLine(
            "Winning hand",
            claim.winning_seat,
            claim.winning_name,
            claim.winning_hole,
            card_words(claim.winning_hole),
            claim.winning_hand,
        ),
    )
    steps: list[tuple[str, Any]] = [("Claim opened at the table", claim)]
    if decision is not None:
        steps.append((f"Claim {decision.get_outcome_display().lower()} by the shift supervisor", decision))
    if distribution is not None:
        steps.append(("Distribution prepared by finance", distribution))
    by_share = {share.pk: share for share in shares}
    for payment in sorted(payments.values(), key=lambda payment: (payment.paid_at, payment.pk)):
        share = by_share[payment.share_id]
        steps.append((f"{share.get_share_display()} paid (seat {share.seat}, {payment.get_place_display()})", payment))
    lines = signature_lines(document for _, document in steps)
    signatures = [(step, line) for step, document in steps for line in lines.get(signature_key(document), [])]
    transfers = list(
        Transfer.objects.filter(bad_beat_payment__share__distribution__claim=claim)
        .select_related("debit", "credit", "posted_by")
        .order_by("posted_at", "pk")
    )
    return ClaimFile(
        claim=claim,
        posted=posted_hand(hand, rule, game=claim.game) if hand is not None and isinstance(rule, BadBeatRule) else None,
        hands=hands,
        board_words=card_words(claim.board),
        decision=decision,
        distribution=distribution,
        shares=shares,
        payments=payments,
        signatures=signatures,
        transfers=transfers,
    )


# --- The claims of a period -----------------------------------------------------------------------


def claims_between(*, room: PokerRoom, start: date, end: date) -> QuerySet[BadBeatClaim]:
    """The claims of ``room`` opened on the gaming days ``start`` to ``end``, oldest first, with what
    the claims list exports needs (``claims_with_amounts``)."""
    starts_at, _ = gaming_day_bounds(room=room, day=start)
    _, ends_at = gaming_day_bounds(room=room, day=end)
    return claims_with_amounts(
        BadBeatClaim.objects.filter(room=room, opened_at__gte=starts_at, opened_at__lt=ends_at).order_by(
            "opened_at", "pk"
        )
    )


def claims_with_amounts(claims: QuerySet[BadBeatClaim]) -> QuerySet[BadBeatClaim]:
    """``claims`` with their room, fund, table, opener and decision in the same query, and
    ``paid_cents`` (what their payments paid) annotated."""
    return claims.select_related(
        "room", "jackpot", "table", "opened_by", "decision__decided_by", "distribution"
    ).annotate(
        paid_cents=Sum("distribution__shares__amount_cents", filter=Q(distribution__shares__payment__isnull=False))
    )
