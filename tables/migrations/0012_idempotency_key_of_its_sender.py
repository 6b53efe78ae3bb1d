"""A round's Idempotency-Key is its sender's (``core.idempotency.sender_key``): the key as sent (120
characters at most) after the sender's id, so the column holds 200 like every other document's.
SQLite rebuilds ``tables_round`` for the change, which drops its triggers: they are made again."""

from django.db import migrations, models

from casino_backoffice.core.immutable import insert_only_again


class Migration(migrations.Migration):
    dependencies = [("tables", "0011_room_staff_deny_by_default")]

    operations = [
        migrations.AlterField(
            model_name="round",
            name="idempotency_key",
            field=models.CharField(max_length=200, unique=True),
        ),
        insert_only_again("tables_round"),
    ]
