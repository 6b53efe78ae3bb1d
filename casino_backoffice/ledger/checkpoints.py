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
import time
from collections.abc import Iterable

from django.db import connection, models, transaction
from django.db.models import Q, Sum
from django.db.models.expressions import RawSQL
from django.utils import timezone

from .models import Account, BalanceCheckpoint, Transfer

logger = logging.getLogger(__name__)

# A checkpoint is taken once an account has this many transfers after its latest one: a balance
# then reads at most this many transfers plus those posted since the latest run.
CHECKPOINT_STRIDE = 250

# How long the horizon waits for the transactions that were posting transfers when it looked; past
# that it gives up until the next run (nothing waits for it meanwhile).
HORIZON_WAIT_SECONDS = 2.0
_HORIZON_POLL_SECONDS = 0.02


def _tables() -> dict[str, str]:
    quote = connection.ops.quote_name
    return {
        "transfer": quote(Transfer._meta.db_table),
        "account": quote(Account._meta.db_table),
        "checkpoint": quote(BalanceCheckpoint._meta.db_table),
    }


def transfer_horizon(*, wait_seconds: float = HORIZON_WAIT_SECONDS) -> int | None:
    """The highest transfer id below which no transfer can appear any more, or None (no transfer
    yet, or a transaction posting transfers stayed open over ``wait_seconds``).

    Ids come from the table's sequence (one at a time: no per-session cache) as a transfer is
    inserted, so a transaction still open may hold an id lower than one already committed. On
    PostgreSQL: read the highest committed id N, then list the transactions holding the transfers
    table's ROW EXCLUSIVE lock (every writer takes it before its ids, and keeps it to its end), and
    wait for those to end, as CREATE INDEX CONCURRENTLY waits for writers. Any id up to N was handed
    to one of them or to a transaction already ended; every later writer gets ids above N. Nothing
    is locked: posting never waits for the horizon, nor does VACUUM. On SQLite one writer at a time
    holds the database, and its ids are above every committed one.
    """
    holders = (
        "SELECT COALESCE(array_agg(DISTINCT virtualtransaction), '{}') FROM pg_locks WHERE locktype = 'relation' "
        "AND relation = %s::regclass AND mode = 'RowExclusiveLock' AND granted AND pid <> pg_backend_pid()"
    )
    table = Transfer._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT MAX(id) FROM {_tables()['transfer']}")  # noqa: S608 (the name comes from the model)
        row = cursor.fetchone()
        if row is None or row[0] is None:
            return None
        horizon = int(row[0])
        if connection.vendor != "postgresql":
            return horizon
        cursor.execute(holders, [table])
        writers = list(cursor.fetchone()[0])
        deadline = time.monotonic() + wait_seconds
        while writers:
            if time.monotonic() > deadline:
                logger.warning(
                    "Balance checkpoints: a transaction posting transfers stayed open over %ss; trying at the next run.",
                    wait_seconds,
                )
                return None
            time.sleep(_HORIZON_POLL_SECONDS)
            cursor.execute(holders + " AND virtualtransaction = ANY(%s)", [table, writers])
            writers = list(cursor.fetchone()[0])
    return horizon


def checkpoints_take(*, stride: int = CHECKPOINT_STRIDE, wait_seconds: float = HORIZON_WAIT_SECONDS) -> int:
    """Insert a checkpoint for every account with at least ``stride`` transfers after its latest
    checkpoint, up to the transfer horizon; returns how many were inserted. Each is its account's
    previous checkpoint plus the transfers between the two, in one statement. Safe to run twice or
    concurrently: a checkpoint is unique per account and horizon, and every one is true."""
    if stride < 1:
        raise ValueError("A checkpoint covers at least one transfer.")
    horizon = transfer_horizon(wait_seconds=wait_seconds)
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
        INSERT INTO {tables["checkpoint"]} (account_id, through_transfer_id, balance_cents, transfer_count, taken_at)
        SELECT account_id, %s, balance_cents + sum_debit - sum_credit, transfer_count + n_debit + n_credit, %s
        FROM (
            SELECT a.id AS account_id,
                   COALESCE(last.balance_cents, 0) AS balance_cents,
                   COALESCE(last.transfer_count, 0) AS transfer_count,
                   ({parts["sum_debit"]}) AS sum_debit, ({parts["sum_credit"]}) AS sum_credit,
                   ({parts["n_debit"]}) AS n_debit, ({parts["n_credit"]}) AS n_credit
            FROM {tables["account"]} a
            LEFT JOIN {tables["checkpoint"]} last ON last.account_id = a.id AND last.through_transfer_id = (
                SELECT MAX(c.through_transfer_id) FROM {tables["checkpoint"]} c WHERE c.account_id = a.id
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
        return (
            f"SELECT {alias}.{column} FROM {tables['checkpoint']} {alias} WHERE {alias}.account_id = {account_column} "  # noqa: S608
            f"ORDER BY {alias}.through_transfer_id DESC LIMIT 1"
        )

    def after(side: str) -> str:
        alias = f"ledger_tail_{side}"
        return (
            f"COALESCE((SELECT SUM({alias}.amount_cents) FROM {tables['transfer']} {alias} "  # noqa: S608
            f"WHERE {alias}.{side}_id = {account_column} "
            f"AND {alias}.id > COALESCE(({latest('through_transfer_id', f'ledger_cp_{side}')}), 0)), 0)"
        )

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
