"""The count sheets and the count of a box: counted, witnessed, recounted, sealed (§637a.15(d)-(e),
§637a.16(d)-(e))."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from simple_history.models import HistoricalRecords

from cage.models.boxes import Box, ComplianceNotice
from casino_backoffice.core.audit import history_user
from casino_backoffice.money import display_cents
from casino_backoffice.staff.permissions import Action
from casino_backoffice.staff.signing import SignableDocument, SigningRule


class SheetKind(models.TextChoices):
    DAILY = "daily", "Gaming day"
    PERIOD = "period", "Qualifying period"


class CountSheet(models.Model):
    """A count that must happen: each Bad Beat box (and each rake drop box) at least once every
    gaming day (§637a.15(d)); each High Hand box at the end of each qualifying period (§637a.16(d)).
    Created by the schedule (``cage.services.schedule_run``), filled by the first count of its box.

    A sheet has one current count (``current_count``); a count a supervisor's recount superseded
    before the cage verified it stays on the sheet too, struck through (``Count.supersedes``)."""

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="count_sheets")
    box = models.ForeignKey(Box, on_delete=models.PROTECT, related_name="sheets")
    kind = models.CharField(max_length=10, choices=SheetKind.choices)
    key = models.CharField(max_length=40, help_text="day:2026-11-30 or period:2026-11-30T14:00")
    gaming_day = models.DateField()
    opens_at = models.DateTimeField()
    due_by = models.DateTimeField()
    created_at = models.DateTimeField()
    overdue_flagged_at = models.DateTimeField(null=True, blank=True)
    period = models.ForeignKey(
        "jackpots.HighHandPeriod",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="count_sheets",
        help_text="The qualifying period whose box content a High Hand sheet's count covers (§637a.16(d)).",
    )

    history = HistoricalRecords(get_user=history_user)

    class Meta:
        ordering = ["gaming_day", "box__code"]
        constraints = [models.UniqueConstraint(fields=["box", "key"], name="cage_countsheet_one_per_box_and_key")]
        indexes = [models.Index(fields=["room", "gaming_day"]), models.Index(fields=["due_by"])]

    def __str__(self) -> str:
        return f"{self.box.code} {self.key}"

    @property
    def current_count(self) -> Count | None:
        """The count that fills the sheet: the one no recount superseded (prefetch ``counts``)."""
        return next((count for count in self.counts.all() if count.status != CountStatus.SUPERSEDED), None)

    @property
    def superseded_counts(self) -> list[Count]:
        """The counts of the sheet a recount superseded, oldest first (prefetch ``counts``)."""
        return sorted(
            (count for count in self.counts.all() if count.status == CountStatus.SUPERSEDED), key=lambda c: c.pk
        )


class CountPlace(models.TextChoices):
    TABLE = "table", "At a closed table"
    CAGE = "cage", "At the cage"


class CountStatus(models.TextChoices):
    COUNTED = "counted", "Counted, awaiting the witness"
    WITNESSED = "witnessed", "Witnessed, awaiting transport"
    IN_TRANSIT = "in_transit", "In a locked container on its way to the cage"
    VERIFIED = "verified", "Verified at the cage"
    SUPERSEDED = "superseded", "Superseded by a recount"


# A count may be recounted while it is still at the table: counted or witnessed, not yet carried.
RECOUNTABLE = (CountStatus.COUNTED, CountStatus.WITNESSED)


class Count(SignableDocument):
    """One count of one box.

    At a closed table (§637a.15(d)(1), §637a.16(d)(1)): a dealer counts and signs; a floorperson or
    above who is not the counter witnesses and signs, with the surveillance recording reference. At
    the cage (§637a.15(e)): the cashier's count of an uncounted box, made with the verification.

    ``expected_cents`` is what the box held by the ledger at the count; ``variance_cents`` is
    ``counted - expected``. A High Hand box's count takes one qualifying period's box content
    (``period``, §637a.16(d)), and a period's pool is what the counts of its box contents made official.

    A recount (``supersedes``) corrects a count before the cage verifies it: a new count of the same
    box content, counted and signed by a poker shift supervisor or above who is not the counter of
    the count it supersedes, with the reason (``recount_reason``); it is witnessed as every table count
    is (§637a.15(d)(1)). The superseded count is kept, with its signatures, as ``superseded``.
    """

    COUNTER = SigningRule(purpose="counter", action=Action.COUNT_RECORD, section="§637a.15(d)(1)")
    # The recount's counter signs as its counter, so the witness's rule below holds for it too.
    RECOUNTER = SigningRule(
        purpose="counter",
        action=Action.COUNT_RECOUNT,
        section="§637a.15(d)(1)",
        not_same_as_fields=("superseded_counter",),
        description="A supervisor who is not the counter of the count superseded.",
    )
    WITNESS = SigningRule(
        purpose="witness",
        action=Action.COUNT_WITNESS,
        section="§637a.15(d)(1)",
        not_same_as=("counter",),
        not_same_as_fields=("counted_by",),
        requires=("counter",),
    )

    box = models.ForeignKey(Box, on_delete=models.PROTECT, related_name="counts")
    sheet = models.ForeignKey(
        CountSheet,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="counts",
        help_text="The sheet the count fills; one current count per sheet, and the counts recounts superseded.",
    )
    supersedes = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="superseded_by",
        help_text="A recount: the count of the same box content it corrects, before the cage verified it.",
    )
    recount_reason = models.TextField(blank=True, help_text="A recount: why the count it supersedes was wrong.")
    period = models.ForeignKey(
        "jackpots.HighHandPeriod",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="counts",
        help_text="A High Hand box: the qualifying period whose box content this count took (§637a.16(d)).",
    )
    place = models.CharField(max_length=10, choices=CountPlace.choices)
    gaming_day = models.DateField()
    counted_cents = models.BigIntegerField()
    expected_cents = models.BigIntegerField()
    denominations = models.JSONField(default=dict, blank=True, help_text="Optional: {denomination in cents: pieces}.")
    notice = models.ForeignKey(ComplianceNotice, on_delete=models.PROTECT, null=True, blank=True, related_name="counts")
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    counted_at = models.DateTimeField()
    witnessed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    witnessed_at = models.DateTimeField(null=True, blank=True)
    surveillance_reference = models.CharField(max_length=120, blank=True)
    status = models.CharField(max_length=12, choices=CountStatus.choices)
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)

    history = HistoricalRecords(get_user=history_user)

    class Meta:
        ordering = ["-counted_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(counted_cents__gte=0), name="cage_count_counted_not_negative"),
            models.CheckConstraint(condition=Q(expected_cents__gte=0), name="cage_count_expected_not_negative"),
            # §637a.15(d)(1): the witness of a table count is not its counter (count_witness refuses first).
            models.CheckConstraint(
                condition=Q(witnessed_by__isnull=True) | ~Q(witnessed_by=F("counted_by")),
                name="cage_count_witness_is_not_the_counter",
            ),
            # A sheet is filled by one count; those a recount superseded stay beside it.
            models.UniqueConstraint(
                fields=["sheet"],
                condition=Q(sheet__isnull=False) & ~Q(status="superseded"),
                name="cage_count_one_current_count_per_sheet",
            ),
            # A recount says why; a first count has nothing to say.
            models.CheckConstraint(
                condition=Q(supersedes__isnull=True, recount_reason="")
                | (Q(supersedes__isnull=False) & ~Q(recount_reason="")),
                name="cage_count_recount_has_a_reason",
            ),
            models.CheckConstraint(condition=~Q(supersedes=F("pk")), name="cage_count_does_not_supersede_itself"),
        ]
        indexes = [models.Index(fields=["status", "box"]), models.Index(fields=["gaming_day"])]

    @property
    def variance_cents(self) -> int:
        return self.counted_cents - self.expected_cents

    @property
    def superseded_counter_id(self) -> int | None:
        """A recount: who counted the count it supersedes (who may not sign the recount)."""
        return self.supersedes.counted_by_id if self.supersedes_id is not None and self.supersedes else None

    @property
    def is_superseded(self) -> bool:
        return self.status == CountStatus.SUPERSEDED

    def signing_content(self) -> dict[str, Any]:
        # What the counter attests and the witness attests to have seen counted. The witness, the time
        # and the surveillance reference are set once, with the witness's signature, by ``count_witness``.
        # A recount attests too what it supersedes and why (absent from a first count, whose hash
        # signed before recounts existed still matches).
        recount = (
            {"supersedes": self.supersedes_id, "recount_reason": self.recount_reason} if self.supersedes_id else {}
        )
        return {
            **recount,
            "box": self.box_id,
            "sheet": self.sheet_id,
            "place": self.place,
            "gaming_day": self.gaming_day,
            "counted_cents": self.counted_cents,
            "expected_cents": self.expected_cents,
            "denominations": self.denominations,
            "notice": self.notice_id,
            "counted_by": self.counted_by_id,
            "counted_at": self.counted_at,
        }

    def __str__(self) -> str:
        return f"Count {self.pk} of {self.box.code}: {display_cents(self.counted_cents)}"
