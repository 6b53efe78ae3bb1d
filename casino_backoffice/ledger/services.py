"""Every write to the ledger: accounts, transfers, corrections."""

from __future__ import annotations

from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone

from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.services import pin_check, signature_add

from .exceptions import AlreadyReversed, IdempotencyConflict, InvalidTransfer, LedgerError
from .models import Account, AccountKind, Correction, Transfer, TransferKind


def account_open(*, code: str, name: str, kind: AccountKind) -> Account:
    """Open an account, or return it when it is already open with the same code (idempotent)."""
    account, created = Account.objects.get_or_create(code=code, defaults={"name": name, "kind": kind})
    if not created and account.kind != kind:
        raise LedgerError(f"Account {code} exists as a {account.get_kind_display()}, not a {AccountKind(kind).label}.")
    return account


def post_transfer(
    *,
    debit: Account,
    credit: Account,
    amount_cents: int,
    kind: TransferKind,
    idempotency_key: str,
    actor: User,
    reference: models.Model | None = None,
    memo: str = "",
    reverses: Transfer | None = None,
) -> Transfer:
    """Move ``amount_cents`` from ``credit`` to ``debit``; runs inside the caller's transaction.

    Posting the same idempotency key again returns the transfer first posted, provided it is the
    same movement; a different movement under a used key is refused (nothing is posted).
    """
    if not connection.in_atomic_block:
        raise RuntimeError("post_transfer runs inside the transaction of the service that moves money.")
    if isinstance(amount_cents, bool) or not isinstance(amount_cents, int):
        raise InvalidTransfer(f"An amount is a whole number of cents, not {amount_cents!r}.")
    if amount_cents <= 0:
        raise InvalidTransfer(f"A transfer moves more than zero cents (got {amount_cents}).")
    if debit.pk == credit.pk:
        raise InvalidTransfer(f"A transfer moves money between two accounts, not within {debit}.")
    if not idempotency_key:
        raise InvalidTransfer("Every transfer needs an idempotency key.")
    transfer = Transfer(
        debit=debit,
        credit=credit,
        amount_cents=amount_cents,
        kind=kind,
        reference_type=ContentType.objects.get_for_model(type(reference)) if reference is not None else None,
        reference_id=str(reference.pk) if reference is not None else "",
        idempotency_key=idempotency_key,
        reverses=reverses,
        memo=memo,
        posted_at=timezone.now(),
        posted_by=actor,
    )
    try:
        with transaction.atomic():
            transfer.save(force_insert=True)
    except IntegrityError:
        existing = Transfer.objects.filter(idempotency_key=idempotency_key).first()
        if existing is None:
            raise
        if existing.fingerprint() != transfer.fingerprint():
            raise IdempotencyConflict(
                f"Idempotency key {idempotency_key!r} was used for another transfer ({existing}); nothing was posted."
            ) from None
        return existing
    return transfer


def transfer_post(
    *,
    debit: Account,
    credit: Account,
    amount_cents: int,
    kind: TransferKind,
    idempotency_key: str,
    actor: User,
    reference: models.Model | None = None,
    memo: str = "",
) -> Transfer:
    """Post one transfer in its own transaction (for callers that move nothing else)."""
    with transaction.atomic():
        return post_transfer(
            debit=debit,
            credit=credit,
            amount_cents=amount_cents,
            kind=kind,
            idempotency_key=idempotency_key,
            actor=actor,
            reference=reference,
            memo=memo,
        )


def correction_prepare(*, transfer: Transfer, reason: str, actor: User, pin: str) -> Correction:
    """Finance prepares and signs the reversal of a transfer posted in error."""
    action_require(actor=actor, action=Action.CORRECTION_PREPARE)
    if not reason.strip():
        raise LedgerError("Say why the transfer is reversed.")
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic():
        transfer = Transfer.objects.select_for_update().get(pk=transfer.pk)
        if transfer.kind == TransferKind.REVERSAL:
            raise LedgerError("A reversal is not itself reversed; post the original movement again instead.")
        if Transfer.objects.filter(reverses=transfer).exists() or Correction.objects.filter(transfer=transfer).exists():
            raise AlreadyReversed(f"Transfer {transfer.pk} already has a correction.")
        correction = Correction.objects.create(transfer=transfer, reason=reason.strip())
        signature_add(document=correction, rule=Correction.PREPARER, signer=signer)
    return correction


def correction_approve(*, correction: Correction, actor: User, pin: str) -> Transfer:
    """A second person approves and signs; the reversing transfer posts at once."""
    action_require(actor=actor, action=Action.CORRECTION_APPROVE)
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic():
        correction = Correction.objects.select_for_update().select_related("transfer").get(pk=correction.pk)
        signature_add(document=correction, rule=Correction.APPROVER, signer=signer)
        original = correction.transfer
        reversal = post_transfer(
            debit=original.credit,
            credit=original.debit,
            amount_cents=original.amount_cents,
            kind=TransferKind.REVERSAL,
            idempotency_key=f"reversal:{original.pk}",
            actor=actor,
            reference=correction,
            memo=f"Reverses transfer {original.pk}: {correction.reason}"[:300],
            reverses=original,
        )
        correction.reversal = reversal
        correction.save(update_fields=["reversal"])
    return reversal
