"""A jackpot's rules in a rules file: each error names its item and the rule; the qualifiers are the evaluator's."""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import replace
from datetime import date, time, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from casino_backoffice.poker import BadBeatQualifier, HighHandMinimum, best_high
from casino_backoffice.poker.qualifiers import hand_minimum
from jackpots.bad_beat.reports import posted_rules
from jackpots.bad_beat.rules import BadBeatHand, BadBeatRule, Discontinuation
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.rules import Contribution, drop_compute
from jackpots.funds.selectors import jackpot_rule_of_version
from jackpots.high_hand.rules import HighHandRule, Period
from rake.exceptions import RulesFileInvalid
from rake.rules import RulesInvalid, parse_text, validate_rules
from rake.rules.model import canonical_json
from rake.selectors import rules_of_version
from tables.games import Game
from tables.models import PokerRoom, RulesVersion
from tests.rake.factories import RULES, load, rules_text

DEMO = Path(__file__).resolve().parents[2] / "demo" / "rules.yaml"


def errors_of(mutate: Any) -> list[str]:
    data = copy.deepcopy(RULES)
    mutate(data)
    with pytest.raises(RulesInvalid) as caught:
        validate_rules(data)
    return caught.value.errors


def bad_beat_hand(data: dict[str, Any], n: int = 0) -> dict[str, Any]:
    """The ``n``th Bad Beat hand of bb in a rules file."""
    return data["jackpots"][0]["hands"][n]


BB_HAND = "jackpots[0] (bb) hands[0] (bad_beat)"


def test_shares_not_summing_to_100():
    errors = errors_of(lambda d: bad_beat_hand(d)["shares"].update(table_share=15))
    assert errors == [f"{BB_HAND}: shares sum to 90%, not 100%"]


def min_hand_refused(hand: Any) -> str:
    return (
        f"jackpots[1] (hh): min_hand must be full_house, got {hand!r}: a Qualifying High Hand is a full house or "
        "better (§637a.16(f)); the highest one made in a period wins it, and only a period without a full house "
        "rolls its pool over (§637a.16(h)), so the rules may neither lower nor raise it"
    )


def test_high_hand_minimum_below_a_full_house():
    errors = errors_of(lambda d: d["jackpots"][1].update(min_hand="flush"))
    assert errors == [min_hand_refused("flush")]


def test_money_written_as_a_float_is_refused():
    errors = errors_of(lambda d: d["jackpots"][0]["contribution"].update(amount=1.5))
    assert errors == [
        'jackpots[0] (bb) contribution: amount 1.5 must be written as a string of dollars and cents, such as "5.00"'
    ]


def test_high_hand_id_is_required():
    errors = errors_of(lambda d: d["jackpots"][1].update(id_required=False))
    assert errors == [
        "jackpots[1] (hh): id_required must be true: valid identification shall be presented for a player's hand to "
        "qualify (§637a.16(b)(7))"
    ]


@pytest.mark.parametrize("hand", ["AKQJT", "AATTT", "AAAKQ", "AAAAA", "aaatt", 7])
def test_bad_beat_minimum_is_a_full_house_or_better(hand):
    errors = errors_of(lambda d: bad_beat_hand(d)["qualifier"].update(losing_hand_at_least=hand))
    assert len(errors) == 1 and "must be a full house or four of a kind" in errors[0]


@pytest.mark.parametrize("hand", ["AAATT", "22233", "8888A", "straight_flush"])
def test_bad_beat_minimums_accepted(hand):
    data = copy.deepcopy(RULES)
    bad_beat_hand(data)["qualifier"]["losing_hand_at_least"] = hand
    rule = validate_rules(data).jackpots["bb"]
    assert isinstance(rule, BadBeatRule) and rule.hands[0].qualifier.losing_hand_at_least == hand


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
    errors = errors_of(lambda d: bad_beat_hand(d)["qualifier"].update(losing_hand_at_least=hand))
    assert errors == [
        f"{BB_HAND} qualifier: losing_hand_at_least must be a full house or four of a kind written as ranks, the set "
        f'first, such as "AAATT" (aces full of tens) or "8888A", or straight_flush or royal_flush; got {hand!r}'
    ]


@pytest.mark.parametrize("hand", ["mini_royal", "quads", "AAAKK", "one_pair", None])
def test_a_high_hand_minimum_the_evaluator_cannot_read_is_refused_naming_item_and_rule(hand):
    errors = errors_of(lambda d: d["jackpots"][1].update(min_hand=hand))
    assert errors == [min_hand_refused(hand)]


@pytest.mark.parametrize("hand", ["pair", "two_pair", "three_of_a_kind", "straight", "high_card"])
def test_every_category_below_a_full_house_is_refused_by_the_evaluator(hand):
    errors = errors_of(lambda d: d["jackpots"][1].update(min_hand=hand))
    assert errors == [min_hand_refused(hand)]


def test_a_bad_beat_without_two_players_is_refused():
    errors = errors_of(lambda d: bad_beat_hand(d)["qualifier"].update(min_players=1))
    assert errors == [f"{BB_HAND} qualifier: min_players must be at least 2, got 1"]


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
    bad_beat_hand(data)["qualifier"]["losing_hand_at_least"] = hand
    rule = validate_rules(data).jackpots["bb"]
    assert isinstance(rule, BadBeatRule) and rule.kind is JackpotKind.BAD_BEAT
    qualifier = rule.hands[0].qualifier
    assert type(qualifier) is BadBeatQualifier
    assert qualifier == BadBeatQualifier(hand, both_hole_cards_play=True, min_players_dealt=4)
    assert str(qualifier.minimum) == words == str(hand_minimum(hand))


def test_the_stored_qualifiers_check_hands():
    rules = validate_rules(RULES)
    bad_beat, high_hand = rules.jackpots["bb"], rules.jackpots["hh"]
    assert isinstance(bad_beat, BadBeatRule) and isinstance(high_hand, HighHandRule)
    # Aces full of tens losing to quads, both hole cards playing, six players dealt in (at least 4).
    qualifier = bad_beat.hands[0].qualifier
    beat = qualifier.check(losing_hole="As Ts", winning_hole="7d 7c", board="Ad Ac Th 7s 7h", players_dealt=6)
    assert beat.qualifies
    assert not qualifier.check(
        losing_hole="As Ts", winning_hole="7d 7c", board="Ad Ac Th 7s 7h", players_dealt=3
    ).qualifies

    assert type(high_hand.minimum) is HighHandMinimum and high_hand.kind is JackpotKind.HIGH_HAND
    assert high_hand.minimum == HighHandMinimum("full_house", min_players_dealt=6)
    assert high_hand.minimum.check(best_high("2s 2d 2h 3c 3d"), players_dealt=6).qualifies
    assert not high_hand.minimum.check(best_high("2s 2d 2h 3c 3d"), players_dealt=5).qualifies
    assert not high_hand.minimum.check(best_high("As Ks Qs Js 9s"), players_dealt=9).qualifies


@pytest.mark.parametrize("hand", ["four_of_a_kind", "straight_flush", "royal_flush"])
def test_the_rules_may_not_raise_the_qualifying_high_hand(hand):
    errors = errors_of(lambda d: d["jackpots"][1].update(min_hand=hand))
    assert errors == [min_hand_refused(hand)]


# --- Canonical form -------------------------------------------------------------------------------


@pytest.mark.parametrize("source", ["factories", "demo"])
def test_the_canonical_form_reads_back_as_equal_rules(source):
    rules = validate_rules(RULES if source == "factories" else parse_text(DEMO.read_text()))
    again = validate_rules(json.loads(rules.canonical_json()))
    assert again == rules
    bad_beat, read_again = rules.jackpots["bb"], again.jackpots["bb"]
    assert isinstance(bad_beat, BadBeatRule) and isinstance(read_again, BadBeatRule)
    assert again.jackpots == rules.jackpots and read_again.hands == bad_beat.hands
    assert again.canonical_json() == rules.canonical_json()


def test_the_canonical_jackpots_are_the_files_values_normalized():
    rules = validate_rules(RULES)
    assert rules.canonical()["jackpots"] == [
        {
            "code": "bb",
            "kind": "bad_beat",
            "name": "Bad Beat",
            "contribution": {
                "method": "fixed",
                "amount": "1.00",
                "min_pot": "20.00",
                "base": "after_rake",
                "no_flop_no_drop": True,
            },
            "reserve_percent": "0",
            "discontinuation": {"approved_on": "2025-12-01", "reference": "PGCB approval 2025-117"},
            "hands": [
                {
                    "code": "bad_beat",
                    "name": "Bad Beat",
                    "games": ["holdem"],
                    "payout_percent": "100",
                    "qualifier": {"losing_hand_at_least": "AAATT", "both_hole_cards_play": True, "min_players": 4},
                    "shares": {"losing_hand": "50", "winning_hand": "25", "table_share": "25"},
                }
            ],
            "seed": "0.00",
        },
        {
            "code": "hh",
            "kind": "high_hand",
            "name": "High Hand",
            "contribution": {
                "method": "percent",
                "rate_percent": "5",
                "max": "2.00",
                "min_pot": "30.00",
                "base": "after_rake",
                "no_flop_no_drop": True,
            },
            "period": {"every_minutes": 60, "first_starts": "10:00"},
            "collection_period": {"every_minutes": 60, "first_starts": "10:00"},
            "min_players": 6,
            "min_hand": "full_house",
            "ties": "split",
            "claim_within_days": 7,
            "id_required": True,
            "unclaimed": "next_period",
            "show_player_name": False,
            "seed": "0.00",
        },
    ]


# --- The drop of one pot --------------------------------------------------------------------------


def test_each_kind_of_drop_quotes_its_own_section():
    rules = validate_rules(RULES)
    # A $100 pot raked $5: $95 after the rake for bb; a $33.99 pot raked $3: $30.99 after the rake for hh.
    bad_beat = drop_compute(
        jackpot=rules.jackpots["bb"],
        rakeable_cents=10000,
        rake_cents=500,
        remaining_cents=9500,
        players=9,
        no_flop_no_drop_applied=False,
    )
    high_hand = drop_compute(
        jackpot=rules.jackpots["hh"],
        rakeable_cents=3399,
        rake_cents=300,
        remaining_cents=2999,
        players=9,
        no_flop_no_drop_applied=False,
    )
    assert (bad_beat.code, bad_beat.amount_cents, bad_beat.rule) == (
        "bb",
        100,
        "Fixed $1.00 from pots of $20.00 or more after the rake (§637a.15(c))",
    )
    assert (high_hand.code, high_hand.amount_cents, high_hand.rule) == (
        "hh",
        154,
        "5% of $30.99 after the rake, rounded down to the cent (§637a.16(c))",
    )


# --- Bad Beat hands: one or more a fund (§637a.15(a)), each with its requirements and payout (b)(3) ---

MINI = {
    "code": "mini",
    "name": "Mini Bad Beat",
    "games": ["omaha_high", "holdem"],
    "payout_percent": 10,
    "qualifier": {"losing_hand_at_least": "22233", "min_players": 6},
    "shares": {"losing_hand": 60, "winning_hand": 40},
}


def test_a_fund_pays_one_or_more_hands_in_file_order():
    data = copy.deepcopy(RULES)
    data["jackpots"][0]["hands"].append(copy.deepcopy(MINI))
    rule = validate_rules(data).jackpots["bb"]
    assert isinstance(rule, BadBeatRule)
    assert [hand.code for hand in rule.hands] == ["bad_beat", "mini"]
    mini = rule.hands[1]
    assert mini == BadBeatHand(
        code="mini",
        name="Mini Bad Beat",
        games=("omaha_high", "holdem"),
        qualifier=BadBeatQualifier("22233", both_hole_cards_play=False, min_players_dealt=6),
        payout_bp=1000,
        shares_bp={"losing_hand": 6000, "winning_hand": 4000},
    )
    assert rule.hands[0].payout_bp == 10_000 and rule.hands[0].shares_bp == {
        "losing_hand": 5000,
        "winning_hand": 2500,
        "table_share": 2500,
    }


def test_payout_percent_defaults_to_the_whole_payable_balance():
    data = copy.deepcopy(RULES)
    del bad_beat_hand(data)["payout_percent"]
    rule = validate_rules(data).jackpots["bb"]
    assert isinstance(rule, BadBeatRule) and rule.hands[0].payout_bp == 10_000
    assert rule.canonical()["hands"][0]["payout_percent"] == "100"


def test_hands_for_a_game_are_the_hands_paid_there_in_file_order():
    data = copy.deepcopy(RULES)
    data["jackpots"][0]["hands"].append(copy.deepcopy(MINI))
    data["jackpots"][0]["hands"].append({**copy.deepcopy(MINI), "code": "hilo", "games": ["omaha_high_low"]})
    rule = validate_rules(data).jackpots["bb"]
    assert isinstance(rule, BadBeatRule)
    assert [hand.code for hand in rule.hands_for("holdem")] == ["bad_beat", "mini"]
    assert [hand.code for hand in rule.hands_for(Game.HOLDEM)] == ["bad_beat", "mini"]
    assert [hand.code for hand in rule.hands_for("omaha_high")] == ["mini"]
    assert [hand.code for hand in rule.hands_for("omaha_high_low")] == ["hilo"]
    assert rule.hands_for("seven_card_stud") == ()


def test_the_qualifier_for_holdem_is_the_one_written():
    rule = validate_rules(RULES).jackpots["bb"]
    assert isinstance(rule, BadBeatRule)
    bad_beat = rule.hands[0]
    assert bad_beat.qualifier_for("holdem") is bad_beat.qualifier
    assert bad_beat.qualifier.game == "holdem"


def test_the_qualifier_for_omaha_uses_exactly_two_hole_cards():
    data = copy.deepcopy(RULES)
    bad_beat_hand(data)["games"] = ["holdem", "omaha_high", "omaha_high_low"]
    rule = validate_rules(data).jackpots["bb"]
    assert isinstance(rule, BadBeatRule)
    hand = rule.hands[0]
    for game in ("omaha_high", "omaha_high_low"):
        omaha = hand.qualifier_for(game)
        assert omaha == replace(hand.qualifier, game="omaha")
        # Aces full of tens with two hole cards (As Ts) and three of the board, losing to quad sevens.
        beat = omaha.check(
            losing_hole="As Ts 2c 3d", winning_hole="7d 7c Kc Kd", board="Ah Ad Th 7s 7h", players_dealt=6
        )
        assert beat.qualifies and str(beat.hand) == "Full house, aces full of tens"
        # One ace in the hand: the board's aces and tens would make aces full with one hole card, but
        # an Omaha hand uses exactly two, so the losing hand is three aces.
        below = omaha.check(
            losing_hole="As 2c 3d 4h", winning_hole="9s 9d 5c 6c", board="Ah Ad Th Ts 9c", players_dealt=6
        )
        assert not below.qualifies
        assert below.reasons[0] == (
            "Losing hand Three of a kind, aces, ten-four kickers (two hole cards play) is below the minimum: "
            "Full house, aces full of tens"
        )


def test_no_qualifier_for_a_game_the_hand_is_not_paid_at():
    rule = validate_rules(RULES).jackpots["bb"]
    assert isinstance(rule, BadBeatRule)
    with pytest.raises(ValueError, match="Bad Beat hand bad_beat is not paid at omaha_high"):
        rule.hands[0].qualifier_for("omaha_high")


def test_hands_are_required():
    errors = errors_of(lambda d: d["jackpots"][0].pop("hands"))
    assert errors == ["jackpots[0] (bb): hands is missing"]


@pytest.mark.parametrize("hands", [[], {}, "bad_beat"])
def test_hands_list_at_least_one_hand(hands):
    errors = errors_of(lambda d: d["jackpots"][0].update(hands=hands))
    assert errors == [
        "jackpots[0] (bb): hands must list one or more Bad Beat hands (§637a.15(a)), each "
        "{code, name, games, payout_percent, qualifier, shares}"
    ]


def test_the_old_single_qualifier_and_shares_are_written_under_hands():
    def mutate(d: dict[str, Any]) -> None:
        old = d["jackpots"][0].pop("hands")[0]
        d["jackpots"][0].update(qualifier=old["qualifier"], shares=old["shares"])

    errors = errors_of(mutate)
    moved = (
        "is written under hands now, for each Bad Beat hand (§637a.15(b)(3)): hands: [{code: bad_beat, name: "
        "Bad Beat, games: [holdem], payout_percent: 100, qualifier: {...}, shares: {...}}]"
    )
    assert errors == [f"jackpots[0] (bb): qualifier {moved}", f"jackpots[0] (bb): shares {moved}"]


def test_a_hand_has_only_known_keys():
    errors = errors_of(lambda d: bad_beat_hand(d).update(payout="1.00"))
    assert errors == [f"{BB_HAND}: unknown key 'payout' (known: code, games, name, payout_percent, qualifier, shares)"]


@pytest.mark.parametrize("key", ["code", "name", "games", "qualifier", "shares"])
def test_a_hand_states_each_required_key(key):
    errors = errors_of(lambda d: bad_beat_hand(d).pop(key))
    where = BB_HAND if key != "code" else "jackpots[0] (bb) hands[0]"
    assert errors == [f"{where}: {key} is missing"]


def test_a_hand_is_a_mapping():
    errors = errors_of(lambda d: d["jackpots"][0]["hands"].append("mini"))
    assert errors == ["jackpots[0] (bb) hands[1]: expected a mapping of keys, got str"]


def test_hand_codes_are_slugs():
    errors = errors_of(lambda d: bad_beat_hand(d).update(code="Bad Beat"))
    assert errors == [
        "jackpots[0] (bb) hands[0] (Bad Beat): code must be a short code of lower-case letters, digits, - and _, "
        "got 'Bad Beat'"
    ]


def test_hand_codes_are_unique_within_the_jackpot():
    errors = errors_of(lambda d: d["jackpots"][0]["hands"].append({**copy.deepcopy(MINI), "code": "bad_beat"}))
    assert errors == ["jackpots[0] (bb) hands[1] (bad_beat): code bad_beat is used by an earlier hand of this jackpot"]


@pytest.mark.parametrize("name", ["", "  ", None, 7])
def test_a_hand_has_a_posted_name(name):
    errors = errors_of(lambda d: bad_beat_hand(d).update(name=name))
    assert errors == [
        f'{BB_HAND}: name must be the hand\'s posted name, such as "Bad Beat" or "Mini Bad Beat", got {name!r}'
    ]


@pytest.mark.parametrize("games", [[], None, "holdem"])
def test_a_hand_lists_its_games(games):
    errors = errors_of(lambda d: bad_beat_hand(d).update(games=games))
    assert errors == [
        f"{BB_HAND}: games must list the games this hand is paid at, from holdem, omaha_high, omaha_high_low"
    ]


@pytest.mark.parametrize("game", ["seven_card_stud", "draw_high", "omaha", "mississippi_stud"])
def test_a_hand_of_a_game_the_evaluator_cannot_check_is_refused(game):
    errors = errors_of(lambda d: bad_beat_hand(d).update(games=["holdem", game]))
    assert errors == [
        f"{BB_HAND}: games: the evaluator checks Bad Beat hands of holdem, omaha_high, omaha_high_low only; "
        f"{game!r} is not one of them"
    ]


def test_a_game_is_listed_once():
    errors = errors_of(lambda d: bad_beat_hand(d).update(games=["holdem", "holdem"]))
    assert errors == [f"{BB_HAND}: games: a game is listed twice"]


@pytest.mark.parametrize("percent", [0, 101, "0.00"])
def test_payout_percent_is_more_than_0_and_at_most_100(percent):
    errors = errors_of(lambda d: bad_beat_hand(d).update(payout_percent=percent))
    assert errors == [
        f"{BB_HAND}: payout_percent {percent} must be more than 0 and at most 100: the part of the fund's payable "
        "balance this hand pays, such as 100"
    ]


def test_payout_percent_is_a_percent():
    errors = errors_of(lambda d: bad_beat_hand(d).update(payout_percent="all"))
    assert errors == [f"{BB_HAND}: payout_percent 'all' is not a number of percent"]


def test_an_unknown_share_is_refused():
    errors = errors_of(lambda d: bad_beat_hand(d).update(shares={"losing_hand": 50, "dealer": 50}))
    assert errors == [f"{BB_HAND}: unknown share 'dealer': shares may be losing_hand, winning_hand and table_share"]


def test_a_share_of_nothing_is_left_out():
    errors = errors_of(lambda d: bad_beat_hand(d)["shares"].update(losing_hand=75, table_share=0))
    assert errors == [f"{BB_HAND}: shares.table_share must be more than 0; leave out a share that is not paid"]


@pytest.mark.parametrize("shares", [{}, None, [50, 50]])
def test_shares_map_names_to_percents(shares):
    errors = errors_of(lambda d: bad_beat_hand(d).update(shares=shares))
    assert errors == [
        f"{BB_HAND}: shares must map each of losing_hand, winning_hand and table_share that is paid to a percent, "
        "such as {losing_hand: 50, winning_hand: 25, table_share: 25}"
    ]


def test_a_qualifiers_min_players_has_no_default():
    errors = errors_of(lambda d: bad_beat_hand(d)["qualifier"].pop("min_players"))
    assert errors == [
        f"{BB_HAND} qualifier: min_players is missing: the posted requirements state the fewest players dealt in "
        "that a Bad Beat needs, such as min_players: 4 (§637a.15(b)(3)); it has no default"
    ]


# --- The reserve and the approval of discontinuation (§637a.15(i)) --------------------------------


def test_reserve_percent_defaults_to_nothing_kept_back():
    data = copy.deepcopy(RULES)
    del data["jackpots"][0]["reserve_percent"]
    rule = validate_rules(data).jackpots["bb"]
    assert isinstance(rule, BadBeatRule) and rule.reserve_bp == 0


def test_reserve_percent_keeps_back_part_of_the_fund():
    data = copy.deepcopy(RULES)
    data["jackpots"][0]["reserve_percent"] = 12.5
    rule = validate_rules(data).jackpots["bb"]
    assert isinstance(rule, BadBeatRule) and rule.reserve_bp == 1250
    assert rule.canonical()["reserve_percent"] == "12.5"


@pytest.mark.parametrize("percent", [100, 150])
def test_reserve_percent_is_under_100(percent):
    errors = errors_of(lambda d: d["jackpots"][0].update(reserve_percent=percent))
    assert errors == [
        f"jackpots[0] (bb): reserve_percent {percent} must be under 100: the part of the fund's balance kept back "
        "for the next jackpot, such as 10"
    ]


def test_reserve_percent_is_not_negative():
    errors = errors_of(lambda d: d["jackpots"][0].update(reserve_percent=-5))
    assert errors == ["jackpots[0] (bb): reserve_percent -5 must be zero or more"]


def test_the_discontinuation_approval_is_recorded():
    rule = validate_rules(RULES).jackpots["bb"]
    assert isinstance(rule, BadBeatRule)
    assert rule.discontinuation == Discontinuation(approved_on=date(2025, 12, 1), reference="PGCB approval 2025-117")


def test_an_unquoted_approval_date_is_read_as_the_same_date():
    text = rules_text().replace("approved_on: '2025-12-01'", "approved_on: 2025-12-01")
    assert "approved_on: 2025-12-01" in text
    rule = validate_rules(parse_text(text)).jackpots["bb"]
    assert isinstance(rule, BadBeatRule) and rule.discontinuation is not None
    assert rule.discontinuation.approved_on == date(2025, 12, 1)
    assert rule.canonical()["discontinuation"]["approved_on"] == "2025-12-01"


@pytest.mark.parametrize("approved_on", ["01/12/2025", "2025-12", 20251201, None])
def test_the_approval_date_is_a_date(approved_on):
    errors = errors_of(lambda d: d["jackpots"][0]["discontinuation"].update(approved_on=approved_on))
    assert errors == [
        f'jackpots[0] (bb) discontinuation: approved_on must be a date written as "2025-12-01", got {approved_on!r}'
    ]


def test_the_approval_date_is_a_day_of_the_calendar():
    errors = errors_of(lambda d: d["jackpots"][0]["discontinuation"].update(approved_on="2025-02-30"))
    assert errors == ["jackpots[0] (bb) discontinuation: approved_on '2025-02-30' is not a date of the calendar"]


@pytest.mark.parametrize("reference", ["", "   ", None, 117])
def test_the_approval_names_its_reference(reference):
    errors = errors_of(lambda d: d["jackpots"][0]["discontinuation"].update(reference=reference))
    assert errors == [
        "jackpots[0] (bb) discontinuation: reference must name the Executive Director's approval, such as "
        f'"PGCB letter 2025-117", got {reference!r}'
    ]


def test_the_approval_has_a_date_and_a_reference_only():
    def mutate(d: dict[str, Any]) -> None:
        d["jackpots"][0]["discontinuation"] = {"approved_on": "2025-12-01", "by": "PGCB"}

    assert errors_of(mutate) == [
        "jackpots[0] (bb) discontinuation: reference is missing",
        "jackpots[0] (bb) discontinuation: unknown key 'by' (known: approved_on, reference)",
    ]


def test_the_approval_is_a_mapping():
    errors = errors_of(lambda d: d["jackpots"][0].update(discontinuation="PGCB approval 2025-117"))
    assert errors == ["jackpots[0] (bb) discontinuation: expected a mapping of keys, got str"]


def test_a_fund_no_table_lists_needs_no_approval():
    def mutate(d: dict[str, Any]) -> None:
        del d["jackpots"][0]["discontinuation"]
        d["tables"][0]["jackpots"] = ["hh"]

    data = copy.deepcopy(RULES)
    mutate(data)
    rule = validate_rules(data).jackpots["bb"]
    assert isinstance(rule, BadBeatRule) and rule.discontinuation is None
    assert rule.canonical()["discontinuation"] is None


# --- The contribution: its base and "no flop, no drop" (§637a.15(c), §637a.16(c)) -------------------


@pytest.mark.parametrize("n", [0, 1])
def test_a_contribution_is_measured_after_the_rake_and_stops_with_no_flop_by_default(n):
    contribution = validate_rules(RULES).jackpots[RULES["jackpots"][n]["code"]].contribution
    assert (contribution.base, contribution.no_flop_no_drop) == ("after_rake", True)


@pytest.mark.parametrize("n", [0, 1])
def test_each_kind_of_jackpot_may_post_a_contribution_that_drops_without_a_flop(n):
    data = copy.deepcopy(RULES)
    data["jackpots"][n]["contribution"].update(base="after_rake", no_flop_no_drop=False)
    rule = validate_rules(data).jackpots[data["jackpots"][n]["code"]]
    assert (rule.contribution.base, rule.contribution.no_flop_no_drop) == ("after_rake", False)
    assert rule.canonical()["contribution"]["base"] == "after_rake"
    assert rule.canonical()["contribution"]["no_flop_no_drop"] is False


# Each kind's own section: "After the dealer has extracted the rake, the amount from each pot to be
# contributed ... shall be determined".
SECTIONS = {0: "§637a.15(c)", 1: "§637a.16(c)"}


@pytest.mark.parametrize("n", [0, 1])
def test_a_contribution_before_the_rake_is_refused_citing_the_section(n):
    errors = errors_of(lambda d: d["jackpots"][n]["contribution"].update(base="before_rake"))
    code = RULES["jackpots"][n]["code"]
    assert errors == [
        f"jackpots[{n}] ({code}) contribution: base before_rake is refused: 'After the dealer has extracted the rake, "
        f"the amount from each pot to be contributed ... shall be determined' ({SECTIONS[n]}), so a contribution and "
        "its minimum pot are measured on the pot less the rake; write base: after_rake or leave it out"
    ]


@pytest.mark.parametrize("n", [0, 1])
def test_the_base_is_after_the_rake(n):
    errors = errors_of(lambda d: d["jackpots"][n]["contribution"].update(base="pot"))
    code = RULES["jackpots"][n]["code"]
    assert errors == [
        f"jackpots[{n}] ({code}) contribution: base must be after_rake (the pot less the rake, {SECTIONS[n]}), "
        "got 'pot'"
    ]


@pytest.mark.django_db
def test_a_rules_file_before_the_rake_stores_nothing(room):
    version = load()
    bb = {**RULES["jackpots"][0], "contribution": {**RULES["jackpots"][0]["contribution"], "base": "before_rake"}}
    before = (RulesVersion.objects.count(), Jackpot.objects.count(), PokerRoom.objects.get().name)

    with pytest.raises(RulesFileInvalid) as refused:
        load(rules_text(name="Renamed", jackpots=[bb, *RULES["jackpots"][1:]]))

    assert refused.value.errors == [
        "jackpots[0] (bb) contribution: base before_rake is refused: 'After the dealer has extracted the rake, the "
        "amount from each pot to be contributed ... shall be determined' (§637a.15(c)), so a contribution and its "
        "minimum pot are measured on the pot less the rake; write base: after_rake or leave it out"
    ]
    assert (RulesVersion.objects.count(), Jackpot.objects.count(), PokerRoom.objects.get().name) == before
    assert RulesVersion.objects.order_by("-number").first() == version


def _stored_before_the_rake(version: RulesVersion) -> RulesVersion:
    """A version stored before ``before_rake`` was refused: the content of ``version`` with bb's and hh's
    contributions measured before the rake, inserted as the next version (no file today could load it)."""
    content = copy.deepcopy(version.content)
    for item in content["jackpots"]:
        item["contribution"]["base"] = "before_rake"
    return RulesVersion.objects.create(
        room=version.room,
        number=version.number + 1,
        effective_from=timezone.now() - timedelta(minutes=1),
        loaded_at=timezone.now() - timedelta(minutes=1),
        loaded_by=version.loaded_by,
        source_name="rules-before-the-rake.yaml",
        source_text="(as loaded then)",
        content=content,
        content_sha256=hashlib.sha256(canonical_json(content).encode()).hexdigest(),
    )


@pytest.mark.django_db
def test_a_version_stored_before_the_rake_still_reads_for_its_history(room):
    stored = _stored_before_the_rake(load())

    rules = rules_of_version(version_id=stored.pk, content=stored.content)
    bad_beat = jackpot_rule_of_version(version=stored, code="bb")
    (posted,) = posted_rules(room=room, at=timezone.now()).bad_beats

    assert (rules.jackpots["bb"].contribution.base, rules.jackpots["hh"].contribution.base) == ("before_rake",) * 2
    assert isinstance(bad_beat, BadBeatRule) and bad_beat.contribution.base == "before_rake"
    assert rules.canonical() == stored.content  # read as it was stored, every key
    assert (posted.version, posted.minimum_pot) == (
        stored,
        "$20.00, the pot measured before the rake: the pot without the uncalled final bet, as raked.",
    )
    # The drops it rated read as they were rated: $20.00 before a $2.00 rake reaches the minimum pot.
    drop = drop_compute(
        jackpot=bad_beat,
        rakeable_cents=2000,
        rake_cents=200,
        remaining_cents=1800,
        players=6,
        no_flop_no_drop_applied=False,
    )
    assert (drop.amount_cents, drop.rule) == (
        100,
        "Fixed $1.00 from pots of $20.00 or more before the rake (§637a.15(c))",
    )
    with pytest.raises(RulesInvalid, match="base before_rake is refused"):
        validate_rules(stored.content)  # the same content, as a new file


# --- The display limit after a verification (§637a.15(h)) -------------------------------------------


def test_a_bad_beat_may_post_how_soon_its_display_is_adjusted():
    data = copy.deepcopy(RULES)
    data["jackpots"][0]["display_adjust_within_minutes"] = 15
    rule = validate_rules(data).jackpots["bb"]
    assert isinstance(rule, BadBeatRule) and rule.display_adjust_within_minutes == 15
    assert rule.canonical()["display_adjust_within_minutes"] == 15
    assert validate_rules(json.loads(validate_rules(data).canonical_json())).jackpots["bb"] == rule

    # Not posted: none, and the canonical form of a file without it does not change.
    unposted = validate_rules(RULES).jackpots["bb"]
    assert isinstance(unposted, BadBeatRule) and unposted.display_adjust_within_minutes is None
    assert "display_adjust_within_minutes" not in unposted.canonical()


@pytest.mark.parametrize("minutes", [0, -5, 1441, "15", 1.5, True])
def test_a_display_limit_that_is_not_whole_minutes_within_a_day_is_refused(minutes):
    errors = errors_of(lambda d: d["jackpots"][0].update(display_adjust_within_minutes=minutes))
    assert errors == [
        "jackpots[0] (bb): display_adjust_within_minutes must be a whole number of minutes from 1 to 1440: how soon "
        "after a Bad Beat is verified the display shows the adjusted amount, adjusted by finance in the presence of a "
        f"floorperson or above (§637a.15(h)), such as 15; got {minutes!r}"
    ]


def test_a_high_hand_posts_no_display_limit():
    errors = errors_of(lambda d: d["jackpots"][1].update(display_adjust_within_minutes=15))
    assert len(errors) == 1 and errors[0].startswith("jackpots[1] (hh): unknown key 'display_adjust_within_minutes'")


@pytest.mark.parametrize("n", [0, 1])
def test_no_flop_no_drop_is_true_or_false(n):
    errors = errors_of(lambda d: d["jackpots"][n]["contribution"].update(no_flop_no_drop="yes"))
    code = RULES["jackpots"][n]["code"]
    assert errors == [f"jackpots[{n}] ({code}) contribution: no_flop_no_drop must be true or false, got 'yes'"]


def test_a_contribution_has_only_known_keys():
    errors = errors_of(lambda d: d["jackpots"][1]["contribution"].update(rake="after"))
    assert errors == [
        "jackpots[1] (hh) contribution: unknown key 'rake' (known: base, max, method, min_pot, no_flop_no_drop, "
        "rate_percent)"
    ]


# --- The canonical form of every key ----------------------------------------------------------------


def test_every_key_round_trips_through_the_canonical_form():
    data = copy.deepcopy(RULES)
    bad_beat = data["jackpots"][0]
    bad_beat["contribution"] = {
        "method": "percent",
        "rate_percent": 2.5,
        "max": "1.00",
        "min_pot": "15.00",
        "base": "after_rake",
        "no_flop_no_drop": False,
    }
    bad_beat["reserve_percent"] = 10
    bad_beat["hands"].append(copy.deepcopy(MINI))
    rules = validate_rules(data)
    canonical = rules.canonical()["jackpots"][0]
    assert canonical["contribution"] == {
        "method": "percent",
        "rate_percent": "2.5",
        "max": "1.00",
        "min_pot": "15.00",
        "base": "after_rake",
        "no_flop_no_drop": False,
    }
    assert canonical["reserve_percent"] == "10"
    assert canonical["hands"][1] == {
        "code": "mini",
        "name": "Mini Bad Beat",
        "games": ["omaha_high", "holdem"],
        "payout_percent": "10",
        "qualifier": {"losing_hand_at_least": "22233", "both_hole_cards_play": False, "min_players": 6},
        "shares": {"losing_hand": "60", "winning_hand": "40"},
    }
    again = validate_rules(json.loads(rules.canonical_json()))
    assert again.jackpots["bb"] == rules.jackpots["bb"]
    assert again.canonical_json() == rules.canonical_json()


def test_a_bad_beat_fund_has_no_seed_of_house_money():
    errors = errors_of(lambda d: d["jackpots"][0].update(seed="500.00"))
    assert errors == [
        "jackpots[0] (bb): seed must be 0.00: a Bad Beat is paid from 'a separate fund created from pot "
        "contributions' (§637a.15(a)), so the house adds nothing to it (got 500.00)"
    ]


# --- The High Hand's posted rules (§637a.16(b)) -----------------------------------------------------

HH = "jackpots[1] (hh)"


def high_hand_of(mutate: Any) -> HighHandRule:
    data = copy.deepcopy(RULES)
    mutate(data["jackpots"][1])
    rule = validate_rules(data).jackpots["hh"]
    assert isinstance(rule, HighHandRule)
    return rule


def test_the_high_hand_rule_as_read_from_the_file():
    rule = high_hand_of(lambda hh: None)
    hourly = Period(every_minutes=60, first_starts=time(10, 0))
    assert rule == HighHandRule(
        code="hh",
        name="High Hand",
        contribution=Contribution(method="percent", rate_bp=500, max_cents=200, min_pot_cents=3000),
        seed_cents=0,
        minimum=HighHandMinimum("full_house", min_players_dealt=6),
        period=hourly,
        collection_period=hourly,
        ties="split",
        claim_within_days=7,
        unclaimed="next_period",
        show_player_name=False,
    )
    assert str(rule.minimum.minimum) == "Full house, twos full of threes"


def test_tied_players_share_and_ties_may_be_left_out():
    rule = high_hand_of(lambda hh: hh.pop("ties"))
    assert rule.ties == "split" and rule.canonical()["ties"] == "split"


def test_a_tie_paid_to_the_first_hand_is_refused():
    errors = errors_of(lambda d: d["jackpots"][1].update(ties="first"))
    assert errors == [
        f"{HH}: ties: first is refused: 'The player or players with the highest Qualifying High Hand during the "
        "qualifying period shall be awarded' it (§637a.16(h)), so tied players share; write ties: split or leave it out"
    ]


@pytest.mark.parametrize("ties", ["equal", "", None, ["split"]])
def test_ties_are_split_or_left_out(ties):
    errors = errors_of(lambda d: d["jackpots"][1].update(ties=ties))
    assert errors == [f"{HH}: ties must be split: tied players share the award (§637a.16(b)(5), (h)), got {ties!r}"]


def test_the_qualifying_hand_may_be_left_out_and_is_a_full_house():
    rule = high_hand_of(lambda hh: hh.pop("min_hand"))
    assert rule.minimum == HighHandMinimum("full_house", min_players_dealt=6)
    assert rule.canonical()["min_hand"] == "full_house"


def test_where_an_award_not_collected_goes_is_required():
    errors = errors_of(lambda d: d["jackpots"][1].pop("unclaimed"))
    assert errors == [
        f"{HH}: unclaimed is missing: the Rules Submission states what becomes of a High Hand award not collected "
        "within claim_within_days (§637a.16(i)): next_period (into the pool of the qualifying period open when the "
        "time limit ends) or fund (kept in the fund, added to the next period's pool at its close); it has no default"
    ]


@pytest.mark.parametrize("unclaimed", ["next_period", "fund"])
def test_an_award_not_collected_goes_to_the_next_period_or_stays_in_the_fund(unclaimed):
    rule = high_hand_of(lambda hh: hh.update(unclaimed=unclaimed))
    assert rule.unclaimed == unclaimed and rule.canonical()["unclaimed"] == unclaimed


@pytest.mark.parametrize("unclaimed", ["house", None, ""])
def test_an_award_not_collected_goes_nowhere_else(unclaimed):
    errors = errors_of(lambda d: d["jackpots"][1].update(unclaimed=unclaimed))
    assert errors == [f"{HH}: unclaimed must be next_period or fund (§637a.16(i)), got {unclaimed!r}"]


def test_the_time_limit_to_collect_is_required():
    errors = errors_of(lambda d: d["jackpots"][1].pop("claim_within_days"))
    assert errors == [
        f"{HH}: claim_within_days is missing: the posted rules state the time limit to collect a High Hand award, in "
        "whole days, such as claim_within_days: 7 (§637a.16(b)(6)); it has no default"
    ]


@pytest.mark.parametrize(
    ("days", "message"),
    [
        (0, "claim_within_days must be at least 1, got 0"),
        (-3, "claim_within_days must be at least 1, got -3"),
        (1.5, "claim_within_days must be a whole number, got 1.5"),
        ("7", "claim_within_days must be a whole number, got '7'"),
        (True, "claim_within_days must be a whole number, got True"),
        (None, "claim_within_days must be a whole number, got None"),
    ],
)
def test_the_time_limit_is_a_whole_number_of_days(days, message):
    errors = errors_of(lambda d: d["jackpots"][1].update(claim_within_days=days))
    assert errors == [f"{HH}: {message}"]


def test_the_collection_period_is_the_qualifying_period_unless_written():
    rule = high_hand_of(lambda hh: None)
    assert rule.collection_period == rule.period == Period(60, time(10, 0))
    assert rule.canonical()["collection_period"] == {"every_minutes": 60, "first_starts": "10:00"}
    written = high_hand_of(lambda hh: hh.update(collection_period={"every_minutes": 60, "first_starts": "10:00"}))
    assert written == rule


@pytest.mark.parametrize(
    "collection",
    [{"every_minutes": 1440, "first_starts": "10:00"}, {"every_minutes": 60, "first_starts": "10:30"}],
)
def test_a_collection_period_other_than_the_qualifying_period_is_refused(collection):
    errors = errors_of(lambda d: d["jackpots"][1].update(collection_period=collection))
    assert errors == [
        f"{HH}: collection_period must equal the qualifying period: a period's pool is the contributions of the "
        "rounds that ended in it"
    ]


def test_a_collection_period_is_read_as_a_period():
    errors = errors_of(lambda d: d["jackpots"][1].update(collection_period={"every_minutes": 50}))
    assert errors == [f"{HH} collection_period: every_minutes 50 must divide the 24-hour day (§637a.16(b)(1))"]


def test_the_board_shows_table_and_seat_unless_the_rules_let_it_name_the_player():
    assert high_hand_of(lambda hh: None).show_player_name is False
    rule = high_hand_of(lambda hh: hh.update(show_player_name=True))
    assert rule.show_player_name is True and rule.canonical()["show_player_name"] is True
    errors = errors_of(lambda d: d["jackpots"][1].update(show_player_name="yes"))
    assert errors == [f"{HH}: show_player_name must be true or false, got 'yes'"]


def test_a_high_hand_fund_has_no_seed_of_house_money():
    errors = errors_of(lambda d: d["jackpots"][1].update(seed="100.00"))
    assert errors == [
        f"{HH}: seed must be 0.00: a High Hand is paid from 'a separate fund created from pot contributions' "
        "(§637a.16(a)), so the house adds nothing to it (got 100.00)"
    ]
    assert high_hand_of(lambda hh: hh.update(seed="0.00")).seed_cents == 0


def test_every_high_hand_error_is_reported_at_once():
    def mutate(d: dict[str, Any]) -> None:
        hh = d["jackpots"][1]
        del hh["unclaimed"], hh["claim_within_days"]
        hh.update(ties="first", min_hand="four_of_a_kind", seed="5.00", show_player_name=1)

    errors = errors_of(mutate)
    assert [error.split(":")[1].strip().split(" ")[0] for error in errors] == [
        "min_hand",
        "ties",
        "claim_within_days",
        "unclaimed",
        "show_player_name",
        "seed",
    ]


def test_an_unknown_high_hand_key_names_every_known_one():
    errors = errors_of(lambda d: d["jackpots"][1].update(carry_over=True))
    assert errors == [
        f"{HH}: unknown key 'carry_over' (known: claim_within_days, code, collection_period, contribution, "
        "id_required, kind, min_hand, min_players, name, period, seed, show_player_name, ties, unclaimed)"
    ]


def test_every_high_hand_key_round_trips_through_the_canonical_form():
    def mutate(hh: dict[str, Any]) -> None:
        hh.update(
            name="Hourly High Hand",
            period={"every_minutes": 30, "first_starts": "06:00"},
            collection_period={"every_minutes": 30, "first_starts": "06:00"},
            min_players=4,
            claim_within_days=14,
            unclaimed="fund",
            show_player_name=True,
            seed="0.00",
        )

    rule = high_hand_of(mutate)
    canonical = rule.canonical()
    assert {key: value for key, value in canonical.items() if key != "contribution"} == {
        "code": "hh",
        "kind": "high_hand",
        "name": "Hourly High Hand",
        "period": {"every_minutes": 30, "first_starts": "06:00"},
        "collection_period": {"every_minutes": 30, "first_starts": "06:00"},
        "min_players": 4,
        "min_hand": "full_house",
        "ties": "split",
        "claim_within_days": 14,
        "id_required": True,
        "unclaimed": "fund",
        "show_player_name": True,
        "seed": "0.00",
    }
    data = copy.deepcopy(RULES)
    data["jackpots"][1] = json.loads(json.dumps(canonical))
    again = validate_rules(data).jackpots["hh"]
    assert again == rule and again.canonical() == canonical
