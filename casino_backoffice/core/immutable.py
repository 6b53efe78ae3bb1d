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

A signed document its services move on after the insert (a count witnessed, carried and verified) is
*sealed* instead (``Seal``, ``sealed(seal)``, ``sealed_again(seal)`` after a rebuild on SQLite): DELETE
refused, an UPDATE only of the columns the seal names and only as it says. tests/core/test_sealed_documents.py
walks every model with a signature or a ledger reference and fails naming one without either trigger.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

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


def _postgresql_refuse_truncate(schema_editor, table: str, *, trigger: str | None = None) -> None:
    trigger = trigger or _truncate_trigger(table)
    schema_editor.execute(_TRUNCATE_FUNCTION, params=None)
    schema_editor.execute(f"DROP TRIGGER IF EXISTS {trigger} ON {table};", params=None)
    schema_editor.execute(
        f"CREATE TRIGGER {trigger} BEFORE TRUNCATE ON {table} "
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


# Sealed documents -------------------------------------------------------------------------------------
#
# A signed document whose services move it on after it is inserted (a count witnessed, carried and
# verified; a claim verified, distributed and paid) cannot be insert-only. It is sealed instead: a trigger
# refuses DELETE, and refuses an UPDATE that changes any column but the few its services move, or moves
# one of those in a way no service does. What may move is written once per model, in Python
# (``cage/sealed.py``, ``jackpots/sealed.py``...), and rendered here for PostgreSQL and SQLite alike.

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Seal:
    """What may change in a row of ``table`` after it is inserted; every other column never does.

    - ``moves``: a status column and, for each value, the values its services move it to (no entry,
      or an empty set: it stays);
    - ``set_once``: columns set once, from empty (NULL or '') to a value, and never again;
    - ``grows``: amounts that only increase (what rolls into a High Hand pool);
    - ``notes``: free text the service rewrites (a note on why a period waits), part of no signature.
    """

    table: str
    moves: Mapping[str, Mapping[str, frozenset[str]]] = field(default_factory=dict)
    set_once: tuple[str, ...] = ()
    grows: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        names = [self.table, *self.moves, *self.set_once, *self.grows, *self.notes]
        values = [value for moves in self.moves.values() for value in (*moves, *(v for s in moves.values() for v in s))]
        for name in (*names, *values):
            if not _NAME.match(name):  # they are written into SQL: plain names and values only
                raise ValueError(f"not a plain name: {name!r}")

    @property
    def movable(self) -> tuple[str, ...]:
        return (*self.moves, *self.set_once, *self.grows, *self.notes)

    @property
    def trigger(self) -> str:
        return f"{self.table}_sealed"

    def transitions(self, column: str) -> list[tuple[str, str]]:
        return sorted((old, new) for old, news in self.moves[column].items() for new in news)


def _refused(seal: Seal, what: str) -> str:
    return f"UPDATE of {seal.table} is refused: {what}"


def _delete_refused(table: str) -> str:
    return f"DELETE of {table} is refused: a signed document is never deleted; post a correction instead"


def _sealed_message(seal: Seal) -> str:
    movable = ", ".join(seal.movable) or "nothing"
    return _refused(seal, f"its signed content is sealed (only {movable} move, as its services move them)")


def _moves_message(seal: Seal, column: str) -> str:
    allowed = ", ".join(f"{old} to {new}" for old, new in seal.transitions(column)) or "nowhere"
    return _refused(seal, f"{column} moves only {allowed}")


def _changed(column: str, *, vendor: str) -> str:
    # SQLite's IS NOT compares NULLs as PostgreSQL's IS DISTINCT FROM does (and is older).
    return f"NEW.{column} {'IS DISTINCT FROM' if vendor == 'postgresql' else 'IS NOT'} OLD.{column}"


def _transition_condition(seal: Seal, column: str, *, vendor: str) -> str:
    """True when ``column`` changes in a way no service moves it."""
    allowed = " OR ".join(
        f"(OLD.{column} = '{old}' AND NEW.{column} = '{new}')" for old, new in seal.transitions(column)
    )
    return f"({_changed(column, vendor=vendor)} AND NOT ({allowed or 'FALSE'}))"


def _set_once_condition(column: str, *, vendor: str) -> str:
    empty = f"OLD.{column}::text = ''" if vendor == "postgresql" else f"OLD.{column} = ''"
    return f"({_changed(column, vendor=vendor)} AND NOT (OLD.{column} IS NULL OR {empty}))"


def _grows_condition(column: str) -> str:
    return f"(NEW.{column} IS NULL OR NEW.{column} < OLD.{column})"


def _movement_checks(seal: Seal, *, vendor: str) -> list[tuple[str, str]]:
    """(condition, message) for each movable column: a wrong move of it refused."""
    checks = [
        (_transition_condition(seal, column, vendor=vendor), _moves_message(seal, column)) for column in seal.moves
    ]
    checks += [
        (_set_once_condition(column, vendor=vendor), _refused(seal, f"{column} is set once and never changed"))
        for column in seal.set_once
    ]
    checks += [(_grows_condition(column), _refused(seal, f"{column} only increases")) for column in seal.grows]
    return checks


def _postgresql_function(seal: Seal) -> str:
    movable = ", ".join(f"'{column}'" for column in seal.movable)
    checks = "".join(
        f"    IF {condition} THEN\n"
        f"        RAISE EXCEPTION '{message}' USING ERRCODE = 'restrict_violation';\n"
        "    END IF;\n"
        for condition, message in _movement_checks(seal, vendor="postgresql")
    )
    # Names and values checked plain by Seal (no quote can reach the SQL).
    return f"""
CREATE OR REPLACE FUNCTION casino_seal_{seal.table}() RETURNS trigger AS $$
DECLARE
    changed text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION '{_delete_refused(seal.table)}' USING ERRCODE = 'restrict_violation';
    END IF;
    -- Every column but the movable ones, whatever columns a later migration adds.
    SELECT string_agg(new_column.key, ', ' ORDER BY new_column.key) INTO changed
        FROM jsonb_each(to_jsonb(NEW) - ARRAY[{movable}]::text[]) AS new_column
        WHERE new_column.value IS DISTINCT FROM to_jsonb(OLD) -> new_column.key;
    IF changed IS NOT NULL THEN
        RAISE EXCEPTION '{_sealed_message(seal)}: % changed', changed USING ERRCODE = 'restrict_violation';
    END IF;
{checks}    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
"""  # noqa: S608


def _sqlite_triggers(seal: Seal, columns: list[str]) -> list[str]:
    sealed = [column for column in columns if column not in seal.movable]
    unknown = sorted(set(seal.movable) - set(columns))
    if unknown:
        raise ValueError(f"{seal.table} has no column {', '.join(unknown)}")
    anything = " OR ".join(_changed(column, vendor="sqlite") for column in sealed) or "FALSE"
    checks = [(anything, _sealed_message(seal))]
    checks += _movement_checks(seal, vendor="sqlite")
    cases = " ".join(f"WHEN {condition} THEN RAISE(ABORT, '{message}')" for condition, message in checks)
    return [
        f"CREATE TRIGGER IF NOT EXISTS {seal.trigger}_delete BEFORE DELETE ON {seal.table} "
        f"BEGIN SELECT RAISE(ABORT, '{_delete_refused(seal.table)}'); END;",
        f"CREATE TRIGGER IF NOT EXISTS {seal.trigger}_update BEFORE UPDATE ON {seal.table} "
        f"BEGIN SELECT CASE {cases} END; END;",
    ]


def _sqlite_seal(schema_editor, seal: Seal) -> None:
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        columns = [column.name for column in connection.introspection.get_table_description(cursor, seal.table)]
    for statement in _sqlite_triggers(seal, columns):
        schema_editor.execute(statement, params=None)


def _sqlite_unseal(schema_editor, seal: Seal) -> None:
    for suffix in ("delete", "update"):
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {seal.trigger}_{suffix};", params=None)


def sealed(seal: Seal) -> migrations.RunPython:
    """``operations = [sealed(COUNT)]``: DELETE of the table refused, an UPDATE only as ``seal`` says
    (TRUNCATE refused too, on PostgreSQL). Run again after a change of ``seal``: the trigger is
    replaced."""

    def forward(apps, schema_editor) -> None:
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            schema_editor.execute(_postgresql_function(seal), params=None)
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {seal.trigger} ON {seal.table};", params=None)
            schema_editor.execute(
                f"CREATE TRIGGER {seal.trigger} BEFORE UPDATE OR DELETE ON {seal.table} "
                f"FOR EACH ROW EXECUTE FUNCTION casino_seal_{seal.table}();",
                params=None,
            )
            _postgresql_refuse_truncate(schema_editor, seal.table, trigger=f"{seal.trigger}_truncate")
        elif vendor == "sqlite":
            _sqlite_unseal(schema_editor, seal)
            _sqlite_seal(schema_editor, seal)

    def backward(apps, schema_editor) -> None:
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {seal.trigger} ON {seal.table};", params=None)
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {seal.trigger}_truncate ON {seal.table};", params=None)
            schema_editor.execute(f"DROP FUNCTION IF EXISTS casino_seal_{seal.table}();", params=None)
        elif vendor == "sqlite":
            _sqlite_unseal(schema_editor, seal)

    return migrations.RunPython(forward, backward, elidable=False)


def sealed_again(seal: Seal) -> migrations.RunPython:
    """The SQLite triggers of a sealed table, after a migration that rebuilt it there (a new column is
    then sealed too). PostgreSQL's trigger survives a change of the table and seals new columns itself."""

    def forward(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "sqlite":
            _sqlite_unseal(schema_editor, seal)
            _sqlite_seal(schema_editor, seal)

    return migrations.RunPython(forward, migrations.RunPython.noop, elidable=False)
