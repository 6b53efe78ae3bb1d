"""What a correction may change after it is inserted (``Seal``): its reversal, once, posted when the
approver signs. A trigger refuses every other change and every DELETE, on PostgreSQL and SQLite alike
(migration ``0013_seal_signed_documents``)."""

from __future__ import annotations

from casino_backoffice.core.immutable import Seal

CORRECTION = Seal(table="ledger_correction", set_once=("reversal_id",))

SEALS = (CORRECTION,)
