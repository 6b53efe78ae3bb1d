"""The audit log (django-simple-history) of this app is inserted, never updated or deleted: what a row
was and who changed it stays as it was recorded."""

from django.db import migrations

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [("cage", "0005_truncate_refused")]

    operations = [
        insert_only("cage_historicalcountsheet"),
        insert_only("cage_historicalcount"),
        insert_only("cage_historicaltransport"),
        insert_only("cage_historicalcageverification"),
        insert_only("cage_historicalvariance"),
    ]
