"""A time charge's Idempotency-Key is its sender's (``core.idempotency.sender_key``): the key as sent
(120 characters at most) after the sender's id, so the column holds 200 like every other document's.
SQLite rebuilds both tables for the change, which drops their triggers: they are made again."""

from django.db import migrations, models

from casino_backoffice.core.immutable import insert_only_again, sealed_again
from rake.sealed import TIME_CHARGE


class Migration(migrations.Migration):
    dependencies = [("rake", "0005_seal_signed_documents")]

    operations = [
        migrations.AlterField(
            model_name="historicaltimecharge",
            name="idempotency_key",
            field=models.CharField(db_index=True, max_length=200),
        ),
        migrations.AlterField(
            model_name="timecharge",
            name="idempotency_key",
            field=models.CharField(max_length=200, unique=True),
        ),
        insert_only_again("rake_historicaltimecharge"),
        sealed_again(TIME_CHARGE),
    ]
