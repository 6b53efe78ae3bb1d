"""Every account's code names its room as its second part; lists are filtered by room on it."""

from __future__ import annotations

import re

import pytest

from casino_backoffice.ledger.models import account_code, account_code_of_rooms


def test_an_account_code_is_its_scope_its_room_and_its_parts() -> None:
    assert account_code("table", "main", "T1", "drop_box") == "table:main:T1:drop_box"
    assert account_code("table", "main", 7, "bb_box") == "table:main:7:bb_box"
    assert account_code("room", "main", "custody") == "room:main:custody"


@pytest.mark.parametrize("room_code", ["", "a:b"])
def test_a_room_code_that_cannot_be_the_second_part_is_refused(room_code: str) -> None:
    with pytest.raises(ValueError, match="second part"):
        account_code("room", room_code, "custody")


def test_the_rooms_pattern_matches_the_accounts_of_those_rooms_only() -> None:
    pattern = re.compile(account_code_of_rooms(["room-a", "b.c"]))

    assert pattern.match(account_code("room", "room-a", "custody"))
    assert pattern.match(account_code("jackpot", "b.c", "bb", "fund"))
    assert not pattern.match(account_code("room", "room-ab", "custody"))
    assert not pattern.match(account_code("room", "bxc", "custody"))  # the dot is not a wildcard
    assert not pattern.match(account_code("table", "main", "room-a", "drop_box"))
