"""Bad Beat claims, display adjustments, fund transfers, High Hand periods and uncollected awards are
sealed: DELETE refused, an UPDATE only by the status transitions, the columns set once and the amount
that grows that their services make (``jackpots.sealed``), on PostgreSQL and SQLite alike."""

from django.db import migrations

from casino_backoffice.core.immutable import sealed
from jackpots.sealed import SEALS


class Migration(migrations.Migration):
    dependencies = [("jackpots", "0019_jackpot_hands_in_their_rounds")]

    operations = [sealed(seal) for seal in SEALS]
