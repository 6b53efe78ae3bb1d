"""Rounds logged late (issue 24): the shift supervisor's signature for a round logged more than the
room's late_entry_minutes after it ended. A signed document: inserted, never updated or deleted."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [
        ("rake", "0003_audit_log_insert_only"),
        ("tables", "0010_room_staff"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="LateRoundEntry",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "minutes_late",
                    models.PositiveIntegerField(help_text="Whole minutes between the round's end and its logging."),
                ),
                (
                    "limit_minutes",
                    models.PositiveIntegerField(help_text="The room's late_entry_minutes in effect at the round."),
                ),
                ("signed_at", models.DateTimeField()),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "round",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT, related_name="late_entry", to="tables.round"
                    ),
                ),
                (
                    "signed_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "verbose_name": "round logged late",
                "verbose_name_plural": "rounds logged late",
                "ordering": ["-signed_at", "-id"],
            },
        ),
        insert_only("rake_lateroundentry"),
    ]
