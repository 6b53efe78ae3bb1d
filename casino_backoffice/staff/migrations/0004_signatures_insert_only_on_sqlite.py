from django.db import migrations

from casino_backoffice.core.immutable import insert_only_again


class Migration(migrations.Migration):
    """Embedded databases migrated before SQLite had the triggers of 0002 get them now."""

    dependencies = [("staff", "0003_audit_role_changes")]
    operations = [insert_only_again("staff_signature")]
