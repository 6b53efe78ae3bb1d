"""Migration operations that make a table insert-only, on PostgreSQL and on SQLite alike.

Money rows, signed documents, sign-in attempts and the audit log (django-simple-history's tables) are
inserted, never edited (docs/architecture.md, The ledger): a trigger
refuses UPDATE and DELETE whatever the client, the ORM, a raw cursor, psql or sqlite3, so the
embedded default of ``make run`` is as strict as PostgreSQL.

- PostgreSQL: one row trigger calls ``casino_refuse_change()``, which raises (SQLSTATE 23001,
  ``restrict_violation``: Django raises ``IntegrityError``), and a statement trigger refuses TRUNCATE
  (``casino_refuse_truncate()``) unless the session says ``SET casino.allow_truncate = on``: the test
  suite's own connections do, to empty the tables between tests; the service's never do. (A database
  owner can also drop a trigger: the database's owner role is not the service's.)
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

_TRUNCATE_FUNCTION = """
CREATE OR REPLACE FUNCTION casino_refuse_truncate() RETURNS trigger AS $$
BEGIN
    IF current_setting('casino.allow_truncate', true) = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'TRUNCATE of % is refused: its rows are never updated or deleted; post a correction instead',
        TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
"""

SQLITE_OPERATIONS = ("UPDATE", "DELETE")


def _truncate_trigger(table: str) -> str:
    return f"{table}_insert_only_truncate"


def _postgresql_refuse_truncate(schema_editor, table: str) -> None:
    schema_editor.execute(_TRUNCATE_FUNCTION, params=None)
    schema_editor.execute(f"DROP TRIGGER IF EXISTS {_truncate_trigger(table)} ON {table};", params=None)
    schema_editor.execute(
        f"CREATE TRIGGER {_truncate_trigger(table)} BEFORE TRUNCATE ON {table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_truncate();",
        params=None,
    )


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
            _postgresql_refuse_truncate(schema_editor, table)
        elif vendor == "sqlite":
            _sqlite_add(schema_editor, table)

    def backward(apps, schema_editor) -> None:
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {trigger} ON {table};")
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {_truncate_trigger(table)} ON {table};")
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


def truncate_refused(app_label: str) -> migrations.RunPython:
    """TRUNCATE refused on every insert-only table of an app made insert-only before TRUNCATE was (a
    later ``insert_only`` refuses it itself). PostgreSQL only: SQLite has no TRUNCATE."""

    def tables(schema_editor) -> list[str]:
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(
                "SELECT DISTINCT tgrelid::regclass::text FROM pg_trigger WHERE tgname LIKE %s",
                [f"{app_label}\\_%\\_insert\\_only"],
            )
            return sorted(row[0] for row in cursor.fetchall())

    def forward(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            for table in tables(schema_editor):
                _postgresql_refuse_truncate(schema_editor, table)

    def backward(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            for table in tables(schema_editor):
                schema_editor.execute(f"DROP TRIGGER IF EXISTS {_truncate_trigger(table)} ON {table};", params=None)

    return migrations.RunPython(forward, backward, elidable=False)
