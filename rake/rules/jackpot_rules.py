"""Validation of one jackpot: its contribution (§637a.15(b), §637a.16(b)), Bad Beat qualifier and shares, High Hand period."""

from __future__ import annotations

import re
from typing import Any

from casino_backoffice.money import format_cents
from tables.games import MIN_SEATS

from .checker import _Checker, _percent_text
from .model import BELOW_FULL_HOUSE, HIGH_HAND_CATEGORIES, RANKS, Contribution, JackpotKind, JackpotRule


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
