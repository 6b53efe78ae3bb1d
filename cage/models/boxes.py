"""Boxes and the notice to compliance of a count (§637a.15(d), §637a.16(d))."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

from casino_backoffice.staff.permissions import Action
from casino_backoffice.staff.signing import SignableDocument, SigningRule


class BoxKind(models.TextChoices):
    JACKPOT = "jackpot", "Jackpot box"
    RAKE = "rake", "Rake drop box"


class Box(models.Model):
    """A physical box at a table: a jackpot's payout box or the table's rake drop box.

    Its content lives in the ledger account ``account``; what is in it now is *expected* money, put
    there by logged rounds and verified time charges since its last count.
    """

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="boxes")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="boxes")
    code = models.CharField(
        max_length=60, help_text="T1-bb is table T1's box of jackpot bb; T1-drop its rake drop box."
    )
    kind = models.CharField(max_length=10, choices=BoxKind.choices)
    jackpot = models.ForeignKey(
        "jackpots.Jackpot", on_delete=models.PROTECT, null=True, blank=True, related_name="boxes"
    )
    account = models.OneToOneField("ledger.Account", on_delete=models.PROTECT, related_name="box")

    class Meta:
        ordering = ["room", "code"]
        verbose_name_plural = "boxes"
        constraints = [
            models.UniqueConstraint(fields=["room", "code"], name="cage_box_code_unique_in_room"),
            models.CheckConstraint(
                condition=Q(kind=BoxKind.JACKPOT, jackpot__isnull=False) | Q(kind=BoxKind.RAKE, jackpot__isnull=True),
                name="cage_box_jackpot_box_has_a_jackpot",
            ),
        ]

    def __str__(self) -> str:
        return self.code


class ComplianceNotice(SignableDocument):
    """The notice to a casino compliance representative that Bad Beat boxes are about to be counted
    (§637a.15(d): 'upon notice to a casino compliance representative'). Recorded and signed by a
    floorperson or above before the count; a Bad Beat count refers to it."""

    RECORDER = SigningRule(purpose="recorder", action=Action.NOTICE_RECORD, section="§637a.15(d)")

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="compliance_notices")
    gaming_day = models.DateField()
    notified = models.CharField(max_length=120, help_text="The compliance representative notified.")
    method = models.CharField(max_length=120, help_text="How: phone, radio, in person, e-mail ...")
    notified_at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)

    class Meta:
        ordering = ["-notified_at", "-id"]
        indexes = [models.Index(fields=["room", "gaming_day"])]

    def signing_content(self) -> dict[str, Any]:
        return {
            "room": self.room_id,
            "gaming_day": self.gaming_day,
            "notified": self.notified,
            "method": self.method,
            "notified_at": self.notified_at,
            "recorded_by": self.recorded_by_id,
        }

    def __str__(self) -> str:
        return f"Notice to {self.notified} ({self.method}) for {self.gaming_day}"
