"""The audit log (django-simple-history) of this app is inserted, never updated or deleted: what a row
was and who changed it stays as it was recorded."""

from django.db import migrations

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [("rake", "0002_poker_revenue_and_time_charge_history")]

    operations = [
        insert_only("rake_historicaltimecharge"),
    ]
