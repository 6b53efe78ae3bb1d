"""A round's drops move to ``jackpots`` (``jackpots.RoundDrop``, pointing at the fund each fed).

State only: the table ``tables_rounddrop`` and its rows stay until ``jackpots`` 0003 copies them
into its own table and drops this one, so that tables names nothing of jackpots.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tables", "0004_tables_in_natural_order")]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="RoundDrop")]),
    ]
