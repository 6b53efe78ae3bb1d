from django.db import migrations

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [("ledger", "0002_initial")]
    operations = [insert_only("ledger_transfer")]
