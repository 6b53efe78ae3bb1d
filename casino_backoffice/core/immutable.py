"""A migration operation that makes a table insert-only on PostgreSQL.

Money rows and signatures are inserted, never edited (STYLE.md, Data the database guards): the
trigger refuses UPDATE and DELETE whatever the client, the ORM, a raw cursor or psql. TRUNCATE,
which only a database owner runs (the test runner between tests), is a separate statement and is
not refused. On SQLite the services and the admin are the guard.
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


def insert_only(table: str) -> migrations.RunPython:
    """``operations = [insert_only("ledger_transfer")]``"""
    trigger = f"{table}_insert_only"

    def forward(apps, schema_editor) -> None:
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(_FUNCTION, params=None)
        schema_editor.execute(
            f"CREATE TRIGGER {trigger} BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();"
        )

    def backward(apps, schema_editor) -> None:
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {trigger} ON {table};")

    return migrations.RunPython(forward, backward, elidable=False)
