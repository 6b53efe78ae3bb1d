"""Migration operations that make a table insert-only, on PostgreSQL and on SQLite alike.

Money rows and signatures are inserted, never edited (docs/architecture.md, The ledger): a trigger
refuses UPDATE and DELETE whatever the client, the ORM, a raw cursor, psql or sqlite3, so the
embedded default of ``make run`` is as strict as PostgreSQL.

- PostgreSQL: one row trigger calls ``casino_refuse_change()``, which raises (SQLSTATE 23001,
  ``restrict_violation``: Django raises ``IntegrityError``). TRUNCATE, which only a database owner
  runs (the test runner between tests), is a separate statement and is not refused.
- SQLite: two triggers, ``BEFORE UPDATE`` and ``BEFORE DELETE``, ``RAISE(ABORT, ...)`` (Django raises
  ``IntegrityError`` too). ``manage.py flush`` is refused there: start from a new database file.

On SQLite a migration that rebuilds a table (most field changes do) drops its triggers with the old
table: such a migration ends with ``insert_only_again(table)``. The embedded-default test compares the
SQLite triggers with PostgreSQL's after every migration, so a forgotten one fails.
"""

from __future__ import annotations

from django.db import migrations

_FUNCTION = """
CREATE OR REPLACE FUNCTION casino_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% of % is refused: its rows are never updated or deleted; post a correction instead',
        TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
"""

SQLITE_OPERATIONS = ("UPDATE", "DELETE")


def _sqlite_trigger(table: str, operation: str) -> str:
    return f"{table}_insert_only_{operation.lower()}"


def _sqlite_add(schema_editor, table: str) -> None:
    for operation in SQLITE_OPERATIONS:
        schema_editor.execute(
            f"CREATE TRIGGER IF NOT EXISTS {_sqlite_trigger(table, operation)} BEFORE {operation} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{operation} of {table} is refused: its rows are never updated or deleted; "
            "post a correction instead'); END;",
            params=None,
        )


def _sqlite_drop(schema_editor, table: str) -> None:
    for operation in SQLITE_OPERATIONS:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {_sqlite_trigger(table, operation)};", params=None)


def insert_only(table: str) -> migrations.RunPython:
    """``operations = [insert_only("ledger_transfer")]``"""
    trigger = f"{table}_insert_only"

    def forward(apps, schema_editor) -> None:
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            schema_editor.execute(_FUNCTION, params=None)
            schema_editor.execute(
                f"CREATE TRIGGER {trigger} BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();"
            )
        elif vendor == "sqlite":
            _sqlite_add(schema_editor, table)

    def backward(apps, schema_editor) -> None:
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {trigger} ON {table};")
        elif vendor == "sqlite":
            _sqlite_drop(schema_editor, table)

    return migrations.RunPython(forward, backward, elidable=False)


def insert_only_again(table: str) -> migrations.RunPython:
    """The SQLite triggers of a table made insert-only earlier, where they are missing: after a
    migration that rebuilt the table on SQLite, or on an embedded database migrated before SQLite had
    triggers. Nothing to do on PostgreSQL, whose trigger survives a change of the table; going
    backwards leaves the triggers to the migration that made the table insert-only."""

    def forward(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "sqlite":
            _sqlite_add(schema_editor, table)

    return migrations.RunPython(forward, migrations.RunPython.noop, elidable=False)
