"""Every write to the ledger: accounts, transfers (one or a batch), corrections.

The ledger is the only writer of transfers. Two names say who owns the transaction:
``transfer_post_within`` and ``transfers_post_within`` run inside the caller's transaction (a service
that moves money and writes its own rows in the same commit); ``transfer_post_atomic`` opens its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone

from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.services import pin_check, signature_add

from .exceptions import AlreadyReversed, BelowZero, IdempotencyConflict, InvalidTransfer, LedgerError
from .models import Account, AccountKind, Correction, Transfer, TransferKind


@dataclass(frozen=True)
class AccountSpec:
    """What an account is opened with: a stable code, a name people read, a kind. Each app that owns
    accounts builds its specs in one function per kind of account (``rake.services.accounts``,
    ``jackpots.funds.accounts``), so a code and its name are written once."""

    code: str
    name: str
    kind: AccountKind


def account_open(*, code: str, name: str, kind: AccountKind) -> Account:
    """Open an account, or return it when it is already open with the same code (idempotent)."""
    account, created = Account.objects.get_or_create(code=code, defaults={"name": name, "kind": kind})
    if not created and account.kind != kind:
        raise LedgerError(f"Account {code} exists as a {account.get_kind_display()}, not a {AccountKind(kind).label}.")
    return account


def account_open_as(spec: AccountSpec) -> Account:
    """``account_open`` of an app's account spec."""
    return account_open(code=spec.code, name=spec.name, kind=spec.kind)


def account_locked(spec: AccountSpec) -> Account:
    """Open an app's account if need be and lock its row until the caller's transaction ends: a service
    that takes money from an account, or promises it, holds this lock while it reads the balance and
    writes, so two of them never both spend the same money."""
    account = account_open_as(spec)
    return Account.objects.select_for_update().get(pk=account.pk)


def _transfer_check(*, debit: Account | int, credit: Account | int, amount_cents: object, idempotency_key: str) -> None:
    """What every transfer satisfies, one or in a batch: a positive whole number of cents between two
    accounts (given or by id), under an idempotency key. The database checks the first two again."""
    if isinstance(amount_cents, bool) or not isinstance(amount_cents, int):
        raise InvalidTransfer(f"An amount is a whole number of cents, not {amount_cents!r}.")
    if amount_cents <= 0:
        raise InvalidTransfer(f"A transfer moves more than zero cents (got {amount_cents}).")
    if (debit.pk if isinstance(debit, Account) else debit) == (credit.pk if isinstance(credit, Account) else credit):
        raise InvalidTransfer(
            f"A transfer moves money between two accounts, not within {debit if isinstance(debit, Account) else f'account {debit}'}."
        )
    if not idempotency_key:
        raise InvalidTransfer("Every transfer needs an idempotency key.")


def _below_zero(error: IntegrityError) -> BelowZero | None:
    """The database's refusal of a transfer that takes an account below zero, as the ledger names it."""
    message = str(error)
    if "ledger_below_zero" not in message:
        return None
    detail = message.split("ledger_below_zero: ", 1)[1].split("\n", 1)[0]
    return BelowZero(f"Refused by the database, nothing was posted: {detail}.")


def _within_transaction(name: str) -> None:
    if not connection.in_atomic_block:
        raise RuntimeError(f"{name} runs inside the transaction of the service that moves money.")


def _idempotency_conflict(existing: Transfer) -> IdempotencyConflict:
    return IdempotencyConflict(
        f"Idempotency key {existing.idempotency_key!r} was used for another transfer ({existing}); nothing was posted."
    )


def transfer_post_within(
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
    """Move ``amount_cents`` from ``credit`` to ``debit`` inside the caller's transaction (refused
    outside one: the transfer commits with whatever the caller writes, or not at all).

    Posting the same idempotency key again returns the transfer first posted, provided it is the
    same movement; a different movement under a used key is refused (nothing is posted).
    """
    _within_transaction("transfer_post_within")
    _transfer_check(debit=debit, credit=credit, amount_cents=amount_cents, idempotency_key=idempotency_key)
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
    except IntegrityError as error:
        below_zero = _below_zero(error)
        if below_zero is not None:
            raise below_zero from error
        existing = Transfer.objects.filter(idempotency_key=idempotency_key).first()
        if existing is None:
            raise
        if existing.fingerprint() != transfer.fingerprint():
            raise _idempotency_conflict(existing) from None
        return existing
    return transfer


def transfer_post_atomic(
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
        return transfer_post_within(
            debit=debit,
            credit=credit,
            amount_cents=amount_cents,
            kind=kind,
            idempotency_key=idempotency_key,
            actor=actor,
            reference=reference,
            memo=memo,
        )


@dataclass(frozen=True)
class Posting:
    """One movement of a batch: ``amount_cents`` from account ``credit_id`` to account ``debit_id``."""

    debit_id: int
    credit_id: int
    amount_cents: int
    kind: TransferKind
    idempotency_key: str
    memo: str = ""


# On PostgreSQL a batch is one INSERT of unnested arrays (one round trip whatever its size, no
# savepoint); elsewhere (SQLite) the ORM's bulk_create. Both paths are tested.
UNNEST_INSERTS = True


def transfers_post_within(
    *,
    postings: Sequence[Posting],
    actor: User,
    reference: models.Model | None = None,
    posted_at: datetime | None = None,
) -> list[Transfer]:
    """Post many transfers at once inside the caller's transaction, all referring to ``reference``
    and posted at ``posted_at`` (now by default); the transfers in the order of ``postings``.

    Each posting is checked as ``transfer_post_within`` checks one, before anything is written. The
    idempotency is the same too: a key already posted with the same movement gives back the transfer
    first posted; a key posted with another movement is refused (``IdempotencyConflict``). The
    refusal may come after the batch's other transfers were inserted: it leaves the caller's atomic
    block, which rolls them back, so nothing is posted. A key twice in one batch is posted once if
    both postings are the same movement, and refused otherwise.
    """
    _within_transaction("transfers_post_within")
    if not postings:
        return []
    reference_type_id = ContentType.objects.get_for_model(type(reference)).pk if reference is not None else None
    reference_id = str(reference.pk) if reference is not None else ""
    posted_at = posted_at or timezone.now()
    wanted: dict[str, Transfer] = {}
    for posting in postings:
        _transfer_check(
            debit=posting.debit_id,
            credit=posting.credit_id,
            amount_cents=posting.amount_cents,
            idempotency_key=posting.idempotency_key,
        )
        transfer = Transfer(
            debit_id=posting.debit_id,
            credit_id=posting.credit_id,
            amount_cents=posting.amount_cents,
            kind=posting.kind,
            reference_type_id=reference_type_id,
            reference_id=reference_id,
            idempotency_key=posting.idempotency_key,
            memo=posting.memo,
            posted_at=posted_at,
            posted_by=actor,
        )
        first = wanted.setdefault(posting.idempotency_key, transfer)
        if first is not transfer and first.fingerprint() != transfer.fingerprint():
            raise IdempotencyConflict(
                f"Idempotency key {posting.idempotency_key!r} is given to two movements in one batch; nothing was posted."
            )
    if connection.vendor == "postgresql" and UNNEST_INSERTS:
        posted = _insert_unnested(list(wanted.values()))
    else:
        posted = _insert_with_orm(list(wanted.values()))
    return [posted[posting.idempotency_key] for posting in postings]


def _insert_unnested(transfers: list[Transfer]) -> dict[str, Transfer]:
    """One INSERT for the batch. A key already posted is skipped (``ON CONFLICT DO NOTHING``: no
    error, so no savepoint is needed) and then compared with what was first posted under it."""
    first = transfers[0]
    # Table and column names come from the model; every value is a parameter.
    sql = f"""
        INSERT INTO {Transfer._meta.db_table}
            (debit_id, credit_id, amount_cents, kind, reference_type_id, reference_id, idempotency_key, memo, posted_at, posted_by_id)
        SELECT t.debit, t.credit, t.amount, t.kind, %s, %s, t.key, t.memo, %s, %s
        FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[], %s::text[], %s::text[], %s::text[]) AS t(debit, credit, amount, kind, key, memo)
        ON CONFLICT (idempotency_key) DO NOTHING
        RETURNING id, idempotency_key
    """  # noqa: S608
    params = [
        first.reference_type_id,
        first.reference_id,
        first.posted_at,
        first.posted_by_id,
        [t.debit_id for t in transfers],
        [t.credit_id for t in transfers],
        [t.amount_cents for t in transfers],
        [str(t.kind) for t in transfers],
        [t.idempotency_key for t in transfers],
        [t.memo for t in transfers],
    ]
    with connection.cursor() as cursor:
        try:
            cursor.execute(sql, params)
        except IntegrityError as error:
            below_zero = _below_zero(error)
            if below_zero is None:
                raise
            raise below_zero from error
        ids = {key: pk for pk, key in cursor.fetchall()}
    posted: dict[str, Transfer] = {}
    for transfer in transfers:
        pk = ids.get(transfer.idempotency_key)
        if pk is not None:
            transfer.pk = pk
            transfer._state.adding = False
            transfer._state.db = connection.alias
            posted[transfer.idempotency_key] = transfer
    if len(posted) < len(transfers):
        # Skipped keys conflicted with rows committed before this statement: the next statement sees them.
        posted |= _already_posted([t for t in transfers if t.idempotency_key not in posted])
    return posted


def _insert_with_orm(transfers: list[Transfer]) -> dict[str, Transfer]:
    """The keys already posted are read first, the others inserted by one bulk_create: safe where one
    write transaction runs at a time (SQLite); on PostgreSQL a parallel post of a key would fail the
    INSERT instead of skipping it."""
    posted = _already_posted(transfers)
    try:
        Transfer.objects.bulk_create([t for t in transfers if t.idempotency_key not in posted])
    except IntegrityError as error:
        below_zero = _below_zero(error)
        if below_zero is None:
            raise
        raise below_zero from error
    return posted | {t.idempotency_key: t for t in transfers if t.idempotency_key not in posted}


def _already_posted(transfers: list[Transfer]) -> dict[str, Transfer]:
    """The transfers first posted under these keys, each the same movement (else ``IdempotencyConflict``)."""
    existing = {
        t.idempotency_key: t
        for t in Transfer.objects.filter(idempotency_key__in=[t.idempotency_key for t in transfers])
    }
    for transfer in transfers:
        first = existing.get(transfer.idempotency_key)
        if first is not None and first.fingerprint() != transfer.fingerprint():
            raise _idempotency_conflict(first)
    return existing


def correction_prepare(*, transfer: Transfer, reason: str, actor: User, pin: str) -> Correction:
    """Finance prepares and signs the reversal of a transfer posted in error."""
    action_require(actor=actor, action=Action.CORRECTION_PREPARE, of=transfer)
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
    action_require(actor=actor, action=Action.CORRECTION_APPROVE, of=correction)
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic():
        correction = Correction.objects.select_for_update(of=("self",)).select_related("transfer").get(pk=correction.pk)
        signature_add(document=correction, rule=Correction.APPROVER, signer=signer)
        original = correction.transfer
        reversal = transfer_post_within(
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
