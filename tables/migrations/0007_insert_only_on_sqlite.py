from django.db import migrations

from casino_backoffice.core.immutable import insert_only_again


class Migration(migrations.Migration):
    """The SQLite triggers of rules versions and rounds: for embedded databases migrated before SQLite
    had the triggers of 0003, and because 0006 rebuilt ``tables_round`` on SQLite (a new constraint),
    which drops its triggers."""

    dependencies = [("tables", "0006_round_pot_within_maximum")]
    operations = [
        insert_only_again("tables_rulesversion"),
        insert_only_again("tables_round"),
    ]
