"""The High Hand's posted rules (§637a.16(b)), read from an item of a rules file's ``jackpots`` of kind
``high_hand`` (the reader registered with ``jackpots.funds.rules``): the contribution, the periods,
the fewest players and the qualifying hand as the evaluator's own ``HighHandMinimum``, how ties
divide, the time limit to collect and where an award not collected goes."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import time
from typing import Any, ClassVar

from casino_backoffice.core.checker import Checker
from casino_backoffice.money import format_cents
from casino_backoffice.poker import HandCategory, HighHandMinimum
from jackpots.funds.models import JackpotKind
from jackpots.funds.rules import COMMON_KEYS, JackpotRule, contribution_parse, jackpot_kind_reader
from tables.games import MIN_SEATS


@dataclass(frozen=True)
class Period:
    """Periods of a High Hand (§637a.16(b)(1)): one every ``every_minutes`` from ``first_starts``, by
    the room's clock, tiling the day (``every_minutes`` divides 24 hours)."""

    every_minutes: int
    first_starts: time

    def canonical(self) -> dict[str, Any]:
        return {"every_minutes": self.every_minutes, "first_starts": self.first_starts.strftime("%H:%M")}


# How a High Hand divides between tied hands: "The player or players with the highest Qualifying High
# Hand during the qualifying period shall be awarded" it (§637a.16(h)), so tied players share; the only
# value a rules file may write (§637a.16(b)(5)).
HIGH_HAND_TIES: tuple[str, ...] = ("split",)
TIE_RULE = (
    "Tied players share equally: the pool is split equally among the tied hands, rounded down to the cent, "
    "and the odd cents go one each to the tied hands in the order they were recorded on the High Hand "
    "Tracking Slip."
)
# Where an award not collected within the time limit goes (§637a.16(i)): into the pool of the
# qualifying period open when its time limit ends, or kept in the fund and added to the next
# period's pool at the next close.
HIGH_HAND_UNCLAIMED: tuple[str, ...] = ("next_period", "fund")
# The lowest Qualifying High Hand: a full house (§637a.16(f)); the highest made in a period wins (h).
HIGH_HAND_MINIMUM = HandCategory.FULL_HOUSE.value


@dataclass(frozen=True, kw_only=True)
class HighHandRule(JackpotRule):
    """A High Hand (§637a.16(b)): the collection and qualifying periods (b)(1), the fewest players
    dealt in and the qualifying hand, a full house or better, checked by ``minimum`` ((b)(4), (f)),
    how ties divide (b)(5), the time limit to collect (b)(6) and where an award not collected in it
    goes (§637a.16(i)). Valid identification is always required for a hand to qualify (b)(7).

    ``period`` is the qualifying period; ``collection_period`` the period whose contributions make a
    pool, today always equal to it (a round's contribution belongs to the qualifying period its end
    falls in). ``show_player_name``: whether the display board may show the current high hand's
    player by name, else by table and seat only."""

    kind: ClassVar[JackpotKind] = JackpotKind.HIGH_HAND
    drop_section: ClassVar[str] = "§637a.16(c)"

    minimum: HighHandMinimum
    period: Period
    collection_period: Period
    claim_within_days: int
    unclaimed: str  # one of HIGH_HAND_UNCLAIMED
    ties: str = "split"  # one of HIGH_HAND_TIES
    show_player_name: bool = False

    def canonical(self) -> dict[str, Any]:
        return {
            **super().canonical(),
            "period": self.period.canonical(),
            "collection_period": self.collection_period.canonical(),
            "min_players": self.minimum.min_players_dealt,
            "min_hand": str(self.minimum.at_least),
            "ties": self.ties,
            "claim_within_days": self.claim_within_days,
            "id_required": True,
            "unclaimed": self.unclaimed,
            "show_player_name": self.show_player_name,
            "seed": format_cents(self.seed_cents),
        }


def _high_hand(check: Checker, where: str, item: dict[str, Any], *, stored: bool) -> HighHandRule | None:
    # ``claim_within_days`` and ``unclaimed`` are required; they are reported here, with the rule
    # that requires them, rather than as a bare missing key.
    optional = {
        "seed",
        "name",
        "min_hand",
        "ties",
        "claim_within_days",
        "id_required",
        "unclaimed",
        "collection_period",
        "show_player_name",
    }
    if not check.keys(where, item, COMMON_KEYS | {"period", "min_players"}, optional):
        return None
    contribution = contribution_parse(
        check, where, item.get("contribution"), section=HighHandRule.drop_section, stored=stored
    )
    period = _period(check, f"{where} period", item.get("period"))
    collection = period
    if item.get("collection_period") is not None:
        collection = _period(check, f"{where} collection_period", item["collection_period"])
        if collection is not None and period is not None and collection != period:
            check.error(
                where,
                "collection_period must equal the qualifying period: a period's pool is the contributions of the "
                "rounds that ended in it",
            )
            collection = None
    players = check.integer(where, "min_players", item.get("min_players"), minimum=MIN_SEATS)
    minimum = _high_hand_minimum(check, where, item.get("min_hand", HIGH_HAND_MINIMUM))
    ties = _high_hand_ties(check, where, item.get("ties", "split"))
    days: int | None = None
    if "claim_within_days" not in item:
        check.error(
            where,
            "claim_within_days is missing: the posted rules state the time limit to collect a High Hand award, in "
            "whole days, such as claim_within_days: 7 (§637a.16(b)(6)); it has no default",
        )
    else:
        days = check.integer(where, "claim_within_days", item["claim_within_days"], minimum=1)
    id_required = item.get("id_required", True)
    if id_required is not True:
        check.error(
            where,
            "id_required must be true: valid identification shall be presented for a player's hand to qualify "
            "(§637a.16(b)(7))",
        )
    unclaimed = _high_hand_unclaimed(check, where, item)
    show_name = check.boolean(where, "show_player_name", item.get("show_player_name", False))
    seed = check.money(where, "seed", item.get("seed", "0.00"))
    if seed:
        check.error(
            where,
            f"seed must be 0.00: a High Hand is paid from 'a separate fund created from pot contributions' "
            f"(§637a.16(a)), so the house adds nothing to it (got {format_cents(seed)})",
        )
        seed = None
    if (
        contribution is None
        or period is None
        or collection is None
        or players is None
        or minimum is None
        or ties is None
        or days is None
        or id_required is not True
        or unclaimed is None
        or show_name is None
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
        collection_period=collection,
        ties=ties,
        claim_within_days=days,
        unclaimed=unclaimed,
        show_player_name=show_name,
    )


def _high_hand_ties(check: Checker, where: str, ties: Any) -> str | None:
    """How tied Qualifying High Hands divide (§637a.16(b)(5)): they share, since "the player or
    players" with the highest hand are awarded it (§637a.16(h))."""
    if ties == "first":
        check.error(
            where,
            "ties: first is refused: 'The player or players with the highest Qualifying High Hand during the "
            "qualifying period shall be awarded' it (§637a.16(h)), so tied players share; write ties: split or "
            "leave it out",
        )
        return None
    if ties not in HIGH_HAND_TIES:
        check.error(where, f"ties must be split: tied players share the award (§637a.16(b)(5), (h)), got {ties!r}")
        return None
    return str(ties)


def _high_hand_unclaimed(check: Checker, where: str, item: dict[str, Any]) -> str | None:
    """Where an award not collected within the time limit goes (§637a.16(i)): stated, never assumed."""
    if "unclaimed" not in item:
        check.error(
            where,
            "unclaimed is missing: the Rules Submission states what becomes of a High Hand award not collected "
            "within claim_within_days (§637a.16(i)): next_period (into the pool of the qualifying period open "
            "when the time limit ends) or fund (kept in the fund, added to the next period's pool at its close); "
            "it has no default",
        )
        return None
    unclaimed = item["unclaimed"]
    if unclaimed not in HIGH_HAND_UNCLAIMED:
        check.error(where, f"unclaimed must be next_period or fund (§637a.16(i)), got {unclaimed!r}")
        return None
    return str(unclaimed)


def _high_hand_minimum(check: Checker, where: str, min_hand: Any) -> HighHandMinimum | None:
    """The lowest Qualifying High Hand, read by the evaluator: a full house (§637a.16(f)). The rules
    may not raise it: the highest Qualifying High Hand of the period wins, and a period without a
    full house rolls its pool over (§637a.16(h))."""
    if min_hand != HIGH_HAND_MINIMUM:
        check.error(
            where,
            f"min_hand must be full_house, got {min_hand!r}: a Qualifying High Hand is a full house or better "
            "(§637a.16(f)); the highest one made in a period wins it, and only a period without a full house rolls "
            "its pool over (§637a.16(h)), so the rules may neither lower nor raise it",
        )
        return None
    return HighHandMinimum(HandCategory(min_hand))


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


jackpot_kind_reader(JackpotKind.HIGH_HAND, _high_hand)
