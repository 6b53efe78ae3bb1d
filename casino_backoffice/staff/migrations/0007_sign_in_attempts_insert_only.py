"""Sign-in attempts are inserted, never updated or deleted: compliance reads them as they happened."""

from django.db import migrations

from casino_backoffice.core.immutable import insert_only


class Migration(migrations.Migration):
    dependencies = [("staff", "0006_sign_in_attempts")]

    operations = [insert_only("staff_signinattempt")]
