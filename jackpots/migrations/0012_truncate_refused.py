"""TRUNCATE of this app's insert-only tables is refused on PostgreSQL, as UPDATE and DELETE are."""

from django.db import migrations

from casino_backoffice.core.immutable import truncate_refused


class Migration(migrations.Migration):
    dependencies = [("jackpots", "0011_progressive_insert_only")]

    operations = [truncate_refused("jackpots")]
