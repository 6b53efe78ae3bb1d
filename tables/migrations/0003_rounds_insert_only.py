from django.db import migrations

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [("tables", "0002_rules_versions_and_rounds")]
    operations = [
        insert_only("tables_rulesversion"),
        insert_only("tables_round"),
        insert_only("tables_rounddrop"),
    ]
