"""The Rules Submission file (§601a.2): parsing and validation, with no database access.

A poker room's money rules, "the types of rake utilized, the methodology used for calculating the
rake [and] the amount of maximum permissible rake per round of play" (§637a.17(a)), and for each
jackpot "the maximum contribution amount ... the method of calculation ... the minimum pot amount"
(§637a.15(b), §637a.16(b)), are one YAML or JSON file. ``validate_rules`` checks all of it at once and
returns either the parsed ``Rules`` or every error, each naming its item and the rule broken (the
rake policies and tables are read here, each jackpot by ``jackpots.funds.rules``)::

    tables[0] (T1): seats 12 is over Texas Hold'em's limit of 10 (58 Pa. Code §637a.10)

``Rules.canonical()`` is the normalized file (money as "5.00", percents as decimal strings, keys
sorted when dumped): its SHA-256 decides whether a file changes anything, and validating it again
gives the same ``Rules`` (versions are stored canonical and re-parsed, cached, when rating a round).
"""

from __future__ import annotations

from .model import (
    MAX_PERCENTAGE_RAKE_BP,
    TIME_CHARGE_INTERVALS,
    Level,
    RakeKind,
    RakePolicy,
    Rules,
    Shift,
    TableRule,
    canonical_json,
)
from .validate import DEFAULT_SHIFTS, RulesInvalid, parse_text, posted_rules_parse, validate_rules

__all__ = [
    "DEFAULT_SHIFTS",
    "MAX_PERCENTAGE_RAKE_BP",
    "TIME_CHARGE_INTERVALS",
    "Level",
    "RakeKind",
    "RakePolicy",
    "Rules",
    "RulesInvalid",
    "Shift",
    "TableRule",
    "canonical_json",
    "parse_text",
    "posted_rules_parse",
    "validate_rules",
]
