"""The double-entry ledger of every fund and box (docs/architecture.md, The ledger).

Every fund, every physical box, every container in transit and the cage are accounts. Money moves
only as a ``Transfer``: an immutable row with a debit account (where the money goes), a credit
account (where it comes from), an amount in cents above zero, a kind, a reference to the document
that caused it and a unique idempotency key. Balances are derived from transfers, never stored.
Rows are never updated or deleted: a mistake is corrected by a reversing transfer with its own
signatures (``Correction``). A trigger refuses UPDATE and DELETE of transfers, on PostgreSQL and
SQLite alike (``core.immutable``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey, GenericRelation
from django.contrib.contenttypes.models import ContentType
from django.db import DEFAULT_DB_ALIAS, models
from django.db.models import F, ProtectedError, Q
from simple_history.models import HistoricalRecords

from casino_backoffice.core.audit import history_user
from casino_backoffice.money import display_cents, format_cents
from casino_backoffice.staff.permissions import Action
from casino_backoffice.staff.signing import SignableDocument, SigningRule


class AccountKind(models.TextChoices):
    SOURCE = "source", "Players' money at the table (pots)"
    DROP_BOX = "drop_box", "Table drop box (rake)"
    JACKPOT_BOX = "jackpot_box", "Jackpot box"
    CONTAINER = "container", "Container in transit"
    CAGE = "cage", "Cage"
    FUND = "fund", "Jackpot fund (official)"
    REVENUE = "revenue", "Poker revenue"
    BANKED_REVENUE = "banked_revenue", "Banked games' house share (not poker revenue)"
    HOUSE_FUNDING = "house_funding", "House funding of banked games"
    PAYOUT = "payout", "Paid to patrons"
    VARIANCE = "variance", "Count variance"


def account_code(scope: str, room_code: str, *parts: object) -> str:
    """An account's code, ``<scope>:<room>:<part>...``: the one place the convention of ``Account``
    is written (``account_code("table", "main", "T1", "drop_box")`` is ``table:main:T1:drop_box``)."""
    if not room_code or ":" in room_code:
        raise ValueError(f"A room's code names an account as its second part: {room_code!r} cannot.")
    return ":".join([scope, room_code, *(str(part) for part in parts)])


def account_code_of_rooms(room_codes: Iterable[str]) -> str:
    """A regular expression matching the codes of the accounts of ``room_codes`` (see ``account_code``)."""
    return rf"^[^:]+:({'|'.join(re.escape(code) for code in room_codes)}):"


class Account(models.Model):
    """Somewhere money is. ``code`` is stable and readable: ``table:main:T1:bad_beat_box``.

    The ledger knows no rooms, but every code names one, as its second part: ``room:<room>:custody``,
    ``table:<room>:<table>:drop_box``, ``jackpot:<room>:<jackpot>:fund``,
    ``progressive:<room>:<meter>:<part>`` (a room's code is a slug: no colon), each built by
    ``account_code``. Lists of accounts,
    transfers and corrections show a person only their rooms' by it (``tables.selectors``)."""

    code = models.CharField(max_length=120, unique=True)
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=20, choices=AccountKind.choices)
    opened_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    history = HistoricalRecords(get_user=history_user)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return self.name or self.code


class TransferKind(models.TextChoices):
    RAKE = "rake", "Rake from a pot"
    DROP = "drop", "Jackpot drop from a pot"
    TIME_CHARGE = "time_charge", "Time charge"
    COUNT = "count", "Counted from a box"
    CUSTODY = "custody", "Carried under custody"
    VERIFICATION = "verification", "Cage verification (official)"
    VARIANCE = "variance", "Count variance"
    PAYOUT = "payout", "Jackpot payout"
    AWARD = "award", "High Hand award set aside, or returned when not collected"
    FUND_TRANSFER = "fund_transfer", "Transfer between funds"
    ADJUSTMENT = "adjustment", "Adjustment"
    PROGRESSIVE_WAGER = "progressive_wager", "Progressive Payout Wagers: the meter's increment and the house's share"
    METER_FUNDING = "meter_funding", "A progressive meter's initial or reset amount, from the house"
    PROGRESSIVE_WIN = "progressive_win", "A progressive payout or Envy Bonus won, to be paid"
    REVERSAL = "reversal", "Reversal of a transfer"


class Transfer(models.Model):
    """An immutable movement of ``amount_cents`` from ``credit`` to ``debit``."""

    debit = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="debits")
    credit = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="credits")
    amount_cents = models.BigIntegerField()
    kind = models.CharField(max_length=20, choices=TransferKind.choices)
    reference_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    reference_id = models.CharField(max_length=64, blank=True)
    reference = GenericForeignKey("reference_type", "reference_id")
    idempotency_key = models.CharField(max_length=200, unique=True)
    reverses = models.OneToOneField("self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by")
    memo = models.CharField(max_length=300, blank=True)
    posted_at = models.DateTimeField(db_index=True)
    posted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["posted_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="ledger_transfer_amount_positive"),
            models.CheckConstraint(condition=~Q(debit=F("credit")), name="ledger_transfer_two_accounts"),
        ]
        indexes = [
            models.Index(fields=["debit", "posted_at"]),
            models.Index(fields=["credit", "posted_at"]),
            models.Index(fields=["reference_type", "reference_id"]),
            # A balance's tail: the transfers of an account after its latest checkpoint, read from the
            # index alone (the amount is in the key so SQLite uses it too).
            models.Index(fields=["debit", "id", "amount_cents"], name="ledger_transfer_debit_tail"),
            models.Index(fields=["credit", "id", "amount_cents"], name="ledger_transfer_credit_tail"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {display_cents(self.amount_cents)}: {self.credit} -> {self.debit}"

    @property
    def amount(self) -> str:
        return format_cents(self.amount_cents)

    def fingerprint(self) -> dict[str, Any]:
        """What must match when the same idempotency key is posted again."""
        return {
            "debit": self.debit_id,
            "credit": self.credit_id,
            "amount_cents": self.amount_cents,
            "kind": self.kind,
            "reference_type": self.reference_type_id,
            "reference_id": self.reference_id,
        }


class ReferencingTransfers(GenericRelation):
    """On a document's model, the transfers that reference it, for reads that join the two
    (``Transfer.objects.filter(<related_query_name>__room=...)``). Money posted stays posted: deleting
    a document that transfers reference is refused, as PROTECT refuses (a plain GenericRelation
    would delete the transfers with it)."""

    def __init__(self, *, related_query_name: str) -> None:
        super().__init__(
            "ledger.Transfer",
            content_type_field="reference_type",
            object_id_field="reference_id",
            related_query_name=related_query_name,
        )

    def deconstruct(self) -> Any:
        name, path, _, _ = super().deconstruct()
        return name, path, [], {"related_query_name": self.remote_field.related_query_name}

    def bulk_related_objects(self, objs: Any, using: str = DEFAULT_DB_ALIAS) -> Any:
        referencing = super().bulk_related_objects(objs, using)
        first = list(referencing[:10])
        if first:
            raise ProtectedError(
                f"Ledger transfers reference this {self.model._meta.verbose_name}; it is never deleted.", set(first)
            )
        return referencing.none()


class Correction(SignableDocument):
    """A signed request to reverse a transfer posted in error (docs/architecture.md: a mistake is corrected by a
    reversing transfer with its own signature). Finance prepares it; another finance person or an
    administrator approves it; the reversal posts when both have signed."""

    PREPARER = SigningRule(purpose="preparer", action=Action.CORRECTION_PREPARE)
    APPROVER = SigningRule(
        purpose="approver",
        action=Action.CORRECTION_APPROVE,
        not_same_as=("preparer",),
        requires=("preparer",),
    )

    transfer = models.OneToOneField(Transfer, on_delete=models.PROTECT, related_name="correction")
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    reversal = models.OneToOneField(
        Transfer, on_delete=models.PROTECT, null=True, blank=True, related_name="correction_of"
    )

    history = HistoricalRecords(get_user=history_user)

    def signing_content(self) -> dict[str, Any]:
        return {"transfer": self.transfer_id, **self.transfer.fingerprint(), "reason": self.reason}

    def __str__(self) -> str:
        return f"Correction of transfer {self.transfer_id}"


class BalanceCheckpoint(models.Model):
    """The balance of ``account`` over every transfer with an id up to ``through_transfer_id``.

    Derived from transfers and nothing else (docs/architecture.md, The ledger: balances are derived, never a
    mutable number that can drift): inserted once by ``checkpoints.checkpoints_take``, never updated
    (trigger on PostgreSQL), and only up to a transfer id below which no transfer can appear any
    more. A balance is the latest checkpoint plus the transfers after it, so reading it costs the
    same however long the account's history (``checkpoints.balances_of``).
    """

    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="checkpoints")
    through_transfer_id = models.BigIntegerField(
        help_text="Every transfer with an id up to this one is in the balance."
    )
    balance_cents = models.BigIntegerField()
    transfer_count = models.BigIntegerField(help_text="How many transfers of the account the balance covers.")
    taken_at = models.DateTimeField()

    class Meta:
        ordering = ["account", "-through_transfer_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["account", "through_transfer_id"], name="ledger_checkpoint_once_per_horizon"
            ),
            models.CheckConstraint(condition=Q(transfer_count__gt=0), name="ledger_checkpoint_covers_transfers"),
        ]

    def __str__(self) -> str:
        return f"{self.account}: {format_cents(self.balance_cents)} through transfer {self.through_transfer_id}"
