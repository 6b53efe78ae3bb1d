"""A signing lock needs an administrator (issue 25, item 5): after five wrong PINs the person cannot
lift the lock by setting a new PIN, on the tablet page or through the service; an administrator of
their room unlocks, and the person signs with the PIN they had."""

from __future__ import annotations

from datetime import time

import pytest

from casino_backoffice.staff.exceptions import ActionNotPermitted, SigningLocked, WrongPin
from casino_backoffice.staff.models import User
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import pin_check, pin_set, signing_unlock
from tables.services import room_upsert
from tests.conftest import PASSWORD, PIN


def _lock(person: User) -> None:
    for _ in range(4):
        with pytest.raises(WrongPin):
            pin_check(user=person, pin="0000")
    with pytest.raises(SigningLocked):
        pin_check(user=person, pin="0000")


def _state(person: User) -> tuple[str, int, object]:
    row = User.objects.get(pk=person.pk)
    return row.pin_hash, row.failed_pin_attempts, row.signing_locked_at


def test_a_locked_person_cannot_set_a_new_pin_on_the_tablet(client, floorperson) -> None:
    # Given a floorperson locked after five wrong PINs
    _lock(floorperson)
    before = _state(floorperson)
    client.force_login(floorperson)

    # When they set a new PIN with their password at /floor/pin/
    page = client.get("/floor/pin/")
    response = client.post("/floor/pin/", {"current_password": PASSWORD, "pin": "1357", "pin_again": "1357"})

    # Then the page says an administrator must unlock, offers no form, and nothing changed
    assert "An administrator of your room must" in page.content.decode()
    assert 'name="pin"' not in page.content.decode()
    assert response.status_code == 403
    assert _state(floorperson) == before
    with pytest.raises(SigningLocked, match="an administrator must unlock it"):
        pin_check(user=floorperson, pin="1357")


def test_a_locked_person_cannot_set_a_new_pin_through_the_service(floorperson) -> None:
    _lock(floorperson)
    before = _state(floorperson)

    with pytest.raises(SigningLocked, match="an administrator must unlock it before a new PIN can be set"):
        pin_set(user=floorperson, pin="1357", actor=floorperson)

    assert _state(floorperson) == before


def test_an_administrator_unlocks_and_the_old_pin_signs_again(floorperson, administrator) -> None:
    _lock(floorperson)

    signing_unlock(user=floorperson, actor=administrator)

    assert pin_check(user=floorperson, pin=PIN).user == floorperson
    pin_set(user=floorperson, pin="1357", actor=floorperson)
    assert pin_check(user=floorperson, pin="1357").user == floorperson
    assert _state(floorperson)[1:] == (0, None)


def test_setting_a_pin_before_any_lock_clears_the_count_of_wrong_ones(floorperson) -> None:
    with pytest.raises(WrongPin):
        pin_check(user=floorperson, pin="0000")

    pin_set(user=floorperson, pin="1357", actor=floorperson)

    assert _state(floorperson)[1:] == (0, None)


def test_only_an_administrator_of_the_persons_room_unlocks(administrator, manager, make_staff) -> None:
    # Given two rooms, a floorperson of the north room locked, and an administrator of the south room
    north, south = (
        room_upsert(code=code, name=code, timezone_name="America/New_York", gaming_day_starts=time(6), actor=manager)
        for code in ("north", "south")
    )
    person = make_staff(Role.FLOORPERSON, rooms=[north])
    south_administrator = make_staff(Role.ADMINISTRATOR, rooms=[south])
    _lock(person)
    before = _state(person)

    # When the south room's administrator unlocks, nothing changes
    with pytest.raises(ActionNotPermitted, match="an administrator of their room unlocks their signing"):
        signing_unlock(user=person, actor=south_administrator)
    assert _state(person) == before

    # An administrator holding the all-rooms grant works in every room, and unlocks
    signing_unlock(user=person, actor=administrator)
    assert _state(person)[1:] == (0, None)
