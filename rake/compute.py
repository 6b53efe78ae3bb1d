"""What leaves a pot: the rake, then each jackpot's drop (asked of ``jackpots.funds.rules``). Pure: no
database, no clock.

Used by the rounds API, the tablet rake calculator and the revenue checks alike, so a number the
floor sees is the number the ledger records. Each amount comes with the rule that set it, in words
a dealer reads to a player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from casino_backoffice.money import display_cents, display_percent, floor_to_increment, format_cents, percent_floor
from jackpots.funds.rules import Drop, JackpotRule, drop_compute

from .rules import RakeKind, RakePolicy


@dataclass(frozen=True)
class PotOutcome:
    rakeable_cents: int
    rake_cents: int
    rake_rule: str
    drops: tuple[Drop, ...]

    @property
    def to_winner_cents(self) -> int:
        """What remains of the pot without the uncalled bet and any refund for the winning hand or hands."""
        return self.rakeable_cents - self.rake_cents - sum(drop.amount_cents for drop in self.drops)


def uncalled_bet_problem(*, pot_cents: int, uncalled_cents: int) -> str | None:
    """Why an uncalled final bet cannot be part of a pot, or None when it can: it was bet into the pot,
    so it is never more than the pot (§637a.17(d): the rake is taken on the pot without it). The one
    check of rounds, the rake calculator (page and API) and ``compute_rake_and_drops``."""
    if uncalled_cents > pot_cents:
        return f"The uncalled bet {format_cents(uncalled_cents)} is larger than the pot {format_cents(pot_cents)}."
    return None


def refund_problem(*, pot_cents: int, uncalled_cents: int, refund_cents: int, voided: bool = False) -> str | None:
    """Why a refund from the pot cannot be taken, or None when it can.

    §637a.18(k)(3): "A player who has a protected hand collected by the dealer or fouled by discarded
    cards shall be entitled to a refund from the pot of all moneys that the player put in the pot if the
    player has been a victim of and not a contributor to the error." The refund leaves the pot before
    the rake, so it is never more than the pot without the uncalled bet; a voided round returns the
    whole pot (§637a.18(i)) and refunds nothing apart. The one check of rounds and the calculator."""
    if refund_cents < 0:
        return "A refund is zero or more."
    if refund_cents and voided:
        return "A voided round returns the whole pot (§637a.18(i)): log it without a refund."
    if refund_cents > pot_cents - uncalled_cents:
        return (
            f"The refund {display_cents(refund_cents)} is larger than the pot without the uncalled bet "
            f"{display_cents(max(pot_cents - uncalled_cents, 0))}."
        )
    return None


def no_flop_no_drop_applies(*, policy: RakePolicy | None, flop_dealt: bool) -> bool:
    """Whether the table's rake policy takes nothing because no flop was dealt: a percentage policy
    with ``no_flop_no_drop`` (a posted house rule) at a round without a flop."""
    return policy is not None and policy.kind == RakeKind.PERCENTAGE and policy.no_flop_no_drop and not flop_dealt


def compute_rake(*, policy: RakePolicy | None, rakeable_cents: int, flop_dealt: bool) -> tuple[int, str]:
    """The rake of one pot (§637a.17(b)(1)-(2)), on the pot without the uncalled final bet (§637a.17(d))."""
    if policy is None:
        return 0, "No rake: this table is banked by the house"
    if policy.kind == RakeKind.TIME_CHARGE:
        return 0, f"No rake from the pot: policy {policy.code} takes its rake as a time charge (§637a.17(b)(3))"
    if policy.kind == RakeKind.PERCENTAGE:
        return _percentage_rake(policy=policy, rakeable_cents=rakeable_cents, flop_dealt=flop_dealt)
    return _incremental_rake(policy=policy, rakeable_cents=rakeable_cents)


def _percentage_rake(*, policy: RakePolicy, rakeable_cents: int, flop_dealt: bool) -> tuple[int, str]:
    """A percentage of the pot, floored to the policy's chips and capped per round (§637a.17(b)(1))."""
    assert policy.max_per_round_cents is not None and policy.rate_bp is not None
    pot, maximum = display_cents(rakeable_cents), display_cents(policy.max_per_round_cents)
    if no_flop_no_drop_applies(policy=policy, flop_dealt=flop_dealt):
        return 0, f"No rake: no flop, no drop (policy {policy.code})"
    if rakeable_cents < policy.min_pot_cents:
        return (
            0,
            f"No rake: the pot {pot} is under the minimum pot of {display_cents(policy.min_pot_cents)} (policy {policy.code})",
        )
    raw = percent_floor(rakeable_cents, policy.rate_bp)
    rounded = floor_to_increment(raw, policy.increment_cents)
    if rounded > policy.max_per_round_cents:
        return policy.max_per_round_cents, (
            f"{display_percent(policy.rate_bp)} of {pot} is {display_cents(raw)}, capped at the maximum of {maximum} per round "
            f"(policy {policy.code}, §637a.17(b)(1))"
        )
    step = f", rounded down to {display_cents(policy.increment_cents)} chips" if policy.increment_cents > 1 else ""
    return (
        rounded,
        f"{display_percent(policy.rate_bp)} of {pot} is {display_cents(raw)}{step} (policy {policy.code}, §637a.17(b)(1))",
    )


def _incremental_rake(*, policy: RakePolicy, rakeable_cents: int) -> tuple[int, str]:
    """The rake of the highest level the pot reached, capped per round (§637a.17(b)(2))."""
    assert policy.max_per_round_cents is not None
    pot, maximum = display_cents(rakeable_cents), display_cents(policy.max_per_round_cents)
    reached = [level for level in policy.levels if rakeable_cents >= level.pot_cents]
    if not reached:
        return (
            0,
            f"No rake: the pot {pot} is under the first level of {display_cents(policy.levels[0].pot_cents)} (policy {policy.code})",
        )
    level = reached[-1]
    if level.rake_cents > policy.max_per_round_cents:
        return (
            policy.max_per_round_cents,
            f"Level {display_cents(level.pot_cents)} takes {display_cents(level.rake_cents)}, capped at {maximum} (policy {policy.code})",
        )
    return level.rake_cents, (
        f"The pot {pot} reached the {display_cents(level.pot_cents)} level: {display_cents(level.rake_cents)} "
        f"(policy {policy.code}, §637a.17(b)(2))"
    )


def compute_rake_and_drops(
    *,
    policy: RakePolicy | None,
    jackpots: Sequence[JackpotRule],
    pot_cents: int,
    uncalled_cents: int,
    flop_dealt: bool,
    voided: bool,
    players: int,
    refund_cents: int = 0,
) -> PotOutcome:
    """The rake, then each jackpot of the table in the order listed, of one round of play.

    - The rake is computed on the pot without the uncalled final bet (§637a.17(d)) and without a
      refund to a player whose protected hand the dealer killed (§637a.18(k)(3)): the refund leaves
      the pot before the rake (``refund_problem``).
    - A voided round (§637a.18(i): "the round of play shall be voided, all value chips ... in the pot
      shall be returned") takes no rake and no drop.
    - "After the dealer has extracted the rake, the amount from each pot to be contributed ... shall be
      determined" (§637a.15(c), §637a.16(c)): each drop is measured on the pot without the uncalled
      bet less the rake (or before the rake where its posted method says so), takes nothing when
      the percentage rake's "no flop, no drop" held and its own ``no_flop_no_drop`` says so, and
      never takes more than remains.

    ``players`` does not change any amount today (qualifiers use it, not contributions); it is passed
    to ``jackpots.funds.rules.drop_compute`` so that a contribution rule that does can be added there.
    """
    if uncalled_cents < 0:
        raise ValueError("The uncalled bet is zero or more.")
    if problem := uncalled_bet_problem(pot_cents=pot_cents, uncalled_cents=uncalled_cents):
        raise ValueError(problem)
    if problem := refund_problem(
        pot_cents=pot_cents, uncalled_cents=uncalled_cents, refund_cents=refund_cents, voided=voided
    ):
        raise ValueError(problem)
    rakeable = pot_cents - uncalled_cents - refund_cents
    if voided:
        rule = "No rake and no drop: the round was voided and the pot returned (§637a.18(i))"
        return PotOutcome(rakeable, 0, rule, tuple(Drop(j.code, 0, rule) for j in jackpots))
    rake, rake_rule = compute_rake(policy=policy, rakeable_cents=rakeable, flop_dealt=flop_dealt)
    no_flop = no_flop_no_drop_applies(policy=policy, flop_dealt=flop_dealt)
    remaining = rakeable - rake
    drops = []
    for jackpot in jackpots:
        drop = drop_compute(
            jackpot=jackpot,
            rakeable_cents=rakeable,
            rake_cents=rake,
            remaining_cents=remaining,
            players=players,
            no_flop_no_drop_applied=no_flop,
        )
        remaining -= drop.amount_cents
        drops.append(drop)
    return PotOutcome(rakeable, rake, rake_rule, tuple(drops))
