from django.db import migrations

from casino_backoffice.core.immutable import insert_only_again


class Migration(migrations.Migration):
    """Embedded databases migrated before SQLite had the triggers of 0003 get them now."""

    dependencies = [("jackpots", "0003_round_drops")]
    operations = [insert_only_again("jackpots_rounddrop")]
