"""Every rule of the rules file, each error naming its item and the rule; all errors at once."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from rake.rules import RulesInvalid, parse_text, validate_rules

from .factories import RULES, rules_text


def errors_of(mutate: Any) -> list[str]:
    data = copy.deepcopy(RULES)
    mutate(data)
    with pytest.raises(RulesInvalid) as caught:
        validate_rules(data)
    return caught.value.errors


def test_the_example_is_valid_and_canonical_round_trips():
    rules = validate_rules(RULES)
    assert rules.rake_policies["nl10"].rate_bp == 1000
    assert rules.rake_policies["nl10"].max_per_round_cents == 500
    assert rules.jackpots["hh"].contribution.max_cents == 200
    assert rules.tables["T1"].jackpots == ("bb", "hh")
    again = validate_rules(json.loads(rules.canonical_json()))
    assert again.canonical_json() == rules.canonical_json()


def test_yaml_and_json_give_the_same_rules():
    assert (
        validate_rules(parse_text(rules_text())).canonical_json()
        == validate_rules(parse_text(json.dumps(RULES))).canonical_json()
    )


def test_percentage_over_ten_percent():
    errors = errors_of(lambda d: d["rake_policies"][0].update(rate_percent=12))
    assert errors == [
        "rake_policies[0] (nl10): rate_percent 12 is over the 10% a percentage rake may take (§637a.17(b)(1))"
    ]


def test_time_charge_interval_other_than_20_or_30():
    errors = errors_of(lambda d: d["rake_policies"][2].update(interval_minutes=15))
    assert errors == [
        "rake_policies[2] (stud): interval_minutes 15 is not allowed: a time charge is assessed every 20 or 30 minutes (§637a.17(b)(3)(iii))"
    ]


def test_seats_over_the_game_limit():
    errors = errors_of(lambda d: d["tables"][0].update(seats=12))
    assert errors == ["tables[0] (T1): seats 12 is over Texas Hold'em's limit of 10 (58 Pa. Code §637a.10)"]


def test_unknown_policy_and_jackpot_codes():
    def mutate(d: dict) -> None:
        d["tables"][0]["rake_policy"] = "nl5"
        d["tables"][0]["jackpots"] = ["bb", "mega"]

    errors = errors_of(mutate)
    assert "tables[0] (T1): rake_policy 'nl5' is not a policy of this file (known: flat, lim, nl10, stud)" in errors
    assert "tables[0] (T1): jackpot 'mega' is not a jackpot of this file (known: bb, hh)" in errors


def test_money_with_a_fraction_of_a_cent():
    errors = errors_of(lambda d: d["rake_policies"][0].update(max_per_round="5.001"))
    assert errors == [
        "rake_policies[0] (nl10): max_per_round '5.001': 5.001 has a fraction of a cent; amounts are whole cents."
    ]


def test_every_error_is_reported_at_once():
    def mutate(d: dict) -> None:
        d["rake_policies"][0]["rate_percent"] = 11
        d["rake_policies"][2]["interval_minutes"] = 45
        d["tables"][0]["seats"] = 11
        d["jackpots"][0]["hands"][0]["shares"]["losing_hand"] = 40
        d["jackpots"][1]["min_hand"] = "two_pair"
        d["surprise"] = 1

    errors = errors_of(mutate)
    assert len(errors) == 6
    assert (
        errors[0]
        == "unknown key 'surprise' (known: controls, effective_from, gaming_day_starts, irregularities, jackpots, name, progressives, rake_policies, room, shifts, tables, timezone)"
    )


def test_house_banked_games_take_no_rake():
    errors = errors_of(
        lambda d: d["tables"].append({"number": "T11", "game": "mississippi_stud", "seats": 6, "rake_policy": "nl10"})
    )
    assert errors == [
        "tables[4] (T11): Mississippi Stud is banked by the house: it takes no rake and pays no poker jackpot, so it has no rake_policy or jackpots"
    ]


def test_incremental_levels_must_go_up():
    errors = errors_of(lambda d: d["rake_policies"][1]["levels"].append({"pot": "20.00", "rake": "4.00"}))
    assert errors == [
        "rake_policies[1] (lim) levels[3]: levels must go up: each pot above the last, each rake at least the last"
    ]


def test_effective_from_needs_an_offset_and_times_need_quotes():
    def mutate(d: dict) -> None:
        d["effective_from"] = "2026-11-01T06:00:00"
        d["gaming_day_starts"] = 360  # what YAML makes of an unquoted 06:00

    errors = errors_of(mutate)
    assert 'effective_from: must carry its UTC offset, such as "2026-11-01T06:00:00-05:00"' in errors
    assert 'gaming_day_starts: gaming_day_starts must be a quoted 24-hour time such as "06:00", got 360' in errors


def test_time_charge_must_divide_into_cents():
    errors = errors_of(lambda d: d["rake_policies"][3].update(hourly_fee="10.01"))
    assert errors == ["rake_policies[3] (flat): hourly_fee 10.01 does not divide into whole cents every 20 minutes"]


def test_syntax_error_is_reported():
    with pytest.raises(RulesInvalid) as caught:
        parse_text("room: [main")
    assert caught.value.errors[0].startswith("The file is not valid YAML or JSON")


def test_shifts_default_to_three_eight_hour_spans_from_the_gaming_day():
    from datetime import time

    rules = validate_rules(RULES)
    assert [(s.name, s.starts) for s in rules.shifts] == [("day", time(6)), ("swing", time(14)), ("grave", time(22))]
    assert rules.shift_at(time(5, 59)) == "grave"
    assert rules.shift_at(time(6)) == "day"
    assert rules.shift_at(time(23, 30)) == "grave"
    assert rules.shift_at(time(15)) == "swing"


# --- A table offering a Bad Beat (§637a.15(i); the evaluator's games) -------------------------------


def test_a_bad_beat_at_a_stud_table_is_refused():
    errors = errors_of(lambda d: d["tables"][2].update(jackpots=["bb"]))
    assert errors == [
        "tables[2] (T7): the evaluator checks Bad Beat hands of holdem, omaha_high, omaha_high_low; no hand of bb "
        "applies to seven_card_stud: leave bb off this table"
    ]


def test_a_bad_beat_at_an_omaha_table_needs_a_hand_of_omaha():
    omaha = {"number": "T5", "game": "omaha_high", "seats": 10, "rake_policy": "nl10", "jackpots": ["bb"]}
    errors = errors_of(lambda d: d["tables"].append(omaha))
    assert errors == [
        "tables[4] (T5): the evaluator checks Bad Beat hands of holdem, omaha_high, omaha_high_low; no hand of bb "
        "applies to omaha_high: add omaha_high to the games of a hand of bb, or leave bb off this table"
    ]

    data = copy.deepcopy(RULES)
    data["tables"].append(omaha)
    data["jackpots"][0]["hands"][0]["games"] = ["holdem", "omaha_high"]
    assert validate_rules(data).tables["T5"].jackpots == ("bb",)


def test_a_bad_beat_is_not_offered_before_its_discontinuation_is_approved():
    errors = errors_of(lambda d: d["jackpots"][0].pop("discontinuation"))
    assert errors == [
        "tables[0] (T1): jackpot bb: a Bad Beat may not be offered at a table until the Executive Director has "
        "approved procedures for discontinuing it (§637a.15(i)); record discontinuation: {approved_on, reference}"
    ]


def test_a_bad_beat_no_table_offers_needs_neither_approval_nor_a_hand_of_its_games():
    def mutate(d: dict) -> None:
        d["jackpots"][0].pop("discontinuation")
        d["jackpots"][0]["hands"][0]["games"] = ["omaha_high_low"]
        d["tables"][0]["jackpots"] = ["hh"]

    data = copy.deepcopy(RULES)
    mutate(data)
    rules = validate_rules(data)
    assert "bb" in rules.jackpots and all("bb" not in table.jackpots for table in rules.tables.values())


def test_a_high_hand_is_offered_at_any_poker_table():
    rules = validate_rules({**RULES, "tables": [{**RULES["tables"][2], "jackpots": ["hh"]}]})
    assert rules.tables["T7"].jackpots == ("hh",)
