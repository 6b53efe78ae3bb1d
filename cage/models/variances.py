"""Variances between what was expected and what was counted, their direction and their corrections."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from cage.models.boxes import Box
from cage.models.counts import Count, CountStatus
from cage.models.verifications import CageVerification
from casino_backoffice.core.audit import history_user
from casino_backoffice.ledger.models import ReferencingTransfers
from casino_backoffice.money import display_cents
from casino_backoffice.staff.permissions import Action
from casino_backoffice.staff.signing import SignableDocument, SigningRule


class VarianceDirection(models.TextChoices):
    """Which way a variance goes: counted less expected (or the cage less the table counts)."""

    OVER = "over", "Over"
    SHORT = "short", "Short"
    NONE = "none", "None"


def variance_direction(cents: int) -> VarianceDirection:
    """Over when more was counted than expected, short when less, none when they agree."""
    return VarianceDirection.OVER if cents > 0 else VarianceDirection.SHORT if cents < 0 else VarianceDirection.NONE


def display_variance(cents: int) -> str:
    """A variance in words and sign, as people read it: 'over +$71.10', 'short -$2,295.00', 'none $0.00'."""
    sign = "+" if cents > 0 else ""
    return f"{variance_direction(cents).value} {sign}{display_cents(cents)}"


class VarianceKind(models.TextChoices):
    COUNT = "count", "Counted at the table against expected"
    CAGE_COUNT = "cage_count", "Counted at the cage against expected"
    CAGE_VS_TABLE = "cage_vs_table", "Cage count against the table counts"


class Variance(SignableDocument):
    """A difference between counted and expected money, or between the cage and a table count. It is
    posted to the room's variance account (or cage over/short) so the ledger balances; one over the
    room's threshold (a house control in the rules file) needs an explanation signed by a shift
    supervisor or finance, and blocks closing its gaming day until it has one."""

    EXPLAINER = SigningRule(
        purpose="explainer", action=Action.VARIANCE_EXPLAIN, not_same_as_fields=("counted_by", "cashier")
    )

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="variances")
    gaming_day = models.DateField()
    kind = models.CharField(max_length=14, choices=VarianceKind.choices)
    box = models.ForeignKey(Box, on_delete=models.PROTECT, null=True, blank=True, related_name="variances")
    count = models.ForeignKey(Count, on_delete=models.PROTECT, null=True, blank=True, related_name="variances")
    verification = models.ForeignKey(
        CageVerification, on_delete=models.PROTECT, null=True, blank=True, related_name="variances"
    )
    amount_cents = models.BigIntegerField(help_text="Counted less expected: negative is a shortage.")
    threshold_cents = models.BigIntegerField(help_text="The room's threshold when it was found.")
    needs_explanation = models.BooleanField()
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    cashier = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    found_at = models.DateTimeField()
    explanation = models.TextField(blank=True)
    explained_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    explained_at = models.DateTimeField(null=True, blank=True)

    history = HistoricalRecords(get_user=history_user)

    class Meta:
        ordering = ["-found_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(amount_cents=0), name="cage_variance_not_zero"),
            models.UniqueConstraint(
                fields=["count", "kind"], condition=Q(count__isnull=False), name="cage_variance_once_per_count"
            ),
        ]
        indexes = [
            models.Index(fields=["room", "gaming_day"]),
            models.Index(fields=["needs_explanation", "explained_at"]),
        ]

    @property
    def superseded(self) -> bool:
        """The variance of a count a recount superseded: kept on the record, struck through, explained
        by the recount (select ``count`` with it)."""
        return self.count_id is not None and self.count is not None and self.count.status == CountStatus.SUPERSEDED

    @property
    def unresolved(self) -> bool:
        return self.needs_explanation and self.explained_at is None and not self.superseded

    @property
    def direction(self) -> VarianceDirection:
        return variance_direction(self.amount_cents)

    def signing_content(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "box": self.box_id,
            "count": self.count_id,
            "verification": self.verification_id,
            "amount_cents": self.amount_cents,
            "gaming_day": self.gaming_day,
            "explanation": self.explanation,
            "explained_by": self.explained_by_id,
        }

    @property
    def words(self) -> str:
        """'short -$1.00', 'over +$71.10'."""
        return display_variance(self.amount_cents)

    def __str__(self) -> str:
        where = f" of {self.box.code}" if self.box is not None else ""
        return f"Variance {self.pk}{where}: {display_variance(self.amount_cents)} ({self.get_kind_display().lower()})"


class VarianceCorrection(SignableDocument):
    """Finance's correction of the official record for a variance found at or after the cage's
    verification (§637a.15(e), §637a.16(e): 'The finance department shall maintain the official record'):
    the part of the variance the official account of one box should not have been given, or should
    have been, moved by one ledger transfer between the box's official account (fund or poker revenue) and the
    account that took the variance (the cage's over/short for a container, else the room's variance
    account). The verification and its transfers are never rewritten. Insert-only.

    ``official_change_cents`` is what the official account gained (negative: it gave back). A container
    whose cage count was short of its table counts credited each fund the table count (the module
    docstring of ``cage.services.verification``): its correction takes the shortage off the fund of
    the box that was miscounted, so the record shows what was in the boxes."""

    CORRECTOR = SigningRule(
        purpose="corrector",
        action=Action.VARIANCE_CORRECT,
        section="§637a.15(e)",
        not_same_as_fields=("counted_by", "cashier"),
    )

    variance = models.ForeignKey(Variance, on_delete=models.PROTECT, related_name="corrections")
    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="variance_corrections")
    gaming_day = models.DateField(help_text="The gaming day of the verification corrected.")
    box = models.ForeignKey(Box, on_delete=models.PROTECT, related_name="variance_corrections")
    count = models.ForeignKey(
        Count,
        on_delete=models.PROTECT,
        related_name="corrections",
        help_text="The count of the box whose money the correction puts right (its period, for a High Hand box).",
    )
    official_change_cents = models.BigIntegerField(help_text="What the official account gained; negative: gave back.")
    reason = models.TextField()
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    cashier = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    corrected_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    corrected_at = models.DateTimeField()
    transfers = ReferencingTransfers(related_query_name="variance_correction")

    class Meta:
        ordering = ["-corrected_at", "-id"]
        constraints = [
            # A container's variance may be several boxes' miscounts: one correction per box of it.
            models.UniqueConstraint(fields=["variance", "box"], name="cage_variancecorrection_once_per_box"),
            models.CheckConstraint(condition=~Q(official_change_cents=0), name="cage_variancecorrection_not_zero"),
            models.CheckConstraint(condition=~Q(reason=""), name="cage_variancecorrection_has_a_reason"),
        ]
        indexes = [models.Index(fields=["room", "gaming_day"])]

    def signing_content(self) -> dict[str, Any]:
        return {
            "variance": self.variance_id,
            "box": self.box_id,
            "count": self.count_id,
            "official_change_cents": self.official_change_cents,
            "reason": self.reason,
            "corrected_by": self.corrected_by_id,
            "corrected_at": self.corrected_at,
        }

    def __str__(self) -> str:
        return f"Correction of variance {self.variance_id}: {self.box.code} {display_cents(self.official_change_cents)}"
