"""Time charges are sealed: DELETE refused, an UPDATE only of the verification, once (``rake.sealed``),
on PostgreSQL and SQLite alike."""

from django.db import migrations

from casino_backoffice.core.immutable import sealed
from rake.sealed import TIME_CHARGE


class Migration(migrations.Migration):
    dependencies = [("rake", "0004_late_round_entries")]

    operations = [sealed(TIME_CHARGE)]
