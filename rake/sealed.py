"""What a time charge may change after it is inserted (``Seal``): its verification, once, when a
floorperson signs and its amount reaches the drop box. A trigger refuses every other change and every
DELETE, on PostgreSQL and SQLite alike (migration ``0005_seal_signed_documents``)."""

from __future__ import annotations

from casino_backoffice.core.immutable import Seal

TIME_CHARGE = Seal(table="rake_timecharge", set_once=("verified_at",))

SEALS = (TIME_CHARGE,)
