"""The audit log (django-simple-history) of this app is inserted, never updated or deleted: what a row
was and who changed it stays as it was recorded."""

from django.db import migrations

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [("ledger", "0008_truncate_refused")]

    operations = [
        insert_only("ledger_historicalaccount"),
        insert_only("ledger_historicalcorrection"),
    ]
