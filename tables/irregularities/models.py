"""The irregularity record: a signed report of what went wrong at a table, and its signed ruling.

Both are inserted once and never changed (a trigger refuses UPDATE and DELETE, migration
``tables.0013_irregularities``): the status of an irregularity is whether its ruling exists
(``IrregularityStatus``), not a column that moves.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

from casino_backoffice.staff.permissions import Action
from casino_backoffice.staff.signing import SignableDocument, SigningRule

from .kinds import IrregularityKind, MisdealCause


class IrregularityStatus(models.TextChoices):
    """Reported, then ruled, once (the ruling is a row of its own: ``IrregularityRuling``)."""

    REPORTED = "reported", "Reported"
    RULED = "ruled", "Ruled"


class Irregularity(SignableDocument):
    """An irregularity at a table, as the dealer or floorperson who saw it reported and signed it.

    Its kind is one of the regulations' own (``kinds.KIND_RULES``: §637a.18(a)-(p), §655a.5(b),
    §655a.13(a)-(d), §657a.5(b), §657a.13(a)-(d)) and ``section`` the provision it records at that
    table's game. A misdeal carries its cause (§637a.18(g)(1)-(4)); the removal of a player for
    collusion carries who at compliance was notified (§637a.18(c): 'shall notify a casino compliance
    representative as expeditiously as possible'). ``round``: the round of play it happened in, when
    it was logged (required where the money is the round's: the pot returned, §637a.18(i); a refund
    from the pot, (k)(3)). ``cards``: the cards involved, as every card is stored ("As Kd").
    """

    REPORTER = SigningRule(purpose="reporter", action=Action.IRREGULARITY_REPORT, section="§637a.18")

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="irregularities")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="irregularities")
    gaming_day = models.DateField()
    round = models.ForeignKey(
        "tables.Round", on_delete=models.PROTECT, null=True, blank=True, related_name="irregularities"
    )
    occurred_at = models.DateTimeField(help_text="When it happened.")
    kind = models.CharField(max_length=40, choices=IrregularityKind.choices)
    section = models.CharField(max_length=60, help_text="The provision it records, at the table's game.")
    cause = models.CharField(max_length=40, choices=MisdealCause.choices, blank=True)
    cards = models.CharField(max_length=160, blank=True, help_text="The cards involved, such as 'As Kd'.")
    description = models.TextField()
    compliance_notified = models.CharField(
        max_length=120, blank=True, help_text="Who at compliance was notified of a player removed (§637a.18(c))."
    )
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reported_at = models.DateTimeField()
    # A key as sent (120 characters at most) scoped to its sender (``core.idempotency.sender_key``).
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)

    class Meta:
        ordering = ["-occurred_at", "-id"]
        verbose_name_plural = "irregularities"
        constraints = [
            models.CheckConstraint(condition=~Q(description=""), name="tables_irregularity_described"),
            models.CheckConstraint(
                condition=Q(kind=IrregularityKind.MISDEAL, cause__in=MisdealCause.values)
                | (~Q(kind=IrregularityKind.MISDEAL) & Q(cause="")),
                name="tables_irregularity_misdeal_has_its_cause",
            ),
            models.CheckConstraint(
                condition=~Q(kind=IrregularityKind.COLLUSION_REMOVAL) | ~Q(compliance_notified=""),
                name="tables_irregularity_removal_notified",
            ),
            models.CheckConstraint(
                condition=~Q(kind__in=[IrregularityKind.MISSING_OR_EXTRA_CARDS, IrregularityKind.DEALER_ERROR_REFUND])
                | Q(round__isnull=False),
                name="tables_irregularity_round_where_needed",
            ),
            # A round is voided once (§637a.18(i)): one record of its missing or extra cards.
            models.UniqueConstraint(
                fields=["round"],
                condition=Q(kind=IrregularityKind.MISSING_OR_EXTRA_CARDS),
                name="tables_irregularity_round_voided_once",
            ),
        ]
        indexes = [
            models.Index(fields=["room", "gaming_day", "kind"], name="tables_irregularity_day_kind"),
            models.Index(fields=["table", "gaming_day"], name="tables_irregularity_table_day"),
        ]

    def signing_content(self) -> dict[str, Any]:
        return {
            "room": self.room_id,
            "table": self.table_id,
            "gaming_day": self.gaming_day,
            "round": self.round_id,
            "occurred_at": self.occurred_at,
            "kind": self.kind,
            "section": self.section,
            "cause": self.cause,
            "cards": self.cards,
            "description": self.description,
            "compliance_notified": self.compliance_notified,
            "reported_by": self.reported_by_id,
            "reported_at": self.reported_at,
        }

    def get_kind_display(self) -> str:  # type: ignore[no-redef]  # Django's knows the regulations' kinds only
        """The kind's name as the forms showed it: the regulations' label, or a room's own kind's name in
        the rules version in effect when it happened (§637a.18(s)); its code if that version is gone."""
        if self.kind in IrregularityKind.values:
            return str(IrregularityKind(self.kind).label)
        from .house_kinds import kind_in_effect  # the rules read the room's versions: a layer above the row

        found = kind_in_effect(self.kind, room=self.room, at=self.occurred_at)
        return found.label if found is not None else self.kind

    @property
    def status(self) -> IrregularityStatus:
        return IrregularityStatus.RULED if hasattr(self, "ruling") else IrregularityStatus.REPORTED

    def __str__(self) -> str:
        return f"Irregularity {self.pk}: {self.get_kind_display()} at table {self.table_id}"


class IrregularityRuling(SignableDocument):
    """The ruling on an irregularity, in words, signed by a floorperson or above who did not report
    it; a dispute's by a poker shift supervisor or above, whose decision is final (§637a.18(a)).
    One per irregularity, never changed."""

    RULER = SigningRule(
        purpose="ruler", action=Action.IRREGULARITY_RULE, section="§637a.18", not_same_as_fields=("reported_by",)
    )
    DISPUTE_RULER = SigningRule(
        purpose="ruler", action=Action.DISPUTE_RULE, section="§637a.18(a)", not_same_as_fields=("reported_by",)
    )

    irregularity = models.OneToOneField(Irregularity, on_delete=models.PROTECT, related_name="ruling")
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    ruling = models.TextField()
    ruled_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    ruled_at = models.DateTimeField()
    # A key as sent (120 characters at most) scoped to its sender (``core.idempotency.sender_key``).
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)

    class Meta:
        ordering = ["-ruled_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(ruling=""), name="tables_irregularityruling_in_words"),
            models.CheckConstraint(
                condition=~Q(ruled_by=models.F("reported_by")), name="tables_irregularityruling_not_the_reporter"
            ),
        ]

    def signing_content(self) -> dict[str, Any]:
        return {
            "irregularity": self.irregularity_id,
            "ruling": self.ruling,
            "ruled_by": self.ruled_by_id,
            "ruled_at": self.ruled_at,
        }

    def __str__(self) -> str:
        return f"Ruling on irregularity {self.irregularity_id}"
