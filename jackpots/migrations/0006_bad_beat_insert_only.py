"""Decisions, distributions, shares, payments and the flags of a day without a display adjustment are
inserted, never updated or deleted (claims, display adjustments and fund transfers move on through
their statuses and are audited instead)."""

from django.db import migrations

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [("jackpots", "0005_bad_beat")]

    operations = [
        insert_only("jackpots_badbeatdecision"),
        insert_only("jackpots_badbeatdistribution"),
        insert_only("jackpots_badbeatshare"),
        insert_only("jackpots_badbeatpayment"),
        insert_only("jackpots_displayoverdue"),
    ]
