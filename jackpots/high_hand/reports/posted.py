"""The posted High Hand rules and each table's notice (§637a.16(b))."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.reports import contribution_words, game_words, maximum_contribution_cents, minimum_pot_words
from jackpots.funds.selectors import jackpot_rule_of_version, tables_listing
from jackpots.high_hand.rules import TIE_RULE, HighHandRule, Period
from tables.models import PokerRoom, RulesVersion
from tables.selectors import rules_version_in_effect

# --- The posted High Hand rules (§637a.16(b)) -----------------------------------------------------

# The statements §637a.16(b)(6) and (7) require the posted rules to include, in the words posted.
PRESENCE_STATEMENT = "You do not need to be present at the end of the qualifying period to win."
IDENTIFICATION_STATEMENT = "Valid identification must be presented for your hand to qualify."

_UNCLAIMED_WORDS = {
    "next_period": (
        "An award not collected within the time limit goes into the pool of the qualifying period open when "
        "the time limit ends (§637a.16(i))."
    ),
    "fund": (
        "An award not collected within the time limit stays in the High Hand fund and is added to the next "
        "qualifying period's pool when that period closes (§637a.16(i))."
    ),
}


def _clock(moment: time) -> str:
    return moment.strftime("%H:%M")


def period_words(period: Period, *, day_starts: time) -> str:
    """A period as the room posts it, by its clock: "every hour from 10:00", "every 30 minutes from
    06:00", "every 2 hours from 00:00", "each gaming day from 06:00" (a day from the gaming day's
    start), "every 24 hours from 03:00"."""
    minutes, start = period.every_minutes, _clock(period.first_starts)
    if minutes == 24 * 60:
        return f"each gaming day from {start}" if period.first_starts == day_starts else f"every 24 hours from {start}"
    if minutes == 60:
        return f"every hour from {start}"
    if minutes % 60 == 0:
        return f"every {minutes // 60} hours from {start}"
    return f"every {minutes} minutes from {start}"


def _period_spans(period: Period) -> str:
    """The first periods of a day, so a player can tell which one a hand falls in."""
    if period.every_minutes == 24 * 60:
        return f"each runs from {_clock(period.first_starts)} to {_clock(period.first_starts)} the next day"
    step = timedelta(minutes=period.every_minutes)
    first = datetime.combine(date.min, period.first_starts)
    starts = [_clock((first + step * n).time()) for n in range(3)]
    return f"{starts[0]} to {starts[1]}, then {starts[1]} to {starts[2]}, and so on around the clock"


@dataclass(frozen=True)
class PostedHighHand:
    """A High Hand fund's posted rules (§637a.16(b)) under one rules version, in words: every
    statement (b)(1)-(7) requires, and where an award not collected goes (§637a.16(i))."""

    jackpot: Jackpot
    version: RulesVersion
    rule: HighHandRule
    tables: dict[str, str]  # table number -> the game's name
    time_zone: str
    day_starts: time

    def _period(self, period: Period) -> str:
        words = period_words(period, day_starts=self.day_starts)
        return f"{words[:1].upper()}{words[1:]}, by the room's clock ({self.time_zone}): {_period_spans(period)}."

    @property
    def qualifying_period(self) -> str:
        """(b)(1): the qualifying periods."""
        return self._period(self.rule.period)

    @property
    def collection_period(self) -> str:
        """(b)(1): the collection periods; a pot's contribution goes to the period its hand ended in."""
        words = self._period(self.rule.collection_period)
        if self.rule.collection_period == self.rule.period:
            words += " These are the qualifying periods."
        return f"{words} The contribution from a pot goes to the pool of the period in which its hand ended."

    @property
    def contribution(self) -> str:
        """(b)(2): the method of calculation and its base (after the rake, §637a.16(c))."""
        return contribution_words(self.rule.contribution)

    @property
    def maximum_contribution_cents(self) -> int:
        return maximum_contribution_cents(self.rule.contribution)

    @property
    def minimum_pot(self) -> str:
        """(b)(3)."""
        return minimum_pot_words(self.rule.contribution)

    @property
    def min_players(self) -> str:
        """(b)(4)."""
        return f"At least {self.rule.minimum.min_players_dealt} players must be dealt into the hand for it to qualify."

    @property
    def qualifying_hand(self) -> str:
        """§637a.16(f), (h): a full house or better, in the evaluator's words; the highest wins."""
        return (
            f'A full house or better: at least "{self.rule.minimum.minimum}" (§637a.16(f)). The highest Qualifying '
            "High Hand made during the qualifying period wins its pool."
        )

    @property
    def no_full_house(self) -> str:
        """§637a.16(h): a period without a full house rolls its pool over."""
        return (
            "If no player makes a full house during a qualifying period, its contributions are added to the next "
            "qualifying period's pool (§637a.16(h))."
        )

    @property
    def ties(self) -> str:
        """(b)(5): how tied Qualifying High Hands divide the award."""
        return TIE_RULE

    @property
    def time_limit(self) -> str:
        """(b)(6): the time limit to collect."""
        days = self.rule.claim_within_days
        return (
            f"An award must be collected within {days} day{'s' if days != 1 else ''} of the end of the qualifying "
            "period it was won in."
        )

    @property
    def presence(self) -> str:
        """(b)(6): the statement that a player need not be present at the end of the period."""
        return PRESENCE_STATEMENT

    @property
    def identification(self) -> str:
        """(b)(7): the statement that valid identification is presented for a hand to qualify."""
        return IDENTIFICATION_STATEMENT

    @property
    def unclaimed(self) -> str:
        """§637a.16(i): where an award not collected within the time limit goes."""
        return _UNCLAIMED_WORDS[self.rule.unclaimed]

    @property
    def board(self) -> str:
        """What the display board shows of the current high hand (the rules' ``show_player_name``)."""
        if self.rule.show_player_name:
            return "The display in the poker area shows the current high hand with the player's name, table and seat."
        return "The display in the poker area shows the current high hand by table and seat, without the player's name."


@dataclass(frozen=True)
class PostedHighHandRules:
    """The High Hand rules a room posts, from the rules version in effect at ``at``."""

    room: PokerRoom
    at: datetime
    version: RulesVersion | None
    high_hands: tuple[PostedHighHand, ...]


def posted_high_hand_rules(*, room: PokerRoom, at: datetime) -> PostedHighHandRules:
    """Every High Hand of the rules version in effect in ``room`` at ``at``, in the file's order, as
    posted (§637a.16(b)): the collection and qualifying periods (1), the maximum contribution and its
    method (2), the minimum pot (3), the players dealt in (4), the qualifying hand (f), how ties divide
    (5), the time limit with the statement that a player need not be present (6), the statement on
    identification (7), and where an award not collected goes (§637a.16(i)). Periods are in the
    room's time zone as that version states it."""
    version = rules_version_in_effect(room=room, at=at)
    if version is None:
        return PostedHighHandRules(room=room, at=at, version=None, high_hands=())
    codes = [item["code"] for item in version.content.get("jackpots", []) if item.get("kind") == JackpotKind.HIGH_HAND]
    funds = {jackpot.code: jackpot for jackpot in Jackpot.objects.filter(room=room, code__in=codes)}
    high_hands = []
    for code in codes:
        rule = jackpot_rule_of_version(version=version, code=code)
        if not isinstance(rule, HighHandRule) or code not in funds:
            continue
        high_hands.append(
            PostedHighHand(
                jackpot=funds[code],
                version=version,
                rule=rule,
                tables={
                    number: game_words(game)
                    for number, game in sorted(tables_listing(version=version, code=code).items())
                },
                time_zone=version.content["timezone"],
                day_starts=time.fromisoformat(version.content["gaming_day_starts"]),
            )
        )
    return PostedHighHandRules(room=room, at=at, version=version, high_hands=tuple(high_hands))


@dataclass(frozen=True)
class HighHandNotice:
    """The notice at one table offering a High Hand (§637a.16(b)): the High Hands it offers."""

    number: str
    game: str
    offers: tuple[PostedHighHand, ...]


def high_hand_notices(*, rules: PostedHighHandRules) -> list[HighHandNotice]:
    """One notice per table that offers a High Hand under the rules in effect, by table number."""
    if rules.version is None:
        return []
    games = {entry["number"]: entry["game"] for entry in rules.version.content.get("tables", [])}
    offers: dict[str, list[PostedHighHand]] = defaultdict(list)
    for high_hand in rules.high_hands:
        for number in high_hand.tables:
            offers[number].append(high_hand)
    return [
        HighHandNotice(number=number, game=game_words(games[number]), offers=tuple(offers[number]))
        for number in sorted(offers)
    ]
