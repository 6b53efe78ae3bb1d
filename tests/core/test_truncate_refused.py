"""TRUNCATE of an insert-only table is refused on PostgreSQL, as UPDATE and DELETE are: whatever path
tries, a session that has not said ``casino.allow_truncate = on`` (only the test suite's do) is refused,
and nothing is removed."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from casino_backoffice.ledger.models import Transfer
from tests.core.test_insert_only_on_sqlite import AUDIT_LOG, INSERT_ONLY

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="TRUNCATE is PostgreSQL's")


@pytest.mark.parametrize("table", INSERT_ONLY + AUDIT_LOG)
def test_truncate_of_an_insert_only_table_is_refused(db, table) -> None:
    with pytest.raises(DatabaseError, match=f"TRUNCATE of {table} is refused"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL casino.allow_truncate = off")
            cursor.execute(f"TRUNCATE {table} CASCADE")


def test_a_refused_truncate_removes_nothing(db, rules, rated_table, dealer) -> None:
    from rake.services import round_record
    from tests.rake.factories import recently

    round_record(
        table=rated_table,
        ended_at=recently(),
        players_dealt_in=6,
        pot_cents=10_000,
        uncalled_bet_cents=0,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key="truncate-round",
    )
    before = Transfer.objects.count()
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL casino.allow_truncate = off")
        cursor.execute("TRUNCATE ledger_transfer CASCADE")
    assert Transfer.objects.count() == before > 0


def test_every_insert_only_table_refuses_truncate(db) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgrelid::regclass::text FROM pg_trigger WHERE tgname LIKE '%%_insert_only'")
        row_refused = {row[0] for row in cursor.fetchall()}
        cursor.execute("SELECT tgrelid::regclass::text FROM pg_trigger WHERE tgname LIKE '%%_insert_only_truncate'")
        truncate_refused = {row[0] for row in cursor.fetchall()}
    assert row_refused and row_refused == truncate_refused


@pytest.mark.parametrize(
    "table",
    [
        "staff_historicaluser",
        "tables_historicalpokerroom",
        "tables_historicaltable",
        "ledger_historicalaccount",
        "jackpots_historicaljackpot",
    ],
)
def test_the_audit_log_refuses_update_and_delete(rated_table, floorperson, table) -> None:
    """A room, its tables, funds and accounts loaded and a person created: their history rows stay as
    they were recorded (every table of ``AUDIT_LOG`` has the same triggers, checked beside)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {table}")  # noqa: S608 - the test's own table names
        rows = cursor.fetchone()[0]
    assert rows > 0
    for statement in (f"UPDATE {table} SET history_id = history_id", f"DELETE FROM {table}"):  # noqa: S608
        with pytest.raises(DatabaseError, match="is refused"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {table}")  # noqa: S608
        assert cursor.fetchone()[0] == rows
