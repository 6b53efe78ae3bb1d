"""One test per rule of ``compute_rake_and_drops``: exact cents, and the rule that set each."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rake.compute import compute_rake_and_drops
from rake.rules import validate_rules

from .factories import RULES

PARSED = validate_rules(RULES)
NL10 = PARSED.rake_policies["nl10"]
LIM = PARSED.rake_policies["lim"]
STUD = PARSED.rake_policies["stud"]
BB = PARSED.jackpots["bb"]
HH = PARSED.jackpots["hh"]


def outcome(policy=NL10, jackpots=(BB, HH), pot=12000, uncalled=0, flop=True, voided=False):
    return compute_rake_and_drops(
        policy=policy,
        jackpots=jackpots,
        pot_cents=pot,
        uncalled_cents=uncalled,
        flop_dealt=flop,
        voided=voided,
        players=9,
    )


def test_the_issue_example_rakes_the_pot_without_the_uncalled_bet():
    # $120 pot with a $20 uncalled bet: $100 rakeable; 10% = $10 capped at $5; bb $1 (pot >= $20);
    # hh 5% of $100 = $5 capped at $2 (pot >= $30).
    result = outcome(pot=12000, uncalled=2000)
    assert result.rakeable_cents == 10000
    assert result.rake_cents == 500
    assert "capped at the maximum of $5.00" in result.rake_rule
    assert [(d.code, d.amount_cents) for d in result.drops] == [("bb", 100), ("hh", 200)]
    assert result.to_winner_cents == 10000 - 500 - 100 - 200


def test_percentage_rounds_down_to_the_increment():
    result = outcome(pot=4750, jackpots=())  # 10% of $47.50 = $4.75 -> $4 in $1 chips
    assert result.rake_cents == 400
    assert "rounded down to $1.00 chips" in result.rake_rule


def test_percentage_takes_nothing_below_the_minimum_pot():
    result = outcome(pot=999, jackpots=())
    assert result.rake_cents == 0
    assert "under the minimum pot of $10.00" in result.rake_rule


def test_percentage_at_exactly_the_minimum_pot_rakes():
    assert outcome(pot=1000, jackpots=()).rake_cents == 100


def test_no_flop_no_drop():
    result = outcome(pot=5000, flop=False, jackpots=())
    assert result.rake_cents == 0
    assert "no flop, no drop" in result.rake_rule


def test_uncalled_bet_decides_the_minimum_pot():
    # $25 pot, $16 uncalled: $9 rakeable is under $10: no rake, and under bb's $20.
    result = outcome(pot=2500, uncalled=1600)
    assert result.rake_cents == 0
    assert [d.amount_cents for d in result.drops] == [0, 0]


def test_incremental_takes_the_highest_level_reached():
    assert outcome(policy=LIM, pot=999, jackpots=()).rake_cents == 0
    assert outcome(policy=LIM, pot=1000, jackpots=()).rake_cents == 100
    assert outcome(policy=LIM, pot=5999, jackpots=()).rake_cents == 200
    result = outcome(policy=LIM, pot=60000, jackpots=())
    assert result.rake_cents == 300
    assert "reached the $60.00 level" in result.rake_rule


def test_incremental_never_over_the_maximum():
    rules = validate_rules(
        {
            **RULES,
            "rake_policies": [
                {
                    "code": "lim",
                    "kind": "incremental",
                    "max_per_round": "2.50",
                    "levels": [{"pot": "10.00", "rake": "1.00"}, {"pot": "50.00", "rake": "3.00"}],
                }
            ],
            "tables": [{"number": "T1", "game": "holdem", "seats": 10, "rake_policy": "lim"}],
        }
    )
    result = outcome(policy=rules.rake_policies["lim"], pot=10000, jackpots=())
    assert result.rake_cents == 250
    assert "capped at $2.50" in result.rake_rule


def test_time_charge_tables_take_no_rake_from_the_pot_but_jackpots_still_drop():
    result = outcome(policy=STUD, pot=5000, jackpots=(BB,))
    assert result.rake_cents == 0
    assert "time charge" in result.rake_rule
    assert result.drops[0].amount_cents == 100


def test_voided_round_takes_no_rake_and_no_drops():
    result = outcome(pot=50000, voided=True)
    assert result.rake_cents == 0
    assert all(d.amount_cents == 0 for d in result.drops)
    assert "§637a.18" in result.rake_rule


def test_fixed_drop_needs_the_minimum_pot():
    assert outcome(pot=1999, jackpots=(BB,)).drops[0].amount_cents == 0
    assert outcome(pot=2000, jackpots=(BB,)).drops[0].amount_cents == 100


def test_percent_drop_rounds_down_to_the_cent_and_is_capped():
    # 5% of $30.99 = $1.5495 -> $1.54; 5% of $100 = $5 -> capped $2.
    assert outcome(pot=3099, jackpots=(HH,), policy=None).drops[0].amount_cents == 154
    capped = outcome(pot=10000, jackpots=(HH,), policy=None).drops[0]
    assert capped.amount_cents == 200
    assert "capped at $2.00" in capped.rule


def test_drops_never_take_more_than_what_remains():
    tiny = validate_rules(
        {
            **RULES,
            "jackpots": [
                {**RULES["jackpots"][0], "contribution": {"method": "fixed", "amount": "5.00", "min_pot": "0.00"}},
                {
                    **RULES["jackpots"][1],
                    "contribution": {"method": "percent", "rate_percent": 100, "max": "9.00", "min_pot": "0.00"},
                },
            ],
        }
    )
    # $6 pot with no rake policy (banked): bb takes $5, hh would take $6 but $1 remains.
    result = outcome(policy=None, jackpots=(tiny.jackpots["bb"], tiny.jackpots["hh"]), pot=600)
    assert [d.amount_cents for d in result.drops] == [500, 100]
    assert "only $1.00 remained" in result.drops[1].rule
    assert result.to_winner_cents == 0


def test_jackpots_drop_in_the_order_the_table_lists_them():
    result = outcome(jackpots=(HH, BB))
    assert [d.code for d in result.drops] == ["hh", "bb"]


def test_uncalled_bet_over_the_pot_is_refused():
    with pytest.raises(ValueError):
        outcome(pot=100, uncalled=101)


@given(pot=st.integers(0, 10_000_000), uncalled=st.integers(0, 10_000_000), flop=st.booleans(), voided=st.booleans())
def test_no_cent_is_created_or_lost(pot: int, uncalled: int, flop: bool, voided: bool):
    uncalled = min(uncalled, pot)
    for policy in (NL10, LIM, STUD, None):
        result = outcome(policy=policy, pot=pot, uncalled=uncalled, flop=flop, voided=voided)
        taken = result.rake_cents + sum(d.amount_cents for d in result.drops)
        assert 0 <= taken <= pot - uncalled
        assert result.to_winner_cents + taken == pot - uncalled
        assert result.rake_cents <= 500
        if policy is NL10:
            assert result.rake_cents % 100 == 0 and result.rake_cents <= (pot - uncalled) // 10
