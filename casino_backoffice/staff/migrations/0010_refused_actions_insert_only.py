"""Refused actions are inserted, never updated or deleted: compliance reads them as they happened."""

from django.db import migrations

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [("staff", "0009_refused_actions")]

    operations = [insert_only("staff_refusedaction")]
