"""No box, container, fund, revenue or payout account ever holds less than nothing: the database
refuses the transfer that would take one below zero, whatever path posts it (``ledger.invariants``,
``NON_NEGATIVE_KINDS``).

On PostgreSQL a row trigger after each INSERT locks the credited account's row (FOR NO KEY UPDATE:
two transfers out of one account wait for each other, inserts into it do not) and reads its balance
as the balance checkpoints give it: the latest checkpoint plus the transfers after it. It runs at the
end of the statement, so a batch posted in one INSERT is judged on its whole result. A refusal raises
SQLSTATE 23514 (check_violation), which Django raises as ``IntegrityError`` and the ledger names
(``ledger.exceptions.BelowZero``). On SQLite (one writer at a time) a trigger sums the account's
history after each insert.
"""

from django.db import migrations

KINDS = "('drop_box', 'jackpot_box', 'container', 'fund', 'revenue', 'payout')"

POSTGRESQL = f"""
CREATE OR REPLACE FUNCTION ledger_refuse_below_zero() RETURNS trigger AS $$
DECLARE
    account_code text;
    account_kind text;
    through bigint;
    balance bigint;
BEGIN
    -- Sources (the room's pots, credited by every round) are neither guarded nor locked.
    SELECT kind INTO account_kind FROM ledger_account WHERE id = NEW.credit_id;
    IF account_kind NOT IN {KINDS} THEN
        RETURN NULL;
    END IF;
    SELECT code INTO account_code FROM ledger_account WHERE id = NEW.credit_id FOR NO KEY UPDATE;
    SELECT through_transfer_id, balance_cents INTO through, balance FROM ledger_balancecheckpoint
        WHERE account_id = NEW.credit_id ORDER BY through_transfer_id DESC LIMIT 1;
    through := COALESCE(through, 0);
    balance := COALESCE(balance, 0)
        + COALESCE((SELECT SUM(amount_cents) FROM ledger_transfer WHERE debit_id = NEW.credit_id AND id > through), 0)
        - COALESCE((SELECT SUM(amount_cents) FROM ledger_transfer WHERE credit_id = NEW.credit_id AND id > through), 0);
    IF balance < 0 THEN
        RAISE EXCEPTION 'ledger_below_zero: % would hold % cents after transfer %: no account of its kind goes below zero',
            account_code, balance, NEW.idempotency_key USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS ledger_transfer_never_below_zero ON ledger_transfer;
CREATE TRIGGER ledger_transfer_never_below_zero AFTER INSERT ON ledger_transfer
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_below_zero();
"""

POSTGRESQL_REVERSE = """
DROP TRIGGER IF EXISTS ledger_transfer_never_below_zero ON ledger_transfer;
DROP FUNCTION IF EXISTS ledger_refuse_below_zero();
"""

SQLITE = f"""
CREATE TRIGGER IF NOT EXISTS ledger_transfer_never_below_zero AFTER INSERT ON ledger_transfer
WHEN (SELECT kind FROM ledger_account WHERE id = NEW.credit_id) IN {KINDS}
    AND COALESCE((SELECT SUM(amount_cents) FROM ledger_transfer WHERE debit_id = NEW.credit_id), 0)
        < COALESCE((SELECT SUM(amount_cents) FROM ledger_transfer WHERE credit_id = NEW.credit_id), 0)
BEGIN
    SELECT RAISE(ABORT, 'ledger_below_zero: no account of its kind goes below zero');
END;
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(POSTGRESQL, params=None)
    elif schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(SQLITE, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(POSTGRESQL_REVERSE, params=None)
    elif schema_editor.connection.vendor == "sqlite":
        schema_editor.execute("DROP TRIGGER IF EXISTS ledger_transfer_never_below_zero;", params=None)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0009_audit_log_insert_only")]

    operations = [migrations.RunPython(forwards, backwards)]
