"""Jackpot qualifiers as data, checked by the evaluator: Bad Beat (§637a.15) and High Hand (§637a.16).

A qualifier is a frozen dataclass a room's rules store; ``check`` returns a
``QualifierResult`` whose reasons a floorperson or supervisor reads aloud.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import combinations
from typing import Literal

from .cards import RANK_CHARS, InvalidCards, parse_cards
from .hands import HandCategory
from .high import CardsLike, HighHand, best_grouping, best_high, checked_cards, example_cards, omaha_high
from .tables import HIGH, HIGH_ORDER

_RANKS_ONLY = re.compile(r"(?:10|[2-9TJQKA]){5}")
_CATEGORY_NAMES = frozenset(category.value for category in HIGH_ORDER)


class InvalidQualifier(ValueError):
    """A qualifier the regulations do not allow, or one written so it cannot be read."""


def hand_minimum(spec: HighHand | str) -> HighHand:
    """A minimum hand from a ``HighHand``, a category of high hand (``'four_of_a_kind'``: its lowest
    hand), five ranks (``'AAATT'``: no flush) or five cards (``'5s4s3s2sAs'``).

    This is where the rules' written hands are read: a rules file's qualifier is valid when this
    reads it.

    >>> str(hand_minimum('AAATT')), str(hand_minimum('5s 4s 3s 2s As')), str(hand_minimum('straight_flush'))
    ('Full house, aces full of tens', 'Straight flush, five high', 'Straight flush, five high')
    """
    if isinstance(spec, HighHand):
        return spec
    if not isinstance(spec, str):
        raise InvalidQualifier(f"{spec!r} is not a hand: write a category, five ranks or five cards")
    if spec in _CATEGORY_NAMES:
        return category_minimum(HandCategory(spec))
    text = re.sub(r"\s+", "", spec).upper()
    if _RANKS_ONLY.fullmatch(text):
        ranks = [RANK_CHARS.index("T" if r == "10" else r) for r in re.findall(r"10|.", text)]
        if max(ranks.count(r) for r in ranks) > 4:
            raise InvalidQualifier(f"'{spec}' has more than four cards of one rank")
        # Suits by position: no five of one suit and no repeated card.
        return best_high([4 * r + (3 - i % 4) for i, r in enumerate(ranks)])
    try:
        return best_high(parse_cards(spec))
    except InvalidCards as error:
        raise InvalidQualifier(f"'{spec}' is not a hand: {error}") from error


def hand_ranks(hand: HighHand) -> str:
    """The five ranks of a hand as a minimum is written, biggest group first: what ``hand_minimum``
    reads back as this hand when it has no flush.

    >>> hand_ranks(hand_minimum('TTAAA')), hand_ranks(best_high('8c 8d 8h 8s Ad'))
    ('AAATT', '8888A')
    """
    return "".join(RANK_CHARS[card.rank] for card in hand.cards)


@dataclass(frozen=True)
class QualifierResult:
    """Whether the hand qualifies, and why, in words for the floor."""

    qualifies: bool
    reasons: tuple[str, ...]
    hand: HighHand | None = None

    def __bool__(self) -> bool:
        return self.qualifies


def _two_hole_cards(hole: tuple[int, ...], board: tuple[int, ...]) -> HighHand:
    """The best hand that uses every one of two hole cards and three board cards."""
    return best_grouping(hole + three for three in combinations(board, 3))


@dataclass(frozen=True)
class BadBeatQualifier:
    """A Bad Beat hand (§637a.15(b)(3): the posted qualifying requirements).

    ``losing_hand_at_least`` is the smallest losing hand that qualifies ('AAATT' is aces full
    of tens or better). ``both_hole_cards_play`` (Hold'em) asks the losing hand to use both
    hole cards; in Omaha every hand already uses exactly two (§637a.12(k)).

    >>> rule = BadBeatQualifier('AAATT', both_hole_cards_play=True, min_players_dealt=4)
    >>> result = rule.check(losing_hole='As Ks', winning_hole='7d 7c', board='Ad Ac Kc 7s 7h', players_dealt=6)
    >>> result.qualifies, result.reasons[0]
    (True, 'Losing hand Full house, aces full of kings (both hole cards play) meets the minimum: Full house, aces full of tens')
    """

    losing_hand_at_least: HighHand | str = "AAATT"
    both_hole_cards_play: bool = False
    game: Literal["holdem", "omaha"] = "holdem"
    min_players_dealt: int = 2
    minimum: HighHand = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "minimum", hand_minimum(self.losing_hand_at_least))
        if self.min_players_dealt < 2:
            raise InvalidQualifier("a Bad Beat needs at least two players dealt in")

    def check(
        self, *, losing_hole: CardsLike, winning_hole: CardsLike, board: CardsLike, players_dealt: int
    ) -> QualifierResult:
        """Whether the losing hand qualifies for the Bad Beat payout (verified by the shift supervisor, §637a.15(f))."""
        hole_count = 4 if self.game == "omaha" else 2
        loser = checked_cards(losing_hole, (hole_count,), "the losing hand's hole")
        winner = checked_cards(winning_hole, (hole_count,), "the winning hand's hole")
        table = checked_cards(board, (5,), "the board")
        parse_cards(loser + winner + table)  # one deck: refuses a card seen twice
        if self.game == "omaha":
            losing, winning = omaha_high(loser, table), omaha_high(winner, table)
            qualifying, how = losing, " (two hole cards play)"
        else:
            losing, winning = best_high(loser + table), best_high(winner + table)
            qualifying = _two_hole_cards(loser, table) if self.both_hole_cards_play else losing
            how = " (both hole cards play)" if self.both_hole_cards_play else ""
        reasons, ok = [], True
        if qualifying >= self.minimum:
            reasons.append(f"Losing hand {qualifying}{how} meets the minimum: {self.minimum}")
        else:
            ok = False
            reasons.append(f"Losing hand {qualifying}{how} is below the minimum: {self.minimum}")
        if winning > losing:
            reasons.append(f"Winning hand {winning} beats {losing}")
        else:
            ok = False
            verb = "ties" if winning == losing else "does not beat"
            reasons.append(f"Hand {winning} {verb} {losing}: the qualifying hand did not lose")
        if players_dealt >= self.min_players_dealt:
            reasons.append(f"{players_dealt} players dealt in (at least {self.min_players_dealt})")
        else:
            ok = False
            reasons.append(f"Only {players_dealt} players dealt in; at least {self.min_players_dealt} are required")
        return QualifierResult(ok, tuple(reasons), qualifying)


LOWEST_FULL_HOUSE = hand_minimum("22233")


@dataclass(frozen=True)
class HighHandMinimum:
    """A Qualifying High Hand: a full house or better (§637a.16(f)), at least the posted minimum.

    A hand is recorded on the High Hand Tracking Slip when it ties or beats the hand recorded
    so far (§637a.16(f), ties share under §637a.16(h) and the posted division, (b)(5)).

    >>> HighHandMinimum().check(best_high('9s 9d 9h 4c 4d 2s 3h')).reasons[0]
    'Full house, nines full of fours meets the minimum: Full house, twos full of threes'
    >>> HighHandMinimum('AAAKK').check(best_high('9s 9d 9h 4c 4d 2s 3h')).qualifies
    False
    """

    at_least: HighHand | str = "22233"
    min_players_dealt: int = 0
    minimum: HighHand = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        minimum = hand_minimum(self.at_least)
        if minimum < LOWEST_FULL_HOUSE:
            raise InvalidQualifier(f"{minimum} is below a full house; §637a.16(f) tracks full houses or better")
        object.__setattr__(self, "minimum", minimum)

    def check(
        self, hand: HighHand, *, players_dealt: int | None = None, recorded: HighHand | None = None
    ) -> QualifierResult:
        """Whether ``hand`` qualifies, and whether it ties or beats the ``recorded`` high hand of the period."""
        reasons, ok = [], True
        if hand >= self.minimum:
            reasons.append(f"{hand} meets the minimum: {self.minimum}")
        else:
            ok = False
            reasons.append(f"{hand} is below the minimum: {self.minimum}")
        if players_dealt is not None:
            if players_dealt >= self.min_players_dealt:
                reasons.append(f"{players_dealt} players dealt in (at least {self.min_players_dealt})")
            else:
                ok = False
                reasons.append(f"Only {players_dealt} players dealt in; at least {self.min_players_dealt} are required")
        if recorded is not None:
            if hand > recorded:
                reasons.append(f"Beats the recorded high hand, {recorded}")
            elif hand == recorded:
                reasons.append(f"Ties the recorded high hand, {recorded}")
            else:
                ok = False
                reasons.append(f"Lower than the recorded high hand, {recorded}")
        return QualifierResult(ok, tuple(reasons), hand)


def category_minimum(category: HandCategory) -> HighHand:
    """The lowest high hand of a category, e.g. the lowest four of a kind (for rules written as 'quads or better').

    >>> str(category_minimum(HandCategory.FOUR_OF_A_KIND)), str(category_minimum(HandCategory.ROYAL_FLUSH))
    ('Four of a kind, twos, three kicker', 'Royal flush')
    """
    if category not in HIGH_ORDER:
        raise InvalidQualifier(f"{category} is not a five-card high hand")
    strength = next(s for s, (cat, _) in enumerate(HIGH.classes) if s and cat == category)
    return HighHand._make(strength, example_cards(*HIGH.classes[strength]))
