"""The High Hand Tracking Slip's entries and voids, awards and their payments are inserted, never
updated or deleted (periods and unclaimed awards move on through their statuses and are audited)."""

from django.db import migrations

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [("jackpots", "0008_high_hand")]

    operations = [
        insert_only("jackpots_highhandentry"),
        insert_only("jackpots_highhandvoid"),
        insert_only("jackpots_highhandaward"),
        insert_only("jackpots_highhandawardpayment"),
    ]
