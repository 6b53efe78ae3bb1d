"""The Rules Submission file (§601a.2): parsing and validation, with no database access.

A poker room's money rules, "the types of rake utilized, the methodology used for calculating the
rake [and] the amount of maximum permissible rake per round of play" (§637a.17(a)), and for each
jackpot "the maximum contribution amount ... the method of calculation ... the minimum pot amount"
(§637a.15(b), §637a.16(b)), are one YAML or JSON file. ``validate_rules`` checks all of it at once and
returns either the parsed ``Rules`` or every error, each naming its item and the rule broken::

    tables[0] (T1): seats 12 is over Texas Hold'em's limit of 10 (58 Pa. Code §637a.10)

``Rules.canonical()`` is the normalized file (money as "5.00", percents as decimal strings, keys
sorted when dumped): its SHA-256 decides whether a file changes anything, and validating it again
gives the same ``Rules`` (versions are stored canonical and re-parsed, cached, when rating a round).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml

from casino_backoffice.money import InvalidAmount, format_cents, parse_cents
from tables.games import HOUSE_BANKED, MAX_SEATS, MIN_SEATS, SEAT_LIMIT_SECTION, Game

MAX_PERCENTAGE_RAKE_BP = 1000  # "A percentage rake, not to exceed 10%" (§637a.17(b)(1))
TIME_CHARGE_INTERVALS = (20, 30)  # "assessed fractionally every 20 or 30 minutes" (§637a.17(b)(3)(iii))
RANKS = "23456789TJQKA"

# High hands from a full house up (§637a.16(f): "When a player has a full house ..."), lowest first.
HIGH_HAND_CATEGORIES = ("full_house", "four_of_a_kind", "straight_flush", "royal_flush")
BELOW_FULL_HOUSE = ("high_card", "one_pair", "pair", "two_pair", "three_of_a_kind", "straight", "flush")


class RakeKind:
    PERCENTAGE = "percentage"
    INCREMENTAL = "incremental"
    TIME_CHARGE = "time_charge"
    ALL = (PERCENTAGE, INCREMENTAL, TIME_CHARGE)


class JackpotKind:
    BAD_BEAT = "bad_beat"
    HIGH_HAND = "high_hand"
    ALL = (BAD_BEAT, HIGH_HAND)


@dataclass(frozen=True)
class Level:
    pot_cents: int
    rake_cents: int


@dataclass(frozen=True)
class RakePolicy:
    code: str
    kind: str
    max_per_round_cents: int | None = None
    rate_bp: int | None = None
    increment_cents: int = 1
    min_pot_cents: int = 0
    no_flop_no_drop: bool = False
    levels: tuple[Level, ...] = ()
    basis: str | None = None  # time charges: "per_player" or "per_table"
    hourly_fee_cents: int | None = None
    interval_minutes: int | None = None

    @property
    def fee_per_interval_cents(self) -> int:
        """The hourly fee for one interval; validation makes it a whole number of cents."""
        assert self.hourly_fee_cents is not None and self.interval_minutes is not None
        return self.hourly_fee_cents * self.interval_minutes // 60


@dataclass(frozen=True)
class Contribution:
    method: str  # "fixed" or "percent"
    min_pot_cents: int
    amount_cents: int | None = None
    rate_bp: int | None = None
    max_cents: int | None = None


@dataclass(frozen=True)
class JackpotRule:
    code: str
    kind: str
    name: str
    contribution: Contribution
    seed_cents: int = 0
    details: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class TableRule:
    number: str
    game: Game
    seats: int
    rake_policy: str | None
    jackpots: tuple[str, ...]


@dataclass(frozen=True)
class Shift:
    name: str
    starts: time


@dataclass(frozen=True)
class Rules:
    room: str
    room_name: str
    timezone: str
    gaming_day_starts: time
    effective_from: datetime | None
    shifts: tuple[Shift, ...]
    rake_policies: dict[str, RakePolicy]
    jackpots: dict[str, JackpotRule]
    tables: dict[str, TableRule]
    content: dict[str, Any] = field(compare=False, hash=False, repr=False)

    def canonical(self) -> dict[str, Any]:
        return self.content

    def canonical_json(self) -> str:
        return canonical_json(self.content)

    def shift_at(self, local_time: time) -> str:
        """The name of the shift a local wall-clock time falls in (shifts cycle through the day)."""
        minutes = local_time.hour * 60 + local_time.minute
        start0 = _minutes(self.shifts[0].starts)
        offset = (minutes - start0) % 1440
        name = self.shifts[0].name
        for shift in self.shifts:
            if (_minutes(shift.starts) - start0) % 1440 <= offset:
                name = shift.name
        return name


def canonical_json(content: dict[str, Any]) -> str:
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


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


def _minutes(value: time) -> int:
    return value.hour * 60 + value.minute


class _Checker:
    """Collects errors while reading one file; each read returns a normalized value or None."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def error(self, where: str, message: str) -> None:
        self.errors.append(f"{where}: {message}" if where else message)

    def keys(self, where: str, item: Any, required: set[str], optional: set[str]) -> bool:
        if not isinstance(item, dict):
            self.error(where, f"expected a mapping of keys, got {type(item).__name__}")
            return False
        for key in sorted(required - item.keys()):
            self.error(where, f"{key} is missing")
        for key in sorted(set(item) - required - optional, key=str):
            self.error(where, f"unknown key {key!r} (known: {', '.join(sorted(required | optional))})")
        return True

    def money(self, where: str, name: str, value: Any, *, positive: bool = False) -> int | None:
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if isinstance(value, float):
            self.error(where, f"{name} {value!r} must be written as a string of dollars and cents, such as \"5.00\"")
            return None
        try:
            cents = parse_cents(value, allow_zero=not positive)
        except InvalidAmount as error:
            self.error(where, f"{name} {value!r}: {error}")
            return None
        return int(cents)

    def percent_bp(self, where: str, name: str, value: Any) -> int | None:
        """A percent (10, 2.5 or "2.5") as basis points; hundredths of a percent at most."""
        if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
            self.error(where, f"{name} must be a number of percent, such as 10 or 2.5")
            return None
        try:
            percent = Decimal(str(value).strip())
        except InvalidOperation:
            self.error(where, f"{name} {value!r} is not a number of percent")
            return None
        if not percent.is_finite() or percent < 0:
            self.error(where, f"{name} {value!r} must be zero or more")
            return None
        bp = percent * 100
        if bp != bp.to_integral_value():
            self.error(where, f"{name} {value} has more than two decimal places")
            return None
        return int(bp)

    def integer(self, where: str, name: str, value: Any, *, minimum: int | None = None) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(where, f"{name} must be a whole number, got {value!r}")
            return None
        if minimum is not None and value < minimum:
            self.error(where, f"{name} must be at least {minimum}, got {value}")
            return None
        return value

    def boolean(self, where: str, name: str, value: Any) -> bool | None:
        if not isinstance(value, bool):
            self.error(where, f"{name} must be true or false, got {value!r}")
            return None
        return value

    def clock(self, where: str, name: str, value: Any) -> time | None:
        if not isinstance(value, str) or not re.fullmatch(r"\d{2}:\d{2}", value):
            self.error(where, f"{name} must be a quoted 24-hour time such as \"06:00\", got {value!r}")
            return None
        try:
            return time.fromisoformat(value)
        except ValueError:
            self.error(where, f"{name} {value!r} is not a time of day")
            return None

    def code(self, where: str, name: str, value: Any) -> str | None:
        if not isinstance(value, str) or not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,29}", value):
            self.error(where, f"{name} must be a short code of lower-case letters, digits, - and _, got {value!r}")
            return None
        return value


def _label(section: str, index: int, item: Any, key: str) -> str:
    ident = item.get(key) if isinstance(item, dict) else None
    return f"{section}[{index}] ({ident})" if ident is not None else f"{section}[{index}]"


def _list(check: _Checker, data: dict[str, Any], name: str, *, required: bool) -> list[Any]:
    value = data.get(name)
    if value is None:
        if required:
            check.error("", f"{name} is missing")
        return []
    if not isinstance(value, list):
        check.error("", f"{name} must be a list")
        return []
    return value


def _rake_policy(check: _Checker, where: str, item: dict[str, Any]) -> tuple[RakePolicy, dict[str, Any]] | None:
    kind = item.get("kind")
    common = {"code", "kind"}
    if kind == RakeKind.PERCENTAGE:
        if not check.keys(where, item, common | {"rate_percent", "max_per_round"}, {"increment", "min_pot", "no_flop_no_drop"}):
            return None
        rate = check.percent_bp(where, "rate_percent", item.get("rate_percent"))
        if rate is not None and rate > MAX_PERCENTAGE_RAKE_BP:
            check.error(where, f"rate_percent {item['rate_percent']} is over the 10% a percentage rake may take (§637a.17(b)(1))")
            rate = None
        if rate == 0:
            check.error(where, "rate_percent must be more than 0")
        maximum = check.money(where, "max_per_round", item.get("max_per_round"), positive=True)
        increment = check.money(where, "increment", item.get("increment", "0.01"), positive=True)
        min_pot = check.money(where, "min_pot", item.get("min_pot", "0.00"))
        no_flop = check.boolean(where, "no_flop_no_drop", item.get("no_flop_no_drop", False))
        if rate is None or maximum is None or increment is None or min_pot is None or no_flop is None:
            return None
        policy = RakePolicy(
            code=item["code"], kind=kind, rate_bp=rate, max_per_round_cents=maximum, increment_cents=increment,
            min_pot_cents=min_pot, no_flop_no_drop=bool(no_flop),
        )
        canonical = {
            "code": policy.code, "kind": kind, "rate_percent": _percent_text(rate), "max_per_round": format_cents(maximum),
            "increment": format_cents(increment), "min_pot": format_cents(min_pot), "no_flop_no_drop": bool(no_flop),
        }
        return policy, canonical
    if kind == RakeKind.INCREMENTAL:
        if not check.keys(where, item, common | {"levels", "max_per_round"}, set()):
            return None
        maximum = check.money(where, "max_per_round", item.get("max_per_round"), positive=True)
        raw_levels = item.get("levels")
        levels: list[Level] = []
        if not isinstance(raw_levels, list) or not raw_levels:
            check.error(where, "levels must be a list of {pot, rake} with at least one level")
            return None
        ok = True
        for n, level in enumerate(raw_levels):
            at = f"{where} levels[{n}]"
            if not check.keys(at, level, {"pot", "rake"}, set()):
                ok = False
                continue
            pot = check.money(at, "pot", level.get("pot"), positive=True)
            rake = check.money(at, "rake", level.get("rake"), positive=True)
            if pot is None or rake is None:
                ok = False
                continue
            if rake > pot:
                check.error(at, f"the rake {format_cents(rake)} is more than the pot {format_cents(pot)} that reaches it")
                ok = False
            if levels and (pot <= levels[-1].pot_cents or rake < levels[-1].rake_cents):
                check.error(at, "levels must go up: each pot above the last, each rake at least the last")
                ok = False
            levels.append(Level(pot, rake))
        if maximum is None or not ok:
            return None
        policy = RakePolicy(code=item["code"], kind=kind, max_per_round_cents=maximum, levels=tuple(levels))
        canonical = {
            "code": policy.code, "kind": kind, "max_per_round": format_cents(maximum),
            "levels": [{"pot": format_cents(lv.pot_cents), "rake": format_cents(lv.rake_cents)} for lv in levels],
        }
        return policy, canonical
    if kind == RakeKind.TIME_CHARGE:
        if not check.keys(where, item, common | {"basis", "hourly_fee", "interval_minutes"}, set()):
            return None
        basis = item.get("basis")
        if basis not in ("per_player", "per_table"):
            check.error(where, f"basis must be per_player or per_table (§637a.17(b)(3)(i)), got {basis!r}")
            basis = None
        fee = check.money(where, "hourly_fee", item.get("hourly_fee"), positive=True)
        interval = check.integer(where, "interval_minutes", item.get("interval_minutes"))
        if interval is not None and interval not in TIME_CHARGE_INTERVALS:
            check.error(where, f"interval_minutes {interval} is not allowed: a time charge is assessed every 20 or 30 minutes (§637a.17(b)(3)(iii))")
            interval = None
        if fee is not None and interval is not None and fee * interval % 60:
            check.error(where, f"hourly_fee {format_cents(fee)} does not divide into whole cents every {interval} minutes")
            fee = None
        if basis is None or fee is None or interval is None:
            return None
        policy = RakePolicy(code=item["code"], kind=kind, basis=basis, hourly_fee_cents=fee, interval_minutes=interval)
        canonical = {"code": policy.code, "kind": kind, "basis": basis, "hourly_fee": format_cents(fee), "interval_minutes": interval}
        return policy, canonical
    check.error(where, f"kind must be one of {', '.join(RakeKind.ALL)} (§637a.17(b)), got {kind!r}")
    return None


def _percent_text(bp: int) -> str:
    return str((Decimal(bp) / 100).normalize().quantize(Decimal(1)) if bp % 100 == 0 else (Decimal(bp) / 100).normalize())


def _contribution(check: _Checker, where: str, item: Any) -> tuple[Contribution, dict[str, Any]] | None:
    where = f"{where} contribution"
    if not isinstance(item, dict):
        check.error(where, "must be a mapping with method, amount or rate_percent, and min_pot")
        return None
    method = item.get("method")
    if method == "fixed":
        if not check.keys(where, item, {"method", "amount", "min_pot"}, set()):
            return None
        amount = check.money(where, "amount", item.get("amount"), positive=True)
        min_pot = check.money(where, "min_pot", item.get("min_pot"))
        if amount is None or min_pot is None:
            return None
        return (
            Contribution(method="fixed", amount_cents=amount, min_pot_cents=min_pot),
            {"method": "fixed", "amount": format_cents(amount), "min_pot": format_cents(min_pot)},
        )
    if method == "percent":
        if not check.keys(where, item, {"method", "rate_percent", "max", "min_pot"}, set()):
            return None
        rate = check.percent_bp(where, "rate_percent", item.get("rate_percent"))
        if rate is not None and not 0 < rate <= 10_000:
            check.error(where, f"rate_percent {item.get('rate_percent')} must be more than 0 and at most 100")
            rate = None
        maximum = check.money(where, "max", item.get("max"), positive=True)
        min_pot = check.money(where, "min_pot", item.get("min_pot"))
        if rate is None or maximum is None or min_pot is None:
            return None
        return (
            Contribution(method="percent", rate_bp=rate, max_cents=maximum, min_pot_cents=min_pot),
            {"method": "percent", "rate_percent": _percent_text(rate), "max": format_cents(maximum), "min_pot": format_cents(min_pot)},
        )
    check.error(where, f"method must be fixed or percent (§637a.15(b)(1)), got {method!r}")
    return None


def _shares(check: _Checker, where: str, shares: Any) -> dict[str, str] | None:
    if not isinstance(shares, dict) or not shares:
        check.error(where, "shares must map each share (losing_hand, winning_hand, table_share ...) to a percent")
        return None
    total = 0
    out: dict[str, str] = {}
    for name, value in shares.items():
        bp = check.percent_bp(where, f"shares.{name}", value)
        if bp is None:
            return None
        total += bp
        out[str(name)] = _percent_text(bp)
    if total != 10_000:
        check.error(where, f"shares sum to {_percent_text(total)}%, not 100%")
        return None
    return out


def _bad_beat_minimum(hand: Any) -> bool:
    """A Bad Beat's losing hand: a full house or quads as ranks ("AAATT", "8888A"), or a category."""
    if hand in ("straight_flush", "royal_flush"):
        return True
    if not isinstance(hand, str) or not re.fullmatch(f"[{RANKS}]{{5}}", hand):
        return False
    counts = [hand.count(rank) for rank in dict.fromkeys(hand)]
    return counts in ([3, 2], [4, 1]) and hand[0] != hand[4]


def _jackpot(check: _Checker, where: str, item: dict[str, Any]) -> tuple[JackpotRule, dict[str, Any]] | None:
    kind = item.get("kind")
    common = {"code", "kind", "contribution"}
    if kind == JackpotKind.BAD_BEAT:
        if not check.keys(where, item, common | {"qualifier", "shares"}, {"seed", "name"}):
            return None
        contribution = _contribution(check, where, item.get("contribution"))
        qualifier: Any = item.get("qualifier")
        canonical_qualifier: dict[str, Any] | None = None
        if check.keys(f"{where} qualifier", qualifier, {"losing_hand_at_least"}, {"both_hole_cards_play", "min_players"}):
            hand = qualifier.get("losing_hand_at_least")
            if not _bad_beat_minimum(hand):
                check.error(
                    f"{where} qualifier",
                    "losing_hand_at_least must be a full house or four of a kind written as ranks, the set first, such as "
                    f"\"AAATT\" (aces full of tens) or \"8888A\", or straight_flush or royal_flush; got {hand!r}",
                )
            both = check.boolean(f"{where} qualifier", "both_hole_cards_play", qualifier.get("both_hole_cards_play", False))
            players = check.integer(f"{where} qualifier", "min_players", qualifier.get("min_players", MIN_SEATS), minimum=MIN_SEATS)
            canonical_qualifier = {"losing_hand_at_least": hand, "both_hole_cards_play": both, "min_players": players}
        shares = _shares(check, where, item.get("shares"))
        seed = check.money(where, "seed", item.get("seed", "0.00"))
        name = item.get("name", "Bad Beat")
        if None in (contribution, canonical_qualifier, shares, seed):
            return None
        assert contribution is not None and seed is not None
        details: dict[str, Any] = {"qualifier": canonical_qualifier, "shares": shares, "seed": format_cents(seed)}
        rule = JackpotRule(code=item["code"], kind=kind, name=str(name), contribution=contribution[0], seed_cents=seed, details=details)
        return rule, {"code": rule.code, "kind": kind, "name": rule.name, "contribution": contribution[1], **details}
    if kind == JackpotKind.HIGH_HAND:
        optional = {"seed", "name", "ties", "claim_within_days", "id_required", "unclaimed"}
        if not check.keys(where, item, common | {"period", "min_players", "min_hand"}, optional):
            return None
        contribution = _contribution(check, where, item.get("contribution"))
        period: Any = item.get("period")
        canonical_period: dict[str, Any] | None = None
        if check.keys(f"{where} period", period, {"every_minutes"}, {"first_starts"}):
            every = check.integer(f"{where} period", "every_minutes", period.get("every_minutes"), minimum=1)
            if every is not None and 1440 % every:
                check.error(f"{where} period", f"every_minutes {every} must divide the 24-hour day (§637a.16(b)(1))")
                every = None
            first = check.clock(f"{where} period", "first_starts", period.get("first_starts", "00:00"))
            if every is not None and first is not None:
                canonical_period = {"every_minutes": every, "first_starts": first.strftime("%H:%M")}
        players = check.integer(where, "min_players", item.get("min_players"), minimum=MIN_SEATS)
        min_hand = item.get("min_hand")
        if min_hand in BELOW_FULL_HOUSE:
            check.error(where, f"min_hand {min_hand} is below a full house; a qualifying high hand is a full house or better (§637a.16(f))")
            min_hand = None
        elif min_hand not in HIGH_HAND_CATEGORIES:
            check.error(where, f"min_hand must be one of {', '.join(HIGH_HAND_CATEGORIES)}, got {min_hand!r}")
            min_hand = None
        ties = item.get("ties", "split")
        if ties not in ("split", "first"):
            check.error(where, f"ties must be split or first (§637a.16(b)(5)), got {ties!r}")
            ties = None
        days = check.integer(where, "claim_within_days", item.get("claim_within_days", 7), minimum=1)
        id_required = item.get("id_required", True)
        if id_required is not True:
            check.error(where, "id_required must be true: valid identification is presented to collect a high hand (§637a.16(b)(7))")
            id_required = None
        unclaimed = item.get("unclaimed", "next_period")
        if unclaimed not in ("next_period", "fund"):
            check.error(where, f"unclaimed must be next_period or fund (§637a.16(i)), got {unclaimed!r}")
            unclaimed = None
        seed = check.money(where, "seed", item.get("seed", "0.00"))
        name = item.get("name", "High Hand")
        if None in (contribution, canonical_period, players, min_hand, ties, days, id_required, unclaimed, seed):
            return None
        assert contribution is not None and seed is not None
        details = {
            "period": canonical_period, "min_players": players, "min_hand": min_hand, "ties": ties,
            "claim_within_days": days, "id_required": True, "unclaimed": unclaimed, "seed": format_cents(seed),
        }
        rule = JackpotRule(code=item["code"], kind=kind, name=str(name), contribution=contribution[0], seed_cents=seed, details=details)
        return rule, {"code": rule.code, "kind": kind, "name": rule.name, "contribution": contribution[1], **details}
    check.error(where, f"kind must be one of {', '.join(JackpotKind.ALL)}, got {kind!r}")
    return None


DEFAULT_SHIFTS = (("day", 0), ("swing", 8 * 60), ("grave", 16 * 60))


def _shifts(check: _Checker, data: dict[str, Any], day_starts: time | None) -> tuple[tuple[Shift, ...], list[dict[str, str]]]:
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
            where = _label("shifts", n, item, "name")
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


def _effective_from(check: _Checker, value: Any) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, date) and not isinstance(value, datetime):
        check.error("effective_from", "must be a date and time with its UTC offset, such as \"2026-11-01T06:00:00-05:00\"")
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            check.error("effective_from", f"{value!r} is not an ISO-8601 date and time")
            return None
    if not isinstance(value, datetime) or value.tzinfo is None or value.utcoffset() is None:
        check.error("effective_from", "must carry its UTC offset, such as \"2026-11-01T06:00:00-05:00\"")
        return None
    return value


def validate_rules(data: Any) -> Rules:
    """Every rule of the file checked at once; ``RulesInvalid`` lists every error found."""
    check = _Checker()
    if not isinstance(data, dict):
        raise RulesInvalid(["The file must be a mapping with room, timezone, rake_policies, jackpots and tables."])
    top_required = {"room", "timezone", "gaming_day_starts", "rake_policies", "tables"}
    check.keys("", data, top_required, {"name", "effective_from", "jackpots", "shifts"})
    room = check.code("room", "room", data.get("room"))
    zone = data.get("timezone")
    try:
        ZoneInfo(str(zone))
    except (ZoneInfoNotFoundError, ValueError):
        check.error("timezone", f"{zone!r} is not a time zone (use a name such as America/New_York)")
        zone = None
    day_starts = check.clock("gaming_day_starts", "gaming_day_starts", data.get("gaming_day_starts"))
    effective_from = _effective_from(check, data.get("effective_from"))
    shifts, canonical_shifts = _shifts(check, data, day_starts)

    policies: dict[str, RakePolicy] = {}
    canonical_policies = []
    for n, item in enumerate(_list(check, data, "rake_policies", required=True)):
        where = _label("rake_policies", n, item, "code")
        if not isinstance(item, dict):
            check.error(where, "expected a mapping of keys")
            continue
        code = check.code(where, "code", item.get("code"))
        if code in policies:
            check.error(where, f"code {code} is used by an earlier policy")
            continue
        parsed = _rake_policy(check, where, item)
        if parsed and code:
            policies[code] = parsed[0]
            canonical_policies.append(parsed[1])
    policy_codes_seen = {item.get("code") for item in data.get("rake_policies") or [] if isinstance(item, dict)}

    jackpots: dict[str, JackpotRule] = {}
    canonical_jackpots = []
    for n, item in enumerate(_list(check, data, "jackpots", required=False)):
        where = _label("jackpots", n, item, "code")
        if not isinstance(item, dict):
            check.error(where, "expected a mapping of keys")
            continue
        code = check.code(where, "code", item.get("code"))
        if code in jackpots:
            check.error(where, f"code {code} is used by an earlier jackpot")
            continue
        parsed_jackpot = _jackpot(check, where, item)
        if parsed_jackpot and code:
            jackpots[code] = parsed_jackpot[0]
            canonical_jackpots.append(parsed_jackpot[1])
    jackpot_codes_seen = {item.get("code") for item in data.get("jackpots") or [] if isinstance(item, dict)}

    tables: dict[str, TableRule] = {}
    canonical_tables = []
    for n, item in enumerate(_list(check, data, "tables", required=True)):
        where = _label("tables", n, item, "number")
        if not check.keys(where, item, {"number", "game", "seats"}, {"rake_policy", "jackpots"}):
            continue
        number = item.get("number")
        if not isinstance(number, str) or not re.fullmatch(r"[A-Za-z0-9-]{1,10}", number):
            check.error(where, f"number must be a quoted table number of up to 10 letters and digits, such as \"T1\", got {number!r}")
            number = None
        elif number in tables:
            check.error(where, f"table {number} is listed twice")
            number = None
        try:
            game: Game | None = Game(item.get("game"))
        except ValueError:
            check.error(where, f"game {item.get('game')!r} is not a game this room deals (one of {', '.join(Game.values)})")
            game = None
        seats = check.integer(where, "seats", item.get("seats"))
        if game is not None and seats is not None:
            if seats > MAX_SEATS[game]:
                check.error(where, f"seats {seats} is over {game.label}'s limit of {MAX_SEATS[game]} ({SEAT_LIMIT_SECTION[game]})")
                seats = None
            elif seats < MIN_SEATS:
                check.error(where, f"seats {seats} is under the {MIN_SEATS} players a poker table seats")
                seats = None
        policy_code = item.get("rake_policy")
        table_jackpots = item.get("jackpots", []) or []
        ok = True
        if game in HOUSE_BANKED:
            if policy_code is not None or table_jackpots:
                check.error(where, f"{game.label} is banked by the house: it takes no rake and pays no poker jackpot, so it has no rake_policy or jackpots")
                ok = False
        elif policy_code is None:
            check.error(where, "rake_policy is missing: every poker table takes its rake by a policy of this file (§637a.17(a))")
            ok = False
        elif policy_code not in policy_codes_seen:
            check.error(where, f"rake_policy {policy_code!r} is not a policy of this file (known: {', '.join(sorted(str(c) for c in policy_codes_seen)) or 'none'})")
            ok = False
        if not isinstance(table_jackpots, list):
            check.error(where, "jackpots must be a list of jackpot codes")
            table_jackpots, ok = [], False
        for code in table_jackpots:
            if code not in jackpot_codes_seen:
                check.error(where, f"jackpot {code!r} is not a jackpot of this file (known: {', '.join(sorted(str(c) for c in jackpot_codes_seen)) or 'none'})")
                ok = False
        if len(set(map(str, table_jackpots))) != len(table_jackpots):
            check.error(where, "a jackpot is listed twice")
            ok = False
        if ok and number and game is not None and seats is not None:
            tables[number] = TableRule(number, game, seats, policy_code, tuple(table_jackpots))
            entry: dict[str, Any] = {"number": number, "game": game.value, "seats": seats}
            if policy_code is not None:
                entry["rake_policy"] = policy_code
            entry["jackpots"] = list(table_jackpots)
            canonical_tables.append(entry)

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
    return Rules(
        room=room, room_name=content["name"], timezone=zone, gaming_day_starts=day_starts, effective_from=effective_from,
        shifts=shifts, rake_policies=policies, jackpots=jackpots, tables=tables, content=content,
    )

