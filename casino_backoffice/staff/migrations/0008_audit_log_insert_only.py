"""The audit log (django-simple-history) of this app is inserted, never updated or deleted: what a row
was and who changed it stays as it was recorded."""

from django.db import migrations

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [("staff", "0007_sign_in_attempts_insert_only")]

    operations = [
        insert_only("staff_historicaluser"),
        insert_only("staff_historicaluser_groups"),
    ]
