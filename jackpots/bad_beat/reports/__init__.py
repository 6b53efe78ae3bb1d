"""Reads of the Bad Beat (§637a.15) for its reports: the posted rules and each table's notice of
eligibility (b), the display check (h)(2), the fund statement, and the claim file for the regulator.

Everything here reads; the words come from where the rules live (the rules version in effect, read by
``jackpot_rule_of_version``; the evaluator's own names of hands; the distribution's ``LEFTOVER_RULE``)
so that what is posted is what is applied. ``jackpots.bad_beat.exports`` turns these into CSV and XLSX, the
admin into pages and PDFs.

One module per report: the posted rules and the tables' notices (``posted``), the display check
(``display``), the fund statement (``statement``), the claim file and the claims of a period
(``claims``); this package names them all.
"""

from jackpots.bad_beat.reports.claims import ClaimFile, HandLine, claim_file, claims_between, claims_with_amounts
from jackpots.bad_beat.reports.display import OVERDUE_SHOWN_DAYS, DisplayCheckRow, display_check
from jackpots.bad_beat.reports.posted import (
    PostedBadBeat,
    PostedHand,
    PostedRules,
    TableNotice,
    posted_hand,
    posted_rules,
    table_notices,
)
from jackpots.bad_beat.reports.statement import FundStatement, Movement, StatementLine, fund_statement

__all__ = [
    "OVERDUE_SHOWN_DAYS",
    "ClaimFile",
    "DisplayCheckRow",
    "FundStatement",
    "HandLine",
    "Movement",
    "PostedBadBeat",
    "PostedHand",
    "PostedRules",
    "StatementLine",
    "TableNotice",
    "claim_file",
    "claims_between",
    "claims_with_amounts",
    "display_check",
    "fund_statement",
    "posted_hand",
    "posted_rules",
    "table_notices",
]
