"""A backup restored into an empty database passes the invariant checker, with the same balances and
rows, and its insert-only tables still refuse UPDATE, DELETE and TRUNCATE.

A room is played through a day of the services (``tests/faults/day.py``) with a count $1.00 short at
the table and a container 10 cents short at the cage, then a round after the count and a box carried
to the cage uncounted, so that money is in every kind of account. The committed test database is
dumped with ``pg_dump`` (custom format), restored with ``pg_restore`` into a new database, and
``manage.py check_invariants`` runs against the copy in a subprocess of its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.utils import timezone

from cage.models import Box
from cage.services import transport_create
from casino_backoffice.ledger.models import Account, AccountKind, Transfer
from rake.services import round_record
from tables.services import table_set_open
from tests.conftest import PIN
from tests.faults.day import Day

ROOT = Path(__file__).resolve().parents[2]


def _connect(dbname: str) -> psycopg.Connection:
    db = connection.settings_dict
    return psycopg.connect(dbname=dbname, user=db["USER"], host=db["HOST"], port=db["PORT"] or 5432, autocommit=True)


def _pg_args() -> list[str]:
    db = connection.settings_dict
    return ["-h", db["HOST"], "-p", str(db["PORT"] or 5432), "-U", db["USER"]]


def _rows(conn: psycopg.Connection) -> dict[str, int]:
    tables = [name for (name,) in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
    counts = conn.execute(
        "SELECT " + ", ".join(f'(SELECT count(*) FROM "{table}")' for table in tables)  # noqa: S608 (catalog names)
    ).fetchone()
    return dict(zip(tables, counts, strict=True))


def _triggers(conn: psycopg.Connection) -> list[tuple[str, str]]:
    return conn.execute(
        "SELECT tgrelid::regclass::text, tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2"
    ).fetchall()


def _balances(conn: psycopg.Connection) -> dict[str, int]:
    account, transfer = Account._meta.db_table, Transfer._meta.db_table
    sql = f"""
        SELECT a.code, COALESCE(SUM(m.amount), 0)::bigint FROM {account} a
        LEFT JOIN (
            SELECT debit_id AS account_id, amount_cents AS amount FROM {transfer}
            UNION ALL SELECT credit_id, -amount_cents FROM {transfer}
        ) m ON m.account_id = a.id
        GROUP BY a.code
    """  # noqa: S608 (the models' table names)
    return dict(conn.execute(sql).fetchall())


@pytest.fixture
def restored_name() -> Iterator[str]:
    name = f"{connection.settings_dict['NAME']}_restored_{uuid.uuid4().hex[:8]}"
    yield name
    with _connect("postgres") as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _room_with_money_everywhere(staff: dict[str, Any]) -> None:
    at = timezone.now()
    day = Day(code="bk", staff=staff, drop_counted=1_400, cage_counted=1_690)
    for step in day.steps(at=at, schedule_at=at):
        step.run()
    # After the count: a round puts money in the boxes again, and the High Hand box goes to the cage
    # uncounted (in custody).
    table = table_set_open(table=day.table("T1"), is_open=True, actor=staff["floorperson"])
    round_record(
        table=table,
        ended_at=timezone.now() - timedelta(seconds=5),
        players_dealt_in=9,
        pot_cents=12_000,
        uncalled_bet_cents=0,
        flop_dealt=True,
        voided=False,
        actor=staff["dealer"],
        idempotency_key="bk-round-after",
    )
    transport_create(
        room=day.room,
        seal="bk-boxes",
        boxes=[Box.objects.get(room=day.room, code="T1-hh")],
        actor=staff["security"],
        pin=PIN,
        idempotency_key="bk-boxes",
    )


@pytest.mark.django_db(transaction=True)
def test_a_backup_restored_into_an_empty_database_passes_the_invariant_checker(staff, restored_name, tmp_path) -> None:
    _room_with_money_everywhere(staff)
    source = connection.settings_dict["NAME"]
    connection.close()  # everything is committed; the dump sees what the test made
    with _connect(source) as original:
        balances, rows = _balances(original), _rows(original)
        triggers = _triggers(original)
        kinds = dict(original.execute(f"SELECT code, kind FROM {Account._meta.db_table}").fetchall())  # noqa: S608
    held = {kinds[code] for code, cents in balances.items() if cents}
    assert held == set(AccountKind.values), f"no money in {set(AccountKind.values) - held}"

    dump = tmp_path / "casino.dump"
    subprocess.run(["pg_dump", *_pg_args(), "-Fc", "-f", str(dump), source], check=True)
    with _connect("postgres") as admin:
        admin.execute(f'CREATE DATABASE "{restored_name}"')
    subprocess.run(
        ["pg_restore", *_pg_args(), "--no-owner", "--exit-on-error", "-d", restored_name, str(dump)], check=True
    )

    db = connection.settings_dict
    checked = subprocess.run(
        [sys.executable, "manage.py", "check_invariants"],
        cwd=ROOT,
        env={
            **os.environ,
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{restored_name}",
            "CASINO_VAR_DIR": str(tmp_path),
        },
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"0 violations over {rows['ledger_transfer']} transfers" in checked.stdout

    with _connect(restored_name) as copy:
        assert _balances(copy) == balances
        assert _rows(copy) == rows
        # The guards came back with the data: every trigger, and each insert-only table's rows refuse
        # UPDATE, DELETE and TRUNCATE.
        assert _triggers(copy) == triggers
        guarded = sorted({table for table, name in triggers if name == f"{table}_insert_only"})
        assert {"ledger_transfer", "tables_round", "staff_signature", "jackpots_badbeatpayment"} <= set(guarded)
        refused = 0
        for table in guarded:
            statements = [f'TRUNCATE "{table}" CASCADE']
            if rows[table]:
                statements += [
                    f'UPDATE "{table}" SET id = id WHERE id = (SELECT min(id) FROM "{table}")',  # noqa: S608
                    f'DELETE FROM "{table}" WHERE id = (SELECT min(id) FROM "{table}")',  # noqa: S608
                ]
            for statement in statements:
                with pytest.raises(psycopg.Error, match="is refused: its rows are never updated or deleted"):
                    copy.execute(statement)
                refused += 1
        assert _rows(copy) == rows
        print(f"\n{len(guarded)} insert-only tables in the copy, {refused} changes refused")
