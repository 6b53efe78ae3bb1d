"""Counts, transports, cage verifications and variances are sealed: DELETE refused, an UPDATE only by
the status transitions and the columns set once that their services make (``cage.sealed``), on
PostgreSQL and SQLite alike."""

from django.db import migrations

from cage.sealed import CAGE_VERIFICATION, COUNT, TRANSPORT, VARIANCE
from casino_backoffice.core.immutable import sealed


class Migration(migrations.Migration):
    dependencies = [("cage", "0009_recounts_and_variance_corrections")]

    operations = [sealed(COUNT), sealed(TRANSPORT), sealed(CAGE_VERIFICATION), sealed(VARIANCE)]
