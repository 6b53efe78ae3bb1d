"""Reads about jackpot funds that every product needs: the rules in effect for a fund (read by its
product's reader, cached), the tables that list it, whether a table collects for it, the funds of a
room by code, and a moment as the room's clock reads it."""

from __future__ import annotations

import threading
from datetime import datetime

from casino_backoffice.core.checker import Checker
from casino_backoffice.core.clock import ZONED, local_text
from jackpots.funds.models import Jackpot
from jackpots.funds.rules import JackpotRule, jackpot_rule_parse
from tables.models import PokerRoom, RulesVersion
from tables.selectors import rules_version_in_effect

# --- The rules in effect for a fund ---------------------------------------------------------------

_rules: dict[tuple[int, str], JackpotRule | None] = {}
_rules_lock = threading.Lock()


def jackpot_rule_of_version(*, version: RulesVersion, code: str) -> JackpotRule | None:
    """A fund's posted rules in a rules version (None when the version does not name it), read from
    the version's canonical content by the jackpots' own parser; cached (versions never change)."""
    key = (version.pk, code)
    if key not in _rules:
        item = next((item for item in version.content.get("jackpots", []) if item.get("code") == code), None)
        parsed = jackpot_rule_parse(Checker(), f"jackpots ({code})", item, stored=True) if item is not None else None
        with _rules_lock:
            _rules[key] = parsed[0] if parsed is not None else None
    return _rules[key]


def tables_listing(*, version: RulesVersion, code: str) -> dict[str, str]:
    """The tables of a rules version that list fund ``code``: {table number: game}."""
    return {
        entry["number"]: entry["game"]
        for entry in version.content.get("tables", [])
        if code in (entry.get("jackpots") or [])
    }


def jackpot_collecting(*, jackpot: Jackpot, at: datetime) -> bool:
    """Whether a table collects for the fund under the rules in effect at ``at`` (§637a.15(c), (i))."""
    version = rules_version_in_effect(room=jackpot.room, at=at)
    return version is not None and bool(tables_listing(version=version, code=jackpot.code))


def jackpot_ids_by_code(*, room: PokerRoom) -> dict[str, int]:
    """The id of each fund of the room by its code (the code the rules files name it by)."""
    return dict(Jackpot.objects.filter(room=room).values_list("code", "pk"))


def local_time(at: datetime, zone: str) -> str:
    """A moment as the room's clock reads it, for a refusal or a notice: '2026-11-30 21:14 EST' (the
    clock's ``ZONED`` format, kept by this name for the services that call it)."""
    return local_text(at, zone, ZONED)
