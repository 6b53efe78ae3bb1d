"""The posted rules of a jackpot: parsed and checked from a rules file, and the drop they take from a pot.

A room's rules file (``rake.rules.validate_rules``) has a ``jackpots`` section; each item is read
here by ``jackpot_rule_parse`` with the file's ``Checker``, so its errors read like every other
("jackpots[0] (bb) hands[0] (bad_beat): shares sum to 90%, not 100%") and are reported with them.
The result is a ``BadBeatRule`` (§637a.15(b)) or a ``HighHandRule`` (§637a.16(b)): the
contribution, and the qualifying hands as the evaluator's own ``BadBeatQualifier`` and
``HighHandMinimum``, so a hand the evaluator cannot read never reaches a posted rule. A Bad Beat
fund pays one or more Bad Beat hands (§637a.15(a)), each a ``BadBeatHand`` with its games, its
qualifier, the part of the fund it pays and its shares. ``rule.canonical()`` is the item as a rules
version stores it, every key written; reading it again gives an equal rule.

``drop_compute`` is the contribution of one pot (§637a.15(c), §637a.16(c)); ``rake.compute`` asks
it for each jackpot of a table, after the rake.

A new rules file is read with ``stored=False``; the content of a rules version already stored is read
again with ``stored=True``, so that a version keeps what it posted and rated even where the file it came
from would be refused today (a contribution measured ``before_rake``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, time
from typing import Any, ClassVar

from casino_backoffice.core.checker import Checker, label
from casino_backoffice.money import display_cents, display_percent, format_cents, format_percent, percent_floor
from casino_backoffice.poker import BadBeatQualifier, HandCategory, HighHandMinimum
from casino_backoffice.poker.qualifiers import InvalidQualifier, hand_minimum, hand_ranks
from tables.games import MIN_SEATS, Game

from .models import JackpotKind

# The games whose hands the evaluator checks for a Bad Beat (board and hole cards): Hold'em, and
# Omaha high and high-low, where the high hand uses exactly two hole cards (§637a.12(k)).
BAD_BEAT_GAMES: tuple[str, ...] = (Game.HOLDEM.value, Game.OMAHA_HIGH.value, Game.OMAHA_HIGH_LOW.value)
# How the evaluator's ``BadBeatQualifier`` names each of those games.
_EVALUATOR_GAME = {Game.HOLDEM.value: "holdem", Game.OMAHA_HIGH.value: "omaha", Game.OMAHA_HIGH_LOW.value: "omaha"}

# Who shares a Bad Beat hand's payout (§637a.15(b)(3) "Qualifying Bad Beat requirements and payouts").
SHARE_NAMES: tuple[str, ...] = ("losing_hand", "winning_hand", "table_share")

# What a contribution's minimum pot and percentage are measured on: the pot without the uncalled
# final bet, less the rake ("After the dealer has extracted the rake", §637a.15(c), §637a.16(c)). A new
# rules file may write only ``after_rake``; ``before_rake`` is read from versions stored before it was
# refused, for their history.
CONTRIBUTION_BASES: tuple[str, ...] = ("after_rake", "before_rake")
_BASE_WORDS = {"after_rake": "after the rake", "before_rake": "before the rake"}

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
    # What the minimum pot and the percentage are measured on (``CONTRIBUTION_BASES``): the pot
    # without the uncalled bet less the rake; ``before_rake`` only in a version stored before it was refused.
    base: str = "after_rake"
    # No drop when the table's percentage rake took none because no flop was dealt.
    no_flop_no_drop: bool = True

    def canonical(self) -> dict[str, Any]:
        how = {"base": self.base, "no_flop_no_drop": self.no_flop_no_drop}
        if self.method == "fixed":
            assert self.amount_cents is not None
            return {
                "method": "fixed",
                "amount": format_cents(self.amount_cents),
                "min_pot": format_cents(self.min_pot_cents),
                **how,
            }
        assert self.rate_bp is not None and self.max_cents is not None
        return {
            "method": "percent",
            "rate_percent": format_percent(self.rate_bp),
            "max": format_cents(self.max_cents),
            "min_pot": format_cents(self.min_pot_cents),
            **how,
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


@dataclass(frozen=True)
class Discontinuation:
    """§637a.15(i): the Executive Director's approval of the room's procedures for discontinuing the
    Bad Beat ("A Bad Beat payout may not be offered at a Poker table until ... the Executive Director
    has approved procedures for discontinuing any Bad Beat payout")."""

    approved_on: date
    reference: str  # non-empty, e.g. "PGCB letter 2025-117"

    def canonical(self) -> dict[str, Any]:
        return {"approved_on": self.approved_on.isoformat(), "reference": self.reference}


@dataclass(frozen=True)
class BadBeatHand:
    """One Bad Beat hand of a fund (§637a.15(a) "one or more Bad Beat hands"; (b)(3) its qualifying
    requirements and payout): the games it is paid at, its qualifier, the part of the fund's payable
    balance it pays and how that divides between the losing hand, the winning hand and the table."""

    code: str  # slug, unique within the jackpot
    name: str  # e.g. "Bad Beat", "Mini Bad Beat"
    games: tuple[str, ...]  # non-empty subset of BAD_BEAT_GAMES, as listed
    qualifier: BadBeatQualifier  # built with game="holdem"; see ``qualifier_for``
    payout_bp: int  # the part of the fund's payable balance this hand pays, 1..10000 bp
    shares_bp: dict[str, int]  # keys only from SHARE_NAMES, each > 0, 10000 bp in all

    def qualifier_for(self, game: str) -> BadBeatQualifier:
        """The qualifier as the evaluator checks it at a table of ``game``: as written at Hold'em; at
        Omaha high and high-low with ``game="omaha"``, the hand using exactly two hole cards
        (§637a.12(k)). A game the hand is not paid at is a ``ValueError``."""
        if game not in self.games:
            raise ValueError(f"Bad Beat hand {self.code} is not paid at {game} (its games: {', '.join(self.games)})")
        if _EVALUATOR_GAME[str(game)] == "omaha":
            return replace(self.qualifier, game="omaha")
        return self.qualifier

    def canonical(self) -> dict[str, Any]:
        assert isinstance(self.qualifier.losing_hand_at_least, str)
        return {
            "code": self.code,
            "name": self.name,
            "games": list(self.games),
            "payout_percent": format_percent(self.payout_bp),
            "qualifier": {
                "losing_hand_at_least": self.qualifier.losing_hand_at_least,
                "both_hole_cards_play": self.qualifier.both_hole_cards_play,
                "min_players": self.qualifier.min_players_dealt,
            },
            "shares": {name: format_percent(self.shares_bp[name]) for name in SHARE_NAMES if name in self.shares_bp},
        }


@dataclass(frozen=True, kw_only=True)
class BadBeatRule(JackpotRule):
    """A Bad Beat (§637a.15(b)): a fund paying one or more Bad Beat hands ((a), (b)(3)), the part of
    the fund's balance kept back for the next jackpot (``reserve_bp``), the Executive Director's
    approval of the procedures for discontinuing it, without which no table may offer it (§637a.15(i)),
    and the house's limit on adjusting its display after a verification (``display_adjust_within_minutes``,
    §637a.15(h): 'immediately upon notification of a Bad Beat verification'); None: no limit posted."""

    kind: ClassVar[JackpotKind] = JackpotKind.BAD_BEAT
    drop_section: ClassVar[str] = "§637a.15(c)"

    hands: tuple[BadBeatHand, ...]  # non-empty, codes unique, in file order
    reserve_bp: int = 0  # 0 to under 10000 bp: the part of the fund's balance kept back for the next jackpot
    discontinuation: Discontinuation | None = None
    display_adjust_within_minutes: int | None = None  # 1 to DISPLAY_ADJUST_MOST_MINUTES

    def hands_for(self, game: str) -> tuple[BadBeatHand, ...]:
        """The hands paid at a table of ``game``, in file order (none at a game the evaluator cannot check)."""
        return tuple(hand for hand in self.hands if game in hand.games)

    def canonical(self) -> dict[str, Any]:
        # The display limit is written only when posted, so that a file without one keeps the
        # canonical form (and the SHA-256) of the versions stored before the key existed.
        limit = (
            {}
            if self.display_adjust_within_minutes is None
            else {"display_adjust_within_minutes": self.display_adjust_within_minutes}
        )
        return {
            **super().canonical(),
            "reserve_percent": format_percent(self.reserve_bp),
            "discontinuation": self.discontinuation.canonical() if self.discontinuation else None,
            **limit,
            "hands": [hand.canonical() for hand in self.hands],
            "seed": format_cents(self.seed_cents),
        }


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


# --- Reading a rules file's jackpot ---------------------------------------------------------------


def jackpot_rule_parse(
    check: Checker, where: str, item: dict[str, Any], *, stored: bool = False
) -> tuple[JackpotRule, dict[str, Any]] | None:
    """One item of a rules file's ``jackpots`` (its ``code`` already read by the loader): the rule and
    its canonical form, or None with every error added to ``check``. ``stored``: the item is the content
    of a rules version already stored, read again for its history (see the module's docstring)."""
    kind = item.get("kind")
    rule: JackpotRule | None
    if kind == JackpotKind.BAD_BEAT:
        rule = _bad_beat(check, where, item, stored=stored)
    elif kind == JackpotKind.HIGH_HAND:
        rule = _high_hand(check, where, item, stored=stored)
    else:
        check.error(where, f"kind must be one of {', '.join(JackpotKind.values)}, got {kind!r}")
        return None
    return (rule, rule.canonical()) if rule is not None else None


_COMMON_KEYS = {"code", "kind", "contribution"}


# Keys a Bad Beat wrote for its one hand before a fund could pay several; now each hand's own.
_MOVED_TO_HANDS = ("qualifier", "shares")


def _bad_beat(check: Checker, where: str, item: dict[str, Any], *, stored: bool) -> BadBeatRule | None:
    moved = [key for key in _MOVED_TO_HANDS if key in item]
    required = _COMMON_KEYS | (set() if moved else {"hands"})
    optional = {
        "seed",
        "name",
        "reserve_percent",
        "discontinuation",
        "display_adjust_within_minutes",
        "hands",
        *_MOVED_TO_HANDS,
    }
    if not check.keys(where, item, required, optional):
        return None
    for key in moved:
        check.error(
            where,
            f"{key} is written under hands now, for each Bad Beat hand (§637a.15(b)(3)): "
            "hands: [{code: bad_beat, name: Bad Beat, games: [holdem], payout_percent: 100, qualifier: {...}, shares: {...}}]",
        )
    contribution = _contribution(
        check, where, item.get("contribution"), section=BadBeatRule.drop_section, stored=stored
    )
    hands = _bad_beat_hands(check, where, item.get("hands")) if "hands" in item else None
    reserve = check.percent_bp(where, "reserve_percent", item.get("reserve_percent", 0))
    if reserve is not None and reserve >= 10_000:
        check.error(
            where,
            f"reserve_percent {item.get('reserve_percent')} must be under 100: the part of the fund's balance kept "
            "back for the next jackpot, such as 10",
        )
        reserve = None
    discontinuation = None
    if item.get("discontinuation") is not None:
        discontinuation = _discontinuation(check, f"{where} discontinuation", item["discontinuation"])
    display_limit = _display_adjust_within_minutes(check, where, item)
    seed = check.money(where, "seed", item.get("seed", "0.00"))
    if seed:
        check.error(
            where,
            f"seed must be 0.00: a Bad Beat is paid from 'a separate fund created from pot contributions' "
            f"(§637a.15(a)), so the house adds nothing to it (got {format_cents(seed)})",
        )
        seed = None
    if (
        moved
        or contribution is None
        or hands is None
        or reserve is None
        or (discontinuation is None and item.get("discontinuation") is not None)
        or (display_limit is None and item.get("display_adjust_within_minutes") is not None)
        or seed is None
    ):
        return None
    return BadBeatRule(
        code=item["code"],
        name=str(item.get("name", "Bad Beat")),
        contribution=contribution,
        seed_cents=seed,
        hands=hands,
        reserve_bp=reserve,
        discontinuation=discontinuation,
        display_adjust_within_minutes=display_limit,
    )


# The longest limit a room may post for adjusting a Bad Beat's display after a verification: a day,
# since the display is adjusted 'no less than once a day' anyway (§637a.15(h)).
DISPLAY_ADJUST_MOST_MINUTES = 24 * 60


def _display_adjust_within_minutes(check: Checker, where: str, item: dict[str, Any]) -> int | None:
    """The house's posted limit, in minutes from the verification of a Bad Beat, for the display to show
    the adjusted amount in the presence of a floorperson or above (§637a.15(h), (h)(1): 'immediately
    upon notification of a Bad Beat verification'); None when the file posts none or it is refused."""
    if item.get("display_adjust_within_minutes") is None:
        return None
    minutes = item["display_adjust_within_minutes"]
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= DISPLAY_ADJUST_MOST_MINUTES:
        check.error(
            where,
            f"display_adjust_within_minutes must be a whole number of minutes from 1 to {DISPLAY_ADJUST_MOST_MINUTES}: "
            "how soon after a Bad Beat is verified the display shows the adjusted amount, adjusted by finance in the "
            f"presence of a floorperson or above (§637a.15(h)), such as 15; got {minutes!r}",
        )
        return None
    return minutes


def _discontinuation(check: Checker, where: str, item: Any) -> Discontinuation | None:
    """The Executive Director's approval of the procedures for discontinuing the Bad Beat (§637a.15(i))."""
    if not check.keys(where, item, {"approved_on", "reference"}, set()):
        return None
    # A missing key is reported once, by ``check.keys``.
    approved_on = check.day(where, "approved_on", item["approved_on"]) if "approved_on" in item else None
    reference = item.get("reference")
    if "reference" in item and (not isinstance(reference, str) or not reference.strip()):
        check.error(
            where,
            f'reference must name the Executive Director\'s approval, such as "PGCB letter 2025-117", got {reference!r}',
        )
    if approved_on is None or not isinstance(reference, str) or not reference.strip():
        return None
    return Discontinuation(approved_on=approved_on, reference=reference.strip())


def _bad_beat_hands(check: Checker, where: str, items: Any) -> tuple[BadBeatHand, ...] | None:
    """The fund's Bad Beat hands (§637a.15(a) "one or more Bad Beat hands"), in file order."""
    if not isinstance(items, list) or not items:
        check.error(
            where,
            "hands must list one or more Bad Beat hands (§637a.15(a)), each "
            "{code, name, games, payout_percent, qualifier, shares}",
        )
        return None
    hands: list[BadBeatHand] = []
    ok = True
    for n, item in enumerate(items):
        hand_where = f"{where} {label('hands', n, item, 'code')}"
        hand = _bad_beat_hand(check, hand_where, item)
        if hand is None:
            ok = False
        elif any(earlier.code == hand.code for earlier in hands):
            check.error(hand_where, f"code {hand.code} is used by an earlier hand of this jackpot")
            ok = False
        else:
            hands.append(hand)
    return tuple(hands) if ok else None


def _bad_beat_hand(check: Checker, where: str, item: Any) -> BadBeatHand | None:
    """One Bad Beat hand: its qualifying requirements and payout (§637a.15(b)(3))."""
    if not check.keys(where, item, {"code", "name", "games", "qualifier", "shares"}, {"payout_percent"}):
        return None
    # A missing key is reported once, by ``check.keys``; every key present is read.
    code = check.code(where, "code", item["code"]) if "code" in item else None
    name = item.get("name")
    if "name" in item and (not isinstance(name, str) or not name.strip()):
        check.error(where, f'name must be the hand\'s posted name, such as "Bad Beat" or "Mini Bad Beat", got {name!r}')
    if not isinstance(name, str) or not name.strip():
        name = None
    games = _bad_beat_games(check, where, item["games"]) if "games" in item else None
    qualifier = _bad_beat_qualifier(check, f"{where} qualifier", item["qualifier"]) if "qualifier" in item else None
    payout = check.percent_bp(where, "payout_percent", item.get("payout_percent", 100))
    if payout is not None and not 0 < payout <= 10_000:
        check.error(
            where,
            f"payout_percent {item.get('payout_percent')} must be more than 0 and at most 100: the part of the fund's "
            "payable balance this hand pays, such as 100",
        )
        payout = None
    shares = _shares(check, where, item["shares"]) if "shares" in item else None
    if code is None or name is None or games is None or qualifier is None or payout is None or shares is None:
        return None
    return BadBeatHand(
        code=code, name=name.strip(), games=games, qualifier=qualifier, payout_bp=payout, shares_bp=shares
    )


def _bad_beat_games(check: Checker, where: str, games: Any) -> tuple[str, ...] | None:
    """The games a Bad Beat hand is paid at: only those whose hands the evaluator checks."""
    known = ", ".join(BAD_BEAT_GAMES)
    if not isinstance(games, list) or not games:
        check.error(where, f"games must list the games this hand is paid at, from {known}")
        return None
    ok = True
    for game in games:
        if game not in BAD_BEAT_GAMES:
            check.error(
                where,
                f"games: the evaluator checks Bad Beat hands of {known} only; {game!r} is not one of them",
            )
            ok = False
    if ok and len(set(games)) != len(games):
        check.error(where, "games: a game is listed twice")
        ok = False
    return tuple(games) if ok else None


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
    if not check.keys(where, item, _COMMON_KEYS | {"period", "min_players"}, optional):
        return None
    contribution = _contribution(
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


def _contribution(check: Checker, where: str, item: Any, *, section: str, stored: bool) -> Contribution | None:
    where = f"{where} contribution"
    if not isinstance(item, dict):
        check.error(where, "must be a mapping with method, amount or rate_percent, and min_pot")
        return None
    method = item.get("method")
    how = {"base", "no_flop_no_drop"}
    if method == "fixed":
        if not check.keys(where, item, {"method", "amount", "min_pot"}, how):
            return None
        amount = check.money(where, "amount", item.get("amount"), positive=True)
        min_pot = check.money(where, "min_pot", item.get("min_pot"))
        base, no_flop_no_drop = _contribution_base(check, where, item, section=section, stored=stored)
        if amount is None or min_pot is None or base is None or no_flop_no_drop is None:
            return None
        return Contribution(
            method="fixed", amount_cents=amount, min_pot_cents=min_pot, base=base, no_flop_no_drop=no_flop_no_drop
        )
    if method == "percent":
        if not check.keys(where, item, {"method", "rate_percent", "max", "min_pot"}, how):
            return None
        rate = check.percent_bp(where, "rate_percent", item.get("rate_percent"))
        if rate is not None and not 0 < rate <= 10_000:
            check.error(where, f"rate_percent {item.get('rate_percent')} must be more than 0 and at most 100")
            rate = None
        maximum = check.money(where, "max", item.get("max"), positive=True)
        min_pot = check.money(where, "min_pot", item.get("min_pot"))
        base, no_flop_no_drop = _contribution_base(check, where, item, section=section, stored=stored)
        if rate is None or maximum is None or min_pot is None or base is None or no_flop_no_drop is None:
            return None
        return Contribution(
            method="percent",
            rate_bp=rate,
            max_cents=maximum,
            min_pot_cents=min_pot,
            base=base,
            no_flop_no_drop=no_flop_no_drop,
        )
    check.error(where, f"method must be fixed or percent (§637a.15(b)(1)), got {method!r}")
    return None


def _contribution_base(
    check: Checker, where: str, item: dict[str, Any], *, section: str, stored: bool
) -> tuple[str | None, bool | None]:
    """What the minimum pot and the percentage are measured on, and whether "no flop, no drop" stops
    the drop too. The contribution is determined "After the dealer has extracted the rake"
    (``section``: §637a.15(c) for a Bad Beat, §637a.16(c) for a High Hand), so a new file may write only
    ``after_rake``; a version stored before ``before_rake`` was refused is read as it was (``stored``)."""
    base = item.get("base", "after_rake")
    if base == "before_rake" and not stored:
        check.error(
            where,
            "base before_rake is refused: 'After the dealer has extracted the rake, the amount from each pot to be "
            f"contributed ... shall be determined' ({section}), so a contribution and its minimum pot are measured on "
            "the pot less the rake; write base: after_rake or leave it out",
        )
        base = None
    elif base not in CONTRIBUTION_BASES:
        check.error(where, f"base must be after_rake (the pot less the rake, {section}), got {base!r}")
        base = None
    no_flop_no_drop = check.boolean(where, "no_flop_no_drop", item.get("no_flop_no_drop", True))
    return base, no_flop_no_drop


def _shares(check: Checker, where: str, shares: Any) -> dict[str, int] | None:
    """How a Bad Beat hand's payout divides (§637a.15(b)(3)): percent to each of losing_hand,
    winning_hand and table_share that is paid, 100% in all."""
    if not isinstance(shares, dict) or not shares:
        check.error(
            where,
            "shares must map each of losing_hand, winning_hand and table_share that is paid to a percent, "
            "such as {losing_hand: 50, winning_hand: 25, table_share: 25}",
        )
        return None
    found: dict[str, int] = {}
    ok = True
    for name, value in shares.items():
        if name not in SHARE_NAMES:
            check.error(where, f"unknown share {name!r}: shares may be losing_hand, winning_hand and table_share")
            ok = False
            continue
        bp = check.percent_bp(where, f"shares.{name}", value)
        if bp == 0:
            check.error(where, f"shares.{name} must be more than 0; leave out a share that is not paid")
            bp = None
        if bp is None:
            ok = False
            continue
        found[name] = bp
    if not ok:
        return None
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
    """The posted qualifying hands of a Bad Beat (§637a.15(b)(3)) as the evaluator checks them, at Hold'em."""
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
    players: int | None = None
    if "min_players" not in qualifier:
        check.error(
            where,
            "min_players is missing: the posted requirements state the fewest players dealt in that a Bad Beat "
            "needs, such as min_players: 4 (§637a.15(b)(3)); it has no default",
        )
    else:
        players = check.integer(where, "min_players", qualifier["min_players"], minimum=MIN_SEATS)
    if not written or both is None or players is None:
        return None
    try:
        return BadBeatQualifier(hand, both_hole_cards_play=both, min_players_dealt=players)
    except InvalidQualifier as refusal:
        check.error(where, str(refusal))
        return None


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


# --- The drop of one pot --------------------------------------------------------------------------


@dataclass(frozen=True)
class Drop:
    """A jackpot's contribution from one pot, and the rule that set it in words a dealer reads to a player."""

    code: str
    amount_cents: int
    rule: str


def drop_compute(
    *,
    jackpot: JackpotRule,
    rakeable_cents: int,
    rake_cents: int,
    remaining_cents: int,
    players: int,
    no_flop_no_drop_applied: bool,
) -> Drop:
    """One jackpot's contribution from one pot: "After the dealer has extracted the rake, the amount
    from each pot to be contributed ... shall be determined" (§637a.15(c), §637a.16(c)).

    ``rakeable_cents`` is the pot without the uncalled final bet and ``rake_cents`` the rake taken
    from it. The contribution's ``base`` says what its minimum pot and percentage are measured on:
    ``after_rake``, the pot less the rake, or ``before_rake``, the pot as raked (only a rules version
    stored before it was refused says so: its rounds are rated, and read again, as it posted them).
    ``no_flop_no_drop_applied`` is whether the table's percentage rake took nothing because no flop
    was dealt; a contribution with ``no_flop_no_drop`` then takes nothing either. ``remaining_cents``
    is what the rake and the drops before this one left: a drop never takes more. ``players`` (dealt
    in) changes no contribution today; the qualifiers use it.
    """
    section = jackpot.drop_section
    contribution = jackpot.contribution
    if no_flop_no_drop_applied and contribution.no_flop_no_drop:
        return Drop(jackpot.code, 0, f"No drop: no flop, no drop ({section})")
    base_cents = rakeable_cents - rake_cents if contribution.base == "after_rake" else rakeable_cents
    measured = f"{display_cents(base_cents)} {_BASE_WORDS[contribution.base]}"
    if base_cents < contribution.min_pot_cents:
        return Drop(
            jackpot.code,
            0,
            f"No drop: the pot {measured} is under the minimum pot of {display_cents(contribution.min_pot_cents)} ({section})",
        )
    if contribution.method == "fixed":
        assert contribution.amount_cents is not None
        amount, rule = (
            contribution.amount_cents,
            f"Fixed {display_cents(contribution.amount_cents)} from pots of {display_cents(contribution.min_pot_cents)} "
            f"or more {_BASE_WORDS[contribution.base]} ({section})",
        )
    else:
        assert contribution.rate_bp is not None and contribution.max_cents is not None
        raw = percent_floor(base_cents, contribution.rate_bp)
        if raw > contribution.max_cents:
            amount, rule = (
                contribution.max_cents,
                f"{display_percent(contribution.rate_bp)} of {measured} is {display_cents(raw)}, capped at {display_cents(contribution.max_cents)} ({section})",
            )
        else:
            amount, rule = (
                raw,
                f"{display_percent(contribution.rate_bp)} of {measured}, rounded down to the cent ({section})",
            )
    if amount > remaining_cents:
        return Drop(jackpot.code, remaining_cents, f"{rule}; only {display_cents(remaining_cents)} remained in the pot")
    return Drop(jackpot.code, amount, rule)
