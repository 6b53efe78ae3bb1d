"""Progressive table games (§655a.12, §657a.12): the meters of Mississippi Stud and Crazy 4 Poker, the
Progressive Payout Wagers of each round, the winning hands, their Envy Bonuses, validations, cage
payments and the resets of a meter.

A ``ProgressiveMeter`` is created the first time a rules file names it and is never deleted; what it
pays and how fast it rises is in the rules version in effect (``jackpots.progressive.rules``); its money
is in the ledger (``jackpots.progressive.accounts``: the meter, the wagers collected, the house's share, the house's
funding, the payouts won and paid).

Every row here is inserted once and never changed (a trigger refuses UPDATE and DELETE on PostgreSQL and
SQLite): a round with its wagers (``ProgressiveRound``, ``ProgressiveWager``), a count of chips that
differs from the wagers accepted (``WagerCountException``) and its supervisor's explanation
(``WagerCountExplanation``), a winning hand (``ProgressiveHand``) and the Envy Bonuses it gives the other
players (``EnvyBonus``), its validation by a floorperson or above (``ProgressiveValidation``), a payment at
the cage (``ProgressivePayment``), a meter's initial or reset amount (``MeterFunding``), a round voided
after it was recorded (``ProgressiveRoundVoid``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from simple_history.models import HistoricalRecords

from casino_backoffice.core.audit import history_user
from casino_backoffice.ledger.models import ReferencingTransfers
from casino_backoffice.money import display_cents
from casino_backoffice.staff.permissions import Action
from casino_backoffice.staff.signing import SignableDocument, SigningRule


class ProgressiveMeter(models.Model):
    """A progressive meter of a room, linked to the banked tables that name it in the rules."""

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="progressive_meters")
    code = models.SlugField(max_length=30)
    name = models.CharField(max_length=120)
    game = models.CharField(max_length=20)
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords(get_user=history_user)

    class Meta:
        ordering = ["room", "code"]
        constraints = [models.UniqueConstraint(fields=["room", "code"], name="jackpots_meter_code_unique_in_room")]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class PayoutPlace(models.TextChoices):
    """Where a payout is paid: from the table inventory, or through the cage (§655a.11(i)(4)(i)(D),
    §657a.11(e)(4) as amended)."""

    TABLE = "table", "At the table, from the table inventory"
    CAGE = "cage", "Through the cage"


class ProgressiveRound(models.Model):
    """A round of a banked table that played into a meter: the Progressive Payout Wagers the progressive
    table game system accepted and the value chips the dealer collected (§655a.8(b), §657a.8(b): 'verify
    that the number of value chips wagered equals the number of Progressive Payout Wagers accepted').

    ``increment_cents`` went to the meter at the rate of progression, ``house_cents`` is the rest of the
    wagers: together the wagers, to the cent (a check constraint). Inserted once."""

    meter = models.ForeignKey(ProgressiveMeter, on_delete=models.PROTECT, related_name="rounds")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="progressive_rounds")
    rules_version = models.ForeignKey("tables.RulesVersion", on_delete=models.PROTECT, related_name="+")
    ended_at = models.DateTimeField()
    gaming_day = models.DateField()
    wagers_accepted = models.PositiveSmallIntegerField()
    chips_collected = models.PositiveSmallIntegerField()
    wagers_cents = models.BigIntegerField()
    increment_cents = models.BigIntegerField()
    house_cents = models.BigIntegerField()
    community_cards = models.CharField(max_length=20, blank=True, help_text="Mississippi Stud's three, when known.")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)
    transfers = ReferencingTransfers(related_query_name="progressive_round")

    class Meta:
        ordering = ["-ended_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(wagers_cents=F("increment_cents") + F("house_cents")),
                name="jackpots_progressive_round_wagers_split_to_the_cent",
            ),
            models.CheckConstraint(
                condition=Q(increment_cents__gte=0, house_cents__gte=0), name="jackpots_progressive_round_not_negative"
            ),
        ]
        indexes = [models.Index(fields=["meter", "ended_at"]), models.Index(fields=["table", "gaming_day"])]

    def __str__(self) -> str:
        return f"Progressive round {self.pk} at {self.table.number}"

    @property
    def counts_match(self) -> bool:
        return self.wagers_accepted == self.chips_collected


class ProgressiveWager(models.Model):
    """One Progressive Payout Wager the system accepted, by seat. Seat 1 is the player farthest to the
    dealer's left, dealt first (§655a.8(d), §657a.8(d)); wins are paid from the highest seat down
    (§655a.11(i), §657a.11(c): 'beginning with the player farthest to the dealer's right')."""

    round = models.ForeignKey(ProgressiveRound, on_delete=models.PROTECT, related_name="wagers")
    seat = models.PositiveSmallIntegerField()
    amount_cents = models.BigIntegerField()

    class Meta:
        ordering = ["round", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="jackpots_progressive_wager_one_per_seat"),
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="jackpots_progressive_wager_positive"),
            models.CheckConstraint(condition=Q(seat__gte=1), name="jackpots_progressive_wager_seat"),
        ]

    def __str__(self) -> str:
        return f"Seat {self.seat}: {display_cents(self.amount_cents)}"


class WagerCountException(models.Model):
    """The chips collected differ from the wagers the system accepted (§655a.8(b), §657a.8(b)): kept as
    an exception until a supervisor explains it (``WagerCountExplanation``). Inserted once."""

    round = models.OneToOneField(ProgressiveRound, on_delete=models.PROTECT, related_name="count_exception")
    wagers_accepted = models.PositiveSmallIntegerField()
    chips_collected = models.PositiveSmallIntegerField()
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["-recorded_at"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(wagers_accepted=F("chips_collected")), name="jackpots_wager_count_exception_differs"
            )
        ]

    def __str__(self) -> str:
        return f"{self.wagers_accepted} wagers accepted, {self.chips_collected} chips collected"


class WagerCountExplanation(SignableDocument):
    """A supervisor's signed explanation of a wager count exception (a house control)."""

    EXPLAINER = SigningRule(purpose="explainer", action=Action.PROGRESSIVE_EXPLAIN, section="§655a.8(b), §657a.8(b)")

    exception = models.OneToOneField(WagerCountException, on_delete=models.PROTECT, related_name="explanation")
    explanation = models.TextField()
    explained_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    explained_at = models.DateTimeField()

    class Meta:
        ordering = ["-explained_at"]
        constraints = [models.CheckConstraint(condition=~Q(explanation=""), name="jackpots_wager_count_explained")]

    def signing_content(self) -> dict[str, Any]:
        return {
            "exception": self.exception_id,
            "explanation": self.explanation,
            "explained_by": self.explained_by_id,
            "explained_at": self.explained_at,
        }

    def __str__(self) -> str:
        return f"Explanation of exception {self.exception_id}"


class ProgressiveHand(models.Model):
    """A hand of a round that wins a progressive payout or is an Envy Bonus Qualifying Hand, as the
    dealer verified it (§655a.11(i)(4)(i)(A)-(B), §657a.11(e)(1)-(2)): its cards, the hand the evaluator
    made of them (Mississippi Stud: the player's two cards and the three community cards; Crazy 4 Poker:
    the best four of five), the paytable line it wins and the payout: a share of the meter as it stood
    at that player's turn (``meter_before_cents``, §655a.12(c)(4), §657a.12(d)(4)) or a fixed 'for 1'
    amount. ``place`` says whether it is paid at the table or through the cage. A player who folded
    forfeited the wager (``amount_cents`` 0) and keeps the Envy Bonuses (§655a.11(h), §657a.11(b)(2)).
    Inserted once; its validation is the signed document (``ProgressiveValidation``)."""

    round = models.ForeignKey(ProgressiveRound, on_delete=models.PROTECT, related_name="hands")
    seat = models.PositiveSmallIntegerField()
    cards = models.CharField(
        max_length=20, help_text="The player's cards (and the community cards at Mississippi Stud)."
    )
    hand_cards = models.CharField(max_length=20, help_text="The cards that make the hand, best first.")
    words = models.CharField(max_length=120)
    strength = models.BigIntegerField()
    folded = models.BooleanField(default=False)
    wager_cents = models.BigIntegerField(default=0, help_text="The seat's Progressive Payout Wager; 0 when none.")
    line = models.CharField(max_length=60, blank=True, help_text="The progressive paytable line won; blank when none.")
    payout = models.CharField(max_length=30, blank=True, help_text="The line's payout as posted.")
    meter_bp = models.PositiveIntegerField(default=0)
    meter_before_cents = models.BigIntegerField(default=0)
    amount_cents = models.BigIntegerField(default=0)
    place = models.CharField(max_length=10, choices=PayoutPlace.choices, default=PayoutPlace.TABLE)
    light_confirmed = models.BooleanField(default=False)
    envy_qualifying = models.BooleanField(default=False)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)
    transfers = ReferencingTransfers(related_query_name="progressive_hand")

    class Meta:
        ordering = ["round", "-seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="jackpots_progressive_hand_one_per_seat"),
            models.CheckConstraint(condition=Q(amount_cents__gte=0), name="jackpots_progressive_hand_not_negative"),
            # A payout is recorded only once the system's light was seen (§655a.11(i)(4)(i)(B)).
            models.CheckConstraint(
                condition=Q(amount_cents=0) | Q(light_confirmed=True), name="jackpots_progressive_hand_light_seen"
            ),
            models.CheckConstraint(
                condition=Q(amount_cents__gt=0) | Q(envy_qualifying=True), name="jackpots_progressive_hand_pays"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.words} at seat {self.seat} (round {self.round_id})"

    @property
    def is_meter_payout(self) -> bool:
        return self.meter_bp > 0 and self.amount_cents > 0

    @property
    def resets_meter(self) -> bool:
        """A payout of 100% of the meter: the meter is pending until it is reset."""
        return self.meter_bp == 10_000 and self.amount_cents > 0

    @property
    def is_paid(self) -> bool:
        """Paid to the patron: at the table with its validation, or through the cage with its payment
        (read the validation and the payment with the hand: ``select_related``)."""
        if hasattr(self, "payment"):
            return True
        return self.place == PayoutPlace.TABLE and hasattr(self, "validation")


class EnvyBonus(models.Model):
    """An Envy Bonus a player with a Progressive Payout Wager receives for another player's Envy Bonus
    Qualifying Hand, by the receiver's wager size (§655a.12(c)(5), §657a.12(d)(5)). Paid at the table,
    with the qualifying hand's validation. Inserted once."""

    hand = models.ForeignKey(ProgressiveHand, on_delete=models.PROTECT, related_name="envy_bonuses")
    seat = models.PositiveSmallIntegerField(help_text="The receiver's seat.")
    wager_cents = models.BigIntegerField()
    line = models.CharField(max_length=60)
    amount_cents = models.BigIntegerField()

    class Meta:
        ordering = ["hand", "-seat"]
        verbose_name_plural = "envy bonuses"
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="jackpots_envy_once_per_hand_and_seat"),
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="jackpots_envy_positive"),
        ]

    def __str__(self) -> str:
        return f"Envy Bonus to seat {self.seat} for {self.hand}"


class ProgressiveValidation(SignableDocument):
    """A floorperson or above validates a progressive payout (§655a.11(i)(4)(i)(C), §657a.11(e)(3)), not
    the person who recorded the hand. What is paid at the table is paid with it; a payout through the
    cage waits for the cashier."""

    VALIDATOR = SigningRule(
        purpose="validator",
        action=Action.PROGRESSIVE_VALIDATE,
        section="§655a.11(i)(4)(i)(C), §657a.11(e)(3)",
        not_same_as_fields=("hand_recorded_by",),
    )

    hand = models.OneToOneField(ProgressiveHand, on_delete=models.PROTECT, related_name="validation")
    hand_recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    validated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    validated_at = models.DateTimeField()
    transfers = ReferencingTransfers(related_query_name="progressive_validation")

    class Meta:
        ordering = ["-validated_at"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(validated_by=F("hand_recorded_by")), name="jackpots_validator_is_not_the_recorder"
            )
        ]

    def signing_content(self) -> dict[str, Any]:
        return {
            "hand": self.hand_id,
            "amount_cents": self.hand.amount_cents,
            "envy_cents": sorted((bonus.seat, bonus.amount_cents) for bonus in self.hand.envy_bonuses.all()),
            "validated_by": self.validated_by_id,
            "validated_at": self.validated_at,
        }

    def __str__(self) -> str:
        return f"Validation of {self.hand}"


class ProgressivePayment(SignableDocument):
    """A progressive payout not paid from the table inventory, paid through the cage by a cage cashier
    against the patron's identification, once (§655a.11(i)(4)(i)(D), §657a.11(e)(4))."""

    PAYER = SigningRule(purpose="payer", action=Action.PROGRESSIVE_PAY, section="§655a.11(i)(4)(i)(D), §657a.11(e)(4)")

    hand = models.OneToOneField(ProgressiveHand, on_delete=models.PROTECT, related_name="payment")
    patron_name = models.CharField(max_length=120)
    id_type = models.CharField(max_length=60)
    id_number = models.CharField(max_length=60)
    paid_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    paid_at = models.DateTimeField()
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)
    transfers = ReferencingTransfers(related_query_name="progressive_payment")

    class Meta:
        ordering = ["-paid_at"]

    def signing_content(self) -> dict[str, Any]:
        return {
            "hand": self.hand_id,
            "amount_cents": self.hand.amount_cents,
            "patron": [self.patron_name, self.id_type, self.id_number],
            "paid_by": self.paid_by_id,
            "paid_at": self.paid_at,
        }

    def __str__(self) -> str:
        return f"Payment of {self.hand}"


class FundingReason(models.TextChoices):
    INITIAL = "initial", "Initial amount"
    RESET = "reset", "Reset after a 100% payout"


class MeterFunding(SignableDocument):
    """The house puts a meter's initial amount on it when the meter is first posted, and its reset
    amount after a 100% payout (§655a.12(c)(3), §657a.12(d)(3)). A reset is signed by a supervisor and
    names the payout it follows (one reset per payout)."""

    RESETTER = SigningRule(
        purpose="resetter", action=Action.PROGRESSIVE_RESET, section="§655a.12(c)(3), §657a.12(d)(3)"
    )

    meter = models.ForeignKey(ProgressiveMeter, on_delete=models.PROTECT, related_name="fundings")
    reason = models.CharField(max_length=10, choices=FundingReason.choices)
    after_hand = models.OneToOneField(
        ProgressiveHand, on_delete=models.PROTECT, null=True, blank=True, related_name="reset"
    )
    rules_version = models.ForeignKey("tables.RulesVersion", on_delete=models.PROTECT, null=True, related_name="+")
    amount_cents = models.BigIntegerField()
    funded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    funded_at = models.DateTimeField()
    transfers = ReferencingTransfers(related_query_name="meter_funding")

    class Meta:
        ordering = ["-funded_at"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="jackpots_meter_funding_positive"),
            models.UniqueConstraint(
                fields=["meter"], condition=Q(reason="initial"), name="jackpots_meter_initial_once"
            ),
            models.CheckConstraint(
                condition=Q(reason="initial", after_hand__isnull=True) | Q(reason="reset", after_hand__isnull=False),
                name="jackpots_meter_reset_follows_a_payout",
            ),
        ]

    def signing_content(self) -> dict[str, Any]:
        return {
            "meter": self.meter_id,
            "reason": self.reason,
            "after_hand": self.after_hand_id,
            "amount_cents": self.amount_cents,
            "funded_by": self.funded_by_id,
            "funded_at": self.funded_at,
        }

    def __str__(self) -> str:
        return f"{self.get_reason_display()} of {self.meter}"


class ProgressiveRoundVoid(SignableDocument):
    """A banked round already recorded, voided by a floorperson or above who signs: 'all hands shall be
    void, all wagers shall be returned to the players' (§655a.13(a), (c), (d), §657a.13(a), (c), (d);
    the round of play void when an automated dealing shoe jams, (f)).

    The round stays as it was recorded; each transfer its Progressive Payout Wagers posted (its
    increment to the meter, the house's share) is reversed by a transfer that references this void
    (``jackpots.progressive.services.voids``), so the meter and the house's share hold what they would
    without the round. Its irregularity (``banked_card_error``, signed by the same person) is the record
    of what happened. One per round, inserted once, never changed."""

    VOIDER = SigningRule(purpose="voider", action=Action.PROGRESSIVE_ROUND_VOID, section="§655a.13, §657a.13")

    round = models.OneToOneField(ProgressiveRound, on_delete=models.PROTECT, related_name="void")
    irregularity = models.OneToOneField(
        "tables.Irregularity", on_delete=models.PROTECT, related_name="progressive_round_void"
    )
    reason = models.TextField()
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    voided_at = models.DateTimeField()
    # A key as sent (120 characters at most) scoped to its sender (``core.idempotency.sender_key``).
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)
    transfers = ReferencingTransfers(related_query_name="progressive_round_void")

    class Meta:
        ordering = ["-voided_at", "-id"]
        verbose_name = "banked round voided"
        verbose_name_plural = "banked rounds voided"
        constraints = [models.CheckConstraint(condition=~Q(reason=""), name="jackpots_progressive_void_has_a_reason")]

    def signing_content(self) -> dict[str, Any]:
        round_ = self.round
        return {
            "round": self.round_id,
            "table": round_.table_id,
            "meter": round_.meter_id,
            "ended_at": round_.ended_at,
            "wagers_cents": round_.wagers_cents,
            "increment_cents": round_.increment_cents,
            "irregularity": self.irregularity_id,
            "reason": self.reason,
            "voided_by": self.voided_by_id,
            "voided_at": self.voided_at,
        }

    def __str__(self) -> str:
        return f"Void of progressive round {self.round_id}"
