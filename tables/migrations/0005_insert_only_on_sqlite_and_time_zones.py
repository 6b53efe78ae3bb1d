import tables.time_zones
from django.db import migrations, models

from casino_backoffice.core.immutable import insert_only_again


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0004_tables_in_natural_order'),
    ]

    operations = [
        migrations.AlterField(
            model_name='historicalpokerroom',
            name='timezone',
            field=models.CharField(default='America/New_York', max_length=64, validators=[tables.time_zones.validate_time_zone]),
        ),
        migrations.AlterField(
            model_name='pokerroom',
            name='timezone',
            field=models.CharField(default='America/New_York', max_length=64, validators=[tables.time_zones.validate_time_zone]),
        ),
        # Embedded databases migrated before SQLite had the triggers of 0003 get them now.
        insert_only_again("tables_rulesversion"),
        insert_only_again("tables_round"),
        insert_only_again("tables_rounddrop"),
    ]
