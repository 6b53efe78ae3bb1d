"""A Bad Beat from the hand at the table to each patron's payment (§637a.15(f)-(g)).

A ``BadBeatClaim`` is the evidence a floorperson or above records at the table: the cards, the seats
and names, the surveillance reference, and the evaluator's verdict in words. It is kept whatever
happens to it: a claim that does not qualify is evidence, never paid. The poker shift supervisor's
``BadBeatDecision`` verifies or denies it (one per claim, the database says so); a verification
fixes the payout from the fund's official balance at that moment. Finance's ``BadBeatDistribution``
(one per claim) splits the payout into ``BadBeatShare`` rows, and each share is paid once: a
``BadBeatPayment`` (one per share) and one ledger transfer from the fund to its payouts.

Decisions, distributions, shares and payments are inserted once and never changed (triggers). A
claim moves on through its status, audited; its signed content never changes.

The same Bad Beat is paid once (§637a.15(f)-(g)): a round has at most one claim that is not denied,
and so have the same cards at the same table on one gaming day, whatever the order they were typed
in (``hand_cards``); the database says so with two partial unique indexes, and a denied claim blocks
nothing, so that a corrected claim can follow it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from simple_history.models import HistoricalRecords

from casino_backoffice.core.audit import history_user
from casino_backoffice.ledger.models import ReferencingTransfers
from casino_backoffice.poker import parse_cards
from casino_backoffice.poker.cards import format_cards
from casino_backoffice.staff.permissions import Action
from casino_backoffice.staff.signing import SignableDocument, SigningRule
from jackpots.funds.models import PaymentPlace


class ClaimStatus(models.TextChoices):
    """claimed -> verified | denied; verified -> distributed -> paid (every share paid)."""

    CLAIMED = "claimed", "Claimed, awaiting the shift supervisor"
    VERIFIED = "verified", "Verified, awaiting the distribution"
    DENIED = "denied", "Denied"
    DISTRIBUTED = "distributed", "Distribution prepared, shares to pay"
    PAID = "paid", "Paid"


CLAIM_TRANSITIONS: dict[str, frozenset[str]] = {
    ClaimStatus.CLAIMED: frozenset({ClaimStatus.VERIFIED, ClaimStatus.DENIED}),
    ClaimStatus.VERIFIED: frozenset({ClaimStatus.DISTRIBUTED}),
    ClaimStatus.DISTRIBUTED: frozenset({ClaimStatus.PAID}),
    ClaimStatus.DENIED: frozenset(),
    ClaimStatus.PAID: frozenset(),
}

# How far a claim has gone towards its payment: of two claims of one hand, the one further on stands.
CLAIM_STAGES: dict[str, int] = {
    ClaimStatus.CLAIMED: 0,
    ClaimStatus.VERIFIED: 1,
    ClaimStatus.DISTRIBUTED: 2,
    ClaimStatus.PAID: 3,
}


def hand_cards(*, board: str, losing_hole: str, winning_hole: str) -> str:
    """The cards of a hand in one order, whatever order they were typed in: the board, then the two
    hole hands, each highest card first, the two hands in the order of their cards (the cards are the
    hand; which of them lost is the evaluator's word). Two claims of the same cards have the same text.

    >>> hand_cards(board="7h 7s Kc Ac Ad", losing_hole="Ks As", winning_hole="7c 7d")
    'Ad Ac Kc 7s 7h / As Ks / 7d 7c'
    >>> hand_cards(board="Ad Ac Kc 7s 7h", losing_hole="7d 7c", winning_hole="As Ks")
    'Ad Ac Kc 7s 7h / As Ks / 7d 7c'
    """

    def ordered(text: str) -> tuple[int, ...]:
        return tuple(sorted(map(int, parse_cards(text)), reverse=True))

    holes = sorted((ordered(losing_hole), ordered(winning_hole)), reverse=True)
    return " / ".join(format_cards(cards) for cards in (ordered(board), *holes))


class BadBeatClaim(SignableDocument):
    """A Bad Beat claimed at a table, with the evaluator's verdict on the posted qualifier
    (§637a.15(b)(3)) as it stood when the claim was opened.

    ``players_dealt_in`` counts the losing and the winning hand; ``others`` lists every other player
    dealt in (``[{seat, name}]``), who share the table share. ``hand_code`` is the Bad Beat hand of
    the fund's rules the claim was checked against (a fund may offer several, §637a.15(a)).
    """

    OPENER = SigningRule(purpose="opener", action=Action.BAD_BEAT_CLAIM, section="§637a.15(f)")

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="bad_beat_claims")
    jackpot = models.ForeignKey("jackpots.Jackpot", on_delete=models.PROTECT, related_name="claims")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="bad_beat_claims")
    round = models.ForeignKey(
        "tables.Round", on_delete=models.PROTECT, null=True, blank=True, related_name="bad_beat_claims"
    )
    rules_version = models.ForeignKey("tables.RulesVersion", on_delete=models.PROTECT, related_name="+")
    hand_code = models.CharField(max_length=30)
    hand_name = models.CharField(max_length=120)
    game = models.CharField(max_length=30)
    happened_at = models.DateTimeField(help_text="When the hand was played: the round's end, or when it was claimed.")
    players_dealt_in = models.PositiveSmallIntegerField()
    pot_cents = models.BigIntegerField(
        null=True,
        blank=True,
        help_text="The hand's pot as seen at the table, when given: with the table, the players and the time it "
        "finds the hand's round (jackpots.services.hand_rounds).",
    )
    board = models.CharField(max_length=20)
    losing_seat = models.PositiveSmallIntegerField()
    losing_name = models.CharField(max_length=120)
    losing_hole = models.CharField(max_length=20)
    winning_seat = models.PositiveSmallIntegerField()
    winning_name = models.CharField(max_length=120)
    winning_hole = models.CharField(max_length=20)
    others = models.JSONField(default=list, help_text="Every other player dealt in: [{seat, name}].")
    surveillance_reference = models.CharField(max_length=120, blank=True)
    qualifies = models.BooleanField()
    reasons = models.JSONField(default=list, help_text="The evaluator's verdict, in words.")
    losing_hand = models.CharField(max_length=120, help_text="The losing hand in words.")
    winning_hand = models.CharField(max_length=120, help_text="The winning hand in words.")
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField()
    status = models.CharField(max_length=12, choices=ClaimStatus.choices, default=ClaimStatus.CLAIMED)
    gaming_day = models.DateField(
        help_text="The gaming day of the hand: its round's, else that of when it was claimed."
    )
    cards = models.CharField(
        max_length=60, help_text="The hand's cards in one order, whatever order they were typed in (hand_cards)."
    )
    duplicate_of = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="Set only on claims recorded before a hand could be claimed once (migration 0016): the claim "
        "of the same hand that stood first then. Such a claim goes no further while another of its hand stands.",
    )
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)

    # The gaming day, the cards and the duplicate are derived from what the history records (the round,
    # the moment, the cards as typed) or set once by a migration: the audit log leaves them out.
    history = HistoricalRecords(excluded_fields=["gaming_day", "cards", "duplicate_of"], get_user=history_user)

    class Meta:
        verbose_name = "Bad Beat claim"
        ordering = ["-opened_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(losing_seat=F("winning_seat")), name="jackpots_claim_losing_and_winning_seats_differ"
            ),
            models.CheckConstraint(condition=Q(players_dealt_in__gte=2), name="jackpots_claim_two_players_or_more"),
            models.CheckConstraint(
                condition=Q(pot_cents__isnull=True) | Q(pot_cents__gte=0), name="jackpots_claim_pot_not_negative"
            ),
            # §637a.15(f)-(g): the same Bad Beat is paid once. A denied claim blocks nothing; the claims
            # of one hand recorded before these indexes (``duplicate_of``) are left to the services.
            models.UniqueConstraint(
                fields=["round"],
                condition=Q(round__isnull=False, duplicate_of__isnull=True) & ~Q(status=ClaimStatus.DENIED),
                name="jackpots_claim_one_per_round",
            ),
            models.UniqueConstraint(
                fields=["table", "gaming_day", "cards"],
                condition=Q(duplicate_of__isnull=True) & ~Q(status=ClaimStatus.DENIED),
                name="jackpots_claim_one_per_hand",
            ),
        ]
        indexes = [models.Index(fields=["jackpot", "status"]), models.Index(fields=["room", "opened_at"])]

    def signing_content(self) -> dict[str, Any]:
        # What the floorperson attests: the hand as it was seen at the table and the verdict shown.
        content: dict[str, Any] = {
            "room": self.room_id,
            "jackpot": self.jackpot_id,
            "table": self.table_id,
            "round": self.round_id,
            "rules_version": self.rules_version_id,
            "hand_code": self.hand_code,
            "game": self.game,
            "happened_at": self.happened_at,
            "players_dealt_in": self.players_dealt_in,
            "board": self.board,
            "losing": [self.losing_seat, self.losing_name, self.losing_hole],
            "winning": [self.winning_seat, self.winning_name, self.winning_hole],
            "others": self.others,
            "surveillance_reference": self.surveillance_reference,
            "qualifies": self.qualifies,
            "reasons": self.reasons,
            "opened_by": self.opened_by_id,
            "opened_at": self.opened_at,
        }
        # The pot is attested when it was given; claims signed before it existed keep their hash.
        if self.pot_cents is not None:
            content["pot_cents"] = self.pot_cents
        return content

    def __str__(self) -> str:
        return f"Bad Beat claim {self.pk} at table {self.table.number}"


class BadBeatClaimRound(models.Model):
    """The round a claim was found in after it was signed: the round was logged after the claim, and
    its table, players, pot and time agree with the claim's (``jackpots.bad_beat.hand_rounds``). The
    claim's own ``round`` is signed content and never changes, so the link is a row of its own: one per
    claim, inserted once, never changed (a trigger refuses it)."""

    claim = models.OneToOneField(BadBeatClaim, on_delete=models.PROTECT, related_name="round_link")
    round = models.ForeignKey("tables.Round", on_delete=models.PROTECT, related_name="bad_beat_claim_links")
    linked_at = models.DateTimeField()

    class Meta:
        verbose_name = "Bad Beat claim's round"
        ordering = ["-linked_at", "-id"]

    def __str__(self) -> str:
        return f"Claim {self.claim_id} in round {self.round_id}"


class DecisionOutcome(models.TextChoices):
    VERIFIED = "verified", "Verified"
    DENIED = "denied", "Denied"


class BadBeatDecision(SignableDocument):
    """The poker shift supervisor's verification or denial of a claim (§637a.15(f): 'The Poker shift
    supervisor shall verify each Bad Beat Poker hand prior to awarding the Bad Beat payout').

    A verification fixes what the hand pays: ``official_cents`` is the fund's official balance at that
    moment, ``owed_cents`` what earlier verified claims still owe from it, ``available_cents`` the
    difference, ``reserve_cents`` what the posted rules keep back for the next jackpot, and
    ``payout_cents`` the hand's posted part of the rest. A denial gives its ``reason``.
    """

    VERIFIER = SigningRule(
        purpose="verifier",
        action=Action.BAD_BEAT_VERIFY,
        section="§637a.15(f)",
        not_same_as_fields=("claim_opened_by",),
    )

    claim = models.OneToOneField(BadBeatClaim, on_delete=models.PROTECT, related_name="decision")
    claim_opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    outcome = models.CharField(max_length=10, choices=DecisionOutcome.choices)
    reason = models.TextField(blank=True)
    official_cents = models.BigIntegerField(default=0)
    owed_cents = models.BigIntegerField(default=0)
    available_cents = models.BigIntegerField(default=0)
    reserve_cents = models.BigIntegerField(default=0)
    payout_cents = models.BigIntegerField(default=0)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField()

    class Meta:
        verbose_name = "Bad Beat decision"
        ordering = ["-decided_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(outcome=DecisionOutcome.DENIED) | ~Q(reason=""), name="jackpots_decision_denial_has_reason"
            ),
            models.CheckConstraint(
                condition=Q(payout_cents__gte=0, reserve_cents__gte=0, owed_cents__gte=0),
                name="jackpots_decision_amounts_not_negative",
            ),
            models.CheckConstraint(
                condition=~Q(decided_by=F("claim_opened_by")), name="jackpots_decision_not_by_the_opener"
            ),
        ]

    def signing_content(self) -> dict[str, Any]:
        return {
            "claim": self.claim_id,
            "claim_sha": self.claim.signatures().values_list("content_hash", flat=True).first(),
            "outcome": self.outcome,
            "reason": self.reason,
            "official_cents": self.official_cents,
            "owed_cents": self.owed_cents,
            "available_cents": self.available_cents,
            "reserve_cents": self.reserve_cents,
            "payout_cents": self.payout_cents,
            "decided_by": self.decided_by_id,
            "decided_at": self.decided_at,
        }

    def __str__(self) -> str:
        return f"{self.get_outcome_display()} claim {self.claim_id}"


class PayoutMethod(models.TextChoices):
    CASH = "cash", "Cash"
    CASH_EQUIVALENT = "cash_equivalent", "Recognized cash equivalent"


class BadBeatDistribution(SignableDocument):
    """Finance's distribution of a verified claim's payout (§637a.15(g): 'The finance department shall
    prepare a Bad Beat payout distribution in cash or a recognized cash equivalent'). One per claim;
    its shares add up to ``total_cents`` to the cent."""

    PREPARER = SigningRule(purpose="preparer", action=Action.BAD_BEAT_DISTRIBUTE, section="§637a.15(g)")

    claim = models.OneToOneField(BadBeatClaim, on_delete=models.PROTECT, related_name="distribution")
    total_cents = models.BigIntegerField()
    method = models.CharField(max_length=20, choices=PayoutMethod.choices, default=PayoutMethod.CASH)
    leftover_rule = models.CharField(max_length=1000, help_text="Where the odd cents went, in words.")
    prepared_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    prepared_at = models.DateTimeField()
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)

    class Meta:
        verbose_name = "Bad Beat distribution"
        ordering = ["-prepared_at", "-id"]
        constraints = [models.CheckConstraint(condition=Q(total_cents__gt=0), name="jackpots_distribution_positive")]

    def signing_content(self) -> dict[str, Any]:
        return {
            "claim": self.claim_id,
            "total_cents": self.total_cents,
            "method": self.method,
            "leftover_rule": self.leftover_rule,
            "shares": [
                [share.position, share.share, share.seat, share.name, share.amount_cents]
                for share in self.shares.order_by("position")
            ],
            "prepared_by": self.prepared_by_id,
            "prepared_at": self.prepared_at,
        }

    def __str__(self) -> str:
        return f"Distribution of claim {self.claim_id}"


class ShareName(models.TextChoices):
    LOSING_HAND = "losing_hand", "Losing hand"
    WINNING_HAND = "winning_hand", "Winning hand"
    TABLE_SHARE = "table_share", "Table share"


class BadBeatShare(models.Model):
    """One patron's share of a distribution. ``tax_reportable``: at or above the reporting threshold,
    flagged for tax documentation when it is paid."""

    distribution = models.ForeignKey(BadBeatDistribution, on_delete=models.PROTECT, related_name="shares")
    position = models.PositiveSmallIntegerField()
    share = models.CharField(max_length=20, choices=ShareName.choices)
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=120)
    amount_cents = models.BigIntegerField()
    tax_reportable = models.BooleanField(default=False)

    class Meta:
        verbose_name = "Bad Beat share"
        ordering = ["distribution", "position"]
        constraints = [
            models.UniqueConstraint(fields=["distribution", "position"], name="jackpots_share_position_unique"),
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="jackpots_share_amount_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.get_share_display()} of claim {self.distribution.claim_id}, seat {self.seat}"


class BadBeatPayment(SignableDocument):
    """One share paid to its patron, at the table (§637a.15(f)(2): delivered by security or finance)
    or at the cage (§637a.15(g)), with the patron's identification. One per share (the database
    says so); its money is one ledger transfer from the fund to the fund's payouts."""

    PAYER = SigningRule(purpose="payer", action=Action.BAD_BEAT_PAY, section="§637a.15(f)(2), (g)")

    share = models.OneToOneField(BadBeatShare, on_delete=models.PROTECT, related_name="payment")
    place = models.CharField(max_length=10, choices=PaymentPlace.choices)
    patron_name = models.CharField(max_length=120)
    id_type = models.CharField(max_length=60)
    id_number = models.CharField(max_length=60)
    tax_reportable = models.BooleanField(default=False)
    paid_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    paid_at = models.DateTimeField()
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)
    transfers = ReferencingTransfers(related_query_name="bad_beat_payment")

    class Meta:
        verbose_name = "Bad Beat payment"
        ordering = ["-paid_at", "-id"]

    def signing_content(self) -> dict[str, Any]:
        return {
            "share": self.share_id,
            "amount_cents": self.share.amount_cents,
            "place": self.place,
            "patron_name": self.patron_name,
            "id_type": self.id_type,
            "id_number": self.id_number,
            "tax_reportable": self.tax_reportable,
            "paid_by": self.paid_by_id,
            "paid_at": self.paid_at,
        }

    def __str__(self) -> str:
        return f"Payment of share {self.share_id} to {self.patron_name}"
