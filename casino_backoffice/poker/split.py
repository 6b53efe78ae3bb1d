"""Dividing a pot or a jackpot between tied hands, odd chip included (§637a.12(k)(2)).

Amounts are integer cents. §637a.12(k)(2)(i): a high-low pot is halved and an odd chip goes
to the high hand. (ii) Tied high hands share equally and the excess (never more than $1)
goes to the player with the highest ranking high card by suit; (iii) tied low hands share
equally and the excess goes to the player with the lowest ranking low hand card by suit;
(iv) suits rank spades > hearts > diamonds > clubs. Either excess may instead go to the
player the Rules Submission names: pass ``odd_chip_to``.

Reading of (ii) and (iii) used here: compare the tied hands' cards from the highest (for a
low, from the lowest) by rank and then suit; the first card that differs decides. An ace
counts as a one where the hand counts it so: in a five-high straight the five is the highest
ranking card and the ace the lowest (``HandValue.odd_chip_key``). A hand that can be made
with cards of other suits is the grouping holding the card this rule favours, whatever the
order the cards were typed in (``hands.choose_grouping``). Tied hands built from the same
board cards (no card differs) give the excess to the first winner listed, so list winners in
the order the Rules Submission names (e.g. first to the left of the button).
"""

from __future__ import annotations

from collections.abc import Sequence

from .hands import HandValue
from .low import LowHand

MAX_EXCESS_CENTS = 100


def _odd_chip_index(winners: Sequence[HandValue]) -> int:
    keys = [hand.odd_chip_key() for hand in winners]
    # ``max`` keeps the first of equal keys: tied hands of the very same cards go to the first listed.
    return max(range(len(winners)), key=keys.__getitem__)


def split_odd_chip(amount_cents: int, winners: Sequence[HandValue], *, odd_chip_to: int | None = None) -> list[int]:
    """Shares of ``amount_cents`` for tied ``winners``, in their order (§637a.12(k)(2)(ii)-(iv)).

    >>> from casino_backoffice.poker import best_high
    >>> split_odd_chip(1001, [best_high('Ah Kd Qs Jc 9d'), best_high('As Kc Qd Jd 9h')])
    [500, 501]
    """
    if not winners:
        raise ValueError("a pot needs at least one winner")
    if any(hand != winners[0] for hand in winners):
        raise ValueError("only tied hands split a pot: " + "; ".join(str(h) for h in winners))
    if amount_cents < 0:
        raise ValueError(f"a pot cannot be negative: {amount_cents} cents")
    share, excess = divmod(amount_cents, len(winners))
    if excess > MAX_EXCESS_CENTS:
        raise ValueError(f"an excess of {excess} cents is more than the $1 §637a.12(k)(2) allows")
    shares = [share] * len(winners)
    shares[_odd_chip_index(winners) if odd_chip_to is None else odd_chip_to] += excess
    return shares


def split_high_low(
    amount_cents: int,
    high_winners: Sequence[HandValue],
    low_winners: Sequence[LowHand],
    *,
    high_odd_chip_to: int | None = None,
    low_odd_chip_to: int | None = None,
) -> tuple[list[int], list[int]]:
    """A high-low pot: half each, the odd chip to the high hand; all to the high hand when no low qualifies.

    §637a.12(k)(2)(i) and §637a.12(l).

    >>> from casino_backoffice.poker import best_high, low_a5
    >>> split_high_low(1001, [best_high('As Ks Qs Js 9s')], [low_a5('8h 6d 4c 3s As')])
    ([501], [500])
    """
    if not low_winners:
        return split_odd_chip(amount_cents, high_winners, odd_chip_to=high_odd_chip_to), []
    low_half = amount_cents // 2
    high = split_odd_chip(amount_cents - low_half, high_winners, odd_chip_to=high_odd_chip_to)
    return high, split_odd_chip(low_half, low_winners, odd_chip_to=low_odd_chip_to)
