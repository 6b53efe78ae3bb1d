"""The progressive meters' posted rules (§655a.12(b), (c)(3), (c)(5); §657a.12(d)(1), (d)(3), (d)(5)):
every refusal names the rule, with the file's other errors, and a valid file reads back the same."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from jackpots.progressive.rules import mississippi_stud_cap_cents
from rake.rules import RulesInvalid, parse_text, validate_rules
from tests.jackpots.progressive_helpers import PROGRESSIVES, progressive_rules_text


def _data() -> dict[str, Any]:
    return parse_text(progressive_rules_text())


def _errors(change) -> list[str]:
    data = copy.deepcopy(_data())
    change(data)
    with pytest.raises(RulesInvalid) as invalid:
        validate_rules(data)
    return invalid.value.errors


def test_a_valid_file_posts_the_meters_and_the_banked_tables() -> None:
    rules = validate_rules(_data())
    msp, c4p = rules.progressives["msp"], rules.progressives["c4p"]
    assert (msp.rate_bp, msp.initial_cents, msp.reset_cents, msp.wagers_cents) == (
        1500,
        10_000_00,
        10_000_00,
        (100, 500),
    )
    assert msp.paytable.name == "mississippi_stud_progressive" and c4p.paytable.name == "crazy4_progressive_a"
    assert msp.envy_paytable(wager_cents=500).name == "mississippi_stud_envy_5"
    assert c4p.envy_paytable(wager_cents=100).name == "crazy4_envy_a_1"
    t11 = rules.tables["T11"].banked
    assert t11 is not None and (t11.min_wager_cents, t11.three_card_bonus, t11.progressive) == (500, "a", "msp")
    assert [p.name for p in t11.paytables("mississippi_stud")] == ["mississippi_stud", "three_card_bonus_a"]
    # The canonical form reads back to the same rules (a version is stored canonical and re-read).
    assert validate_rules(rules.canonical()).canonical() == rules.canonical()


def test_mississippi_studs_aggregate_payout_limit_is_50000_or_what_the_minimum_can_win() -> None:
    assert mississippi_stud_cap_cents(min_wager_cents=5_00) == 50_000_00
    assert mississippi_stud_cap_cents(min_wager_cents=10_00) == 50_000_00  # 10 x $10 x 500 = $50,000
    assert mississippi_stud_cap_cents(min_wager_cents=25_00) == 125_000_00


@pytest.mark.parametrize(
    ("index", "change", "message"),
    [
        (0, {"initial": "9999.99"}, "initial $9,999.99 is under the $10,000.00 the regulation requires"),
        (0, {"reset": "5000.00"}, "(§655a.12(c)(3))"),
        (1, {"reset": "4999.00"}, "of a Crazy 4 Poker paytable A meter (§657a.12(d)(3))"),
        (1, {"paytable": "c"}, "progressive paytable a or b"),
        (0, {"paytable": "a"}, "Mississippi Stud has one progressive paytable"),
        (0, {"rate_percent": 12.5}, "is not a whole number of cents"),
        (0, {"rate_percent": 0}, "more than 0 and less than 100"),
        (0, {"wagers": ["2.00"]}, "a Progressive Payout Wager of $2.00 has no Envy Bonus schedule"),
        (0, {"wagers": [1.0]}, "must be written as a string"),
        (0, {"game": "holdem"}, "a progressive meter is of mississippi_stud or crazy_4_poker"),
    ],
)
def test_a_meter_the_regulation_does_not_allow_is_refused(index, change, message) -> None:
    errors = _errors(lambda data: data["progressives"][index].update(change))
    assert any(message in error for error in errors), errors


def test_a_crazy4_paytable_b_meter_may_reset_at_1000() -> None:
    data = _data()
    data["progressives"][1].update({"paytable": "b", "initial": "1000.00", "reset": "1000.00"})
    assert validate_rules(data).progressives["c4p"].minimum_reset_cents == 1_000_00


@pytest.mark.parametrize(
    ("number", "change", "message"),
    [
        ("T11", {"progressive": "nope"}, "progressive 'nope' is not a meter of this file's progressives"),
        ("T11", {"progressive": "c4p"}, "a Crazy 4 Poker meter cannot be played into from a Mississippi Stud table"),
        ("T11", {"queens_up": "a"}, "queens_up is a Crazy 4 Poker wager"),
        ("T12", {"three_card_bonus": "a"}, "three_card_bonus is a Mississippi Stud wager"),
        ("T12", {"queens_up": "e"}, "the Queens Up paytable is a, b, c or d"),
        ("T11", {"max_wager": "1.00"}, "max_wager $1.00 is under min_wager $5.00"),
        ("T11", {"min_wager": None}, "min_wager and max_wager are missing"),
    ],
)
def test_a_banked_table_the_rules_do_not_allow_is_refused(number, change, message) -> None:
    def mutate(data: dict[str, Any]) -> None:
        table = next(t for t in data["tables"] if t["number"] == number)
        table.update(change)
        for key in [key for key, value in table.items() if value is None]:
            del table[key]

    errors = _errors(mutate)
    assert any(message in error for error in errors), errors


def test_every_error_of_the_progressives_comes_with_the_others() -> None:
    def mutate(data: dict[str, Any]) -> None:
        data["progressives"][0]["initial"] = "100.00"
        data["progressives"][1]["paytable"] = None
        data["tables"][0]["seats"] = 11

    errors = _errors(mutate)
    assert len(errors) == 3, errors


def test_a_banked_table_without_a_meter_needs_no_limits() -> None:
    tables = [{"number": "T11", "game": "mississippi_stud", "seats": 6}]
    data = yaml.safe_load(progressive_rules_text(tables=tables, progressives=PROGRESSIVES))
    banked = validate_rules(data).tables["T11"].banked
    assert banked is not None and (banked.progressive, banked.min_wager_cents) == (None, None)
