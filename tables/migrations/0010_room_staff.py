"""Who works in which room (``PokerRoom.staff``), audited with the room; its audit log is insert-only
like the rest of the app's."""

import django.db.models.deletion
import simple_history.models
from django.conf import settings
from django.db import migrations, models

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0009_audit_log_insert_only'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='pokerroom',
            name='staff',
            field=models.ManyToManyField(blank=True, help_text='Who works in this room. A person assigned to no room works in every room.', related_name='poker_rooms', to=settings.AUTH_USER_MODEL),
        ),
        migrations.CreateModel(
            name='HistoricalPokerRoom_staff',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('m2m_history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history', models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.DO_NOTHING, to='tables.historicalpokerroom')),
                ('pokerroom', models.ForeignKey(blank=True, db_constraint=False, db_tablespace='', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tables.pokerroom')),
                ('user', models.ForeignKey(blank=True, db_constraint=False, db_tablespace='', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'HistoricalPokerRoom_staff',
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        insert_only("tables_historicalpokerroom_staff"),
    ]
