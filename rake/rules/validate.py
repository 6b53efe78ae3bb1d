"""Parsing a file (``parse_text``) and validating all of it at once (``validate_rules``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime, time
from functools import partial
from types import MappingProxyType
from typing import Any, TypeVar

import yaml

from casino_backoffice.core.checker import Checker, label, listed
from casino_backoffice.money import format_cents
from jackpots.bad_beat.rules import BAD_BEAT_GAMES, BadBeatRule
from jackpots.funds.rules import JackpotRule, jackpot_rule_parse
from jackpots.progressive.rules import (
    BANKED_TABLE_KEYS,
    BankedTableRule,
    ProgressiveRule,
    banked_table_parse,
    progressive_rule_parse,
)
from tables.games import HOUSE_BANKED, Game, seat_limit_problem
from tables.irregularities.house_kinds import house_kind_parse
from tables.time_zones import time_zone_problem

from .model import LATE_ENTRY_MOST_MINUTES, Rules, Shift, TableRule, _minutes
from .policies import _rake_policy


class RulesInvalid(Exception):
    """The file is not a valid Rules Submission; ``errors`` lists every problem."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = errors


def parse_text(text: str) -> Any:
    """YAML or JSON (JSON is YAML) to Python data; a syntax error is reported like any other."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise RulesInvalid([f"The file is not valid YAML or JSON: {error}"]) from None


DEFAULT_SHIFTS = (("day", 0), ("swing", 8 * 60), ("grave", 16 * 60))


def _shifts(
    check: Checker, data: dict[str, Any], day_starts: time | None
) -> tuple[tuple[Shift, ...], list[dict[str, str]]]:
    raw = data.get("shifts")
    if raw is None:
        base = _minutes(day_starts or time(6))
        shifts = tuple(
            Shift(name, time(((base + offset) % 1440) // 60, (base + offset) % 60)) for name, offset in DEFAULT_SHIFTS
        )
    else:
        if not isinstance(raw, list) or not raw:
            check.error("shifts", "must be a list of {name, starts}")
            return (), []
        found: list[Shift] = []
        for n, item in enumerate(raw):
            where = label("shifts", n, item, "name")
            if not check.keys(where, item, {"name", "starts"}, set()):
                continue
            starts = check.clock(where, "starts", item.get("starts"))
            name = check.code(where, "name", item.get("name"))
            if starts is not None and name is not None:
                found.append(Shift(name, starts))
        if day_starts is not None and found and found[0].starts != day_starts:
            check.error("shifts[0]", f"the first shift starts when the gaming day starts ({day_starts:%H:%M})")
        if len({s.name for s in found}) != len(found) or len({s.starts for s in found}) != len(found):
            check.error("shifts", "each shift has its own name and its own start")
        shifts = tuple(found)
    return shifts, [{"name": s.name, "starts": s.starts.strftime("%H:%M")} for s in shifts]


def _effective_from(check: Checker, value: Any) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, date) and not isinstance(value, datetime):
        check.error(
            "effective_from", 'must be a date and time with its UTC offset, such as "2026-11-01T06:00:00-05:00"'
        )
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            check.error("effective_from", f"{value!r} is not an ISO-8601 date and time")
            return None
    if not isinstance(value, datetime) or value.tzinfo is None or value.utcoffset() is None:
        check.error("effective_from", 'must carry its UTC offset, such as "2026-11-01T06:00:00-05:00"')
        return None
    return value


T = TypeVar("T")


def _coded_items(
    check: Checker,
    data: dict[str, Any],
    section: str,
    parse: Callable[[Checker, str, dict[str, Any]], tuple[T, dict[str, Any]] | None],
    noun: str,
    *,
    required: bool,
) -> tuple[dict[str, T], list[dict[str, Any]]]:
    """The items of a section keyed by their unique ``code``, each parsed by ``parse``, with their
    canonical forms; a bad item is reported and left out."""
    parsed_items: dict[str, T] = {}
    canonical: list[dict[str, Any]] = []
    for n, item in enumerate(listed(check, data, section, required=required)):
        where = label(section, n, item, "code")
        if not isinstance(item, dict):
            check.error(where, "expected a mapping of keys")
            continue
        code = check.code(where, "code", item.get("code"))
        if code in parsed_items:
            check.error(where, f"code {code} is used by an earlier {noun}")
            continue
        parsed = parse(check, where, item)
        if parsed and code:
            parsed_items[code] = parsed[0]
            canonical.append(parsed[1])
    return parsed_items, canonical


def _controls(check: Checker, raw: Any) -> tuple[dict[str, int], dict[str, Any]]:
    """House controls: ``variance_threshold``, the largest count variance accepted without a signed
    explanation (the cage, §637a.15(e), §637a.16(e)); ``late_entry_minutes``, how long after a round
    ends it may be logged without a shift supervisor's signature (the revenue of the day, §637a.17)."""
    if raw is None:
        return {}, {}
    if not check.keys("controls", raw, set(), {"variance_threshold", "late_entry_minutes"}):
        return {}, {}
    parsed: dict[str, int] = {}
    canonical: dict[str, Any] = {}
    if "variance_threshold" in raw:
        threshold = check.money("controls", "variance_threshold", raw["variance_threshold"])
        if threshold is not None:
            parsed["variance_threshold"], canonical["variance_threshold"] = threshold, format_cents(threshold)
    if "late_entry_minutes" in raw:
        minutes = raw["late_entry_minutes"]
        if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= LATE_ENTRY_MOST_MINUTES:
            check.error(
                "controls",
                f"late_entry_minutes must be a whole number of minutes from 1 to {LATE_ENTRY_MOST_MINUTES}: how long "
                f"after a round ends it may be logged without a shift supervisor's signature, such as 30 (not {minutes!r})",
            )
        else:
            parsed["late_entry_minutes"] = canonical["late_entry_minutes"] = minutes
    return parsed, canonical


def _bad_beat_offered(check: Checker, where: str, jackpot: JackpotRule, game: Game) -> bool:
    """Whether a table of ``game`` may offer ``jackpot``: a Bad Beat needs the Executive Director's
    approval of the procedures for discontinuing it (§637a.15(i)) and a hand the evaluator checks at
    the table's game. Any other jackpot may; a fund no table lists needs neither."""
    if not isinstance(jackpot, BadBeatRule):
        return True
    ok = True
    if jackpot.discontinuation is None:
        check.error(
            where,
            f"jackpot {jackpot.code}: a Bad Beat may not be offered at a table until the Executive Director has approved "
            "procedures for discontinuing it (§637a.15(i)); record discontinuation: {approved_on, reference}",
        )
        ok = False
    if not jackpot.hands_for(game):
        instead = (
            f"add {game.value} to the games of a hand of {jackpot.code}, or leave {jackpot.code} off this table"
            if game.value in BAD_BEAT_GAMES
            else f"leave {jackpot.code} off this table"
        )
        check.error(
            where,
            f"the evaluator checks Bad Beat hands of {', '.join(BAD_BEAT_GAMES)}; no hand of {jackpot.code} "
            f"applies to {game.value}: {instead}",
        )
        ok = False
    return ok


@dataclass(frozen=True)
class _Known:
    """What a table of the file may name: the policies, jackpots and meters the file posts (the codes
    as written, and those parsed)."""

    policy_codes: set[Any]
    jackpots: dict[str, JackpotRule]
    jackpot_codes: set[Any]
    progressives: dict[str, ProgressiveRule]
    progressive_codes: set[Any]


def _tables(check: Checker, data: dict[str, Any], known: _Known) -> tuple[dict[str, TableRule], list[dict[str, Any]]]:
    """The tables of the file by number, with their canonical forms; a bad table is reported and left out."""
    tables: dict[str, TableRule] = {}
    canonical: list[dict[str, Any]] = []
    for n, item in enumerate(listed(check, data, "tables", required=True)):
        where = label("tables", n, item, "number")
        banked_keys = BANKED_TABLE_KEYS if isinstance(item, dict) and item.get("game") in HOUSE_BANKED else set()
        if not check.keys(where, item, {"number", "game", "seats"}, {"rake_policy", "jackpots", *banked_keys}):
            continue
        number = _table_number(check, where, item.get("number"), listed_before=tables)
        game, seats = _table_game_and_seats(check, where, item)
        policy_code = item.get("rake_policy")
        table_jackpots = item.get("jackpots", []) or []
        banked: BankedTableRule | None = None
        if game in HOUSE_BANKED:
            ok = _banked_takes_nothing(check, where, game, policy_code, table_jackpots)
            banked = _banked(check, where, item, game=game, known=known)
            ok = ok and banked is not None
        else:
            ok = _rake_policy_named(check, where, policy_code, known=known)
        if not isinstance(table_jackpots, list):
            check.error(where, "jackpots must be a list of jackpot codes")
            table_jackpots, ok = [], False
        ok = _table_jackpots_named(check, where, table_jackpots, game=game, known=known) and ok
        if ok and number and game is not None and seats is not None:
            tables[number] = TableRule(number, game, seats, policy_code, tuple(table_jackpots), banked)
            canonical.append(_table_canonical(tables[number]))
    return tables, canonical


def _table_number(check: Checker, where: str, number: Any, *, listed_before: dict[str, TableRule]) -> str | None:
    if not isinstance(number, str) or not re.fullmatch(r"[A-Za-z0-9-]{1,10}", number):
        check.error(
            where,
            f'number must be a quoted table number of up to 10 letters and digits, such as "T1", got {number!r}',
        )
        return None
    if number in listed_before:
        check.error(where, f"table {number} is listed twice")
        return None
    return number


def _table_game_and_seats(check: Checker, where: str, item: Any) -> tuple[Game | None, int | None]:
    try:
        game: Game | None = Game(item.get("game"))
    except ValueError:
        check.error(where, f"game {item.get('game')!r} is not a game this room deals (one of {', '.join(Game.values)})")
        game = None
    seats = check.integer(where, "seats", item.get("seats"))
    if game is not None and seats is not None and (problem := seat_limit_problem(game=game, seats=seats)):
        check.error(where, problem)
        seats = None
    return game, seats


def _banked(check: Checker, where: str, item: dict[str, Any], *, game: Game, known: _Known) -> BankedTableRule | None:
    return banked_table_parse(
        check, where, item, game=game, progressives=known.progressives, progressive_codes=known.progressive_codes
    )


def _banked_takes_nothing(check: Checker, where: str, game: Game, policy_code: Any, table_jackpots: Any) -> bool:
    if policy_code is not None or table_jackpots:
        check.error(
            where,
            f"{game.label} is banked by the house: it takes no rake and pays no poker jackpot, so it has no rake_policy or jackpots",
        )
        return False
    return True


def _rake_policy_named(check: Checker, where: str, policy_code: Any, *, known: _Known) -> bool:
    if policy_code is None:
        check.error(
            where, "rake_policy is missing: every poker table takes its rake by a policy of this file (§637a.17(a))"
        )
        return False
    if policy_code not in known.policy_codes:
        check.error(
            where,
            f"rake_policy {policy_code!r} is not a policy of this file (known: {', '.join(sorted(str(c) for c in known.policy_codes)) or 'none'})",
        )
        return False
    return True


def _table_jackpots_named(
    check: Checker, where: str, table_jackpots: list[Any], *, game: Game | None, known: _Known
) -> bool:
    ok = True
    for code in table_jackpots:
        if code not in known.jackpot_codes:
            check.error(
                where,
                f"jackpot {code!r} is not a jackpot of this file (known: {', '.join(sorted(str(c) for c in known.jackpot_codes)) or 'none'})",
            )
            ok = False
    if len(set(map(str, table_jackpots))) != len(table_jackpots):
        check.error(where, "a jackpot is listed twice")
        ok = False
    if game is not None:
        for code in table_jackpots:
            if code in known.jackpots and not _bad_beat_offered(check, where, known.jackpots[code], game):
                ok = False
    return ok


def _table_canonical(table: TableRule) -> dict[str, Any]:
    entry: dict[str, Any] = {"number": table.number, "game": table.game.value, "seats": table.seats}
    if table.rake_policy is not None:
        entry["rake_policy"] = table.rake_policy
    entry["jackpots"] = list(table.jackpots)
    if table.banked is not None:
        entry.update(table.banked.canonical())
    return entry


def validate_rules(data: Any, *, stored: bool = False) -> Rules:
    """Every rule of the file checked at once; ``RulesInvalid`` lists every error found. ``stored``: the
    content of a rules version already stored, read again for its history (``jackpots.funds.rules``)."""
    check = Checker()
    if not isinstance(data, dict):
        raise RulesInvalid(["The file must be a mapping with room, timezone, rake_policies, jackpots and tables."])
    top_required = {"room", "timezone", "gaming_day_starts", "rake_policies", "tables"}
    check.keys(
        "",
        data,
        top_required,
        {"name", "effective_from", "jackpots", "progressives", "shifts", "controls", "irregularities"},
    )
    room = check.code("room", "room", data.get("room"))
    zone = data.get("timezone")
    if problem := time_zone_problem(zone):
        check.error("timezone", problem)
        zone = None
    day_starts = check.clock("gaming_day_starts", "gaming_day_starts", data.get("gaming_day_starts"))
    effective_from = _effective_from(check, data.get("effective_from"))
    shifts, canonical_shifts = _shifts(check, data, day_starts)
    controls, canonical_controls = _controls(check, data.get("controls"))

    policies, canonical_policies = _coded_items(check, data, "rake_policies", _rake_policy, "policy", required=True)
    policy_codes_seen = {item.get("code") for item in data.get("rake_policies") or [] if isinstance(item, dict)}

    jackpots, canonical_jackpots = _coded_items(
        check, data, "jackpots", partial(jackpot_rule_parse, stored=stored), "jackpot", required=False
    )
    jackpot_codes_seen = {item.get("code") for item in data.get("jackpots") or [] if isinstance(item, dict)}

    progressives, canonical_progressives = _coded_items(
        check, data, "progressives", progressive_rule_parse, "meter", required=False
    )
    progressive_codes_seen = {item.get("code") for item in data.get("progressives") or [] if isinstance(item, dict)}

    # The room's own kinds of irregularity (§637a.18(s)): ``tables.irregularities.house_kinds``.
    irregularities, canonical_irregularities = _coded_items(
        check, data, "irregularities", house_kind_parse, "irregularity kind", required=False
    )

    tables, canonical_tables = _tables(
        check,
        data,
        _Known(
            policy_codes=policy_codes_seen,
            jackpots=jackpots,
            jackpot_codes=jackpot_codes_seen,
            progressives=progressives,
            progressive_codes=progressive_codes_seen,
        ),
    )

    if check.errors:
        raise RulesInvalid(check.errors)
    assert room is not None and day_starts is not None and zone is not None
    content = {
        "room": room,
        "name": str(data.get("name") or room),
        "effective_from": effective_from.isoformat() if effective_from else None,
        "timezone": zone,
        "gaming_day_starts": day_starts.strftime("%H:%M"),
        "shifts": canonical_shifts,
        "rake_policies": canonical_policies,
        "jackpots": canonical_jackpots,
        "tables": canonical_tables,
    }
    if canonical_controls:
        content["controls"] = canonical_controls
    if canonical_progressives:
        content["progressives"] = canonical_progressives
    if canonical_irregularities:
        content["irregularities"] = canonical_irregularities
    return Rules(
        variance_threshold_cents=controls.get("variance_threshold", 0),
        late_entry_minutes=controls.get("late_entry_minutes"),
        room=room,
        room_name=content["name"],
        timezone=zone,
        gaming_day_starts=day_starts,
        effective_from=effective_from,
        shifts=shifts,
        rake_policies=policies,
        jackpots=jackpots,
        progressives=progressives,
        tables=tables,
        irregularities=irregularities,
        content=content,
    )


def posted_rules_parse(content: dict[str, Any]) -> Rules:
    """The rules of a stored version, immutable (``tables.selectors.rules_version_parsed`` keeps one per
    version and hands the same object to every product): frozen dataclasses, their mappings read-only."""
    rules = validate_rules(content, stored=True)
    return replace(
        rules,
        rake_policies=MappingProxyType(dict(rules.rake_policies)),
        jackpots=MappingProxyType(dict(rules.jackpots)),
        tables=MappingProxyType(dict(rules.tables)),
        progressives=MappingProxyType(dict(rules.progressives)),
        irregularities=MappingProxyType(dict(rules.irregularities)),
    )
