"""The second factor: why each sign-in attempt ended (a wrong code counts as a wrong password does), and
the record of second factors turned on, removed and reset, insert-only like the attempts. On SQLite,
adding the column rebuilds the attempts' table, whose triggers are made again."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from casino_backoffice.core.immutable import insert_only, insert_only_again


class Migration(migrations.Migration):
    dependencies = [
        ("staff", "0010_refused_actions_insert_only"),
    ]

    operations = [
        migrations.AddField(
            model_name="signinattempt",
            name="reason",
            field=models.CharField(
                blank=True,
                choices=[
                    ("signed_in", "Signed in"),
                    ("wrong_password", "Wrong password"),
                    ("locked_out", "Locked out"),
                    ("wrong_code", "Wrong second-factor code"),
                    ("replayed_code", "Second-factor code used already"),
                ],
                default="",
                max_length=20,
            ),
        ),
        migrations.CreateModel(
            name="SecondFactorEvent",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("confirmed", "Turned on (first code confirmed)"),
                            ("removed", "Removed by the person (code re-entered)"),
                            ("reset", "Reset by an administrator"),
                        ],
                        max_length=20,
                    ),
                ),
                ("at", models.DateTimeField()),
                (
                    "actor",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="second_factor_events",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-at", "-id"],
                "indexes": [models.Index(fields=["at"], name="staff_secondfactorevent_at")],
            },
        ),
        insert_only_again("staff_signinattempt"),
        insert_only("staff_secondfactorevent"),
    ]
