"""The posted Bad Beat rules and each table's notice of eligibility (§637a.15(b))."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from casino_backoffice.money import display_percent
from jackpots.bad_beat.rules import BAD_BEAT_GAMES, BadBeatHand, BadBeatRule
from jackpots.bad_beat.selectors import FundPosition, fund_positions
from jackpots.bad_beat.services.payouts import LEFTOVER_RULE
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.reports import contribution_words, game_words, maximum_contribution_cents, minimum_pot_words
from jackpots.funds.selectors import jackpot_rule_of_version, tables_listing
from tables.models import PokerRoom, RulesVersion
from tables.selectors import rules_version_in_effect

_SHARE_WORDS = {
    "losing_hand": "the losing hand",
    "winning_hand": "the winning hand",
    "table_share": "the table share, split equally among every other player dealt in",
}


# --- The posted rules (§637a.15(b)) ----------------------------------------------------------------


@dataclass(frozen=True)
class PostedHand:
    """One Bad Beat hand as posted (§637a.15(b)(3)): what qualifies and what it pays, in words."""

    hand: BadBeatHand
    games: tuple[str, ...]  # the games' names
    minimum: str  # the evaluator's words for the lowest losing hand that qualifies
    requirements: tuple[str, ...]
    payout: str
    shares: tuple[tuple[str, str], ...]  # (who, percent)


def posted_hand(hand: BadBeatHand, rule: BadBeatRule, *, game: str | None = None) -> PostedHand:
    """The qualifying requirements and the payout of ``hand`` in words, from its qualifier; at one
    ``game`` (a table's notice), only what applies there."""
    qualifier = hand.qualifier
    minimum = str(qualifier.minimum)
    requirements = [
        f'The losing hand is at least "{minimum}" and loses to a better hand: a tie does not qualify.',
    ]
    games = hand.games if game is None else (game,)
    if "holdem" in games and qualifier.both_hole_cards_play:
        where = f"At {game_words('holdem')}, both" if game is None else "Both"
        requirements.append(f"{where} of the losing hand's hole cards play in it.")
    if any(omaha in games for omaha in BAD_BEAT_GAMES if omaha != "holdem"):
        where = "At Omaha, every" if game is None else "Every"
        requirements.append(
            f"{where} hand uses exactly two of its hole cards and three cards of the board (§637a.12(k))."
        )
    requirements.append(
        f"At least {qualifier.min_players_dealt} players dealt in, the losing and the winning hand included."
    )
    if game is None:
        requirements.append(f"Played at: {', '.join(game_words(game) for game in hand.games)}.")
    if rule.reserve_bp:
        payout = (
            f"{display_percent(hand.payout_bp)} of the current amount after {display_percent(rule.reserve_bp)} of it "
            "is kept back for the next jackpot, rounded down to the cent; what is not paid stays in the fund."
        )
    else:
        payout = (
            f"{display_percent(hand.payout_bp)} of the current amount, rounded down to the cent; what is not paid "
            "stays in the fund."
        )
    shares = tuple(
        (_SHARE_WORDS[name], display_percent(bp))
        for name, bp in sorted(hand.shares_bp.items(), key=lambda item: list(_SHARE_WORDS).index(item[0]))
    )
    return PostedHand(
        hand=hand,
        games=tuple(game_words(game) for game in hand.games),
        minimum=minimum,
        requirements=tuple(requirements),
        payout=payout,
        shares=shares,
    )


@dataclass(frozen=True)
class PostedBadBeat:
    """A Bad Beat fund's posted rules (§637a.15(b)) under one rules version, with its current amount."""

    jackpot: Jackpot
    version: RulesVersion
    rule: BadBeatRule
    tables: dict[str, str]  # table number -> the game's name
    position: FundPosition
    hands: tuple[PostedHand, ...]

    @property
    def contribution(self) -> str:
        return contribution_words(self.rule.contribution)

    @property
    def maximum_contribution_cents(self) -> int:
        return maximum_contribution_cents(self.rule.contribution)

    @property
    def minimum_pot(self) -> str:
        return minimum_pot_words(self.rule.contribution)

    @property
    def reserve(self) -> str:
        if not self.rule.reserve_bp:
            return "Nothing is kept back: a hand pays its percentage of the whole current amount."
        return (
            f"{display_percent(self.rule.reserve_bp)} of the current amount is kept back from each payout to start the "
            "next jackpot (the reserve keeps the odd cent)."
        )

    @property
    def order(self) -> str:
        """Which hand pays when a claim qualifies for more than one (``claim_evaluate``: the first, in order)."""
        if len(self.hands) < 2:
            return ""
        return "A hand that qualifies for more than one of these is paid as the first of them listed here."

    @property
    def current_cents(self) -> int | None:
        """The current amount as displayed to patrons (§637a.15(h)); None: never displayed yet."""
        return self.position.displayed_cents

    @property
    def leftover_rule(self) -> str:
        return LEFTOVER_RULE

    @property
    def display_adjustment(self) -> str:
        """§637a.15(f)(1), (h): when the display is adjusted after a verification, by the limit the rules
        post (``display_adjust_within_minutes``) or, without one, in the regulation's word."""
        minutes = self.rule.display_adjust_within_minutes
        when = (
            "immediately upon the verification"
            if minutes is None
            else f"within {minutes} minute{'s' if minutes != 1 else ''} of the verification"
        )
        return (
            "After a Bad Beat is verified the display shows 'pending adjustment' until finance adjusts it to the "
            f"current amount in the presence of a floorperson or above, {when}; and at least once every gaming day "
            "(§637a.15(f)(1), (h))."
        )

    @property
    def discontinuation(self) -> str:
        approval = self.rule.discontinuation
        if approval is None:
            return "No approval of the procedures for discontinuing it is on file: no table may offer it (§637a.15(i))."
        return (
            f"The Executive Director approved the procedures for discontinuing this Bad Beat on "
            f"{approval.approved_on.isoformat()} ({approval.reference}) (§637a.15(i))."
        )


@dataclass(frozen=True)
class PostedRules:
    """The Bad Beat rules a room posts, from the rules version in effect at ``at``."""

    room: PokerRoom
    at: datetime
    version: RulesVersion | None
    bad_beats: tuple[PostedBadBeat, ...]


def posted_rules(*, room: PokerRoom, at: datetime) -> PostedRules:
    """Every Bad Beat of the rules version in effect in ``room`` at ``at``, in the file's order, as
    posted (§637a.15(b)): the contribution and its method (b)(1), the minimum pot (b)(2), each hand's
    qualifying requirements and payout (b)(3), the reserve, how shares split and where the odd cents
    go, the current amount, when the display is adjusted after a verification (§637a.15(h)) and the
    discontinuation approval (§637a.15(i))."""
    version = rules_version_in_effect(room=room, at=at)
    if version is None:
        return PostedRules(room=room, at=at, version=None, bad_beats=())
    codes = [item["code"] for item in version.content.get("jackpots", []) if item.get("kind") == JackpotKind.BAD_BEAT]
    funds = {jackpot.code: jackpot for jackpot in Jackpot.objects.filter(room=room, code__in=codes)}
    positions = fund_positions(jackpots=funds.values())
    bad_beats = []
    for code in codes:
        rule = jackpot_rule_of_version(version=version, code=code)
        if not isinstance(rule, BadBeatRule) or code not in funds:
            continue
        bad_beats.append(
            PostedBadBeat(
                jackpot=funds[code],
                version=version,
                rule=rule,
                tables={
                    number: game_words(game)
                    for number, game in sorted(tables_listing(version=version, code=code).items())
                },
                position=positions[funds[code].pk],
                hands=tuple(posted_hand(hand, rule) for hand in rule.hands),
            )
        )
    return PostedRules(room=room, at=at, version=version, bad_beats=tuple(bad_beats))


@dataclass(frozen=True)
class TableNotice:
    """The notice of eligibility at one table (§637a.15(b)): the Bad Beats it offers and the hands
    that apply to its game."""

    number: str
    game: str
    offers: tuple[tuple[PostedBadBeat, tuple[PostedHand, ...]], ...]


def table_notices(*, rules: PostedRules) -> list[TableNotice]:
    """One notice per table that offers a Bad Beat under the rules in effect, by table number."""
    if rules.version is None:
        return []
    games = {entry["number"]: entry["game"] for entry in rules.version.content.get("tables", [])}
    offers: dict[str, list[tuple[PostedBadBeat, tuple[PostedHand, ...]]]] = defaultdict(list)
    for bad_beat in rules.bad_beats:
        for number in bad_beat.tables:
            game = games[number]
            hands = tuple(
                posted_hand(posted.hand, bad_beat.rule, game=game)
                for posted in bad_beat.hands
                if game in posted.hand.games
            )
            if hands:
                offers[number].append((bad_beat, hands))
    return [
        TableNotice(number=number, game=game_words(games[number]), offers=tuple(offers[number]))
        for number in sorted(offers)
    ]
