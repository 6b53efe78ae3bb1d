"""Boxes, notices, the items of a transport, missing-box exceptions, closed gaming days and schedule
runs are inserted, never updated or deleted (counts, transports, verifications and variances move on
through their statuses and are audited instead)."""

from django.db import migrations

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [("cage", "0001_initial")]

    operations = [
        insert_only("cage_box"),
        insert_only("cage_compliancenotice"),
        insert_only("cage_transportitem"),
        insert_only("cage_missingbox"),
        insert_only("cage_gamingdayclose"),
        insert_only("cage_schedulerun"),
    ]
