"""Room membership denies by default (rooms are never a default): a person given no room and not the
all-rooms grant works nowhere and is told so on every face; create_staff and the admin's add form give
each person rooms or the all-rooms grant, never neither; the migration gives today's people the rooms
they have acted in."""

from __future__ import annotations

import importlib
from io import StringIO

import pytest
from django.apps import apps as global_apps
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from rest_framework.test import APIClient

from casino_backoffice.staff.exceptions import StaffError
from casino_backoffice.staff.models import Signature, User
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import staff_create
from tables.models import PokerRoom, Round
from tables.selectors import rooms_of, visible_to, works_in
from tests.conftest import PASSWORD, PIN


@pytest.fixture
def roomless(make_staff) -> User:
    """The finding: a new floorperson, assigned to no room, signed compliance notices in two rooms."""
    person = make_staff(Role.FLOORPERSON, all_rooms=False, rooms=[])
    return person


def test_the_service_refuses_a_person_given_neither_rooms_nor_the_grant(db) -> None:
    with pytest.raises(StaffError, match="Give casey the rooms they work in, or the all-rooms grant"):
        staff_create(username="casey", role=Role.FLOORPERSON, credential_number="PA-1", password=PASSWORD)
    assert not User.objects.filter(username="casey").exists()


def test_a_person_given_no_room_works_nowhere(room, make_staff) -> None:
    person = User.objects.create_user(username="nobody", password=PASSWORD, credential_number="PA-NONE")
    assert list(rooms_of(person)) == [] and not works_in(person, room)
    assert not visible_to(person, PokerRoom.objects.all()).exists()
    assert not visible_to(person, Round.objects.all()).exists()
    assert not visible_to(person, Signature.objects.all()).exists()


def test_a_person_given_no_room_is_refused_on_the_api_and_the_pages_with_a_message(rated_table, db) -> None:
    person = User.objects.create_user(username="nobody", password=PASSWORD, credential_number="PA-NONE")
    api = APIClient()
    api.force_authenticate(person)
    for url in ("/api/rounds/", "/api/boxes/", "/api/me/"):
        response = api.get(url)
        assert response.status_code == 403, url
        assert response.json()["code"] == "no_room" and "You are given no poker room" in response.json()["detail"]
    page = Client()
    page.force_login(person)
    for url in ("/floor/", "/floor/counts/"):
        response = page.get(url)
        assert response.status_code == 403 and "You are given no poker room" in response.content.decode(), url


def test_the_all_rooms_grant_works_in_every_room_and_rooms_only_in_theirs(room, make_staff, administrator) -> None:
    other = PokerRoom.objects.create(code="b", name="Room B")
    everywhere = make_staff(Role.FINANCE, all_rooms=True)
    of_b = make_staff(Role.FLOORPERSON, rooms=[other])
    assert set(rooms_of(everywhere)) == {room, other}
    assert list(rooms_of(of_b)) == [other] and not works_in(of_b, room)


def test_create_staff_takes_rooms_or_the_grant_and_refuses_neither(room, capsys) -> None:
    common = {"credential_number": "PA-777", "password": PASSWORD, "interactive": False}
    with pytest.raises(CommandError, match="--room CODE"):
        call_command("create_staff", "casey", role="floorperson", **common)
    with pytest.raises(CommandError, match="There is no room nowhere"):
        call_command("create_staff", "casey", role="floorperson", rooms=["nowhere"], **common)
    assert not User.objects.filter(username="casey").exists()
    call_command("create_staff", "casey", role="floorperson", rooms=[room.code], **common)
    assert list(User.objects.get(username="casey").poker_rooms.all()) == [room]
    call_command("create_staff", "fin", role="finance", all_rooms=True, **{**common, "credential_number": "PA-778"})
    assert User.objects.get(username="fin").all_rooms
    assert "working in every room" in capsys.readouterr().out


def test_the_admins_add_form_requires_rooms_or_the_grant(room, administrator) -> None:
    browser = Client()
    browser.force_login(administrator)
    body = {
        "username": "newfloor",
        "credential_number": "PA-NEW",
        "usable_password": "true",
        "password1": "a-Long-enough-pass-9",
        "password2": "a-Long-enough-pass-9",
    }
    refused = browser.post("/admin/staff/user/add/", body)
    assert "Give the rooms this person works in, or the all-rooms grant" in refused.content.decode()
    assert not User.objects.filter(username="newfloor").exists()
    browser.post("/admin/staff/user/add/", {**body, "rooms": [room.pk]})
    assert list(User.objects.get(username="newfloor").poker_rooms.all()) == [room]


def test_an_administrator_of_one_room_grants_neither_another_room_nor_all_rooms(room, make_staff) -> None:
    other = PokerRoom.objects.create(code="b", name="Room B")
    admin_of_b = make_staff(Role.ADMINISTRATOR, rooms=[other])
    browser = Client()
    browser.force_login(admin_of_b)
    form = browser.get("/admin/staff/user/add/").content.decode()
    assert f'value="{other.pk}"' in form and f'value="{room.pk}"' not in form
    body = {
        "username": "sneaky",
        "credential_number": "PA-SNK",
        "usable_password": "true",
        "password1": "a-Long-enough-pass-9",
        "password2": "a-Long-enough-pass-9",
        "all_rooms": "on",
        "rooms": [room.pk],
    }
    browser.post("/admin/staff/user/add/", body)
    made = User.objects.filter(username="sneaky").first()
    assert made is None or (not made.all_rooms and room not in made.poker_rooms.all())
    own = browser.get(f"/admin/staff/user/{admin_of_b.pk}/change/").content.decode()
    assert "Your own rooms are given by another administrator." in own


def test_the_migration_gives_todays_people_the_rooms_they_acted_in(room, make_staff, floorperson, key) -> None:
    """Run the migration's function on people as they were before it: assigned to no room."""
    from cage.services import notice_record

    notice_record(room=room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key())
    finance = make_staff(Role.FINANCE)
    idle = make_staff(Role.DEALER)
    User.objects.filter(pk__in=[floorperson.pk, finance.pk, idle.pk]).update(all_rooms=False)
    PokerRoom.staff.through.objects.filter(user_id__in=[floorperson.pk, finance.pk, idle.pk]).delete()
    migration = importlib.import_module("casino_backoffice.staff.migrations.0012_all_rooms_grant")
    out = StringIO()
    import contextlib

    with contextlib.redirect_stdout(out):
        migration.give_rooms(global_apps, None)
    assert list(User.objects.get(pk=floorperson.pk).poker_rooms.all()) == [room]
    assert User.objects.get(pk=finance.pk).all_rooms
    assert not User.objects.get(pk=idle.pk).poker_rooms.exists() and not User.objects.get(pk=idle.pk).all_rooms
    assert idle.username in out.getvalue()
