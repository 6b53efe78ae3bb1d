"""Validation of one rake policy: percentage, incremental or time charge (§637a.17(b))."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from casino_backoffice.core.checker import Checker
from casino_backoffice.money import format_cents, format_percent

from .model import MAX_PERCENTAGE_RAKE_BP, TIME_CHARGE_INTERVALS, Level, RakeKind, RakePolicy

_COMMON = {"code", "kind"}


def _rake_policy(check: Checker, where: str, item: dict[str, Any]) -> tuple[RakePolicy, dict[str, Any]] | None:
    """One rake policy of the file by its kind, with its canonical form; None, with every error
    added to ``check``, when it is wrong."""
    kind = item.get("kind")
    parse = _BY_KIND.get(kind) if isinstance(kind, str) else None
    if parse is None:
        check.error(where, f"kind must be one of {', '.join(RakeKind.ALL)} (§637a.17(b)), got {kind!r}")
        return None
    return parse(check, where, item)


def _percentage(check: Checker, where: str, item: dict[str, Any]) -> tuple[RakePolicy, dict[str, Any]] | None:
    """A percentage rake, capped per round (§637a.17(b)(1))."""
    kind, common = RakeKind.PERCENTAGE, _COMMON
    if not check.keys(
        where, item, common | {"rate_percent", "max_per_round"}, {"increment", "min_pot", "no_flop_no_drop"}
    ):
        return None
    rate = check.percent_bp(where, "rate_percent", item.get("rate_percent"))
    if rate is not None and rate > MAX_PERCENTAGE_RAKE_BP:
        check.error(
            where,
            f"rate_percent {item['rate_percent']} is over the 10% a percentage rake may take (§637a.17(b)(1))",
        )
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
        code=item["code"],
        kind=kind,
        rate_bp=rate,
        max_per_round_cents=maximum,
        increment_cents=increment,
        min_pot_cents=min_pot,
        no_flop_no_drop=bool(no_flop),
    )
    canonical = {
        "code": policy.code,
        "kind": kind,
        "rate_percent": format_percent(rate),
        "max_per_round": format_cents(maximum),
        "increment": format_cents(increment),
        "min_pot": format_cents(min_pot),
        "no_flop_no_drop": bool(no_flop),
    }
    return policy, canonical


def _incremental(check: Checker, where: str, item: dict[str, Any]) -> tuple[RakePolicy, dict[str, Any]] | None:
    """An incremental rake: a rake for each level the pot reaches, capped per round (§637a.17(b)(2))."""
    kind, common = RakeKind.INCREMENTAL, _COMMON
    if not check.keys(where, item, common | {"levels", "max_per_round"}, set()):
        return None
    maximum = check.money(where, "max_per_round", item.get("max_per_round"), positive=True)
    levels = _levels(check, where, item.get("levels"))
    if maximum is None or levels is None:
        return None
    policy = RakePolicy(code=item["code"], kind=kind, max_per_round_cents=maximum, levels=tuple(levels))
    canonical = {
        "code": policy.code,
        "kind": kind,
        "max_per_round": format_cents(maximum),
        "levels": [{"pot": format_cents(lv.pot_cents), "rake": format_cents(lv.rake_cents)} for lv in levels],
    }
    return policy, canonical


def _levels(check: Checker, where: str, raw_levels: Any) -> list[Level] | None:
    """The levels of an incremental rake, each pot above the last and each rake at least the last;
    None, with every error added, when one is wrong."""
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
    return levels if ok else None


def _time_charge(check: Checker, where: str, item: dict[str, Any]) -> tuple[RakePolicy, dict[str, Any]] | None:
    """A time charge per player or per table, assessed every 20 or 30 minutes (§637a.17(b)(3))."""
    kind, common = RakeKind.TIME_CHARGE, _COMMON
    if not check.keys(where, item, common | {"basis", "hourly_fee", "interval_minutes"}, set()):
        return None
    basis = item.get("basis")
    if basis not in ("per_player", "per_table"):
        check.error(where, f"basis must be per_player or per_table (§637a.17(b)(3)(i)), got {basis!r}")
        basis = None
    fee = check.money(where, "hourly_fee", item.get("hourly_fee"), positive=True)
    interval = check.integer(where, "interval_minutes", item.get("interval_minutes"))
    if interval is not None and interval not in TIME_CHARGE_INTERVALS:
        check.error(
            where,
            f"interval_minutes {interval} is not allowed: a time charge is assessed every 20 or 30 minutes (§637a.17(b)(3)(iii))",
        )
        interval = None
    if fee is not None and interval is not None and fee * interval % 60:
        check.error(where, f"hourly_fee {format_cents(fee)} does not divide into whole cents every {interval} minutes")
        fee = None
    if basis is None or fee is None or interval is None:
        return None
    policy = RakePolicy(code=item["code"], kind=kind, basis=basis, hourly_fee_cents=fee, interval_minutes=interval)
    canonical = {
        "code": policy.code,
        "kind": kind,
        "basis": basis,
        "hourly_fee": format_cents(fee),
        "interval_minutes": interval,
    }
    return policy, canonical


_BY_KIND: dict[str, Callable[[Checker, str, dict[str, Any]], tuple[RakePolicy, dict[str, Any]] | None]] = {
    RakeKind.PERCENTAGE: _percentage,
    RakeKind.INCREMENTAL: _incremental,
    RakeKind.TIME_CHARGE: _time_charge,
}
