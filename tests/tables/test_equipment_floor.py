"""The tablet face of devices and decks (issue 28, item 6): each table's devices in service, failed or
out of order since when and by whom, their steps signed as the roles and the state allow, a banked
table's decks with their age and limit, put into play by the dealer and verified by the floorperson."""

from __future__ import annotations

import html
import re
import uuid
from datetime import time, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from casino_backoffice.staff.models import Signature, User
from casino_backoffice.staff.roles import Role
from tables.equipment.models import DeckChange, DeckVerification, DeviceEvent
from tables.equipment.services import (
    deck_change,
    decks_missing_flag,
    decks_overdue_flag,
    device_failure_record,
    device_out_of_order,
)
from tables.games import Game
from tables.models import Table
from tables.services import room_upsert, table_set_open, table_upsert
from tests.conftest import PIN
from tests.pages import assert_no_inline_script_or_style

LIST = "/floor/equipment/"


def signed_in(user: User) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def records() -> tuple[int, int, int, int]:
    return (
        DeviceEvent.objects.count(),
        DeckChange.objects.count(),
        DeckVerification.objects.count(),
        Signature.objects.count(),
    )


def step_url(table: Table, device: str, step: str) -> str:
    return reverse("floor:equipment-step", args=[table.pk, device, step])


def step_form(device: str, step: str, **values) -> dict[str, str]:
    prefix = f"{device}-{step}"
    fields = {"idempotency_key": str(uuid.uuid4()), "description": "Jammed mid-shuffle.", "pin": PIN, **values}
    return {f"{prefix}-{name}": value for name, value in fields.items()}


def deck_form(**values) -> dict[str, str]:
    fields = {"idempotency_key": str(uuid.uuid4()), "dealt_from": "hand", "decks": "1", "preinspected": "no"}
    return {f"deck-{name}": value for name, value in {**fields, "note": "", "pin": PIN, **values}.items()}


@pytest.fixture
def stud(room, manager, floorperson) -> Table:
    table = table_upsert(room=room, number="M1", game=Game.MISSISSIPPI_STUD, seats=6, actor=manager)
    return table_set_open(table=table, is_open=True, actor=floorperson)


def test_the_list_shows_each_tables_devices_and_deck(
    open_table, stud, dealer, floorperson, django_assert_max_num_queries
):
    device_out_of_order(
        table=stud,
        device="shuffler",
        marking="covered",
        description="Covered.",
        actor=floorperson,
        pin=PIN,
        idempotency_key="o",
    )
    deck_change(
        table=stud,
        dealt_from="hand",
        actor=dealer,
        pin=PIN,
        idempotency_key="d",
        changed_at=timezone.now() - timedelta(hours=4, minutes=10),
    )
    tablet = signed_in(dealer)
    assert "Devices and decks" in tablet.get("/floor/").content.decode()

    with django_assert_max_num_queries(14):
        response = tablet.get(LIST)

    page = text(response)
    assert_no_inline_script_or_style(response.content.decode())
    assert re.search(r"M1 Open Mississippi Stud · Main Poker Room Shuffler: Out of order since \S+ \S+ E[SD]T", page)
    assert f"· {floorperson} Dealing shoe: In service" in page
    assert "4 h 10 min · by hand Past its limit since" in page and "Inspection not verified" in page
    assert "T1 Open Texas Hold'em · Main Poker Room Shuffler: In service — Open" in page


def test_a_dealer_records_a_failure_and_may_not_take_the_device_out_of_order(stud, dealer):
    tablet = signed_in(dealer)
    page = text(tablet.get(reverse("floor:equipment-table", args=[stud.pk])))
    assert "Record a failure" in page and "Take out of order" not in page and "Return to service" not in page
    before = records()

    response = tablet.post(
        step_url(stud, "shuffler", "failed"), step_form("shuffler", "failed", failure="jammed"), follow=True
    )

    assert records() == (before[0] + 1, before[1], before[2], before[3] + 1)
    event = DeviceEvent.objects.get()
    assert (event.device, event.step, event.failure, event.section, event.recorded_by_id) == (
        "shuffler",
        "failed",
        "jammed",
        "§655a.13(e)",
        dealer.pk,
    )
    page = text(response)
    assert "Automated card shuffling device of table M1: failed" in page and "Failed" in page

    before = records()
    response = tablet.post(
        step_url(stud, "shuffler", "out_of_order"), step_form("shuffler", "out_of_order", marking="covered")
    )
    assert response.status_code == 403 and "Only a floorperson or above may take" in text(response)
    assert records() == before


def test_a_floorperson_takes_it_out_of_order_then_returns_it(stud, floorperson):
    tablet = signed_in(floorperson)
    tablet.post(
        step_url(stud, "dealing_shoe", "out_of_order"), step_form("dealing_shoe", "out_of_order", marking="sign")
    )
    page = text(tablet.get(reverse("floor:equipment-table", args=[stud.pk])))
    assert "Out of order" in page and "An out-of-order sign placed on it" in page and "Return to service" in page

    tablet.post(step_url(stud, "dealing_shoe", "returned"), step_form("dealing_shoe", "returned"))

    assert list(DeviceEvent.objects.order_by("pk").values_list("step", flat=True)) == ["out_of_order", "returned"]
    assert DeviceEvent.objects.get(step="returned").ends_id == DeviceEvent.objects.get(step="out_of_order").pk


@pytest.mark.parametrize(
    ("device", "step", "values", "words"),
    [
        ("shuffler", "failed", {"pin": "0000"}, "Wrong PIN"),
        ("shuffler", "failed", {}, "correct what is marked below"),  # how it failed, not said
        ("shuffler", "returned", {}, "is not out of order: there is nothing to return"),
    ],
)
def test_a_refused_step_says_why_and_records_nothing(stud, floorperson, device, step, values, words):
    if step == "failed" and "pin" in values:
        values = {"failure": "jammed", **values}
    before = records()

    response = signed_in(floorperson).post(step_url(stud, device, step), step_form(device, step, **values))

    assert response.status_code == 200
    assert "Nothing was recorded" in text(response) and words in text(response)
    assert records() == before


def test_a_shoe_at_a_poker_table_is_refused(open_table, floorperson):
    before = records()
    response = signed_in(floorperson).post(
        step_url(open_table, "dealing_shoe", "failed"), step_form("dealing_shoe", "failed", failure="jammed")
    )
    assert "name an automated card shuffling device, not a dealing shoe" in text(response)
    assert records() == before


def test_the_dealer_puts_a_deck_into_play_and_the_floorperson_verifies_it(stud, dealer, floorperson):
    before = records()
    signed_in(dealer).post(reverse("floor:equipment-deck", args=[stud.pk]), deck_form(dealt_from="shoe"))
    assert records() == (before[0], before[1] + 1, before[2], before[3] + 1)
    deck = DeckChange.objects.get()
    assert (deck.dealt_from, deck.decks, deck.inspected_by_id) == ("shoe", 1, dealer.pk)

    # The dealer sees why they do not verify their own inspection
    page = text(signed_in(dealer).get(reverse("floor:equipment-table", args=[stud.pk])))
    assert "You inspected it: the floorperson assigned to the table verifies it" in page
    assert re.search(r"In play .* 0 h 0\d min in play", page)
    assert "Inspection not verified" in page

    response = signed_in(floorperson).post(
        reverse("floor:equipment-deck-verify", args=[deck.pk]),
        {f"verify-{deck.pk}-pin": PIN, f"verify-{deck.pk}-idempotency_key": "v"},
        follow=True,
    )

    assert DeckVerification.objects.get().verified_by == floorperson
    assert f"Deck {deck.pk} of table M1: its inspection verified, signed by you." in text(response)
    assert "Verified" in text(response)


def test_the_inspector_may_not_verify_their_own_deck(stud, floorperson):
    deck = deck_change(table=stud, dealt_from="hand", actor=floorperson, pin=PIN, idempotency_key="d")
    before = records()
    response = signed_in(floorperson).post(
        reverse("floor:equipment-deck-verify", args=[deck.pk]),
        {f"verify-{deck.pk}-pin": PIN, f"verify-{deck.pk}-idempotency_key": "v"},
    )
    assert "cannot verify their own inspection" in text(response)
    assert records() == before


def test_an_overdue_deck_is_flagged_on_the_tables_page(stud, dealer):
    deck_change(
        table=stud,
        dealt_from="shoe",
        actor=dealer,
        pin=PIN,
        idempotency_key="d",
        changed_at=timezone.now() - timedelta(hours=8, minutes=30),
    )
    decks_overdue_flag()
    page = text(signed_in(dealer).get(reverse("floor:equipment-table", args=[stud.pk])))
    assert "8 h 30 min in play" in page and "Past its limit since" in page and "flagged" in page


def test_a_banked_table_open_without_a_deck_is_flagged_on_the_list(stud, dealer):
    tablet = signed_in(dealer)
    assert re.search(r"Dealing shoe: In service No deck on the record Open", text(tablet.get(LIST)))

    flags = decks_missing_flag(at=timezone.now() + timedelta(minutes=16))

    assert [flag.table_id for flag in flags] == [stud.pk]
    page = text(tablet.get(LIST))
    assert re.search(r"No deck on the record open since \S+ E[SD]T, flagged \S+ E[SD]T \(§655a\.4\(a\)\)", page)


def test_a_cashier_records_nothing(stud, cashier):
    tablet = signed_in(cashier)
    before = records()
    for url, data in (
        (step_url(stud, "shuffler", "failed"), step_form("shuffler", "failed", failure="jammed")),
        (reverse("floor:equipment-deck", args=[stud.pk]), deck_form()),
    ):
        response = tablet.post(url, data)
        assert response.status_code == 403
    page = text(tablet.get(reverse("floor:equipment-table", args=[stud.pk])))
    assert "Record a failure" not in page and "Put a deck into play" not in page
    assert records() == before


def test_another_rooms_floorperson_sees_nothing_of_room_a(stud, dealer, manager, make_staff):
    device_failure_record(
        table=stud, device="shuffler", failure="jammed", description="x", actor=dealer, pin=PIN, idempotency_key="f"
    )
    deck = deck_change(table=stud, dealt_from="hand", actor=dealer, pin=PIN, idempotency_key="d")
    east = room_upsert(
        code="east", name="East Room", timezone_name="America/Chicago", gaming_day_starts=time(6), actor=manager
    )
    floor_east = make_staff(Role.FLOORPERSON, rooms=[east])
    tablet = signed_in(floor_east)
    before = records()

    assert "M1" not in text(tablet.get(LIST))
    assert "There is no table" in text(tablet.get(reverse("floor:equipment-table", args=[stud.pk]), follow=True))
    response = tablet.post(
        reverse("floor:equipment-deck-verify", args=[deck.pk]),
        {f"verify-{deck.pk}-pin": PIN, f"verify-{deck.pk}-idempotency_key": "v"},
        follow=True,
    )
    assert f"There is no deck {deck.pk} in your rooms." in text(response)
    response = tablet.post(
        step_url(stud, "shuffler", "out_of_order"),
        step_form("shuffler", "out_of_order", marking="covered"),
        follow=True,
    )
    assert "There is no table" in text(response)
    assert records() == before
