"""Reads about jackpot funds that every product needs: the rules in effect for a fund (their part of the
version's one parsed rules), the tables that list it, whether a table collects for it, the funds of a
room by code, and a moment as the room's clock reads it."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Protocol

from casino_backoffice.core.clock import ZONED, local_text
from jackpots.funds.models import Jackpot
from jackpots.funds.rules import JackpotRule
from tables.models import PokerRoom, RulesVersion
from tables.selectors import rules_version_in_effect, rules_version_parsed

# --- The rules in effect for a fund ---------------------------------------------------------------


class _FundsRules(Protocol):
    """What the funds read of a version's posted rules (``tables.selectors.rules_version_parsed``)."""

    @property
    def jackpots(self) -> Mapping[str, JackpotRule]: ...


def jackpot_rule_of_version(*, version: RulesVersion, code: str) -> JackpotRule | None:
    """A fund's posted rules in a rules version (None when the version does not name it): its part of
    the version's one parsed, cached rules (``tables.selectors.rules_version_parsed``; versions never change)."""
    rules: _FundsRules = rules_version_parsed(version_id=version.pk, content=version.content)
    return rules.jackpots.get(code)


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
