from django.db import migrations, models

from casino_backoffice.core.immutable import insert_only_again


class Migration(migrations.Migration):
    dependencies = [("cage", "0002_insert_only_documents")]

    operations = [
        migrations.AddField(
            model_name="schedulerun",
            name="displays_flagged",
            field=models.PositiveIntegerField(
                default=0, help_text="Bad Beat displays not adjusted on a gaming day that ended (§637a.15(h))."
            ),
        ),
        # SQLite rebuilds the table to add a column: its triggers come back with it.
        insert_only_again("cage_schedulerun"),
    ]
