"""Rules load per room (issue 25, item 7): a room's rules are loaded by a manager of that room or an
all-rooms administrator, a new room is opened by the latter only, and the admin no longer changes a
room's time zone or gaming-day start outside a rules version."""

from __future__ import annotations

import pytest
from django.test import Client

from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.roles import Role
from rake.services import rules_load
from tables.models import PokerRoom, RulesVersion
from tests.rake.factories import rules_text


@pytest.fixture
def room_b(db) -> PokerRoom:
    return PokerRoom.objects.create(code="b", name="Room B")


def test_a_manager_of_another_room_is_refused_and_nothing_is_loaded(room, room_b, make_staff) -> None:
    manager_of_b = make_staff(Role.POKER_ROOM_MANAGER, rooms=[room_b])
    with pytest.raises(ActionNotPermitted, match="does not work in room main: its rules are loaded by a manager of"):
        rules_load(text=rules_text(), actor=manager_of_b)
    assert not RulesVersion.objects.exists()


def test_a_manager_of_the_room_loads_its_rules(room, make_staff) -> None:
    manager_of_main = make_staff(Role.POKER_ROOM_MANAGER, rooms=[room])
    assert rules_load(text=rules_text(), actor=manager_of_main).version.room == room


def test_a_new_room_is_opened_by_an_all_rooms_administrator_only(db, make_staff) -> None:
    manager = make_staff(Role.POKER_ROOM_MANAGER, all_rooms=True)
    with pytest.raises(ActionNotPermitted, match="There is no room main yet: a new room is opened by an administrator"):
        rules_load(text=rules_text(), actor=manager)
    assert not PokerRoom.objects.exists()
    administrator_of_one = make_staff(Role.ADMINISTRATOR, rooms=[PokerRoom.objects.create(code="z", name="Z")])
    with pytest.raises(ActionNotPermitted, match="There is no room main yet"):
        rules_load(text=rules_text(), actor=administrator_of_one)
    everywhere = make_staff(Role.ADMINISTRATOR, all_rooms=True)
    assert rules_load(text=rules_text(), actor=everywhere).version.room.code == "main"


def test_the_admin_shows_the_time_zone_and_day_start_as_the_rules_set_them(room, administrator) -> None:
    browser = Client()
    browser.force_login(administrator)
    page = browser.get(f"/admin/tables/pokerroom/{room.pk}/change/").content.decode()
    assert 'name="timezone"' not in page and 'name="gaming_day_starts"' not in page
    browser.post(
        f"/admin/tables/pokerroom/{room.pk}/change/",
        {"name": "Main", "timezone": "Europe/Paris", "gaming_day_starts": "09:00"},
    )
    room.refresh_from_db()
    assert room.timezone == "America/New_York"
