"""One test per rule of ``compute_rake_and_drops``: exact cents, and the rule that set each."""

from __future__ import annotations

import copy
from typing import Any

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


def jackpot(code: str, **contribution: Any):
    """Jackpot ``code`` of the factories' file with its contribution changed, read as a file is; one
    measured ``before_rake`` as a version stored before that was refused is read (a new file may not)."""
    data = copy.deepcopy(RULES)
    item = next(item for item in data["jackpots"] if item["code"] == code)
    item["contribution"].update(contribution)
    return validate_rules(data, stored=contribution.get("base") == "before_rake").jackpots[code]


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
    # $120 pot with a $20 uncalled bet: $100 rakeable; 10% = $10 capped at $5; $95 after the rake:
    # bb $1 ($95 >= $20); hh 5% of $95 = $4.75 capped at $2 ($95 >= $30).
    result = outcome(pot=12000, uncalled=2000)
    assert result.rakeable_cents == 10000
    assert result.rake_cents == 500
    assert "capped at the maximum of $5.00" in result.rake_rule
    assert [(d.code, d.amount_cents) for d in result.drops] == [("bb", 100), ("hh", 200)]
    assert result.drops[1].rule == "5% of $95.00 after the rake is $4.75, capped at $2.00 (§637a.16(c))"
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


def test_fixed_drop_needs_the_minimum_pot_after_the_rake():
    # $22.00: 10% is $2.20, $2 in $1 chips; $20.00 after the rake reaches bb's $20 minimum pot.
    # $21.99: $2 rake; $19.99 after the rake does not, though $21.99 before it would.
    under = outcome(pot=2199, jackpots=(BB,))
    assert (under.rake_cents, under.drops[0].amount_cents) == (200, 0)
    assert under.drops[0].rule == (
        "No drop: the pot $19.99 after the rake is under the minimum pot of $20.00 (§637a.15(c))"
    )
    at = outcome(pot=2200, jackpots=(BB,))
    assert (at.rake_cents, at.drops[0].amount_cents) == (200, 100)
    assert at.drops[0].rule == "Fixed $1.00 from pots of $20.00 or more after the rake (§637a.15(c))"


def test_fixed_drop_before_the_rake_needs_the_minimum_pot_before_the_rake():
    before = jackpot("bb", base="before_rake")
    assert outcome(pot=1999, jackpots=(before,)).drops[0].rule == (
        "No drop: the pot $19.99 before the rake is under the minimum pot of $20.00 (§637a.15(c))"
    )
    at = outcome(pot=2000, jackpots=(before,))
    assert (at.rake_cents, at.drops[0].amount_cents) == (200, 100)
    assert at.drops[0].rule == "Fixed $1.00 from pots of $20.00 or more before the rake (§637a.15(c))"


def test_percent_drop_is_taken_of_the_pot_after_the_rake():
    # $37.70: 10% is $3.77, $3 in $1 chips; $34.70 after the rake: 5% = $1.735 -> $1.73.
    result = outcome(pot=3770, jackpots=(HH,))
    assert (result.rake_cents, result.drops[0].amount_cents) == (300, 173)
    assert result.drops[0].rule == "5% of $34.70 after the rake, rounded down to the cent (§637a.16(c))"
    assert result.to_winner_cents == 3770 - 300 - 173


def test_percent_drop_before_the_rake_only_where_the_method_says_so():
    # The same $37.70 pot: 5% of $37.70 = $1.885 -> $1.88.
    result = outcome(pot=3770, jackpots=(jackpot("hh", base="before_rake"),))
    assert (result.rake_cents, result.drops[0].amount_cents) == (300, 188)
    assert result.drops[0].rule == "5% of $37.70 before the rake, rounded down to the cent (§637a.16(c))"


def test_the_minimum_pot_of_a_percent_drop_is_measured_on_its_base():
    # $32.50: $3 rake; $29.50 after the rake is under hh's $30 minimum pot, $32.50 before it is not.
    after = outcome(pot=3250, jackpots=(HH,))
    assert (after.rake_cents, after.drops[0].amount_cents) == (300, 0)
    assert (
        after.drops[0].rule == "No drop: the pot $29.50 after the rake is under the minimum pot of $30.00 (§637a.16(c))"
    )
    before = outcome(pot=3250, jackpots=(jackpot("hh", base="before_rake"),))
    assert before.drops[0].amount_cents == 162  # 5% of $32.50 = $1.625 -> $1.62


def test_percent_drop_rounds_down_to_the_cent_and_is_capped():
    # No rake policy (banked): the pot after the rake is the pot. 5% of $30.99 = $1.5495 -> $1.54;
    # 5% of $100 = $5 -> capped $2.
    assert outcome(pot=3099, jackpots=(HH,), policy=None).drops[0].amount_cents == 154
    capped = outcome(pot=10000, jackpots=(HH,), policy=None).drops[0]
    assert capped.amount_cents == 200
    assert capped.rule == "5% of $100.00 after the rake is $5.00, capped at $2.00 (§637a.16(c))"


def test_no_flop_no_drop_stops_the_drops_too():
    result = outcome(pot=5000, flop=False)
    assert result.rake_cents == 0
    assert [(d.code, d.amount_cents, d.rule) for d in result.drops] == [
        ("bb", 0, "No drop: no flop, no drop (§637a.15(c))"),
        ("hh", 0, "No drop: no flop, no drop (§637a.16(c))"),
    ]
    assert result.to_winner_cents == 5000


def test_a_jackpot_without_no_flop_no_drop_drops_when_the_rake_does_not():
    # No flop: no rake, $50 after the rake; bb (no_flop_no_drop false) takes $1, hh (the default) nothing.
    result = outcome(pot=5000, flop=False, jackpots=(jackpot("bb", no_flop_no_drop=False), HH))
    assert result.rake_cents == 0
    assert [(d.code, d.amount_cents) for d in result.drops] == [("bb", 100), ("hh", 0)]
    assert result.drops[0].rule == "Fixed $1.00 from pots of $20.00 or more after the rake (§637a.15(c))"
    hh = outcome(pot=5000, flop=False, jackpots=(jackpot("hh", no_flop_no_drop=False),)).drops[0]
    assert (hh.amount_cents, hh.rule) == (200, "5% of $50.00 after the rake is $2.50, capped at $2.00 (§637a.16(c))")


def test_no_flop_no_drop_is_the_percentage_rakes_rule_only():
    # An incremental rake has no "no flop, no drop": $50, no flop, $2 rake, $48 after it: bb $1, hh 5% = $2.40 -> $2.
    incremental = outcome(policy=LIM, pot=5000, flop=False)
    assert incremental.rake_cents == 200
    assert [d.amount_cents for d in incremental.drops] == [100, 200]
    # Nor does a time charge, nor a flop dealt at a no-flop-no-drop table.
    assert [d.amount_cents for d in outcome(policy=STUD, pot=5000, flop=False).drops] == [100, 200]
    assert [d.amount_cents for d in outcome(pot=5000, flop=True).drops] == [100, 200]


@pytest.mark.parametrize(
    ("pot", "uncalled", "flop", "rake", "drops", "to_winner", "before_rake_hh"),
    [
        (4500, 500, True, 400, [100, 180], 3320, 200),
        (3250, 0, True, 300, [100, 0], 2850, 162),
        (12000, 2000, True, 500, [100, 200], 9200, 200),
        (5000, 0, False, 0, [0, 0], 5000, 0),
    ],
)
def test_the_worked_example_of_the_rules_documentation(pot, uncalled, flop, rake, drops, to_winner, before_rake_hh):
    result = outcome(pot=pot, uncalled=uncalled, flop=flop)
    assert (result.rake_cents, [d.amount_cents for d in result.drops], result.to_winner_cents) == (
        rake,
        drops,
        to_winner,
    )
    before = outcome(pot=pot, uncalled=uncalled, flop=flop, jackpots=(jackpot("hh", base="before_rake"),))
    assert before.drops[0].amount_cents == before_rake_hh


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
