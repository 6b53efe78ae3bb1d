"""A Bad Beat display adjustment takes effect when both have signed, the finance employee and the
floorperson or above present (§637a.15(h)(1)): the moment is the witness's signature (checked to come
with the witness, never before the adjustment was set), and with it the verification it answers and
the whole seconds since (§637a.15(h): 'immediately upon notification of a Bad Beat verification').
Adjustments witnessed before this migration keep no verification: their time was not recorded then.

A verification whose display was not adjusted within the rules' ``display_adjust_within_minutes`` is
flagged once (``DisplayAdjustmentLate``, one per verification), inserted and never changed.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from casino_backoffice.core.immutable import insert_only, insert_only_again


class Migration(migrations.Migration):

    dependencies = [
        ('jackpots', '0016_bad_beat_claimed_once'),
        ('tables', '0010_room_staff'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='DisplayAdjustmentLate',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('within_minutes', models.PositiveIntegerField(help_text='The posted limit, in minutes from the verification.')),
                ('due_at', models.DateTimeField(help_text='The verification plus the posted limit.')),
                ('flagged_at', models.DateTimeField()),
            ],
            options={
                'verbose_name': 'display adjustment not made in time',
                'verbose_name_plural': 'display adjustments not made in time',
                'ordering': ['-due_at', 'jackpot'],
            },
        ),
        migrations.AddField(
            model_name='displayadjustment',
            name='seconds_from_verification',
            field=models.PositiveIntegerField(blank=True, help_text='Whole seconds from that verification to the adjustment taking effect.', null=True),
        ),
        migrations.AddField(
            model_name='displayadjustment',
            name='verification',
            field=models.ForeignKey(blank=True, help_text='The earliest verification of a claim this adjustment answers; none for a daily adjustment.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='display_adjustments', to='jackpots.badbeatdecision'),
        ),
        migrations.AddField(
            model_name='historicaldisplayadjustment',
            name='seconds_from_verification',
            field=models.PositiveIntegerField(blank=True, help_text='Whole seconds from that verification to the adjustment taking effect.', null=True),
        ),
        migrations.AddField(
            model_name='historicaldisplayadjustment',
            name='verification',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The earliest verification of a claim this adjustment answers; none for a daily adjustment.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='jackpots.badbeatdecision'),
        ),
        migrations.AlterField(
            model_name='displayadjustment',
            name='witnessed_at',
            field=models.DateTimeField(blank=True, help_text='When the witness signed: the adjustment took effect on the display then.', null=True),
        ),
        migrations.AlterField(
            model_name='historicaldisplayadjustment',
            name='witnessed_at',
            field=models.DateTimeField(blank=True, help_text='When the witness signed: the adjustment took effect on the display then.', null=True),
        ),
        migrations.AddIndex(
            model_name='displayadjustment',
            index=models.Index(fields=['room', 'witnessed_at'], name='jackpots_di_room_id_641f02_idx'),
        ),
        migrations.AddConstraint(
            model_name='displayadjustment',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('witnessed_at__isnull', True), ('witnessed_by__isnull', True)), models.Q(('witnessed_at__gte', models.F('adjusted_at')), ('witnessed_by__isnull', False)), _connector='OR'), name='jackpots_display_effective_when_witnessed'),
        ),
        migrations.AddConstraint(
            model_name='displayadjustment',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('seconds_from_verification__isnull', True), ('verification__isnull', True)), models.Q(('seconds_from_verification__isnull', False), ('verification__isnull', False), ('witnessed_at__isnull', False)), _connector='OR'), name='jackpots_display_verification_timed_when_effective'),
        ),
        migrations.AddField(
            model_name='displayadjustmentlate',
            name='jackpot',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='display_late', to='jackpots.jackpot'),
        ),
        migrations.AddField(
            model_name='displayadjustmentlate',
            name='verification',
            field=models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='display_late', to='jackpots.badbeatdecision'),
        ),
        migrations.AddConstraint(
            model_name='displayadjustmentlate',
            constraint=models.CheckConstraint(condition=models.Q(('within_minutes__gte', 1)), name='jackpots_display_late_limit_positive'),
        ),
        migrations.AddConstraint(
            model_name='displayadjustmentlate',
            constraint=models.CheckConstraint(condition=models.Q(('flagged_at__gt', models.F('due_at'))), name='jackpots_display_late_after_due'),
        ),
        insert_only("jackpots_displayadjustmentlate"),
        # SQLite rebuilds a table for some of the changes above; the audit log stays insert-only.
        insert_only_again("jackpots_historicaldisplayadjustment"),
    ]
