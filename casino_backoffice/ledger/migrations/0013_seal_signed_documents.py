"""Corrections are sealed: DELETE refused, an UPDATE only of the reversal, once
(``casino_backoffice.ledger.sealed``), on PostgreSQL and SQLite alike."""

from django.db import migrations

from casino_backoffice.core.immutable import sealed
from casino_backoffice.ledger.sealed import CORRECTION


class Migration(migrations.Migration):
    dependencies = [("ledger", "0012_banked_revenue_never_below_zero")]

    operations = [sealed(CORRECTION)]
