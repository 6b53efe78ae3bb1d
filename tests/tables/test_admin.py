"""Rooms and tables in the admin change only through their services: a refusal is a form error."""

from __future__ import annotations

from datetime import time

import pytest
from django.test import Client
from django.urls import reverse

from casino_backoffice.staff.roles import Role
from tables.models import PokerRoom, Table


@pytest.fixture
def manager_client(client, manager):
    client.force_login(manager)
    return client


def _room(**changes):
    return {
        "code": "second",
        "name": "Second Room",
        "timezone": "America/New_York",
        "gaming_day_starts": "06:00",
        **changes,
    }


@pytest.fixture
def opener_client(make_staff):
    """An administrator holding the all-rooms grant: who opens a new room (issue 25, item 7)."""
    opener = make_staff(Role.ADMINISTRATOR, all_rooms=True)
    client = Client()
    client.force_login(opener)
    client.opener = opener
    return client


def test_a_room_with_an_unknown_time_zone_is_a_form_error_and_nothing_is_saved(opener_client) -> None:
    response = opener_client.post(reverse("admin:tables_pokerroom_add"), _room(timezone="Mars/Olympus"))

    assert response.status_code == 200
    assert "&#x27;Mars/Olympus&#x27; is not a time zone" in response.content.decode()
    assert not PokerRoom.objects.filter(code="second").exists()


def test_a_room_is_added_by_an_all_rooms_administrator_and_its_rules_keep_its_clock(
    opener_client, manager_client
) -> None:
    assert manager_client.post(reverse("admin:tables_pokerroom_add"), _room()).status_code == 403  # a manager
    assert opener_client.post(reverse("admin:tables_pokerroom_add"), _room()).status_code == 302
    room = PokerRoom.objects.get(code="second")
    assert (room.name, room.timezone, room.gaming_day_starts) == ("Second Room", "America/New_York", time(6))

    change = reverse("admin:tables_pokerroom_change", args=[room.pk])
    assert (
        opener_client.post(change, _room(code="renamed", name="Room Two", timezone="America/Chicago")).status_code
        == 302
    )
    room.refresh_from_db()
    # The code names it, set once; the time zone is the rules' (a rules version changes it), not the form's.
    assert (room.code, room.name, room.timezone) == ("second", "Room Two", "America/New_York")
    assert room.history.latest().history_user == opener_client.opener


def test_a_table_over_its_seat_limit_is_a_form_error(manager_client, room) -> None:
    response = manager_client.post(
        reverse("admin:tables_table_add"), {"room": room.pk, "number": "T8", "game": "crazy_4_poker", "seats": 7}
    )

    assert response.status_code == 200
    assert "seats 7 is over Crazy 4 Poker&#x27;s limit of 6 (§657a.2(a))" in response.content.decode()
    assert not Table.objects.filter(number="T8").exists()


def test_a_table_is_added_and_changed_through_the_service_and_opens_only_on_the_floor(manager_client, room) -> None:
    response = manager_client.post(
        reverse("admin:tables_table_add"),
        {"room": room.pk, "number": "T8", "game": "holdem", "seats": 9, "is_open": "on"},
    )
    assert response.status_code == 302
    table = Table.objects.get(number="T8")
    assert (table.game, table.seats, table.is_open) == ("holdem", 9, False)

    change = reverse("admin:tables_table_change", args=[table.pk])
    manager_client.post(change, {"room": room.pk, "number": "T99", "game": "omaha_high", "seats": 10, "is_open": "on"})

    table.refresh_from_db()
    assert (table.number, table.game, table.seats, table.is_open) == ("T8", "omaha_high", 10, False)


def test_the_admin_deletes_no_room_nor_table(manager_client, make_staff, open_table) -> None:
    manager_client.force_login(make_staff(Role.ADMINISTRATOR))
    assert manager_client.get(reverse("admin:tables_table_delete", args=[open_table.pk])).status_code == 403
    assert manager_client.get(reverse("admin:tables_pokerroom_delete", args=[open_table.room_id])).status_code == 403


@pytest.mark.parametrize("role", [Role.FINANCE, Role.COMPLIANCE, Role.CAGE_CASHIER])
def test_who_may_not_change_rooms_and_tables_reads_them(client, make_staff, open_table, role) -> None:
    client.force_login(make_staff(role))
    assert client.get(reverse("admin:tables_table_change", args=[open_table.pk])).status_code == 200  # read-only
    assert client.get(reverse("admin:tables_table_add")).status_code == 403
    response = client.post(
        reverse("admin:tables_pokerroom_change", args=[open_table.room_id]), _room(code="main", name="Taken")
    )
    assert response.status_code == 403
    assert PokerRoom.objects.get().name == "Main Poker Room"
