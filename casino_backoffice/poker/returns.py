"""Exact returns of the paytables settled on the player's cards alone: every hand enumerated.

A single deck is dealt, so every set of cards a wager looks at is equally likely, and a
paytable's hit frequencies are counts over all of them:

- Three Card Bonus, §655a.12(d): "a Three Card Bonus Wager that the three community cards will
  form a three-card Poker hand of a pair or better as defined in § 655a.6(c)" (§655a.7(d)(4)):
  all C(52, 3) = 22,100 sets of three cards. Folding does not lose it: a player who folds
  "shall not forfeit the eligibility to receive ... a Three Card Bonus payout under
  § 655a.12(d)" (§655a.11(h)).
- Crazy 4 Poker Queens Up, §657a.12(c): a wager "to compete against a posted paytable,
  regardless of the outcome of the player's hand against the dealer's hand" (§657a.1); "A
  winning Queens Up Wager shall be paid irrespective of whether the player's four-card Poker
  hand outranks the dealer's hand" (§657a.11(d)). All C(52, 5) = 2,598,960 five-card hands,
  each paid on its best four cards (§657a.6).
- Progressive Payout Wagers: "A player shall receive the payout for only the highest ranking
  hand formed from the player's two cards and the three community cards" (§655a.12(c)(1)-(2):
  two player cards and three community cards are any five cards, all 2,598,960) and "for only
  the highest ranking four-card Poker hand formed" (§657a.12(d)(1)-(2), the best four of five),
  so each hand is paid on one line, the first it makes. The Envy Bonus tables (§655a.12(c)(5),
  §657a.12(d)(5)) are counted the same way: the frequency with which another player's hand
  qualifies.

Queens Up and the progressives are forfeited by a player who folds (§657a.11(b)(1)-(2),
§655a.11(h)); their returns are those of a hand kept in play to the end.

Not here, because the player's cards alone do not settle them: the Mississippi Stud wager
(§655a.12(a)), whose 3rd, 4th and 5th Street Wagers are "one, two or three times the amount of
the player's Ante Wager or fold" at the player's choice (§655a.11(b), (d), (f)); and the Super
Bonus (§657a.12(b)), which below a straight is returned or lost by the comparison with the
dealer's hand (§657a.11(c)(3)).

``returned`` is what a line gives back per 1 wagered, the wager included: "W to S" keeps the
wager (W/S + 1), "W for 1" includes it (W), a push returns it (1), a losing hand nothing.
Meter lines depend on the meter and fixed-dollar lines on the wager's size, so they have no
``returned``; ``return_with_meter`` adds a meter in.

>>> from casino_backoffice.poker.paytables import THREE_CARD_BONUS_A
>>> result = paytable_return(THREE_CARD_BONUS_A)
>>> result.hands_total, [line.hands for line in result.lines], result.losing_hands
(22100, [4, 44, 52, 720, 1096, 3744], 16440)
>>> result.exact_return, percent(result.exact_return), percent(result.house_edge)
(Fraction(5397, 5525), '97.6833%', '2.3167%')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from .batch import best_high_batch, crazy4_batch, three_card_batch
from .crazy4 import Crazy4Hand, crazy4_strength
from .hands import HandValue
from .high import HighHand, high_rank
from .paytables import PAYTABLES, PayoutKind, Paytable, PaytableLine, winning_line
from .three_card import ThreeCardHand, three_card_strength

METHODS = ("batch", "per_call")

# Paytables whose wager the player's cards alone do not settle (see the module docstring).
NOT_SETTLED_BY_CARDS: dict[str, str] = {
    "mississippi_stud": (
        "the Mississippi Stud wager depends on the player's 3rd, 4th and 5th Street decisions "
        "(§655a.11(b), (d), (f)); its return is not a property of the paytable alone"
    ),
    "crazy4_super_bonus": (
        "the Super Bonus below a straight is returned or lost by the comparison with the dealer's hand "
        "(§657a.11(c)(3)); its return is not a property of the paytable alone"
    ),
}


class ReturnNotSettledByCards(ValueError):
    """A paytable whose wager depends on the dealer's hand or on the player's decisions."""


@dataclass(frozen=True)
class _Deal:
    """How many cards a hand type is made of, and its two evaluators of card indices."""

    size: int
    batch: Callable[[npt.ArrayLike], npt.NDArray[np.int32]]
    per_call: Callable[[tuple[int, ...]], int]


_DEALS: dict[type[HandValue], _Deal] = {
    ThreeCardHand: _Deal(3, three_card_batch, three_card_strength),
    Crazy4Hand: _Deal(5, crazy4_batch, crazy4_strength),
    HighHand: _Deal(5, best_high_batch, high_rank),
}

# strength -> (hands of that strength, the cards of the first of them)
StrengthCounts = dict[int, tuple[int, tuple[int, ...]]]


@dataclass(frozen=True)
class LineReturn:
    """One paytable line: the hands that win it, their probability and what they return per 1 wagered.

    ``returned`` is ``probability`` times the line's return per unit (wager included), or
    ``None`` for a meter or fixed-dollar line.
    """

    line: PaytableLine
    hands: int
    probability: Fraction
    returned: Fraction | None


@dataclass(frozen=True)
class PaytableReturn:
    """Every hand a paytable's wager can see, counted line by line (lines in the paytable's order)."""

    paytable: Paytable
    hands_total: int
    lines: tuple[LineReturn, ...]

    @property
    def losing_hands(self) -> int:
        """Hands that make no line: the wager is lost."""
        return self.hands_total - sum(line.hands for line in self.lines)

    @property
    def fixed_return(self) -> Fraction:
        """Expected amount returned per 1 wagered by the "to", "for" and push lines."""
        return sum((line.returned for line in self.lines if line.returned is not None), Fraction(0))

    @property
    def meter_lines(self) -> tuple[LineReturn, ...]:
        """The lines paid as a share of the progressive meter."""
        return tuple(line for line in self.lines if line.line.payout.kind is PayoutKind.METER)

    @property
    def has_meter(self) -> bool:
        return bool(self.meter_lines)

    @property
    def meter_probability(self) -> Fraction:
        """The probability that a hand wins any meter line."""
        return sum((line.probability for line in self.meter_lines), Fraction(0))

    @property
    def exact_return(self) -> Fraction | None:
        """Expected amount returned per 1 wagered, or ``None`` when a meter or a fixed-dollar line is paid."""
        if any(line.returned is None for line in self.lines):
            return None
        return self.fixed_return

    @property
    def house_edge(self) -> Fraction | None:
        """``1 - exact_return``, or ``None`` when the return is not exact."""
        exact = self.exact_return
        return None if exact is None else 1 - exact


def all_hands(size: int) -> npt.NDArray[np.int8]:
    """Every set of ``size`` distinct cards of one deck, one row each, in ``itertools.combinations`` order.

    >>> hands = all_hands(3)
    >>> hands.shape, hands[0].tolist(), hands[-1].tolist()
    ((22100, 3), [0, 1, 2], [49, 50, 51])
    """
    if not 0 <= size <= 52:
        raise ValueError(f"a hand from one deck has 0 to 52 cards, not {size}")
    # The sets of j cards whose lowest card is at least ``first`` are the last C(52 - first, j)
    # rows of the sets of j cards: build j from j - 1 by prefixing each lowest card to them.
    hands = np.zeros((1, 0), dtype=np.int8)
    for j in range(1, size + 1):
        blocks = []
        for first in range(53 - j):
            rest = hands[hands.shape[0] - comb(51 - first, j - 1) :]
            block = np.empty((rest.shape[0], j), dtype=np.int8)
            block[:, 0] = first
            block[:, 1:] = rest
            blocks.append(block)
        hands = np.concatenate(blocks)
    return hands


def _count_batch(deal: _Deal) -> StrengthCounts:
    hands = all_hands(deal.size)
    strengths = deal.batch(hands)
    counts = np.bincount(strengths)
    first = np.full(counts.shape, strengths.shape[0])
    np.minimum.at(first, strengths, np.arange(strengths.shape[0]))
    return {int(s): (int(counts[s]), tuple(hands[first[s]].tolist())) for s in np.flatnonzero(counts)}


def _count_per_call(deal: _Deal) -> StrengthCounts:
    strength_of = deal.per_call
    counts: dict[int, int] = {}
    first: dict[int, tuple[int, ...]] = {}
    for hand in combinations(range(52), deal.size):
        strength = strength_of(hand)
        if strength in counts:
            counts[strength] += 1
        else:
            counts[strength] = 1
            first[strength] = hand
    return {s: (counts[s], first[s]) for s in sorted(counts)}


@cache
def _cached_counts(deal: _Deal) -> StrengthCounts:
    # Every Crazy 4 Poker table sees the same hands: enumerate them once.
    return _count_batch(deal)


def _line_return(line: PaytableLine, hands: int, total: int) -> LineReturn:
    probability = Fraction(hands, total)
    payout = line.payout
    per_unit: Fraction | None
    if payout.kind is PayoutKind.TO_ONE:
        per_unit = Fraction(payout.win, payout.stake) + 1
    elif payout.kind is PayoutKind.FOR_ONE:
        per_unit = Fraction(payout.win)
    elif payout.kind is PayoutKind.PUSH:
        per_unit = Fraction(1)
    else:
        per_unit = None
    return LineReturn(line, hands, probability, None if per_unit is None else probability * per_unit)


def _tally(paytable: Paytable, counts: StrengthCounts) -> PaytableReturn:
    """Each strength is looked up once on the paytable; its hands go to the line it wins."""
    position = {id(line): i for i, line in enumerate(paytable.lines)}
    hands_of_line = [0] * len(paytable.lines)
    make = paytable.hand_type._make
    for strength, (hands, cards) in counts.items():
        line = winning_line(paytable, make(strength, cards))
        if line is not None:
            hands_of_line[position[id(line)]] += hands
    total = sum(hands for hands, _ in counts.values())
    if total != comb(52, _DEALS[paytable.hand_type].size):  # pragma: no cover - a broken enumeration
        raise AssertionError(f"{paytable.name}: counted {total} hands")
    lines = tuple(_line_return(line, n, total) for line, n in zip(paytable.lines, hands_of_line, strict=True))
    return PaytableReturn(paytable, total, lines)


@cache
def _cached_return(name: str) -> PaytableReturn:
    paytable = PAYTABLES[name]
    return _tally(paytable, _cached_counts(_DEALS[paytable.hand_type]))


def paytable_return(paytable: Paytable, *, method: str = "batch", use_cache: bool = True) -> PaytableReturn:
    """Hit frequencies and return of ``paytable``, from every hand its wager can see.

    ``method`` "batch" evaluates all hands as one NumPy array, "per_call" one hand at a time;
    both give identical results. With "batch" the results of the tables in ``PAYTABLES`` are
    kept per paytable name (``use_cache=False`` enumerates afresh, for timing). Refuses, with
    ``ReturnNotSettledByCards``, the Mississippi Stud wager (§655a.12(a)) and the Super Bonus
    (§657a.12(b)): the player's decisions or the dealer's hand settle them.

    >>> from casino_backoffice.poker.paytables import THREE_CARD_BONUS_D
    >>> paytable_return(THREE_CARD_BONUS_D, method="per_call") == paytable_return(THREE_CARD_BONUS_D)
    True
    """
    if method not in METHODS:
        raise ValueError(f"method is 'batch' or 'per_call', not {method!r}")
    if paytable.name in NOT_SETTLED_BY_CARDS:
        raise ReturnNotSettledByCards(f"{paytable.name}: {NOT_SETTLED_BY_CARDS[paytable.name]}")
    deal = _DEALS.get(paytable.hand_type)
    if deal is None:
        raise TypeError(f"{paytable.name}: no enumeration of {paytable.hand_type.__name__} hands")
    if method == "batch" and use_cache and PAYTABLES.get(paytable.name) == paytable:
        return _cached_return(paytable.name)
    counts = _count_batch(deal) if method == "batch" else _count_per_call(deal)
    return _tally(paytable, counts)


def return_with_meter(result: PaytableReturn, *, meter_cents: int, wager_cents: int) -> Fraction:
    """Expected amount returned per 1 wagered by a progressive when the meter reads ``meter_cents``.

    Each meter line adds its probability times its share of the meter (``meter_bp`` / 10,000)
    over the wager, to ``fixed_return``. Winning progressive hands are paid "in accordance with
    the amount on the meter when it is the player's turn to be paid" (§655a.12(c)(4),
    §657a.12(d)(4)); a meter held constant is the approximation this makes.

    >>> from casino_backoffice.poker.paytables import MISSISSIPPI_STUD_PROGRESSIVE
    >>> result = paytable_return(MISSISSIPPI_STUD_PROGRESSIVE)
    >>> percent(return_with_meter(result, meter_cents=1_000_000, wager_cents=100), places=2)
    '55.98%'
    """
    if wager_cents <= 0:
        raise ValueError(f"the wager is a positive amount of cents, not {wager_cents}")
    if meter_cents < 0:
        raise ValueError(f"the meter reads a non-negative amount of cents, not {meter_cents}")
    if any(line.line.payout.kind is PayoutKind.FIXED for line in result.lines):
        raise ValueError(f"{result.paytable.name} pays fixed amounts: it has no return per unit wagered")
    meter_share = sum(
        (line.probability * Fraction(meter_cents * line.line.payout.meter_bp, 10_000) for line in result.meter_lines),
        Fraction(0),
    )
    return result.fixed_return + meter_share / wager_cents


def percent(fraction: Fraction, places: int = 4) -> str:
    """``fraction`` as a percentage, rounded half away from zero to ``places`` decimals (exact: no floats).

    >>> percent(Fraction(5397, 5525)), percent(Fraction(1, 3), places=0), percent(Fraction(-1, 8), places=2)
    ('97.6833%', '33%', '-12.50%')
    """
    if places < 0:
        raise ValueError(f"places is a non-negative number of decimals, not {places}")
    scaled = fraction * 100 * 10**places
    whole, remainder = divmod(abs(scaled.numerator), scaled.denominator)
    whole += 2 * remainder >= scaled.denominator
    value = Decimal(-whole if scaled < 0 else whole).scaleb(-places)
    return f"{value:f}%"
