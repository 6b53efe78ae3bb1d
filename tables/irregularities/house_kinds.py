"""The room's own kinds of irregularity, from its Rules Submission (§637a.18(s)).

§637a.18(s): "A certificate holder may clarify and supplement the procedures related to irregularities
in this section in the certificate holder's Rules Submission under § 601a.2." A rules file may list, under
``irregularities``, the kinds of irregularity its room records beside the regulations' own
(``kinds.IrregularityKind``), each with its procedure in the Rules Submission's words and who rules on it:

    irregularities:
      - code: blind_out_of_turn
        name: A blind posted out of turn
        procedure: The blind stands; the player posts again in turn at the next round.
        tables: poker          # poker (the default), banked or any
        round: optional        # optional (the default), required or none
        ruled_by: floorperson  # floorperson (the default) or shift_supervisor

A room's kind is reported and ruled like the regulations' (the same record, the same signatures); it
records §637a.18(s) as its provision. Its code may not be one of the regulations' kinds. The kinds in
effect for an irregularity are those of the rules version in effect when it happened
(``house_kinds_in_effect``), so a kind added or withdrawn later changes no record already made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from casino_backoffice.core.checker import Checker

from ..models import PokerRoom, Table
from ..selectors import rules_version_in_effect, rules_version_parsed
from .kinds import KIND_RULES, IrregularityKind, KindRule, RoundNeed, Tables, rule_table_problem, section_of

HOUSE_SECTION = "§637a.18(s)"
_TABLES = ("poker", "banked", "any")
_ROUNDS = ("optional", "required", "none")
_RULED_BY = ("floorperson", "shift_supervisor")
_KEYS = {"code", "name", "procedure"}
_OPTIONAL = {"tables", "round", "ruled_by"}


@dataclass(frozen=True)
class HouseKind:
    """A kind of irregularity the room's Rules Submission adds (§637a.18(s))."""

    code: str
    name: str
    procedure: str
    tables: str = "poker"
    round: str = "optional"
    ruled_by: str = "floorperson"

    def canonical(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "procedure": self.procedure,
            "tables": self.tables,
            "round": self.round,
            "ruled_by": self.ruled_by,
        }


def house_kind_parse(check: Checker, where: str, item: dict[str, Any]) -> tuple[HouseKind, dict[str, Any]] | None:
    """One kind of the file's ``irregularities``: every error reported with the file's others."""
    if not check.keys(where, item, _KEYS, _OPTIONAL):
        return None
    errors = len(check.errors)
    code = check.code(where, "code", item.get("code"))
    if code in IrregularityKind.values:
        check.error(
            where, f"code {code} is a kind of the regulations (§637a.18); a room's own kind has a code of its own"
        )
    texts = {}
    for key, what in (
        ("name", "the kind's name as the forms show it"),
        ("procedure", "the procedure in the Rules Submission's words"),
    ):
        value = item.get(key)
        if not isinstance(value, str) or not value.strip():
            check.error(where, f"{key} must be {what}")
        else:
            texts[key] = " ".join(value.split())
    choices = {}
    for key, allowed, default in (
        ("tables", _TABLES, "poker"),
        ("round", _ROUNDS, "optional"),
        ("ruled_by", _RULED_BY, "floorperson"),
    ):
        value = item.get(key, default)
        if value not in allowed:
            check.error(where, f"{key} {value!r} must be one of {', '.join(allowed)}")
        choices[key] = value
    if len(check.errors) > errors:
        return None
    assert code is not None
    kind = HouseKind(code=code, name=texts["name"][:120], procedure=texts["procedure"], **choices)
    return kind, kind.canonical()


def house_kinds_of(content: Mapping[str, Any]) -> dict[str, HouseKind]:
    """The room's kinds of a stored version's canonical content (checked when it was loaded)."""
    return {item["code"]: HouseKind(**item) for item in content.get("irregularities") or []}


def house_kinds_in_effect(*, room: PokerRoom, at: datetime) -> Mapping[str, HouseKind]:
    """The room's own kinds in the rules version in effect at ``at``; none before its first version."""
    version = rules_version_in_effect(room=room, at=at)
    if version is None:
        return {}
    rules = rules_version_parsed(version_id=version.pk, content=version.content)
    return getattr(rules, "irregularities", {})


@dataclass(frozen=True)
class KindInEffect:
    """A kind as a report and its ruling read it: the regulations' own or the room's (``house``)."""

    code: str
    label: str
    rule: KindRule
    house: HouseKind | None = None

    def section_at(self, game: str) -> str:
        return HOUSE_SECTION if self.house else section_of(self.code, game=game)

    def table_problem(self, *, game: str) -> str | None:
        return rule_table_problem(self.rule, label=self.label, game=game)


def _house_rule(kind: HouseKind) -> KindRule:
    return KindRule(
        section=HOUSE_SECTION,
        tables=Tables(kind.tables),
        round=RoundNeed(kind.round),
        ruled_by_supervisor=kind.ruled_by == "shift_supervisor",
    )


def kind_in_effect(kind: str, *, room: PokerRoom, at: datetime) -> KindInEffect | None:
    """The kind ``kind`` names: one of the regulations', else one of the room's own in the rules in
    effect at ``at`` (§637a.18(s)); None when it is neither."""
    if kind in IrregularityKind.values:
        known = IrregularityKind(kind)
        return KindInEffect(code=known.value, label=known.label, rule=KIND_RULES[known])
    house = house_kinds_in_effect(room=room, at=at).get(kind)
    if house is None:
        return None
    return KindInEffect(code=house.code, label=house.name, rule=_house_rule(house), house=house)


def kinds_at(*, table: Table, at: datetime) -> list[KindInEffect]:
    """Every kind reported at ``table``: the regulations' that its game takes, in their order, then the
    room's own in the rules in effect at ``at``. What the report forms offer."""
    found = [kind_in_effect(code, room=table.room, at=at) for code in IrregularityKind.values]
    found += [
        KindInEffect(code=house.code, label=house.name, rule=_house_rule(house), house=house)
        for house in house_kinds_in_effect(room=table.room, at=at).values()
    ]
    return [kind for kind in found if kind is not None and kind.table_problem(game=table.game) is None]
