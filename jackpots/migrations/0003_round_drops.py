"""Round drops become jackpots' rows, each pointing at the fund it fed.

``tables`` 0005 forgot its ``RoundDrop`` (state only); here the rows of ``tables_rounddrop`` are copied,
ids and all, into the new insert-only ``jackpots_rounddrop`` with the jackpot their room knows by
their code (every code a rules file named was registered as a fund when it was loaded, and funds are
never deleted), and the old table is dropped. A drop whose room has no fund of its code stops the
migration and changes nothing. Reversible: going back copies the rows into a new ``tables_rounddrop``.
"""

import django.db.models.deletion
from django.core.management.color import no_style
from django.db import migrations, models

from casino_backoffice.core.immutable import insert_only

OLD_TABLE = "tables_rounddrop"
NEW_TABLE = "jackpots_rounddrop"
COLUMNS = "id, round_id, jackpot_code, position, amount_cents, rule"


def _count(cursor, table: str) -> int:
    cursor.execute(f"SELECT COUNT(*) FROM {table}")  # noqa: S608 (a constant of this module)
    return cursor.fetchone()[0]


def _reset_sequence(schema_editor, model) -> None:
    for sql in schema_editor.connection.ops.sequence_reset_sql(no_style(), [model]):
        schema_editor.execute(sql, params=None)


def drops_move(apps, schema_editor) -> None:
    with schema_editor.connection.cursor() as cursor:
        moving = _count(cursor, OLD_TABLE)
        cursor.execute(
            f"""
            INSERT INTO {NEW_TABLE} (id, round_id, jackpot_id, jackpot_code, position, amount_cents, rule)
            SELECT d.id, d.round_id, j.id, d.jackpot_code, d.position, d.amount_cents, d.rule
            FROM {OLD_TABLE} d
            JOIN tables_round r ON r.id = d.round_id
            JOIN tables_table t ON t.id = r.table_id
            JOIN jackpots_jackpot j ON j.room_id = t.room_id AND j.code = d.jackpot_code
            """  # noqa: S608
        )
        moved = _count(cursor, NEW_TABLE)
    if moved != moving:
        raise RuntimeError(f"{moving - moved} of {moving} round drops name a jackpot their room has no fund of; nothing was moved")
    schema_editor.execute(f"DROP TABLE {OLD_TABLE}", params=None)
    _reset_sequence(schema_editor, apps.get_model("jackpots", "RoundDrop"))


def drops_move_back(apps, schema_editor) -> None:
    from django.db.migrations.loader import MigrationLoader

    # The table as tables 0004 left it: its model from the migrations, its trigger from tables 0003.
    old_apps = MigrationLoader(None, ignore_no_migrations=True).project_state(("tables", "0004_tables_in_natural_order")).apps
    old_model = old_apps.get_model("tables", "RoundDrop")
    schema_editor.create_model(old_model)
    schema_editor.execute(f"INSERT INTO {OLD_TABLE} ({COLUMNS}) SELECT {COLUMNS} FROM {NEW_TABLE}", params=None)  # noqa: S608
    _reset_sequence(schema_editor, old_model)
    insert_only(OLD_TABLE).code(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("jackpots", "0002_jackpot_history"),
        ("tables", "0005_round_drops_move_to_jackpots"),
    ]

    operations = [
        migrations.CreateModel(
            name="RoundDrop",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("jackpot_code", models.CharField(max_length=30)),
                ("position", models.PositiveSmallIntegerField()),
                ("amount_cents", models.BigIntegerField()),
                ("rule", models.CharField(max_length=300)),
                ("jackpot", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="drops", to="jackpots.jackpot")),
                ("round", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="drops", to="tables.round")),
            ],
            options={
                "ordering": ["round", "position"],
                "constraints": [
                    models.UniqueConstraint(fields=("round", "jackpot"), name="jackpots_rounddrop_one_per_jackpot"),
                    models.CheckConstraint(condition=models.Q(("amount_cents__gte", 0)), name="jackpots_rounddrop_amount_not_negative"),
                ],
            },
        ),
        migrations.RunPython(drops_move, drops_move_back, elidable=False),
        insert_only(NEW_TABLE),
    ]
