"""The posted rules of a jackpot: parsed and checked from a rules file, and the drop they take from a pot.

A room's rules file (``rake.rules.validate_rules``) has a ``jackpots`` section; each item is read
here by ``jackpot_rule_parse`` with the file's ``Checker``, so its errors read like every other
("jackpots[0] (bb): shares sum to 90%, not 100%") and are reported with them. The result is a
``BadBeatRule`` (§637a.15(b)) or a ``HighHandRule`` (§637a.16(b)): the contribution, and the
qualifying hands as the evaluator's own ``BadBeatQualifier`` and ``HighHandMinimum``, so a hand the
evaluator cannot read never reaches a posted rule. ``rule.canonical()`` is the item as a rules
version stores it; reading it again gives an equal rule.

``drop_compute`` is the contribution of one pot (§637a.15(c), §637a.16(c)); ``rake.compute`` asks
it for each jackpot of a table, after the rake.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import time
from typing import Any, ClassVar

from casino_backoffice.core.checker import Checker
from casino_backoffice.money import display_cents, display_percent, format_cents, format_percent, percent_floor
from casino_backoffice.poker import BadBeatQualifier, HandCategory, HighHandMinimum
from casino_backoffice.poker.qualifiers import InvalidQualifier, hand_minimum, hand_ranks
from casino_backoffice.poker.tables import HIGH_ORDER
from tables.games import MIN_SEATS

from .models import JackpotKind

# --- The rules ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Contribution:
    """How much of each pot goes to a jackpot: "the maximum contribution amount ... the method of
    calculation ... the minimum pot amount" (§637a.15(b)(1)-(2), §637a.16(b)(2)-(4))."""

    method: str  # "fixed" or "percent"
    min_pot_cents: int
    amount_cents: int | None = None
    rate_bp: int | None = None
    max_cents: int | None = None

    def canonical(self) -> dict[str, Any]:
        if self.method == "fixed":
            assert self.amount_cents is not None
            return {
                "method": "fixed",
                "amount": format_cents(self.amount_cents),
                "min_pot": format_cents(self.min_pot_cents),
            }
        assert self.rate_bp is not None and self.max_cents is not None
        return {
            "method": "percent",
            "rate_percent": format_percent(self.rate_bp),
            "max": format_cents(self.max_cents),
            "min_pot": format_cents(self.min_pot_cents),
        }


@dataclass(frozen=True, kw_only=True)
class JackpotRule:
    """What every jackpot's posted rules say: its code in the room, name, contribution and seed."""

    kind: ClassVar[JackpotKind]
    drop_section: ClassVar[str]  # the rule a drop quotes

    code: str
    name: str
    contribution: Contribution
    seed_cents: int = 0

    def canonical(self) -> dict[str, Any]:
        """The item as a rules version stores it (money as "5.00", percents as decimal text)."""
        return {
            "code": self.code,
            "kind": self.kind.value,
            "name": self.name,
            "contribution": self.contribution.canonical(),
        }


@dataclass(frozen=True, kw_only=True)
class BadBeatRule(JackpotRule):
    """A Bad Beat (§637a.15(b)): the qualifying hands (b)(3), checked by ``qualifier``, and the share
    of the payout to each of the losing hand, the winning hand and the table (b)(4).

    ``qualifier`` is for Hold'em; at an Omaha table the same rule is checked with
    ``dataclasses.replace(rule.qualifier, game="omaha")``.
    """

    kind: ClassVar[JackpotKind] = JackpotKind.BAD_BEAT
    drop_section: ClassVar[str] = "§637a.15(c)"

    qualifier: BadBeatQualifier
    shares_bp: dict[str, int]  # each share (losing_hand, winning_hand, table_share ...) in basis points; 100% in all

    def canonical(self) -> dict[str, Any]:
        assert isinstance(self.qualifier.losing_hand_at_least, str)
        return {
            **super().canonical(),
            "qualifier": {
                "losing_hand_at_least": self.qualifier.losing_hand_at_least,
                "both_hole_cards_play": self.qualifier.both_hole_cards_play,
                "min_players": self.qualifier.min_players_dealt,
            },
            "shares": {name: format_percent(bp) for name, bp in self.shares_bp.items()},
            "seed": format_cents(self.seed_cents),
        }


@dataclass(frozen=True)
class Period:
    """The qualifying periods of a High Hand (§637a.16(b)(1)): every ``every_minutes`` from ``first_starts``."""

    every_minutes: int
    first_starts: time


@dataclass(frozen=True, kw_only=True)
class HighHandRule(JackpotRule):
    """A High Hand (§637a.16(b)): the qualifying periods (b)(1), the lowest qualifying hand and the
    players dealt in it needs, checked by ``minimum`` ((b)(6), (f)), how ties divide (b)(5), the
    time to collect (b)(7) and where an award not collected goes (§637a.16(i)). Identification is
    always required to collect (b)(7)."""

    kind: ClassVar[JackpotKind] = JackpotKind.HIGH_HAND
    drop_section: ClassVar[str] = "§637a.16(c)"

    minimum: HighHandMinimum
    period: Period
    ties: str  # "split" or "first"
    claim_within_days: int
    unclaimed: str  # "next_period" or "fund"

    def canonical(self) -> dict[str, Any]:
        return {
            **super().canonical(),
            "period": {
                "every_minutes": self.period.every_minutes,
                "first_starts": self.period.first_starts.strftime("%H:%M"),
            },
            "min_players": self.minimum.min_players_dealt,
            "min_hand": str(self.minimum.at_least),
            "ties": self.ties,
            "claim_within_days": self.claim_within_days,
            "id_required": True,
            "unclaimed": self.unclaimed,
            "seed": format_cents(self.seed_cents),
        }


# --- Reading a rules file's jackpot ---------------------------------------------------------------


def jackpot_rule_parse(check: Checker, where: str, item: dict[str, Any]) -> tuple[JackpotRule, dict[str, Any]] | None:
    """One item of a rules file's ``jackpots`` (its ``code`` already read by the loader): the rule and
    its canonical form, or None with every error added to ``check``."""
    kind = item.get("kind")
    rule: JackpotRule | None
    if kind == JackpotKind.BAD_BEAT:
        rule = _bad_beat(check, where, item)
    elif kind == JackpotKind.HIGH_HAND:
        rule = _high_hand(check, where, item)
    else:
        check.error(where, f"kind must be one of {', '.join(JackpotKind.values)}, got {kind!r}")
        return None
    return (rule, rule.canonical()) if rule is not None else None


_COMMON_KEYS = {"code", "kind", "contribution"}


def _bad_beat(check: Checker, where: str, item: dict[str, Any]) -> BadBeatRule | None:
    if not check.keys(where, item, _COMMON_KEYS | {"qualifier", "shares"}, {"seed", "name"}):
        return None
    contribution = _contribution(check, where, item.get("contribution"))
    qualifier = _bad_beat_qualifier(check, f"{where} qualifier", item.get("qualifier"))
    shares = _shares(check, where, item.get("shares"))
    seed = check.money(where, "seed", item.get("seed", "0.00"))
    if contribution is None or qualifier is None or shares is None or seed is None:
        return None
    return BadBeatRule(
        code=item["code"],
        name=str(item.get("name", "Bad Beat")),
        contribution=contribution,
        seed_cents=seed,
        qualifier=qualifier,
        shares_bp=shares,
    )


def _high_hand(check: Checker, where: str, item: dict[str, Any]) -> HighHandRule | None:
    optional = {"seed", "name", "ties", "claim_within_days", "id_required", "unclaimed"}
    if not check.keys(where, item, _COMMON_KEYS | {"period", "min_players", "min_hand"}, optional):
        return None
    contribution = _contribution(check, where, item.get("contribution"))
    period = _period(check, f"{where} period", item.get("period"))
    players = check.integer(where, "min_players", item.get("min_players"), minimum=MIN_SEATS)
    minimum = _high_hand_minimum(check, where, item.get("min_hand"))
    ties = item.get("ties", "split")
    if ties not in ("split", "first"):
        check.error(where, f"ties must be split or first (§637a.16(b)(5)), got {ties!r}")
        ties = None
    days = check.integer(where, "claim_within_days", item.get("claim_within_days", 7), minimum=1)
    id_required = item.get("id_required", True)
    if id_required is not True:
        check.error(
            where, "id_required must be true: valid identification is presented to collect a high hand (§637a.16(b)(7))"
        )
    unclaimed = item.get("unclaimed", "next_period")
    if unclaimed not in ("next_period", "fund"):
        check.error(where, f"unclaimed must be next_period or fund (§637a.16(i)), got {unclaimed!r}")
        unclaimed = None
    seed = check.money(where, "seed", item.get("seed", "0.00"))
    if (
        contribution is None
        or period is None
        or players is None
        or minimum is None
        or ties is None
        or days is None
        or id_required is not True
        or unclaimed is None
        or seed is None
    ):
        return None
    return HighHandRule(
        code=item["code"],
        name=str(item.get("name", "High Hand")),
        contribution=contribution,
        seed_cents=seed,
        minimum=replace(minimum, min_players_dealt=players),
        period=period,
        ties=ties,
        claim_within_days=days,
        unclaimed=unclaimed,
    )


def _contribution(check: Checker, where: str, item: Any) -> Contribution | None:
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
        return Contribution(method="fixed", amount_cents=amount, min_pot_cents=min_pot)
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
        return Contribution(method="percent", rate_bp=rate, max_cents=maximum, min_pot_cents=min_pot)
    check.error(where, f"method must be fixed or percent (§637a.15(b)(1)), got {method!r}")
    return None


def _shares(check: Checker, where: str, shares: Any) -> dict[str, int] | None:
    if not isinstance(shares, dict) or not shares:
        check.error(where, "shares must map each share (losing_hand, winning_hand, table_share ...) to a percent")
        return None
    found: dict[str, int] = {}
    for name, value in shares.items():
        bp = check.percent_bp(where, f"shares.{name}", value)
        if bp is None:
            return None
        found[str(name)] = bp
    total = sum(found.values())
    if total != 10_000:
        check.error(where, f"shares sum to {format_percent(total)}%, not 100%")
        return None
    return found


# A Bad Beat's losing hand is written by category for the flushes, and as five ranks for the rest.
_BAD_BEAT_BY_CATEGORY = (HandCategory.STRAIGHT_FLUSH, HandCategory.ROYAL_FLUSH)
_BAD_BEAT_BY_RANKS = (HandCategory.FULL_HOUSE, HandCategory.FOUR_OF_A_KIND)


def _bad_beat_hand_written(hand: Any) -> bool:
    """Whether the evaluator reads ``hand`` as a full house or better, written as the file writes it:
    ``straight_flush`` or ``royal_flush``, or the five ranks of a full house or four of a kind, the
    set first ("AAATT", "8888A"), so that one hand is always written one way."""
    try:
        minimum = hand_minimum(hand)
    except InvalidQualifier:
        return False
    if hand in _BAD_BEAT_BY_CATEGORY:
        return True
    return minimum.category in _BAD_BEAT_BY_RANKS and hand == hand_ranks(minimum)


def _bad_beat_qualifier(check: Checker, where: str, qualifier: Any) -> BadBeatQualifier | None:
    """The posted qualifying hands of a Bad Beat (§637a.15(b)(3)) as the evaluator checks them."""
    if not check.keys(where, qualifier, {"losing_hand_at_least"}, {"both_hole_cards_play", "min_players"}):
        return None
    hand = qualifier.get("losing_hand_at_least")
    written = _bad_beat_hand_written(hand)
    if not written:
        check.error(
            where,
            "losing_hand_at_least must be a full house or four of a kind written as ranks, the set first, such as "
            f'"AAATT" (aces full of tens) or "8888A", or straight_flush or royal_flush; got {hand!r}',
        )
    both = check.boolean(where, "both_hole_cards_play", qualifier.get("both_hole_cards_play", False))
    players = check.integer(where, "min_players", qualifier.get("min_players", MIN_SEATS), minimum=MIN_SEATS)
    if not written or both is None or players is None:
        return None
    try:
        return BadBeatQualifier(hand, both_hole_cards_play=both, min_players_dealt=players)
    except InvalidQualifier as refusal:
        check.error(where, str(refusal))
        return None


def _evaluator_accepts(category: HandCategory) -> bool:
    try:
        HighHandMinimum(category)
    except InvalidQualifier:
        return False
    return True


# The categories a High Hand minimum may name: those the evaluator tracks (§637a.16(f)), lowest first.
HIGH_HAND_MINIMUMS = tuple(category.value for category in HIGH_ORDER if _evaluator_accepts(category))


def _high_hand_minimum(check: Checker, where: str, min_hand: Any) -> HighHandMinimum | None:
    """The lowest qualifying high hand as a category, read by the evaluator (§637a.16(f): a full house or better)."""
    if not isinstance(min_hand, str) or min_hand not in HIGH_ORDER:
        check.error(where, f"min_hand must be one of {', '.join(HIGH_HAND_MINIMUMS)}, got {min_hand!r}")
        return None
    try:
        return HighHandMinimum(HandCategory(min_hand))
    except InvalidQualifier:
        check.error(
            where,
            f"min_hand {min_hand} is below a full house; a qualifying high hand is a full house or better (§637a.16(f))",
        )
        return None


def _period(check: Checker, where: str, period: Any) -> Period | None:
    if not check.keys(where, period, {"every_minutes"}, {"first_starts"}):
        return None
    every = check.integer(where, "every_minutes", period.get("every_minutes"), minimum=1)
    if every is not None and 1440 % every:
        check.error(where, f"every_minutes {every} must divide the 24-hour day (§637a.16(b)(1))")
        every = None
    first = check.clock(where, "first_starts", period.get("first_starts", "00:00"))
    if every is None or first is None:
        return None
    return Period(every_minutes=every, first_starts=first)


# --- The drop of one pot --------------------------------------------------------------------------


@dataclass(frozen=True)
class Drop:
    """A jackpot's contribution from one pot, and the rule that set it in words a dealer reads to a player."""

    code: str
    amount_cents: int
    rule: str


def drop_compute(*, jackpot: JackpotRule, rakeable_cents: int, remaining_cents: int, players: int) -> Drop:
    """One jackpot's contribution, determined after the rake (§637a.15(c), §637a.16(c)).

    ``rakeable_cents`` is the pot without the uncalled final bet: it decides the minimum pot and is
    what a percent is taken of. ``remaining_cents`` is what the rake and the drops before this one
    left: a drop never takes more. ``players`` (dealt in) changes no contribution today; the
    qualifiers use it.
    """
    section = jackpot.drop_section
    contribution = jackpot.contribution
    pot = display_cents(rakeable_cents)
    if rakeable_cents < contribution.min_pot_cents:
        return Drop(
            jackpot.code,
            0,
            f"No drop: the pot {pot} is under the minimum pot of {display_cents(contribution.min_pot_cents)} ({section})",
        )
    if contribution.method == "fixed":
        assert contribution.amount_cents is not None
        amount, rule = (
            contribution.amount_cents,
            f"Fixed {display_cents(contribution.amount_cents)} from pots of {display_cents(contribution.min_pot_cents)} or more ({section})",
        )
    else:
        assert contribution.rate_bp is not None and contribution.max_cents is not None
        raw = percent_floor(rakeable_cents, contribution.rate_bp)
        if raw > contribution.max_cents:
            amount, rule = (
                contribution.max_cents,
                f"{display_percent(contribution.rate_bp)} of {pot} is {display_cents(raw)}, capped at {display_cents(contribution.max_cents)} ({section})",
            )
        else:
            amount, rule = (
                raw,
                f"{display_percent(contribution.rate_bp)} of {pot}, rounded down to the cent ({section})",
            )
    if amount > remaining_cents:
        return Drop(jackpot.code, remaining_cents, f"{rule}; only {display_cents(remaining_cents)} remained in the pot")
    return Drop(jackpot.code, amount, rule)
