"""The audit log (django-simple-history) of this app is inserted, never updated or deleted: what a row
was and who changed it stays as it was recorded."""

from django.db import migrations

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [("jackpots", "0012_truncate_refused")]

    operations = [
        insert_only("jackpots_historicaljackpot"),
        insert_only("jackpots_historicalbadbeatclaim"),
        insert_only("jackpots_historicaldisplayadjustment"),
        insert_only("jackpots_historicalfundtransfer"),
        insert_only("jackpots_historicalhighhandperiod"),
        insert_only("jackpots_historicalhighhandunclaimed"),
        insert_only("jackpots_historicalprogressivemeter"),
    ]
