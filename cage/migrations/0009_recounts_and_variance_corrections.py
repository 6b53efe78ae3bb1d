"""Recounts and finance's corrections of the official record.

A count may be superseded, before the cage verifies it, by a recount of the same box (``supersedes``,
with its reason); a sheet keeps the superseded count beside its one current count, so ``sheet`` is
no longer one-to-one: a partial unique constraint keeps one count not superseded per sheet. A
``VarianceCorrection`` moves money between an official account and the account that took a variance,
never rewriting the verification; it is insert-only like every money document.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from casino_backoffice.core.immutable import insert_only, insert_only_again


class Migration(migrations.Migration):

    dependencies = [
        ('cage', '0008_high_hand_counts_by_period'),
        ('jackpots', '0019_jackpot_hands_in_their_rounds'),
        ('tables', '0010_room_staff'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='VarianceCorrection',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('gaming_day', models.DateField(help_text='The gaming day of the verification corrected.')),
                ('official_change_cents', models.BigIntegerField(help_text='What the official account gained; negative: gave back.')),
                ('reason', models.TextField()),
                ('corrected_at', models.DateTimeField()),
            ],
            options={
                'ordering': ['-corrected_at', '-id'],
            },
        ),
        migrations.AddField(
            model_name='count',
            name='recount_reason',
            field=models.TextField(blank=True, help_text='A recount: why the count it supersedes was wrong.'),
        ),
        migrations.AddField(
            model_name='count',
            name='supersedes',
            field=models.OneToOneField(blank=True, help_text='A recount: the count of the same box content it corrects, before the cage verified it.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='superseded_by', to='cage.count'),
        ),
        migrations.AddField(
            model_name='historicalcount',
            name='recount_reason',
            field=models.TextField(blank=True, help_text='A recount: why the count it supersedes was wrong.'),
        ),
        migrations.AddField(
            model_name='historicalcount',
            name='supersedes',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='A recount: the count of the same box content it corrects, before the cage verified it.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='cage.count'),
        ),
        migrations.AlterField(
            model_name='count',
            name='sheet',
            field=models.ForeignKey(blank=True, help_text='The sheet the count fills; one current count per sheet, and the counts recounts superseded.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='counts', to='cage.countsheet'),
        ),
        migrations.AlterField(
            model_name='count',
            name='status',
            field=models.CharField(choices=[('counted', 'Counted, awaiting the witness'), ('witnessed', 'Witnessed, awaiting transport'), ('in_transit', 'In a locked container on its way to the cage'), ('verified', 'Verified at the cage'), ('superseded', 'Superseded by a recount')], max_length=12),
        ),
        migrations.AlterField(
            model_name='historicalcount',
            name='sheet',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The sheet the count fills; one current count per sheet, and the counts recounts superseded.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='cage.countsheet'),
        ),
        migrations.AlterField(
            model_name='historicalcount',
            name='status',
            field=models.CharField(choices=[('counted', 'Counted, awaiting the witness'), ('witnessed', 'Witnessed, awaiting transport'), ('in_transit', 'In a locked container on its way to the cage'), ('verified', 'Verified at the cage'), ('superseded', 'Superseded by a recount')], max_length=12),
        ),
        migrations.AddConstraint(
            model_name='count',
            constraint=models.UniqueConstraint(condition=models.Q(('sheet__isnull', False), models.Q(('status', 'superseded'), _negated=True)), fields=('sheet',), name='cage_count_one_current_count_per_sheet'),
        ),
        migrations.AddConstraint(
            model_name='count',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('recount_reason', ''), ('supersedes__isnull', True)), models.Q(('supersedes__isnull', False), models.Q(('recount_reason', ''), _negated=True)), _connector='OR'), name='cage_count_recount_has_a_reason'),
        ),
        migrations.AddConstraint(
            model_name='count',
            constraint=models.CheckConstraint(condition=models.Q(('supersedes', models.F('pk')), _negated=True), name='cage_count_does_not_supersede_itself'),
        ),
        migrations.AddField(
            model_name='variancecorrection',
            name='box',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='variance_corrections', to='cage.box'),
        ),
        migrations.AddField(
            model_name='variancecorrection',
            name='cashier',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='variancecorrection',
            name='corrected_by',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='variancecorrection',
            name='count',
            field=models.ForeignKey(help_text='The count of the box whose money the correction puts right (its period, for a High Hand box).', on_delete=django.db.models.deletion.PROTECT, related_name='corrections', to='cage.count'),
        ),
        migrations.AddField(
            model_name='variancecorrection',
            name='counted_by',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='variancecorrection',
            name='room',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='variance_corrections', to='tables.pokerroom'),
        ),
        migrations.AddField(
            model_name='variancecorrection',
            name='variance',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='corrections', to='cage.variance'),
        ),
        migrations.AddIndex(
            model_name='variancecorrection',
            index=models.Index(fields=['room', 'gaming_day'], name='cage_varian_room_id_c35173_idx'),
        ),
        migrations.AddConstraint(
            model_name='variancecorrection',
            constraint=models.UniqueConstraint(fields=('variance', 'box'), name='cage_variancecorrection_once_per_box'),
        ),
        migrations.AddConstraint(
            model_name='variancecorrection',
            constraint=models.CheckConstraint(condition=models.Q(('official_change_cents', 0), _negated=True), name='cage_variancecorrection_not_zero'),
        ),
        migrations.AddConstraint(
            model_name='variancecorrection',
            constraint=models.CheckConstraint(condition=models.Q(('reason', ''), _negated=True), name='cage_variancecorrection_has_a_reason'),
        ),
        # SQLite rebuilt the audit log's table of counts to change its columns, and its triggers with it.
        insert_only_again("cage_historicalcount"),
        insert_only("cage_variancecorrection"),
    ]
