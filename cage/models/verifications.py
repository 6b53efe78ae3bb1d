"""The cage's verification of the aggregate of a table count, which makes money official."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

from cage.models.transports import Transport
from casino_backoffice.core.audit import history_user
from casino_backoffice.ledger.models import ReferencingTransfers
from casino_backoffice.money import display_cents
from casino_backoffice.staff.permissions import Action
from casino_backoffice.staff.signing import SignableDocument, SigningRule


class VerificationStatus(models.TextChoices):
    VERIFIED = "verified", "Verified"
    VARIANCE_UNRESOLVED = "variance_unresolved", "Variance awaiting an explanation"


class CageVerification(SignableDocument):
    """A cage cashier's count of a transport's boxes, or verification of a container's aggregate
    (§637a.15(e), §637a.16(e)). What it accepts becomes official: a ledger transfer into the fund
    (jackpot boxes) or poker revenue (drop boxes); it is the finance department's official record.
    One per transport (two cashiers verifying at once post once)."""

    CASHIER = SigningRule(purpose="cashier", action=Action.CAGE_VERIFY, section="§637a.15(e)")

    transport = models.OneToOneField(Transport, on_delete=models.PROTECT, related_name="verification")
    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="cage_verifications")
    gaming_day = models.DateField()
    counted_cents = models.BigIntegerField(help_text="What the cashier counted, in all.")
    official_cents = models.BigIntegerField(help_text="What became official in funds and revenue.")
    variance_cents = models.BigIntegerField(help_text="Counted at the cage less expected or less the table counts.")
    box_counts = models.JSONField(default=dict, blank=True, help_text="{box code: cents} for uncounted boxes.")
    cashier = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    verified_at = models.DateTimeField()
    status = models.CharField(max_length=20, choices=VerificationStatus.choices)
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)
    # The ledger transfers it posted (they reference it): the official record reads them joined to it.
    transfers = ReferencingTransfers(related_query_name="cage_verification")

    history = HistoricalRecords(get_user=history_user)

    class Meta:
        ordering = ["-verified_at", "-id"]
        indexes = [models.Index(fields=["room", "gaming_day"])]

    def signing_content(self) -> dict[str, Any]:
        return {
            "transport": self.transport_id,
            "gaming_day": self.gaming_day,
            "counted_cents": self.counted_cents,
            "official_cents": self.official_cents,
            "variance_cents": self.variance_cents,
            "box_counts": self.box_counts,
            "cashier": self.cashier_id,
            "verified_at": self.verified_at,
        }

    def __str__(self) -> str:
        return f"Verification of {self.transport}: {display_cents(self.counted_cents)}"
