"""The progressive records are inserted, never updated or deleted: rounds and their wagers, wager count
exceptions and their explanations, winning hands and Envy Bonuses, validations, cage payments and the
meters' initial and reset amounts."""

from django.db import migrations

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [("jackpots", "0010_progressive")]

    operations = [
        insert_only("jackpots_progressiveround"),
        insert_only("jackpots_progressivewager"),
        insert_only("jackpots_wagercountexception"),
        insert_only("jackpots_wagercountexplanation"),
        insert_only("jackpots_progressivehand"),
        insert_only("jackpots_envybonus"),
        insert_only("jackpots_progressivevalidation"),
        insert_only("jackpots_progressivepayment"),
        insert_only("jackpots_meterfunding"),
    ]
