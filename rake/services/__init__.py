"""Every write of the rake app: loading rules, recording rounds, assessing and verifying time charges.

The package re-exports every service, so ``from rake.services import round_record`` keeps working.
Module-level state stays in its own module and is not re-exported: ``ONE_STATEMENT_WRITES`` lives in
``rake.services.rounds`` (patch it there), the account id cache in ``rake.services.accounts``.
"""

from __future__ import annotations

from .accounts import drop_box_account, pots_account
from .rounds import RoundRecorded, RoundRequest, round_record, round_request_record, rounds_record_batch
from .rules_files import RulesLoaded, rules_load, rules_of
from .time_charges import time_charge_assess, time_charge_verify
from .voids import VoidReturned, round_void, void_returned, voids_returned

__all__ = [
    "RoundRecorded",
    "RoundRequest",
    "RulesLoaded",
    "VoidReturned",
    "drop_box_account",
    "pots_account",
    "round_record",
    "round_request_record",
    "round_void",
    "rounds_record_batch",
    "rules_load",
    "rules_of",
    "time_charge_assess",
    "time_charge_verify",
    "void_returned",
    "voids_returned",
]
