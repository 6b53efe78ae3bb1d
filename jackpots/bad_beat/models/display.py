"""The displayed amount of a Bad Beat fund, and the transfer of a discontinued fund.

§637a.15(h): 'No less than once a day and immediately upon notification of a Bad Beat verification by
the Poker shift supervisor, a finance department employee shall: (1) In the presence of a floorperson
or above, adjust each Bad Beat payout amount displayed in the Poker area to reflect the current Bad
Beat payout amount. (2) Verify that the amount of any Bad Beat payout maintained by the finance
department corresponds to the amount being displayed to patrons.'

The displayed amount is its own record: what the latest ``DisplayAdjustment`` of the fund that took
effect set. The finance record is the fund's official balance less what verified claims still owe from
it (``jackpots.bad_beat.selectors.fund_position``). Two independent numbers, so that (h)(2) compares something.

An adjustment takes effect when both have signed: the finance employee who set it and the floorperson
or above in whose presence it was set ('In the presence of a floorperson or above, adjust', (h)(1)).
Until then the display shows what it showed, with its 'pending adjustment' notice (§637a.15(f)(1)).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from simple_history.models import HistoricalRecords

from casino_backoffice.core.audit import history_user
from casino_backoffice.ledger.models import ReferencingTransfers
from casino_backoffice.staff.permissions import Action
from casino_backoffice.staff.signing import SignableDocument, SigningRule


class DisplayAdjustment(SignableDocument):
    """A finance employee set the displayed amount of a fund to ``amount_cents``, the finance record
    at that moment (§637a.15(h)(1)); a floorperson or above who witnessed it signs after
    (``witnessed_by``), and the display shows it from then on (``witnessed_at``, when it took effect).
    ``previous_cents`` is what the display showed before (None: never adjusted).

    ``verification`` is the earliest verification of a claim on the fund that the adjustment answers
    (verified since the display's previous adjustment and before this one was set), and
    ``seconds_from_verification`` the time from it to the adjustment taking effect, recorded with the
    witness's signature ('immediately upon notification of a Bad Beat verification', §637a.15(h)). An
    adjustment not yet witnessed when finance sets a newer one never takes effect: it is superseded.

    The signed content never changes; the witness, the moment of effect and the time from the
    verification are set once, together (database checks), and audited."""

    ADJUSTER = SigningRule(purpose="adjuster", action=Action.DISPLAY_ADJUST, section="§637a.15(h)")
    WITNESS = SigningRule(
        purpose="witness",
        action=Action.DISPLAY_WITNESS,
        section="§637a.15(h)(1)",
        not_same_as=("adjuster",),
        not_same_as_fields=("adjusted_by",),
        requires=("adjuster",),
    )

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="display_adjustments")
    jackpot = models.ForeignKey("jackpots.Jackpot", on_delete=models.PROTECT, related_name="display_adjustments")
    amount_cents = models.BigIntegerField(help_text="What the display shows from this adjustment on.")
    previous_cents = models.BigIntegerField(null=True, blank=True)
    official_cents = models.BigIntegerField(help_text="The fund's official balance at the adjustment.")
    owed_cents = models.BigIntegerField(help_text="What verified claims still owed from it.")
    gaming_day = models.DateField()
    adjusted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    adjusted_at = models.DateTimeField()
    witnessed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    witnessed_at = models.DateTimeField(
        null=True, blank=True, help_text="When the witness signed: the adjustment took effect on the display then."
    )
    verification = models.ForeignKey(
        "jackpots.BadBeatDecision",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="display_adjustments",
        help_text="The earliest verification of a claim this adjustment answers; none for a daily adjustment.",
    )
    seconds_from_verification = models.PositiveIntegerField(
        null=True, blank=True, help_text="Whole seconds from that verification to the adjustment taking effect."
    )
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)

    history = HistoricalRecords(get_user=history_user)

    class Meta:
        verbose_name = "Bad Beat display adjustment"
        ordering = ["-adjusted_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gte=0), name="jackpots_display_amount_not_negative"),
            models.CheckConstraint(
                condition=Q(witnessed_by__isnull=True) | ~Q(witnessed_by=F("adjusted_by")),
                name="jackpots_display_witness_is_not_the_adjuster",
            ),
            # The witness and the moment the adjustment took effect are set together, never before it was set.
            models.CheckConstraint(
                condition=Q(witnessed_by__isnull=True, witnessed_at__isnull=True)
                | Q(witnessed_by__isnull=False, witnessed_at__gte=F("adjusted_at")),
                name="jackpots_display_effective_when_witnessed",
            ),
            # The time from a verification is recorded when the adjustment answering it takes effect.
            models.CheckConstraint(
                condition=Q(verification__isnull=True, seconds_from_verification__isnull=True)
                | Q(verification__isnull=False, seconds_from_verification__isnull=False, witnessed_at__isnull=False),
                name="jackpots_display_verification_timed_when_effective",
            ),
        ]
        indexes = [
            models.Index(fields=["jackpot", "adjusted_at"]),
            models.Index(fields=["room", "gaming_day"]),
            models.Index(fields=["room", "witnessed_at"]),
        ]

    def signing_content(self) -> dict[str, Any]:
        # What the adjuster sets and the witness sees set; the witness and the time are set once, with
        # the witness's signature.
        return {
            "jackpot": self.jackpot_id,
            "amount_cents": self.amount_cents,
            "previous_cents": self.previous_cents,
            "official_cents": self.official_cents,
            "owed_cents": self.owed_cents,
            "gaming_day": self.gaming_day,
            "adjusted_by": self.adjusted_by_id,
            "adjusted_at": self.adjusted_at,
        }

    def __str__(self) -> str:
        return f"Display of {self.jackpot.code} set at {self.adjusted_at:%Y-%m-%d %H:%M}"


class DisplayOverdue(models.Model):
    """A gaming day that ended without an adjustment of a Bad Beat fund's display (§637a.15(h): 'no
    less than once a day'), flagged by the schedule; one per fund and day."""

    jackpot = models.ForeignKey("jackpots.Jackpot", on_delete=models.PROTECT, related_name="display_overdue")
    gaming_day = models.DateField()
    flagged_at = models.DateTimeField()

    class Meta:
        verbose_name = "day without a display adjustment"
        verbose_name_plural = "days without a display adjustment"
        ordering = ["-gaming_day", "jackpot"]
        constraints = [
            models.UniqueConstraint(fields=["jackpot", "gaming_day"], name="jackpots_display_overdue_once_a_day")
        ]

    def __str__(self) -> str:
        return f"{self.jackpot.code}: display not adjusted on {self.gaming_day}"


class DisplayAdjustmentLate(models.Model):
    """A verification of a Bad Beat whose display did not show the adjusted amount, witnessed, within the
    limit the house posts (``display_adjust_within_minutes`` of the rules in effect at the verification;
    §637a.15(h): 'immediately upon notification of a Bad Beat verification'), flagged by the schedule
    once ``due_at`` passed; one per verification, whether the adjustment came later or never."""

    verification = models.OneToOneField(
        "jackpots.BadBeatDecision", on_delete=models.PROTECT, related_name="display_late"
    )
    jackpot = models.ForeignKey("jackpots.Jackpot", on_delete=models.PROTECT, related_name="display_late")
    within_minutes = models.PositiveIntegerField(help_text="The posted limit, in minutes from the verification.")
    due_at = models.DateTimeField(help_text="The verification plus the posted limit.")
    flagged_at = models.DateTimeField()

    class Meta:
        verbose_name = "display adjustment not made in time"
        verbose_name_plural = "display adjustments not made in time"
        ordering = ["-due_at", "jackpot"]
        constraints = [
            models.CheckConstraint(condition=Q(within_minutes__gte=1), name="jackpots_display_late_limit_positive"),
            models.CheckConstraint(condition=Q(flagged_at__gt=F("due_at")), name="jackpots_display_late_after_due"),
        ]

    def __str__(self) -> str:
        return f"{self.jackpot.code}: display not adjusted within {self.within_minutes} min of a verification"


class FundTransferStatus(models.TextChoices):
    PREPARED = "prepared", "Prepared, awaiting approval"
    APPROVED = "approved", "Approved and posted"


class FundTransfer(SignableDocument):
    """Money of a discontinued Bad Beat fund moved to another Bad Beat fund (§637a.15(i): 'the method by
    which pot contributions will be terminated or transferred to other Bad Beat payouts, or both, to
    ensure that all payout amounts are paid to Poker patrons'). Finance prepares and signs; another
    finance employee or an administrator approves and signs, and the ledger transfer is posted then."""

    PREPARER = SigningRule(purpose="preparer", action=Action.FUND_TRANSFER_PREPARE, section="§637a.15(i)")
    APPROVER = SigningRule(
        purpose="approver",
        action=Action.FUND_TRANSFER_APPROVE,
        section="§637a.15(i)",
        not_same_as=("preparer",),
        not_same_as_fields=("prepared_by",),
        requires=("preparer",),
    )

    source = models.ForeignKey("jackpots.Jackpot", on_delete=models.PROTECT, related_name="transfers_out")
    destination = models.ForeignKey("jackpots.Jackpot", on_delete=models.PROTECT, related_name="transfers_in")
    amount_cents = models.BigIntegerField()
    reason = models.TextField()
    prepared_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    prepared_at = models.DateTimeField()
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=FundTransferStatus.choices, default=FundTransferStatus.PREPARED)
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)
    transfers = ReferencingTransfers(related_query_name="fund_transfer")

    history = HistoricalRecords(get_user=history_user)

    class Meta:
        verbose_name = "Bad Beat fund transfer"
        ordering = ["-prepared_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="jackpots_fundtransfer_amount_positive"),
            models.CheckConstraint(condition=~Q(source=F("destination")), name="jackpots_fundtransfer_two_funds"),
            models.CheckConstraint(
                condition=Q(approved_by__isnull=True) | ~Q(approved_by=F("prepared_by")),
                name="jackpots_fundtransfer_approver_is_not_the_preparer",
            ),
        ]

    def signing_content(self) -> dict[str, Any]:
        return {
            "source": self.source_id,
            "destination": self.destination_id,
            "amount_cents": self.amount_cents,
            "reason": self.reason,
            "prepared_by": self.prepared_by_id,
            "prepared_at": self.prepared_at,
        }

    def __str__(self) -> str:
        return f"Transfer of {self.source.code} to {self.destination.code}"
