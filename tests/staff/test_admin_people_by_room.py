"""An administrator manages only the people of their rooms (issue 25, item 2): the admin's people,
password, delete, history, tokens and second-factor pages show a person only to an administrator who
works beside them (a person with the all-rooms grant only to an all-rooms administrator); only an
all-rooms administrator grants the all-rooms grant or a room they do not hold, and roles only to a
person of no room but theirs; nobody grants themselves anything; ``is_superuser``, raw permissions and
groups are not offered (roles are)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import NoReverseMatch, reverse
from django_otp.plugins.otp_totp.models import TOTPDevice
from knox.models import AuthToken

from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.models import SecondFactorEvent, SecondFactorEventKind, User
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.second_factor.services import second_factor_reset
from casino_backoffice.staff.services import api_token_create, api_token_revoke, staff_access_set
from tables.models import PokerRoom

NEW_PASSWORD = "a-Long-enough-pass-9"


@pytest.fixture
def rooms(db) -> dict[str, PokerRoom]:
    return {code: PokerRoom.objects.create(code=code, name=f"Room {code.upper()}") for code in ("a", "b")}


@pytest.fixture
def people(rooms, make_staff) -> dict[str, User]:
    """Administrators of room B, of room A, of every room, one of room B who is also finance; a
    floorperson of each room, one of both rooms, and finance with the all-rooms grant."""
    a, b = rooms["a"], rooms["b"]
    return {
        "admin_of_b": make_staff(Role.ADMINISTRATOR, rooms=[b]),
        "admin_of_a": make_staff(Role.ADMINISTRATOR, rooms=[a]),
        "admin_everywhere": make_staff(Role.ADMINISTRATOR, all_rooms=True),
        "admin_and_finance_of_b": make_staff(Role.ADMINISTRATOR, extra_roles=[Role.FINANCE], rooms=[b]),
        "floor_of_a": make_staff(Role.FLOORPERSON, rooms=[a]),
        "floor_of_b": make_staff(Role.FLOORPERSON, rooms=[b]),
        "floor_of_a_and_b": make_staff(Role.FLOORPERSON, rooms=[a, b]),
        "finance_everywhere": make_staff(Role.FINANCE, all_rooms=True),
    }


def _signed_in(person: User) -> Client:
    browser = Client()
    browser.force_login(person)
    return browser


def _snapshot(person: User) -> tuple[Any, ...]:
    """What a page could change of a person: names, password, flags, roles, rooms, the grant."""
    fresh = User.objects.get(pk=person.pk)
    return (
        fresh.first_name,
        fresh.password,
        fresh.is_active,
        fresh.is_staff,
        fresh.is_superuser,
        fresh.all_rooms,
        sorted(fresh.groups.values_list("name", flat=True)),
        sorted(fresh.user_permissions.values_list("codename", flat=True)),
        sorted(fresh.poker_rooms.values_list("code", flat=True)),
    )


def _form_data(page: Any) -> dict[str, Any]:
    """The change form as the page offers it, to post back with a few values changed."""
    form = page.context["adminform"].form
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if field.disabled or value is None:
            continue
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, (list, tuple)):
            offered = getattr(field, "queryset", None)
            values = [getattr(item, "pk", item) for item in value]
            if offered is not None:  # a room the page does not offer is not posted back
                values = [pk for pk in values if offered.filter(pk=pk).exists()]
            data[name] = [str(item) for item in values]
        else:
            data[name] = value
    return data


def _change_url(person: User) -> str:
    return reverse("admin:staff_user_change", args=[person.pk])


# --- 1. Sees and changes only people who work in a room they administer ---------------------------


def test_a_room_b_administrator_lists_only_the_people_of_room_b(people) -> None:
    browser = _signed_in(people["admin_of_b"])

    listed = {person.username for person in browser.get("/admin/staff/user/").context["cl"].result_list}

    assert listed == {
        people[name].username for name in ("admin_of_b", "admin_and_finance_of_b", "floor_of_b", "floor_of_a_and_b")
    }
    everyone = {
        person.username
        for person in _signed_in(people["admin_everywhere"]).get("/admin/staff/user/").context["cl"].result_list
    }
    assert everyone >= {person.username for person in people.values()}


@pytest.mark.parametrize("target", ["floor_of_a", "finance_everywhere", "admin_everywhere"])
def test_a_room_b_administrator_reaches_no_page_of_a_person_outside_room_b(people, target) -> None:
    person = people[target]
    before = _snapshot(person)
    browser = _signed_in(people["admin_of_b"])
    history_id = person.history.order_by("history_id").first().history_id

    assert browser.get(_change_url(person)).status_code == 302  # "does not exist", back to the admin's home
    browser.post(_change_url(person), {"username": person.username, "first_name": "Mallory"})
    password = reverse("admin:auth_user_password_change", args=[person.pk])
    assert browser.get(password).status_code == 404
    assert browser.post(password, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD}).status_code == 404
    delete = reverse("admin:staff_user_delete", args=[person.pk])
    assert browser.get(delete).status_code == 302
    browser.post(delete, {"post": "yes"})
    assert browser.get(reverse("admin:staff_user_history", args=[person.pk])).status_code == 404
    revert = reverse("admin:staff_user_simple_history", args=[person.pk, history_id])
    assert browser.get(revert).status_code == 404
    browser.post(revert, {"username": person.username, "first_name": "Mallory"})

    assert _snapshot(person) == before


def test_the_delete_action_and_the_bulk_actions_reach_no_person_outside_room_b(people) -> None:
    person = people["floor_of_a"]
    before = _snapshot(person)
    browser = _signed_in(people["admin_of_b"])

    browser.post("/admin/staff/user/", {"action": "delete_selected", "_selected_action": [person.pk], "post": "yes"})

    assert User.objects.filter(pk=person.pk).exists() and _snapshot(person) == before


def test_a_room_b_administrator_changes_a_person_of_room_b(people) -> None:
    person = people["floor_of_b"]
    browser = _signed_in(people["admin_of_b"])

    page = browser.get(_change_url(person))
    assert page.status_code == 200
    browser.post(_change_url(person), {**_form_data(page), "first_name": "Robin"})
    password = reverse("admin:auth_user_password_change", args=[person.pk])
    browser.post(password, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"})

    fresh = User.objects.get(pk=person.pk)
    assert fresh.first_name == "Robin" and fresh.check_password(NEW_PASSWORD)


def test_a_room_b_administrator_sees_and_revokes_only_the_tokens_of_room_b(people) -> None:
    api_token_create(user=people["floor_of_a"])
    api_token_create(user=people["floor_of_b"])
    of_a = AuthToken.objects.get(user=people["floor_of_a"])
    browser = _signed_in(people["admin_of_b"])

    listed = browser.get("/admin/knox/authtoken/").context["cl"].result_list
    browser.post("/admin/knox/authtoken/", {"action": "revoke", "_selected_action": [of_a.pk]})

    assert [token.user for token in listed] == [people["floor_of_b"]]
    assert AuthToken.objects.filter(pk=of_a.pk).exists()
    with pytest.raises(ActionNotPermitted, match="does not work in a room of"):
        api_token_revoke(token=of_a, actor=people["admin_of_b"])
    with pytest.raises(ActionNotPermitted, match="does not work in a room of"):
        api_token_create(user=people["floor_of_a"], actor=people["admin_of_b"])
    assert AuthToken.objects.filter(user=people["floor_of_a"]).count() == 1


def test_a_room_b_administrator_resets_no_second_factor_outside_room_b_and_reads_none_of_its_events(people) -> None:
    of_a, of_b = people["floor_of_a"], people["floor_of_b"]
    device = TOTPDevice.objects.create(user=of_a, name="phone", confirmed=True)
    for person in (of_a, of_b):
        SecondFactorEvent.objects.create(
            user=person, kind=SecondFactorEventKind.CONFIRMED, actor=person, at=person.date_joined
        )
    browser = _signed_in(people["admin_of_b"])

    browser.post("/admin/staff/user/", {"action": "reset_second_factor", "_selected_action": [of_a.pk]})
    events = browser.get("/admin/staff/secondfactorevent/").context["cl"].result_list

    assert TOTPDevice.objects.filter(pk=device.pk).exists()
    assert not SecondFactorEvent.objects.filter(kind=SecondFactorEventKind.RESET).exists()
    assert [event.user for event in events] == [of_b]
    with pytest.raises(ActionNotPermitted, match="does not work in a room of"):
        second_factor_reset(user=of_a, actor=people["admin_of_b"])
    assert TOTPDevice.objects.filter(pk=device.pk).exists()


# --- 2. Only an all-rooms administrator grants all-rooms or another room; roles only within ---------


def test_a_room_b_administrator_gives_a_new_person_room_b_only(people, rooms) -> None:
    browser = _signed_in(people["admin_of_b"])
    body = {
        "username": "newcomer",
        "credential_number": "PA-NEW-1",
        "usable_password": "true",
        "password1": NEW_PASSWORD,
        "password2": NEW_PASSWORD,
        "rooms": [rooms["b"].pk],
        "roles": [Role.FINANCE.value],
    }

    refused = browser.post("/admin/staff/user/add/", {**body, "all_rooms": "on", "rooms": [rooms["a"].pk]})
    assert not User.objects.filter(username="newcomer").exists()
    assert refused.status_code == 200
    browser.post("/admin/staff/user/add/", body)

    made = User.objects.get(username="newcomer")
    assert list(made.poker_rooms.values_list("code", flat=True)) == ["b"] and not made.all_rooms


def test_a_room_b_administrator_grants_roles_to_a_person_of_room_b_only(people, rooms) -> None:
    browser = _signed_in(people["admin_of_b"])
    finance = str(Group.objects.get(name=Role.FINANCE.value).pk)
    of_b, of_both = people["floor_of_b"], people["floor_of_a_and_b"]
    before = _snapshot(of_both)

    page = browser.get(_change_url(of_both))
    browser.post(
        _change_url(of_both),
        {**_form_data(page), "groups": [finance], "roles": [Role.FLOORPERSON.value, Role.FINANCE.value]},
    )
    assert _snapshot(of_both) == before
    assert "also works in a room you do not administer (a)" in page.content.decode()
    with pytest.raises(ActionNotPermitted, match=r"also works in a room you do not administer \(a\)"):
        staff_access_set(
            user=of_both,
            actor=people["admin_of_b"],
            roles=[Role.FINANCE],
            rooms=[rooms["a"], rooms["b"]],
            all_rooms=False,
        )
    assert _snapshot(of_both) == before

    page = browser.get(_change_url(of_b))
    browser.post(_change_url(of_b), {**_form_data(page), "roles": [Role.FLOORPERSON.value, Role.FINANCE.value]})
    assert User.objects.get(pk=of_b.pk).roles == {Role.FLOORPERSON, Role.FINANCE}


def test_an_all_rooms_administrator_grants_the_grant_and_any_room(people, rooms) -> None:
    person = people["floor_of_b"]
    browser = _signed_in(people["admin_everywhere"])

    page = browser.get(_change_url(person))
    browser.post(_change_url(person), {**_form_data(page), "rooms": [rooms["a"].pk, rooms["b"].pk]})

    assert sorted(person.poker_rooms.values_list("code", flat=True)) == ["a", "b"]


def test_only_an_administrator_grants_roles_and_is_staff_follows_the_roles(people) -> None:
    person = people["floor_of_b"]
    browser = _signed_in(people["admin_of_b"])

    page = browser.get(_change_url(person))
    browser.post(_change_url(person), {**_form_data(page), "roles": [Role.FINANCE.value]})

    fresh = User.objects.get(pk=person.pk)
    assert fresh.roles == {Role.FINANCE} and fresh.is_staff  # finance works in the back office


# --- 3. Nobody grants themselves anything -----------------------------------------------------------


@pytest.mark.parametrize("who", ["admin_of_b", "admin_everywhere", "admin_and_finance_of_b"])
def test_an_administrator_grants_themselves_nothing_on_their_own_page(people, rooms, who) -> None:
    me = people[who]
    before = _snapshot(me)
    browser = _signed_in(me)
    groups = [str(group.pk) for group in Group.objects.all()]

    page = browser.get(_change_url(me))
    body = page.content.decode()
    browser.post(
        _change_url(me),
        {
            **_form_data(page),
            "roles": [role.value for role in Role],
            "groups": groups,
            "rooms": [rooms["a"].pk, rooms["b"].pk],
            "all_rooms": "on",
            "is_staff": "on",
            "is_superuser": "on",
        },
    )

    assert _snapshot(me) == before
    assert "Your own roles are given by another administrator." in body
    assert "Your own rooms are given by another administrator." in body


def test_an_administrator_sets_their_own_name_and_password(people) -> None:
    me = people["admin_of_b"]
    browser = _signed_in(me)

    page = browser.get(_change_url(me))
    browser.post(_change_url(me), {**_form_data(page), "first_name": "Sam"})

    assert User.objects.get(pk=me.pk).first_name == "Sam"
    assert _snapshot(me)[3:] == _snapshot(User.objects.get(pk=me.pk))[3:]


# --- 4. is_superuser, raw permissions and groups are not offered --------------------------------------


@pytest.mark.parametrize("page_of", ["floor_of_b", "admin_of_b"])
def test_the_people_pages_offer_no_superuser_no_raw_permissions_and_roles_in_place_of_groups(people, page_of) -> None:
    browser = _signed_in(people["admin_everywhere"])

    for url in (_change_url(people[page_of]), "/admin/staff/user/add/"):
        body = browser.get(url).content.decode()
        assert 'name="is_superuser"' not in body and 'name="user_permissions"' not in body, url
        assert 'name="groups"' not in body and 'name="is_staff"' not in body, url
        assert 'name="roles"' in body and "Poker shift supervisor" in body, url
    assert "Works in the back office" in browser.get(_change_url(people[page_of])).content.decode()


def test_groups_have_no_admin_page(people) -> None:
    operator = User.objects.create_superuser(username="operator", password=NEW_PASSWORD, credential_number="PA-OP")
    browser = _signed_in(operator)

    with pytest.raises(NoReverseMatch):
        reverse("admin:auth_group_changelist")
    assert browser.get("/admin/auth/group/").status_code == 404


def test_a_superuser_is_managed_by_a_superuser_only(people) -> None:
    operator = User.objects.create_superuser(username="operator", password=NEW_PASSWORD, credential_number="PA-OP")
    browser = _signed_in(people["admin_everywhere"])

    password = reverse("admin:auth_user_password_change", args=[operator.pk])

    assert browser.get(password).status_code == 404
    assert operator.pk not in {person.pk for person in browser.get("/admin/staff/user/").context["cl"].result_list}


# --- The walk: every people page, for a person of another room and a person with two roles ----------

PAGES = {
    "change": lambda person: _change_url(person),
    "password": lambda person: reverse("admin:auth_user_password_change", args=[person.pk]),
    "delete": lambda person: reverse("admin:staff_user_delete", args=[person.pk]),
    "history": lambda person: reverse("admin:staff_user_history", args=[person.pk]),
}
ACTORS = ["admin_of_b", "admin_of_a", "admin_everywhere", "admin_and_finance_of_b"]


def test_the_walk_every_people_page_for_every_administrator_and_person(people) -> None:
    """A page opens (200) exactly when the administrator works beside the person: a room in common, or
    the all-rooms grant; a person holding the grant opens only to an all-rooms administrator."""
    opened: dict[tuple[str, str], bool] = {}
    for actor in ACTORS:
        browser = _signed_in(people[actor])
        listed = {person.pk for person in browser.get("/admin/staff/user/").context["cl"].result_list}
        for target, person in people.items():
            expected = _beside(people[actor], person)
            assert (person.pk in listed) == expected, (actor, target)
            for page, url in PAGES.items():
                status = browser.get(url(person)).status_code
                assert (status == 200) == expected, (actor, target, page, status)
                assert status in ((200,) if expected else (302, 404)), (actor, target, page, status)
            opened[actor, target] = expected
    assert sum(opened.values()) == 4 + 3 + 8 + 4


def _beside(actor: User, person: User) -> bool:
    if actor.all_rooms:
        return True
    if person.all_rooms:
        return False
    return bool(set(actor.poker_rooms.all()) & set(person.poker_rooms.all()))


def test_a_finance_person_of_room_b_reads_the_people_of_room_b_and_changes_none(people, make_staff, rooms) -> None:
    """Finance reads the people of their rooms (its view of the staff app); changing them is an
    administrator's (``STAFF_MANAGE``)."""
    reader = make_staff(Role.FINANCE, rooms=[rooms["b"]])
    browser = _signed_in(reader)

    listed = {person.pk for person in browser.get("/admin/staff/user/").context["cl"].result_list}

    assert people["floor_of_a"].pk not in listed and people["floor_of_b"].pk in listed
    password = reverse("admin:auth_user_password_change", args=[people["floor_of_b"].pk])
    assert browser.get(password).status_code == 403


def test_the_service_refuses_every_grant_the_forms_do_not_offer(people, rooms) -> None:
    """``staff_access_set`` is the rule whatever calls it: the forms only show what it allows."""
    admin_of_b, of_b = people["admin_of_b"], people["floor_of_b"]
    before, own = _snapshot(of_b), _snapshot(admin_of_b)
    cases = [
        (of_b, dict(roles=[Role.FLOORPERSON], rooms=[rooms["b"]], all_rooms=True), "holding the all-rooms grant"),
        (of_b, dict(roles=[Role.FLOORPERSON], rooms=[rooms["a"], rooms["b"]], all_rooms=False), "room a"),
        (people["floor_of_a"], dict(roles=[Role.FINANCE], rooms=[rooms["a"]], all_rooms=False), "does not work"),
        (admin_of_b, dict(roles=[Role.ADMINISTRATOR, Role.FINANCE], rooms=[rooms["b"]], all_rooms=False), "Your own"),
    ]
    for person, grant, refusal in cases:
        with pytest.raises(ActionNotPermitted, match=refusal):
            staff_access_set(user=person, actor=admin_of_b, **grant)
    with pytest.raises(ActionNotPermitted, match="Only an administrator may add or change members of staff"):
        staff_access_set(user=of_b, actor=people["finance_everywhere"], roles=[Role.FINANCE], rooms=[], all_rooms=True)

    assert _snapshot(of_b) == before and _snapshot(admin_of_b) == own


def test_the_people_list_of_a_room_costs_the_same_queries_whatever_its_length(
    people, rooms, make_staff, django_assert_max_num_queries
) -> None:
    for _ in range(20):
        make_staff(Role.DEALER, rooms=[rooms["b"]])
    browser = _signed_in(people["admin_of_b"])

    with django_assert_max_num_queries(15):
        response = browser.get("/admin/staff/user/")

    assert response.context["cl"].result_count == 24


def test_a_room_b_administrator_pulls_nobody_of_another_room_into_room_b(people, rooms) -> None:
    """Else a room-B administrator would put a room-A person in room B, and then manage them."""
    from tables.services import room_staff_set

    b = rooms["b"]
    before = sorted(b.staff.values_list("username", flat=True))
    for newcomer in (people["floor_of_a"], people["finance_everywhere"], people["admin_of_a"]):
        with pytest.raises(ActionNotPermitted, match="cannot put in room b"):
            room_staff_set(room=b, staff=[*b.staff.all(), newcomer], actor=people["admin_of_b"])
    with pytest.raises(ActionNotPermitted, match="nobody for themselves"):
        room_staff_set(room=b, staff=b.staff.exclude(pk=people["admin_of_b"].pk), actor=people["admin_of_b"])
    assert sorted(b.staff.values_list("username", flat=True)) == before

    room_staff_set(room=b, staff=b.staff.exclude(pk=people["floor_of_b"].pk), actor=people["admin_of_b"])
    assert people["floor_of_b"] not in b.staff.all()
