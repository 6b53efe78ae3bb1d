"""The Bad Beat's posted rules (§637a.15(b)), read from an item of a rules file's ``jackpots`` of kind
``bad_beat`` (the reader registered with ``jackpots.funds.rules``): the contribution, and the fund's
Bad Beat hands (§637a.15(a)), each a ``BadBeatHand`` with its games, its qualifier as the evaluator's
own ``BadBeatQualifier`` (so a hand the evaluator cannot read never reaches a posted rule), the part of
the fund it pays and its shares; the part of the fund kept back, the approval of the procedures for
discontinuing it (§637a.15(i)) and the limit on adjusting its display (§637a.15(h))."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from typing import Any, ClassVar

from casino_backoffice.core.checker import Checker, label
from casino_backoffice.money import format_cents, format_percent
from casino_backoffice.poker import BadBeatQualifier, HandCategory
from casino_backoffice.poker.qualifiers import InvalidQualifier, hand_minimum, hand_ranks
from jackpots.funds.models import JackpotKind
from jackpots.funds.rules import COMMON_KEYS, JackpotRule, contribution_parse, jackpot_kind_reader
from tables.games import MIN_SEATS, Game

# The games whose hands the evaluator checks for a Bad Beat (board and hole cards): Hold'em, and
# Omaha high and high-low, where the high hand uses exactly two hole cards (§637a.12(k)).
BAD_BEAT_GAMES: tuple[str, ...] = (Game.HOLDEM.value, Game.OMAHA_HIGH.value, Game.OMAHA_HIGH_LOW.value)
# How the evaluator's ``BadBeatQualifier`` names each of those games.
_EVALUATOR_GAME = {Game.HOLDEM.value: "holdem", Game.OMAHA_HIGH.value: "omaha", Game.OMAHA_HIGH_LOW.value: "omaha"}

# Who shares a Bad Beat hand's payout (§637a.15(b)(3) "Qualifying Bad Beat requirements and payouts").
SHARE_NAMES: tuple[str, ...] = ("losing_hand", "winning_hand", "table_share")


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


# Keys a Bad Beat wrote for its one hand before a fund could pay several; now each hand's own.
_MOVED_TO_HANDS = ("qualifier", "shares")


def _bad_beat(check: Checker, where: str, item: dict[str, Any], *, stored: bool) -> BadBeatRule | None:
    moved = [key for key in _MOVED_TO_HANDS if key in item]
    required = COMMON_KEYS | (set() if moved else {"hands"})
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
    contribution = contribution_parse(
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


jackpot_kind_reader(JackpotKind.BAD_BEAT, _bad_beat)
