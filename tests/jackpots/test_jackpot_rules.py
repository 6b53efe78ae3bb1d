"""A jackpot's rules in a rules file: each error names its item and the rule; the qualifiers are the evaluator's."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from casino_backoffice.poker import BadBeatQualifier, HighHandMinimum, best_high
from casino_backoffice.poker.qualifiers import hand_minimum
from jackpots.models import JackpotKind
from jackpots.rules import BadBeatRule, HighHandRule, drop_compute
from rake.rules import RulesInvalid, parse_text, validate_rules
from tests.rake.factories import RULES

DEMO = Path(__file__).resolve().parents[2] / "demo" / "rules.yaml"


def errors_of(mutate: Any) -> list[str]:
    data = copy.deepcopy(RULES)
    mutate(data)
    with pytest.raises(RulesInvalid) as caught:
        validate_rules(data)
    return caught.value.errors


def test_shares_not_summing_to_100():
    errors = errors_of(lambda d: d["jackpots"][0]["shares"].update(table_share=15))
    assert errors == ["jackpots[0] (bb): shares sum to 90%, not 100%"]


def test_high_hand_minimum_below_a_full_house():
    errors = errors_of(lambda d: d["jackpots"][1].update(min_hand="flush"))
    assert errors == [
        "jackpots[1] (hh): min_hand flush is below a full house; a qualifying high hand is a full house or better (§637a.16(f))"
    ]


def test_money_written_as_a_float_is_refused():
    errors = errors_of(lambda d: d["jackpots"][0]["contribution"].update(amount=1.5))
    assert errors == [
        'jackpots[0] (bb) contribution: amount 1.5 must be written as a string of dollars and cents, such as "5.00"'
    ]


def test_high_hand_id_is_required():
    errors = errors_of(lambda d: d["jackpots"][1].update(id_required=False))
    assert errors == [
        "jackpots[1] (hh): id_required must be true: valid identification is presented to collect a high hand (§637a.16(b)(7))"
    ]


@pytest.mark.parametrize("hand", ["AKQJT", "AATTT", "AAAKQ", "AAAAA", "aaatt", 7])
def test_bad_beat_minimum_is_a_full_house_or_better(hand):
    errors = errors_of(lambda d: d["jackpots"][0]["qualifier"].update(losing_hand_at_least=hand))
    assert len(errors) == 1 and "must be a full house or four of a kind" in errors[0]


@pytest.mark.parametrize("hand", ["AAATT", "22233", "8888A", "straight_flush"])
def test_bad_beat_minimums_accepted(hand):
    data = copy.deepcopy(RULES)
    data["jackpots"][0]["qualifier"]["losing_hand_at_least"] = hand
    assert validate_rules(data).jackpots["bb"].qualifier.losing_hand_at_least == hand


# --- The evaluator reads every qualifier a rules file posts ---------------------------------------


@pytest.mark.parametrize(
    "hand",
    [
        "AAAT",  # four ranks
        "KAAAA",  # the kicker first
        "As Ah Ad Ts Th",  # cards, not ranks
        "AAA TT",  # spaced
        "full_house",  # a category the file writes as ranks
        "royal",
        "mini_royal",  # a three-card hand
        None,
        ["A", "A", "A", "T", "T"],
    ],
)
def test_a_bad_beat_hand_the_evaluator_cannot_read_as_written_is_refused_naming_item_and_rule(hand):
    errors = errors_of(lambda d: d["jackpots"][0]["qualifier"].update(losing_hand_at_least=hand))
    assert errors == [
        "jackpots[0] (bb) qualifier: losing_hand_at_least must be a full house or four of a kind written as ranks, the set "
        f'first, such as "AAATT" (aces full of tens) or "8888A", or straight_flush or royal_flush; got {hand!r}'
    ]


@pytest.mark.parametrize("hand", ["mini_royal", "quads", "AAAKK", "one_pair", None])
def test_a_high_hand_minimum_the_evaluator_cannot_read_is_refused_naming_item_and_rule(hand):
    errors = errors_of(lambda d: d["jackpots"][1].update(min_hand=hand))
    assert errors == [
        f"jackpots[1] (hh): min_hand must be one of full_house, four_of_a_kind, straight_flush, royal_flush, got {hand!r}"
    ]


@pytest.mark.parametrize("hand", ["pair", "two_pair", "three_of_a_kind", "straight", "high_card"])
def test_every_category_below_a_full_house_is_refused_by_the_evaluator(hand):
    errors = errors_of(lambda d: d["jackpots"][1].update(min_hand=hand))
    assert errors == [
        f"jackpots[1] (hh): min_hand {hand} is below a full house; a qualifying high hand is a full house or better (§637a.16(f))"
    ]


def test_a_bad_beat_without_two_players_is_refused():
    errors = errors_of(lambda d: d["jackpots"][0]["qualifier"].update(min_players=1))
    assert errors == ["jackpots[0] (bb) qualifier: min_players must be at least 2, got 1"]


@pytest.mark.parametrize(
    ("hand", "words"),
    [
        ("AAATT", "Full house, aces full of tens"),
        ("22233", "Full house, twos full of threes"),
        ("8888A", "Four of a kind, eights, ace kicker"),
        ("straight_flush", "Straight flush, five high"),
        ("royal_flush", "Royal flush"),
    ],
)
def test_the_stored_bad_beat_qualifier_is_the_evaluators(hand, words):
    data = copy.deepcopy(RULES)
    data["jackpots"][0]["qualifier"]["losing_hand_at_least"] = hand
    rule = validate_rules(data).jackpots["bb"]
    assert isinstance(rule, BadBeatRule) and rule.kind is JackpotKind.BAD_BEAT
    assert type(rule.qualifier) is BadBeatQualifier
    assert rule.qualifier == BadBeatQualifier(hand, both_hole_cards_play=True, min_players_dealt=4)
    assert str(rule.qualifier.minimum) == words == str(hand_minimum(hand))


def test_the_stored_qualifiers_check_hands():
    rules = validate_rules(RULES)
    bad_beat, high_hand = rules.jackpots["bb"], rules.jackpots["hh"]
    assert isinstance(bad_beat, BadBeatRule) and isinstance(high_hand, HighHandRule)
    # Aces full of tens losing to quads, both hole cards playing, six players dealt in (at least 4).
    beat = bad_beat.qualifier.check(losing_hole="As Ts", winning_hole="7d 7c", board="Ad Ac Th 7s 7h", players_dealt=6)
    assert beat.qualifies
    assert not bad_beat.qualifier.check(
        losing_hole="As Ts", winning_hole="7d 7c", board="Ad Ac Th 7s 7h", players_dealt=3
    ).qualifies

    assert type(high_hand.minimum) is HighHandMinimum and high_hand.kind is JackpotKind.HIGH_HAND
    assert high_hand.minimum == HighHandMinimum("full_house", min_players_dealt=6)
    assert high_hand.minimum.check(best_high("2s 2d 2h 3c 3d"), players_dealt=6).qualifies
    assert not high_hand.minimum.check(best_high("2s 2d 2h 3c 3d"), players_dealt=5).qualifies
    assert not high_hand.minimum.check(best_high("As Ks Qs Js 9s"), players_dealt=9).qualifies


@pytest.mark.parametrize("hand", ["four_of_a_kind", "straight_flush", "royal_flush"])
def test_high_hand_minimums_above_a_full_house(hand):
    data = copy.deepcopy(RULES)
    data["jackpots"][1]["min_hand"] = hand
    rule = validate_rules(data).jackpots["hh"]
    assert isinstance(rule, HighHandRule)
    assert rule.minimum.minimum == hand_minimum(hand)
    assert rule.canonical()["min_hand"] == hand


# --- Canonical form -------------------------------------------------------------------------------


@pytest.mark.parametrize("source", ["factories", "demo"])
def test_the_canonical_form_reads_back_as_equal_rules(source):
    rules = validate_rules(RULES if source == "factories" else parse_text(DEMO.read_text()))
    again = validate_rules(json.loads(rules.canonical_json()))
    assert again == rules
    assert again.jackpots == rules.jackpots and again.jackpots["bb"].qualifier == rules.jackpots["bb"].qualifier
    assert again.canonical_json() == rules.canonical_json()


def test_the_canonical_jackpots_are_the_files_values_normalized():
    rules = validate_rules(RULES)
    assert rules.canonical()["jackpots"] == [
        {
            "code": "bb",
            "kind": "bad_beat",
            "name": "Bad Beat",
            "contribution": {"method": "fixed", "amount": "1.00", "min_pot": "20.00"},
            "qualifier": {"losing_hand_at_least": "AAATT", "both_hole_cards_play": True, "min_players": 4},
            "shares": {"losing_hand": "50", "winning_hand": "25", "table_share": "25"},
            "seed": "0.00",
        },
        {
            "code": "hh",
            "kind": "high_hand",
            "name": "High Hand",
            "contribution": {"method": "percent", "rate_percent": "5", "max": "2.00", "min_pot": "30.00"},
            "period": {"every_minutes": 60, "first_starts": "10:00"},
            "min_players": 6,
            "min_hand": "full_house",
            "ties": "split",
            "claim_within_days": 7,
            "id_required": True,
            "unclaimed": "next_period",
            "seed": "0.00",
        },
    ]


# --- The drop of one pot --------------------------------------------------------------------------


def test_each_kind_of_drop_quotes_its_own_section():
    rules = validate_rules(RULES)
    bad_beat = drop_compute(jackpot=rules.jackpots["bb"], rakeable_cents=10000, remaining_cents=9500, players=9)
    high_hand = drop_compute(jackpot=rules.jackpots["hh"], rakeable_cents=3099, remaining_cents=2799, players=9)
    assert (bad_beat.code, bad_beat.amount_cents, bad_beat.rule) == (
        "bb",
        100,
        "Fixed $1.00 from pots of $20.00 or more (§637a.15(c))",
    )
    assert (high_hand.code, high_hand.amount_cents, high_hand.rule) == (
        "hh",
        154,
        "5% of $30.99, rounded down to the cent (§637a.16(c))",
    )
