"""TRUNCATE of this app's insert-only tables is refused on PostgreSQL, as UPDATE and DELETE are."""

from django.db import migrations

from casino_backoffice.core.immutable import truncate_refused


class Migration(migrations.Migration):
    dependencies = [("staff", "0004_signatures_insert_only_on_sqlite")]

    operations = [truncate_refused("staff")]
