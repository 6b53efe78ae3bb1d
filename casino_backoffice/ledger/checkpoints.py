"""Balance checkpoints: a balance costs the same with a million transfers as with a thousand.

A balance is derived from transfers, never stored as a number that can drift (docs/architecture.md, The
ledger). Summing an account's whole history on every read grows with the history: a jackpot fund's
display poll, a box's expected content at each count. A checkpoint is a derived fact instead: "the
balance of account X over every transfer with an id up to N", inserted once and never updated
(``BalanceCheckpoint``). A balance is then the account's latest checkpoint plus the transfers of the
account after it, read through the ``(debit, id, amount)`` and ``(credit, id, amount)`` indexes: at
most ``CHECKPOINT_STRIDE`` transfers plus what was posted since the latest run of
``checkpoints_take``, whatever the length of the history.

A checkpoint stays true because transfers are insert-only (a trigger refuses UPDATE and DELETE on
PostgreSQL; a correction is a new, reversing transfer, after the checkpoint) and because it only
covers ids below which no transfer can appear any more (``transfer_horizon``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import OperationalError, connection, transaction
from django.db.models import BigIntegerField, Expression, ExpressionWrapper, OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from .models import Account, BalanceCheckpoint, Transfer

logger = logging.getLogger(__name__)

# A checkpoint is taken once an account has this many transfers after its latest one: a balance
# then reads at most this many transfers plus those posted since the latest run.
CHECKPOINT_STRIDE = 1000

# How long the horizon waits for transactions that are posting transfers before it tries again
# at the next run (writers queue behind it meanwhile, so it never waits long).
HORIZON_LOCK_TIMEOUT = "1s"


def _tables() -> dict[str, str]:
    quote = connection.ops.quote_name
    return {
        "transfer": quote(Transfer._meta.db_table),
        "account": quote(Account._meta.db_table),
        "checkpoint": quote(BalanceCheckpoint._meta.db_table),
    }


def transfer_horizon() -> int | None:
    """The highest transfer id below which no transfer can appear any more, or None (no transfer
    yet, or writers kept the table busy past ``HORIZON_LOCK_TIMEOUT``).

    Ids come from a sequence when a transfer is inserted, so a transaction still open may hold an id
    lower than one already committed. On PostgreSQL a SHARE lock on the transfers table is granted
    only once every transaction that inserted into it has ended, and ids handed out afterwards are
    higher than any before: the highest id seen under the lock is a safe horizon. The lock is held
    for that one read. SQLite has one writer at a time, whose ids are above every committed one.
    """
    tables = _tables()
    try:
        with transaction.atomic(durable=True), connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SELECT set_config('lock_timeout', %s, true)", [HORIZON_LOCK_TIMEOUT])
                cursor.execute(f"LOCK TABLE {tables['transfer']} IN SHARE MODE")
            cursor.execute(f"SELECT MAX(id) FROM {tables['transfer']}")  # noqa: S608 (names from the models)
            row = cursor.fetchone()
    except OperationalError:
        logger.warning("Balance checkpoints: transfers were being posted for over %s; trying at the next run.", HORIZON_LOCK_TIMEOUT)
        return None
    return None if row is None or row[0] is None else int(row[0])


def checkpoints_take(*, stride: int = CHECKPOINT_STRIDE) -> int:
    """Insert a checkpoint for every account with at least ``stride`` transfers after its latest
    checkpoint, up to the transfer horizon; returns how many were inserted. Each is its account's
    previous checkpoint plus the transfers between the two, in one statement. Safe to run twice or
    concurrently: a checkpoint is unique per account and horizon, and every one is true."""
    if stride < 1:
        raise ValueError("A checkpoint covers at least one transfer.")
    horizon = transfer_horizon()
    if horizon is None:
        return 0
    tables = _tables()
    # For each account: its latest checkpoint (or none) and the sum and number of its transfers
    # after it, up to the horizon, each side read from its index.
    tail = "SELECT {what} FROM {transfer} t WHERE t.{side}_id = a.id AND t.id > COALESCE(last.through_transfer_id, 0) AND t.id <= %s"
    parts = {
        f"{name}_{side}": tail.format(what=what, side=side, **tables)
        for name, what in (("sum", "COALESCE(SUM(t.amount_cents), 0)"), ("n", "COUNT(*)"))
        for side in ("debit", "credit")
    }
    sql = f"""
        INSERT INTO {tables['checkpoint']} (account_id, through_transfer_id, balance_cents, transfer_count, taken_at)
        SELECT account_id, %s, balance_cents + sum_debit - sum_credit, transfer_count + n_debit + n_credit, %s
        FROM (
            SELECT a.id AS account_id,
                   COALESCE(last.balance_cents, 0) AS balance_cents,
                   COALESCE(last.transfer_count, 0) AS transfer_count,
                   ({parts['sum_debit']}) AS sum_debit, ({parts['sum_credit']}) AS sum_credit,
                   ({parts['n_debit']}) AS n_debit, ({parts['n_credit']}) AS n_credit
            FROM {tables['account']} a
            LEFT JOIN {tables['checkpoint']} last ON last.account_id = a.id AND last.through_transfer_id = (
                SELECT MAX(c.through_transfer_id) FROM {tables['checkpoint']} c WHERE c.account_id = a.id
            )
        ) tails
        WHERE n_debit + n_credit >= %s
        ON CONFLICT DO NOTHING
    """  # noqa: S608 (table names come from the models; every value is a parameter)
    with transaction.atomic(durable=True), connection.cursor() as cursor:
        cursor.execute(sql, [horizon, timezone.now(), horizon, horizon, horizon, horizon, stride])
        return max(cursor.rowcount, 0)


def _latest_checkpoint(account: OuterRef) -> QuerySet[BalanceCheckpoint]:
    return BalanceCheckpoint.objects.filter(account_id=account).order_by("-through_transfer_id")


def balance_expression(account: str = "pk") -> Expression:
    """The balance of the account whose id is the field ``account`` of each row, as a column of the
    same query: its latest checkpoint plus the sums of its debits and credits after it, each read
    from its index (``Box.objects.annotate(expected_cents=balance_expression("account_id"))``)."""

    def after_checkpoint(side: str) -> Coalesce:
        # The horizon is the outer row's, so the database reads it once per row, then a range of the index.
        through = Coalesce(Subquery(_latest_checkpoint(OuterRef(OuterRef(account))).values("through_transfer_id")[:1]), Value(0))
        total = (
            Transfer.objects.filter(**{f"{side}_id": OuterRef(account)}, pk__gt=through)
            .order_by()
            .values(f"{side}_id")
            .annotate(total=Sum("amount_cents"))
            .values("total")
        )
        return Coalesce(Subquery(total, output_field=BigIntegerField()), Value(0))

    checkpoint = Coalesce(Subquery(_latest_checkpoint(OuterRef(account)).values("balance_cents")[:1]), Value(0))
    return ExpressionWrapper(checkpoint + after_checkpoint("debit") - after_checkpoint("credit"), output_field=BigIntegerField())


def balances_of(*, account_ids: Iterable[int]) -> dict[int, int]:
    """The balance of each account, keyed by id, in one statement (one snapshot): its latest
    checkpoint plus the transfers after it. Accounts that do not exist are left out."""
    ids = sorted(set(account_ids))
    if not ids:
        return {}
    rows = Account.objects.filter(pk__in=ids).order_by().annotate(balance=balance_expression("pk")).values_list("pk", "balance")
    return {int(account_id): int(balance) for account_id, balance in rows}


def balance_from_history(*, account: Account) -> int:
    """The balance summed over every transfer of the account, ignoring checkpoints: what a
    checkpointed balance must always equal (the tests and the benchmark compare them)."""
    totals = Transfer.objects.filter(Q(debit=account) | Q(credit=account)).aggregate(
        into=Sum("amount_cents", filter=Q(debit=account), default=0),
        out=Sum("amount_cents", filter=Q(credit=account), default=0),
    )
    return int(totals["into"]) - int(totals["out"])
