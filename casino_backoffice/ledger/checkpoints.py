"""Balance checkpoints: a balance costs the same with a million transfers as with a thousand.

A balance is derived from transfers, never stored as a number that can drift (DESIGN.md, The
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

from django.db import OperationalError, connection, models, transaction
from django.db.models import Q, Sum
from django.db.models.expressions import RawSQL
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


def balance_sql(account_column: str) -> str:
    """SQL for the balance of the account whose id is ``account_column`` (a qualified, quoted column
    of the outer query): its latest checkpoint plus the sums of its debits and credits after it.
    The checkpoint's horizon depends on the outer row only, so the database reads it once per row
    and then a range of the ``(debit, id, amount)`` or ``(credit, id, amount)`` index."""
    tables = _tables()
    # Table names come from the models, the column from the caller's model; no value is in the SQL.

    def latest(column: str, alias: str) -> str:
        return (f"SELECT {alias}.{column} FROM {tables['checkpoint']} {alias} WHERE {alias}.account_id = {account_column} "  # noqa: S608
                f"ORDER BY {alias}.through_transfer_id DESC LIMIT 1")

    def after(side: str) -> str:
        alias = f"ledger_tail_{side}"
        return (f"COALESCE((SELECT SUM({alias}.amount_cents) FROM {tables['transfer']} {alias} "  # noqa: S608
                f"WHERE {alias}.{side}_id = {account_column} "
                f"AND {alias}.id > COALESCE(({latest('through_transfer_id', f'ledger_cp_{side}')}), 0)), 0)")

    return f"(COALESCE(({latest('balance_cents', 'ledger_cp')}), 0) + {after('debit')} - {after('credit')})"


def balance_annotation(model: type[models.Model], field: str = "account") -> RawSQL:
    """The balance of the account ``field`` of each row of a queryset of ``model``, as a column of
    the same query: ``Box.objects.annotate(expected_cents=balance_annotation(Box))``."""
    quote = connection.ops.quote_name
    account = model._meta.get_field(field)
    assert isinstance(account, models.Field) and account.column, f"{model.__name__}.{field} is not a column"
    column = f"{quote(model._meta.db_table)}.{quote(account.column)}"
    return RawSQL(balance_sql(column), [], output_field=models.BigIntegerField())  # noqa: S611 (no value in it)


def balances_of(*, account_ids: Iterable[int]) -> dict[int, int]:
    """The balance of each account, keyed by id, in one statement (one snapshot): its latest
    checkpoint plus the transfers after it. Accounts that do not exist are left out."""
    ids = sorted(set(account_ids))
    if not ids:
        return {}
    account = _tables()["account"]
    sql = f"SELECT a.id, {balance_sql('a.id')} FROM {account} a WHERE a.id IN ({', '.join(['%s'] * len(ids))})"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, ids)
        return {int(account_id): int(balance) for account_id, balance in cursor.fetchall()}


def balance_from_history(*, account: Account) -> int:
    """The balance summed over every transfer of the account, ignoring checkpoints: what a
    checkpointed balance must always equal (the tests and the benchmark compare them)."""
    totals = Transfer.objects.filter(Q(debit=account) | Q(credit=account)).aggregate(
        into=Sum("amount_cents", filter=Q(debit=account), default=0),
        out=Sum("amount_cents", filter=Q(credit=account), default=0),
    )
    return int(totals["into"]) - int(totals["out"])
