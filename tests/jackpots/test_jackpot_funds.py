"""Jackpot funds come from the rules files; a code names one kind of fund for ever."""

from __future__ import annotations

import pytest

from jackpots.funds.models import Jackpot
from rake.exceptions import RulesFileInvalid
from rake.services import rules_load
from tests.rake.factories import RULES, load, rules_loader, rules_text


def test_funds_are_registered_once_and_renamed_with_the_rules(db):
    load()
    renamed = [{**RULES["jackpots"][0], "name": "Bad Beat Jackpot"}, RULES["jackpots"][1]]
    rules_load(text=rules_text(effective_from=None, jackpots=renamed), actor=rules_loader())
    assert Jackpot.objects.count() == 2
    fund = Jackpot.objects.get(code="bb")
    assert fund.name == "Bad Beat Jackpot"
    assert fund.history.count() == 2


def test_a_bad_beat_code_cannot_become_a_high_hand(db):
    load()
    high_hand_bb = {**RULES["jackpots"][1], "code": "bb"}
    with pytest.raises(RulesFileInvalid, match="Jackpot bb is a Bad Beat fund and cannot become a High Hand"):
        rules_load(
            text=rules_text(effective_from=None, jackpots=[high_hand_bb, RULES["jackpots"][1]]), actor=rules_loader()
        )
    assert Jackpot.objects.get(code="bb").kind == "bad_beat"
