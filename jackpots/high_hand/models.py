"""The High Hand Jackpot (§637a.16): qualifying periods, the High Hand Tracking Slip, awards and their
payment at the cage.

A ``HighHandPeriod`` is opened and closed by the schedule exactly as the rules file says (one per fund
and start: a unique key). During an open period a floorperson or above records each new highest
qualifying hand on its Tracking Slip (``HighHandEntry``, signed and never changed); a wrong entry is
voided by a supervisor's signed ``HighHandVoid``, never deleted. Once every box of a closed period is
counted and verified, its pool is announced: the highest hand wins (ties share) with one
``HighHandAward`` per winning entry, or the whole pool rolls into the next period (§637a.16(h)).
Awards are paid at the cage (``HighHandAwardPayment``); one not collected in time goes where the rules
say (``HighHandUnclaimed``, §637a.16(i)).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from simple_history.models import HistoricalRecords

from casino_backoffice.core.audit import history_user
from casino_backoffice.core.clock import ZONED, local_text
from casino_backoffice.ledger.models import ReferencingTransfers
from casino_backoffice.staff.permissions import Action
from casino_backoffice.staff.signing import SignableDocument, SigningRule


class PeriodStatus(models.TextChoices):
    """open -> closed (its end passed) -> awarded | rolled_over (its pool announced)."""

    OPEN = "open", "Open"
    CLOSED = "closed", "Closed, its boxes to count and verify"
    AWARDED = "awarded", "Awarded"
    ROLLED_OVER = "rolled_over", "Rolled over: no qualifying hand"


class HighHandPeriod(models.Model):
    """One qualifying period of a High Hand fund, [starts_at, ends_at) (§637a.16(b)(1)).

    ``pool_cents`` is null until the period's boxes are counted and verified; then it is the period's
    official contributions plus ``rolled_in_cents`` (§637a.16(g)-(h)). ``close_note`` says when a
    period was closed late (the schedule was down at its end); ``opened_late`` and ``open_note`` when a
    round that ended in it opened it before the schedule had (every drop belongs to a period that exists).
    Each table's box content of the period is its own ledger account
    (``jackpots.high_hand.accounts.high_hand_box_content_account``): the box is exchanged at the period's end. ``waiting_note`` says why a closed
    period whose boxes are all counted and verified is not announced yet (its pool is more than the
    fund holds: a correction took back money the pool counts); the announcement clears it.
    """

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="high_hand_periods")
    jackpot = models.ForeignKey("jackpots.Jackpot", on_delete=models.PROTECT, related_name="periods")
    rules_version = models.ForeignKey("tables.RulesVersion", on_delete=models.PROTECT, related_name="+")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    status = models.CharField(max_length=12, choices=PeriodStatus.choices, default=PeriodStatus.OPEN)
    opened_at = models.DateTimeField(help_text="When the schedule opened it.")
    closed_at = models.DateTimeField(null=True, blank=True, help_text="When the schedule closed it.")
    close_note = models.CharField(max_length=300, blank=True)
    opened_late = models.BooleanField(
        default=False,
        help_text="Opened by a round that ended in it before the schedule had opened it (open_note says when).",
    )
    open_note = models.CharField(max_length=300, blank=True)
    waiting_note = models.CharField(
        max_length=300, blank=True, help_text="Why the period, its boxes counted and verified, is not announced yet."
    )
    contributions_cents = models.BigIntegerField(null=True, blank=True)
    rolled_in_cents = models.BigIntegerField(default=0)
    pool_cents = models.BigIntegerField(null=True, blank=True)
    announced_at = models.DateTimeField(null=True, blank=True)

    history = HistoricalRecords(get_user=history_user)

    class Meta:
        ordering = ["jackpot", "starts_at"]
        constraints = [
            models.UniqueConstraint(fields=["jackpot", "starts_at"], name="jackpots_period_once_per_fund_and_start"),
            models.CheckConstraint(condition=Q(ends_at__gt=F("starts_at")), name="jackpots_period_ends_after_start"),
            models.CheckConstraint(condition=Q(rolled_in_cents__gte=0), name="jackpots_period_rolled_in_not_negative"),
            models.CheckConstraint(
                condition=Q(pool_cents__isnull=True) | Q(pool_cents__gte=0), name="jackpots_period_pool_not_negative"
            ),
        ]
        indexes = [models.Index(fields=["jackpot", "status"]), models.Index(fields=["room", "ends_at"])]

    def __str__(self) -> str:
        return f"{self.jackpot.name} ({self.jackpot.code}), period from {local_text(self.starts_at, self.room, ZONED)}"


class HighHandEntry(SignableDocument):
    """A line of the High Hand Tracking Slip (§637a.16(f)): '(1) The name, phone number and seat number
    of the player with the higher value hand. (2) The table number. (3) The higher value hand. (4) The
    dealer's name and Board-issued credential number. (5) The signature and Board-issued credential
    number of the floorperson or above who verified the higher value hand.' With the player's
    identification (§637a.16(b)(7)), the players dealt in and the pot (the rules' minimums).

    ``strength`` orders hands as the evaluator does (higher is better); ``tie`` says the hand equals
    the period's current high hand when it was recorded. Inserted once, never changed.
    """

    RECORDER = SigningRule(purpose="recorder", action=Action.HIGH_HAND_RECORD, section="§637a.16(f)(5)")

    period = models.ForeignKey(HighHandPeriod, on_delete=models.PROTECT, related_name="entries")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="high_hand_entries")
    seat = models.PositiveSmallIntegerField()
    player_name = models.CharField(max_length=120)
    player_phone = models.CharField(max_length=40)
    id_type = models.CharField(max_length=60)
    id_number = models.CharField(max_length=60)
    cards = models.CharField(max_length=20, help_text="The five cards of the hand.")
    words = models.CharField(max_length=120, help_text="The hand in words.")
    strength = models.BigIntegerField()
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    dealer_name = models.CharField(max_length=150)
    dealer_credential_number = models.CharField(max_length=40)
    players_dealt_in = models.PositiveSmallIntegerField()
    pot_cents = models.BigIntegerField()
    made_at = models.DateTimeField()
    round = models.ForeignKey(
        "tables.Round",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="high_hand_entries",
        help_text="The logged round of the hand, named or found when it was recorded; a round logged later is "
        "linked by a HighHandEntryRound.",
    )
    tie = models.BooleanField(default=False)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)

    class Meta:
        ordering = ["period", "recorded_at", "id"]
        verbose_name_plural = "high hand entries"
        constraints = [
            models.CheckConstraint(condition=Q(pot_cents__gte=0), name="jackpots_entry_pot_not_negative"),
            models.CheckConstraint(
                condition=~Q(dealer=F("recorded_by")), name="jackpots_entry_dealer_is_not_the_floorperson"
            ),
        ]
        indexes = [models.Index(fields=["period", "strength"])]

    def signing_content(self) -> dict[str, Any]:
        content: dict[str, Any] = {
            "period": self.period_id,
            "table": self.table_id,
            "seat": self.seat,
            "player": [self.player_name, self.player_phone, self.id_type, self.id_number],
            "cards": self.cards,
            "words": self.words,
            "dealer": [self.dealer_id, self.dealer_name, self.dealer_credential_number],
            "players_dealt_in": self.players_dealt_in,
            "pot_cents": self.pot_cents,
            "made_at": self.made_at,
            "tie": self.tie,
            "recorded_by": self.recorded_by_id,
            "recorded_at": self.recorded_at,
        }
        # The round is attested when the entry names it; entries signed before it existed keep their hash.
        if self.round_id is not None:
            content["round"] = self.round_id
        return content

    def __str__(self) -> str:
        return f"{self.words} at {self.table.number} seat {self.seat}"


class HighHandEntryRound(models.Model):
    """The round an entry was found in after it was signed: the round was logged after the entry, and
    its table, players, pot and time agree with the hand's (``jackpots.high_hand.hand_rounds``). Entries
    are never changed (a trigger refuses it), so the link is a row of its own: one per entry, inserted
    once, never changed."""

    entry = models.OneToOneField(HighHandEntry, on_delete=models.PROTECT, related_name="round_link")
    round = models.ForeignKey("tables.Round", on_delete=models.PROTECT, related_name="high_hand_entry_links")
    linked_at = models.DateTimeField()

    class Meta:
        verbose_name = "High Hand entry's round"
        ordering = ["-linked_at", "-id"]

    def __str__(self) -> str:
        return f"Entry {self.entry_id} in round {self.round_id}"


class HighHandVoid(SignableDocument):
    """A supervisor's signed void of a wrong entry, with the reason; the entry stays on the slip."""

    VOIDER = SigningRule(
        purpose="voider",
        action=Action.HIGH_HAND_VOID,
        section="§637a.16(f)",
        not_same_as_fields=("entry_recorded_by",),
    )

    entry = models.OneToOneField(HighHandEntry, on_delete=models.PROTECT, related_name="void")
    entry_recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField()
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    voided_at = models.DateTimeField()

    class Meta:
        ordering = ["-voided_at"]
        constraints = [models.CheckConstraint(condition=~Q(reason=""), name="jackpots_void_has_a_reason")]

    def signing_content(self) -> dict[str, Any]:
        return {
            "entry": self.entry_id,
            "reason": self.reason,
            "voided_by": self.voided_by_id,
            "voided_at": self.voided_at,
        }

    def __str__(self) -> str:
        return f"Void of entry {self.entry_id}"


class HighHandAward(models.Model):
    """A winning entry's part of its period's pool (§637a.16(h)), to collect at the cage by
    ``collect_by`` (§637a.16(b)(6)). Its money moves from the fund to the fund's awards to collect when
    the pool is announced. Inserted once; its payment or its unclaimed transfer says what became of it."""

    period = models.ForeignKey(HighHandPeriod, on_delete=models.PROTECT, related_name="awards")
    entry = models.OneToOneField(HighHandEntry, on_delete=models.PROTECT, related_name="award")
    amount_cents = models.BigIntegerField()
    collect_by = models.DateTimeField()
    transfers = ReferencingTransfers(related_query_name="high_hand_award")

    class Meta:
        ordering = ["period", "entry"]
        constraints = [models.CheckConstraint(condition=Q(amount_cents__gt=0), name="jackpots_award_positive")]

    def __str__(self) -> str:
        return f"Award of {self.entry.player_name} in {self.period}"


class HighHandAwardPayment(SignableDocument):
    """An award paid at the cage (§637a.16(h): 'paid from the main cage or satellite cage') against the
    identification recorded with the hand (§637a.16(b)(7)). One per award."""

    PAYER = SigningRule(purpose="payer", action=Action.HIGH_HAND_PAY, section="§637a.16(h)")

    award = models.OneToOneField(HighHandAward, on_delete=models.PROTECT, related_name="payment")
    id_type = models.CharField(max_length=60)
    id_number = models.CharField(max_length=60)
    paid_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    paid_at = models.DateTimeField()
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)
    transfers = ReferencingTransfers(related_query_name="high_hand_payment")

    class Meta:
        ordering = ["-paid_at"]

    def signing_content(self) -> dict[str, Any]:
        return {
            "award": self.award_id,
            "amount_cents": self.award.amount_cents,
            "id_type": self.id_type,
            "id_number": self.id_number,
            "paid_by": self.paid_by_id,
            "paid_at": self.paid_at,
        }

    def __str__(self) -> str:
        return f"Payment of award {self.award_id}"


class HighHandUnclaimed(SignableDocument):
    """An award not collected within the time limit (§637a.16(b)(6)), going where the rules say
    (§637a.16(i)): prepared by the schedule, approved and signed by finance; the money moves back from
    the awards to collect to the fund and into ``into_period``'s pool."""

    APPROVER = SigningRule(purpose="approver", action=Action.HIGH_HAND_UNCLAIMED_APPROVE, section="§637a.16(i)")

    award = models.OneToOneField(HighHandAward, on_delete=models.PROTECT, related_name="unclaimed")
    destination = models.CharField(max_length=20, help_text="The rules' unclaimed: next_period or fund.")
    prepared_at = models.DateTimeField()
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    into_period = models.ForeignKey(
        HighHandPeriod, on_delete=models.PROTECT, null=True, blank=True, related_name="unclaimed_in"
    )
    transfers = ReferencingTransfers(related_query_name="high_hand_unclaimed")

    history = HistoricalRecords(get_user=history_user)

    class Meta:
        ordering = ["-prepared_at"]
        verbose_name_plural = "high hand unclaimed awards"

    def signing_content(self) -> dict[str, Any]:
        return {
            "award": self.award_id,
            "amount_cents": self.award.amount_cents,
            "destination": self.destination,
            "prepared_at": self.prepared_at,
        }

    def __str__(self) -> str:
        return f"Unclaimed award {self.award_id}"
