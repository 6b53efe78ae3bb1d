"""Transports from the tables to the cage, their items and the boxes that did not arrive."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from cage.models.boxes import Box
from cage.models.counts import Count, CountSheet
from casino_backoffice.core.audit import history_user
from casino_backoffice.staff.permissions import Action
from casino_backoffice.staff.signing import SignableDocument, SigningRule


class TransportKind(models.TextChoices):
    TABLE_COUNTS = "table_counts", "Locked container of table counts"
    BOXES = "boxes", "Locked, uncounted boxes"


class TransportStatus(models.TextChoices):
    IN_TRANSIT = "in_transit", "In transit to the cage"
    ACCOUNTED = "accounted", "Accounted for at the cage"
    VERIFIED = "verified", "Verified by the cage"


class Transport(SignableDocument):
    """What a security officer carries to the main cage or a satellite cage: a locked container of
    witnessed table counts with their documentation (§637a.15(d)(1)), or locked uncounted boxes
    (§637a.15(d)(2)). Uncounted boxes are accounted for at the cage by a floorperson or above."""

    CUSTODY = SigningRule(purpose="custody", action=Action.TRANSPORT_CREATE, section="§637a.15(d)")
    ACCOUNTED = SigningRule(
        purpose="accounted", action=Action.TRANSPORT_ACCOUNT, section="§637a.15(d)(2)", requires=("custody",)
    )

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="transports")
    kind = models.CharField(max_length=14, choices=TransportKind.choices)
    seal = models.CharField(max_length=60, help_text="The seal number of the locked container.")
    destination = models.CharField(max_length=60, default="main cage")
    gaming_day = models.DateField()
    declared_cents = models.BigIntegerField(null=True, blank=True, help_text="The sum of the table counts inside.")
    carried_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    carried_at = models.DateTimeField()
    accounted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    accounted_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=TransportStatus.choices)
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)

    history = HistoricalRecords(get_user=history_user)

    class Meta:
        ordering = ["-carried_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["room", "seal"], name="cage_transport_seal_unique_in_room")]
        indexes = [models.Index(fields=["room", "status"])]

    def signing_content(self) -> dict[str, Any]:
        return {
            "room": self.room_id,
            "kind": self.kind,
            "seal": self.seal,
            "destination": self.destination,
            "declared_cents": self.declared_cents,
            "carried_by": self.carried_by_id,
            "carried_at": self.carried_at,
            "items": [(item.box_id, item.count_id, item.expected_cents) for item in self.items.order_by("box_id")],
        }

    def __str__(self) -> str:
        return f"Seal {self.seal} ({self.get_kind_display().lower()})"


class TransportItem(models.Model):
    """One box (or one table count) in a transport. Insert-only."""

    transport = models.ForeignKey(Transport, on_delete=models.PROTECT, related_name="items")
    box = models.ForeignKey(Box, on_delete=models.PROTECT, related_name="transport_items")
    count = models.OneToOneField(Count, on_delete=models.PROTECT, null=True, blank=True, related_name="transport_item")
    expected_cents = models.BigIntegerField(help_text="What the box held by the ledger when it was taken.")
    sheet = models.OneToOneField(
        CountSheet,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="transport_item",
        help_text="A High Hand box carried uncounted after its period ended: that period's count sheet.",
    )
    period = models.ForeignKey(
        "jackpots.HighHandPeriod",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="transport_items",
        help_text="A High Hand box carried uncounted: the qualifying period whose box content it holds (§637a.16(d)).",
    )

    class Meta:
        ordering = ["transport", "box__code"]
        constraints = [
            models.UniqueConstraint(fields=["transport", "box"], name="cage_transportitem_box_once_per_transport"),
            models.CheckConstraint(condition=Q(expected_cents__gte=0), name="cage_transportitem_expected_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.box.code} in {self.transport}"


class MissingBox(SignableDocument):
    """A supervisor's signed exception for a box that was carried but is missing at the cage
    (§637a.15(d)(2): a floorperson or above accounts for all boxes carried)."""

    SUPERVISOR = SigningRule(purpose="supervisor", action=Action.MISSING_BOX_RECORD, section="§637a.15(d)(2)")

    transport = models.ForeignKey(Transport, on_delete=models.PROTECT, related_name="missing_boxes")
    box = models.ForeignKey(Box, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "missing boxes"
        constraints = [models.UniqueConstraint(fields=["transport", "box"], name="cage_missingbox_once_per_transport")]

    def signing_content(self) -> dict[str, Any]:
        return {
            "transport": self.transport_id,
            "box": self.box_id,
            "reason": self.reason,
            "recorded_by": self.recorded_by_id,
        }

    def __str__(self) -> str:
        return f"{self.box.code} missing from {self.transport}"
