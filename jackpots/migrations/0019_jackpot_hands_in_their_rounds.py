"""A jackpot hand belongs to its round: a High Hand entry names the round it was found in when it was
recorded (``HighHandEntry.round``), a Bad Beat claim may give its pot, and a hand recorded before its
round was logged is linked when the round arrives, by a row of its own (``BadBeatClaimRound``,
``HighHandEntryRound``), inserted once and never changed: the hand's signed content stays as signed.

No data changes: hands recorded before this migration keep their signed content; those without a
round are listed for compliance (jackpots.services.hand_rounds.hands_without_round).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [
        ("jackpots", "0018_contributions_after_the_rake"),
        ("tables", "0010_room_staff"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="BadBeatClaimRound",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("linked_at", models.DateTimeField()),
            ],
            options={
                "verbose_name": "Bad Beat claim's round",
                "ordering": ["-linked_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="HighHandEntryRound",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("linked_at", models.DateTimeField()),
            ],
            options={
                "verbose_name": "High Hand entry's round",
                "ordering": ["-linked_at", "-id"],
            },
        ),
        migrations.AddField(
            model_name="badbeatclaim",
            name="pot_cents",
            field=models.BigIntegerField(
                blank=True,
                help_text="The hand's pot as seen at the table, when given: with the table, the players and the time it finds the hand's round (jackpots.services.hand_rounds).",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="highhandentry",
            name="round",
            field=models.ForeignKey(
                blank=True,
                help_text="The logged round of the hand, named or found when it was recorded; a round logged later is linked by a HighHandEntryRound.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="high_hand_entries",
                to="tables.round",
            ),
        ),
        migrations.AddField(
            model_name="historicalbadbeatclaim",
            name="pot_cents",
            field=models.BigIntegerField(
                blank=True,
                help_text="The hand's pot as seen at the table, when given: with the table, the players and the time it finds the hand's round (jackpots.services.hand_rounds).",
                null=True,
            ),
        ),
        migrations.AddConstraint(
            model_name="badbeatclaim",
            constraint=models.CheckConstraint(
                condition=models.Q(("pot_cents__isnull", True), ("pot_cents__gte", 0), _connector="OR"),
                name="jackpots_claim_pot_not_negative",
            ),
        ),
        migrations.AddField(
            model_name="badbeatclaimround",
            name="claim",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.PROTECT, related_name="round_link", to="jackpots.badbeatclaim"
            ),
        ),
        migrations.AddField(
            model_name="badbeatclaimround",
            name="round",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="bad_beat_claim_links", to="tables.round"
            ),
        ),
        migrations.AddField(
            model_name="highhandentryround",
            name="entry",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.PROTECT, related_name="round_link", to="jackpots.highhandentry"
            ),
        ),
        migrations.AddField(
            model_name="highhandentryround",
            name="round",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="high_hand_entry_links", to="tables.round"
            ),
        ),
        insert_only("jackpots_badbeatclaimround"),
        insert_only("jackpots_highhandentryround"),
    ]
