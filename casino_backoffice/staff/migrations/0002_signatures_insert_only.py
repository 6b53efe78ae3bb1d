from django.db import migrations

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [("staff", "0001_initial")]
    operations = [insert_only("staff_signature")]
