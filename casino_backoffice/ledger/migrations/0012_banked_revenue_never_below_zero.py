"""The banked games' house share (``banked_revenue``, made a kind of its own by 0011) is guarded against
going below zero as poker revenue was: the trigger of 0010 with the new kind in its list."""

import importlib

from django.db import migrations

_GUARD = importlib.import_module("casino_backoffice.ledger.migrations.0010_never_below_zero")
KINDS = "('drop_box', 'jackpot_box', 'container', 'fund', 'revenue', 'banked_revenue', 'payout')"


def _with(kinds: str):
    def forwards(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            schema_editor.execute(_GUARD.POSTGRESQL.replace(_GUARD.KINDS, kinds), params=None)
        elif vendor == "sqlite":
            schema_editor.execute("DROP TRIGGER IF EXISTS ledger_transfer_never_below_zero;", params=None)
            schema_editor.execute(_GUARD.SQLITE.replace(_GUARD.KINDS, kinds), params=None)

    return forwards


class Migration(migrations.Migration):
    dependencies = [("ledger", "0011_banked_games_accounts")]

    operations = [migrations.RunPython(_with(KINDS), _with(_GUARD.KINDS))]
