"""Boxes, counts, chain of custody, cage verifications, variances and the close of a gaming day.

Money in a box is *expected* until it is counted, and *official* once a cashier at the cage has
counted it or verified the aggregate of a table count (§637a.15(d)-(e), §637a.16(d)-(e)). Every step
from the table to the cage is a signed document here; every movement of money it causes is a ledger
transfer that references it (``cage.accounts`` names the accounts). Documents are inserted and
signed; what moves on is their status, never their signed content.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from simple_history.models import HistoricalRecords

from casino_backoffice.ledger.models import ReferencingTransfers
from casino_backoffice.money import display_cents, format_cents
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

    history = HistoricalRecords()

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

    history = HistoricalRecords()

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
        return f"Count {self.pk} of {self.box.code}: {format_cents(self.counted_cents)}"


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

    history = HistoricalRecords()

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

    history = HistoricalRecords()

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
        return f"Verification of {self.transport}: {format_cents(self.counted_cents)}"


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

    history = HistoricalRecords()

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

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {display_variance(self.amount_cents)}"


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


class GamingDayClose(SignableDocument):
    """The close of a room's gaming day by finance: refused while a variance awaits its explanation."""

    CLOSER = SigningRule(purpose="closer", action=Action.GAMING_DAY_CLOSE)

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="closed_days")
    gaming_day = models.DateField()
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField()

    class Meta:
        ordering = ["-gaming_day"]
        constraints = [models.UniqueConstraint(fields=["room", "gaming_day"], name="cage_gamingdayclose_once")]

    def signing_content(self) -> dict[str, Any]:
        return {
            "room": self.room_id,
            "gaming_day": self.gaming_day,
            "closed_by": self.closed_by_id,
            "closed_at": self.closed_at,
        }

    def __str__(self) -> str:
        return f"{self.room} gaming day {self.gaming_day} closed"


class ScheduleRun(models.Model):
    """Each moment the schedule ran at (``cage.services.schedule_run``): a moment not after the latest
    run changes nothing. Insert-only."""

    at = models.DateTimeField(unique=True)
    ran_at = models.DateTimeField()
    sheets_created = models.PositiveIntegerField(default=0)
    sheets_flagged = models.PositiveIntegerField(default=0)
    displays_flagged = models.PositiveIntegerField(
        default=0, help_text="Bad Beat displays not adjusted on a gaming day that ended (§637a.15(h))."
    )
    periods_opened = models.PositiveIntegerField(default=0, help_text="High Hand qualifying periods opened.")
    periods_closed = models.PositiveIntegerField(default=0, help_text="High Hand qualifying periods closed.")
    pools_announced = models.PositiveIntegerField(default=0, help_text="High Hand pools announced (§637a.16(g)).")

    class Meta:
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"Schedule at {self.at:%Y-%m-%d %H:%M}"
