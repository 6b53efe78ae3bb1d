"""The equipment log and the deck log of a table: signed rows, inserted once and never changed (a
trigger refuses UPDATE and DELETE, migration ``tables.0014_devices_and_decks``).

A device's state is not a column that moves: it is its latest step (``DeviceStep``). A deck's
verification is a row of its own (``DeckVerification``), and so is the flag of a deck kept past its
limit (``DeckOverdue``, one per deck) and of a banked table opened with no deck on the record
(``DeckMissing``, one per opening).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from casino_backoffice.staff.permissions import Action
from casino_backoffice.staff.signing import SignableDocument, SigningRule


class Device(models.TextChoices):
    """The table's devices the regulations name."""

    SHUFFLER = "shuffler", "Automated card shuffling device"
    DEALING_SHOE = "dealing_shoe", "Automated dealing shoe"


class DeviceStep(models.TextChoices):
    """What happened to a device: it failed (the cards reshuffled), it was taken out of order and
    covered or signed, it was returned to service."""

    FAILED = "failed", "Failed: jammed, stopped or did not complete its cycle"
    OUT_OF_ORDER = "out_of_order", "Out of order: covered or signed"
    RETURNED = "returned", "Returned to service"


class Failure(models.TextChoices):
    """How a device failed (§637a.18(q), §655a.13(e)-(f), §657a.13(e)-(f))."""

    JAMMED = "jammed", "Jammed"
    STOPPED = "stopped", "Stopped shuffling or dealing"
    INCOMPLETE = "incomplete", "Did not complete its shuffle cycle, or did not deal the cards"


class Marking(models.TextChoices):
    """How a device out of order is shown to be (§637a.18(r), §655a.13(g), §657a.13(g))."""

    COVERED = "covered", "Covered"
    SIGN = "sign", "An out-of-order sign placed on it"


class DeviceEvent(SignableDocument):
    """One step of a table's device, as the person who took it recorded and signed it.

    §637a.18(q): 'If an automated card shuffling device is being used and the device jams, stops
    shuffling during a shuffle or fails to complete a shuffle cycle, the cards shall be reshuffled.'
    §655a.13(f), §657a.13(f): 'If an automated dealing shoe is being used and the device jams, stops
    dealing cards or fails to deal cards during a round of play, the round of play shall be void, all
    wagers shall be returned to the players and the cards shall be removed from the device and
    reshuffled with any cards already dealt.' §637a.18(r), §655a.13(g), §657a.13(g): a device that
    'malfunctions and cannot be used ... shall be covered or have a sign indicating that [it] is out of
    order placed on the device before any other method of shuffling or dealing may be utilized at that
    table.' A return to service names the out-of-order step it ends (``ends``), once.
    """

    RECORDER = SigningRule(purpose="recorder", action=Action.DEVICE_FAILURE_RECORD, section="§637a.18(q)")
    OUT_OF_ORDER_SIGNER = SigningRule(purpose="recorder", action=Action.DEVICE_OUT_OF_ORDER, section="§637a.18(r)")
    RETURNER = SigningRule(purpose="returner", action=Action.DEVICE_RETURN, section="§637a.18(r)")

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="device_events")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="device_events")
    gaming_day = models.DateField()
    device = models.CharField(max_length=20, choices=Device.choices)
    serial_number = models.CharField(max_length=60, blank=True, help_text="The device's serial or asset number.")
    step = models.CharField(max_length=20, choices=DeviceStep.choices)
    section = models.CharField(max_length=60, help_text="The provision it records, at the table's game.")
    failure = models.CharField(max_length=20, choices=Failure.choices, blank=True)
    marking = models.CharField(max_length=20, choices=Marking.choices, blank=True)
    ends = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ended_by",
        help_text="The out-of-order step a return to service ends.",
    )
    occurred_at = models.DateTimeField()
    description = models.TextField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()
    # A key as sent (120 characters at most) scoped to its sender (``core.idempotency.sender_key``).
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)

    class Meta:
        ordering = ["-occurred_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(description=""), name="tables_deviceevent_described"),
            models.CheckConstraint(
                condition=Q(step=DeviceStep.FAILED, failure__in=Failure.values)
                | (~Q(step=DeviceStep.FAILED) & Q(failure="")),
                name="tables_deviceevent_failure_of_a_failure",
            ),
            models.CheckConstraint(
                condition=Q(step=DeviceStep.OUT_OF_ORDER, marking__in=Marking.values)
                | (~Q(step=DeviceStep.OUT_OF_ORDER) & Q(marking="")),
                name="tables_deviceevent_out_of_order_marked",
            ),
            models.CheckConstraint(
                condition=Q(step=DeviceStep.RETURNED, ends__isnull=False)
                | (~Q(step=DeviceStep.RETURNED) & Q(ends__isnull=True)),
                name="tables_deviceevent_return_ends_out_of_order",
            ),
        ]
        indexes = [models.Index(fields=["table", "device", "-occurred_at"], name="tables_deviceevent_latest")]

    def signing_content(self) -> dict[str, Any]:
        return {
            "room": self.room_id,
            "table": self.table_id,
            "gaming_day": self.gaming_day,
            "device": self.device,
            "serial_number": self.serial_number,
            "step": self.step,
            "section": self.section,
            "failure": self.failure,
            "marking": self.marking,
            "ends": self.ends_id,
            "occurred_at": self.occurred_at,
            "description": self.description,
            "recorded_by": self.recorded_by_id,
            "recorded_at": self.recorded_at,
        }

    def __str__(self) -> str:
        return f"{self.get_device_display()} at table {self.table_id}: {self.step}"


class DealtFrom(models.TextChoices):
    """How the cards of a deck are dealt, which sets how long it stays in play (§655a.3(c), §657a.3(c))."""

    HAND = "hand", "By hand"
    SHOE = "shoe", "From a manual or automated dealing shoe"


# §655a.3(c), §657a.3(c): 'changed at least: (1) Every 4 hours if the cards are dealt by hand. (2) Every
# 8 hours if the cards are dealt from a manual or automated dealing shoe.'
DECK_LIMIT: dict[str, timedelta] = {DealtFrom.HAND: timedelta(hours=4), DealtFrom.SHOE: timedelta(hours=8)}


class DeckChange(SignableDocument):
    """A deck (or the two decks of a shuffler, §655a.3(b), §657a.3(b)) put into play at a banked table,
    inspected by the dealer who signs.

    §655a.4(a), §657a.4(a): 'After receiving one or more decks of cards at the table, the dealer shall
    inspect the cards for defects. The floorperson assigned to the table shall verify the inspection.'
    (``DeckVerification``). Decks received preinspected and preshuffled (§655a.4(e), §657a.4(e)) need
    no inspection. The deck stays in play until the next change, and is changed at least every 4 hours
    dealt by hand, 8 hours from a shoe (``DECK_LIMIT``, ``due_by``)."""

    INSPECTOR = SigningRule(purpose="inspector", action=Action.DECK_INSPECT, section="§655a.4(a), §657a.4(a)")

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="deck_changes")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="deck_changes")
    gaming_day = models.DateField()
    changed_at = models.DateTimeField(help_text="When the deck was put into play.")
    dealt_from = models.CharField(max_length=10, choices=DealtFrom.choices)
    decks = models.PositiveSmallIntegerField(default=1)
    preinspected = models.BooleanField(
        default=False, help_text="Received preinspected and preshuffled (§655a.4(e), §657a.4(e))."
    )
    inspected_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    inspected_at = models.DateTimeField()
    note = models.TextField(blank=True)
    # A key as sent (120 characters at most) scoped to its sender (``core.idempotency.sender_key``).
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)

    class Meta:
        ordering = ["-changed_at", "-id"]
        constraints = [
            # One deck, or two with a shuffler (§655a.3(a)-(b), §657a.3(a)-(b)).
            models.CheckConstraint(condition=Q(decks__in=[1, 2]), name="tables_deckchange_one_or_two_decks"),
        ]
        indexes = [models.Index(fields=["table", "-changed_at"], name="tables_deckchange_latest")]

    @property
    def due_by(self) -> datetime:
        """When the deck must be changed at the latest (§655a.3(c), §657a.3(c))."""
        return self.changed_at + DECK_LIMIT[self.dealt_from]

    def signing_content(self) -> dict[str, Any]:
        return {
            "room": self.room_id,
            "table": self.table_id,
            "gaming_day": self.gaming_day,
            "changed_at": self.changed_at,
            "dealt_from": self.dealt_from,
            "decks": self.decks,
            "preinspected": self.preinspected,
            "inspected_by": self.inspected_by_id,
            "inspected_at": self.inspected_at,
            "note": self.note,
        }

    def __str__(self) -> str:
        return f"Deck {self.pk} at table {self.table_id}"


class DeckVerification(SignableDocument):
    """The floorperson or above who verifies the dealer's inspection of a deck, and signs; never the
    inspector, once per deck (§655a.4(a), §657a.4(a))."""

    VERIFIER = SigningRule(
        purpose="verifier",
        action=Action.DECK_VERIFY,
        section="§655a.4(a), §657a.4(a)",
        not_same_as_fields=("inspected_by",),
    )

    deck = models.OneToOneField(DeckChange, on_delete=models.PROTECT, related_name="verification")
    inspected_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    verified_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    verified_at = models.DateTimeField()
    # A key as sent (120 characters at most) scoped to its sender (``core.idempotency.sender_key``).
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~Q(verified_by=models.F("inspected_by")), name="tables_deckverification_not_the_inspector"
            ),
        ]

    def signing_content(self) -> dict[str, Any]:
        return {"deck": self.deck_id, "verified_by": self.verified_by_id, "verified_at": self.verified_at}

    def __str__(self) -> str:
        return f"Verification of deck {self.deck_id}"


class DeckOverdue(models.Model):
    """A deck still in play at an open banked table after its limit (§655a.3(c), §657a.3(c)), as the
    schedule found it. One per deck (a unique key): the schedule running twice flags it once."""

    deck = models.OneToOneField(DeckChange, on_delete=models.PROTECT, related_name="overdue")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="decks_overdue")
    due_by = models.DateTimeField()
    flagged_at = models.DateTimeField()

    class Meta:
        ordering = ["-flagged_at", "-id"]
        verbose_name_plural = "decks overdue"

    def __str__(self) -> str:
        return f"Deck {self.deck_id} overdue since {self.due_by.isoformat()}"


# §655a.4(a), §657a.4(a): the cards are inspected before they are put into play. A banked table open
# this long with no deck on the record is flagged: the time to log the first deck of the table.
DECK_FIRST_WITHIN = timedelta(minutes=15)


class DeckMissing(models.Model):
    """A banked table open with no deck on the record ``DECK_FIRST_WITHIN`` after it opened, as the
    schedule found it (§655a.3(c), §657a.3(c): no deck in play has a limit to check; §655a.4(a),
    §657a.4(a): none was inspected). One per opening of the table (a unique key): the schedule running
    twice flags it once; the table closed and opened again without a deck is flagged again."""

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="decks_missing")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="decks_missing")
    opened_at = models.DateTimeField()
    flagged_at = models.DateTimeField()

    class Meta:
        ordering = ["-flagged_at", "-id"]
        verbose_name = "banked table open without a deck"
        verbose_name_plural = "banked tables open without a deck"
        constraints = [
            models.UniqueConstraint(fields=["table", "opened_at"], name="tables_deckmissing_once_per_opening"),
            models.CheckConstraint(
                condition=Q(flagged_at__gte=F("opened_at")), name="tables_deckmissing_flagged_after_opening"
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.table_id} open since {self.opened_at.isoformat()} with no deck on the record"
