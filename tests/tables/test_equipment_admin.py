"""The equipment log and the deck log in the admin (issue 28, item 6): read-only, filtered, on the
room's clock, a room's rows only, and a busy list in the queries of a quiet one."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, time, timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.roles import Role
from tables.equipment.models import DeckChange, DeckMissing, DeviceEvent
from tables.equipment.services import (
    deck_change,
    deck_verify,
    decks_missing_flag,
    decks_overdue_flag,
    device_failure_record,
    device_out_of_order,
    device_return,
)
from tables.games import Game
from tables.services import room_upsert, table_set_open, table_upsert
from tests.conftest import PIN

DEVICES = "/admin/tables/deviceevent/"
DECKS = "/admin/tables/deckchange/"
MISSING = "/admin/tables/deckmissing/"
JAMMED_AT = datetime(2026, 11, 29, 2, 15, tzinfo=UTC)  # 21:15 EST on the 28th: the gaming day 2026-11-28


def key() -> str:
    return str(uuid.uuid4())


def browser(person) -> Client:
    signed_in = Client()
    signed_in.force_login(person)
    return signed_in


def listed(person, url: str) -> list[int]:
    response = browser(person).get(url)
    assert response.status_code == 200
    return [row.pk for row in response.context["cl"].result_list]


@pytest.fixture
def stud(room, manager, floorperson):
    table = table_upsert(room=room, number="M1", game=Game.MISSISSIPPI_STUD, seats=6, actor=manager)
    return table_set_open(table=table, is_open=True, actor=floorperson)


def jam_and_cover(table, dealer, floorperson) -> tuple[DeviceEvent, DeviceEvent]:
    failed = device_failure_record(
        table=table,
        device="shuffler",
        failure="jammed",
        description="Jammed mid-shuffle; reshuffled by hand.",
        occurred_at=JAMMED_AT,
        actor=dealer,
        pin=PIN,
        idempotency_key=key(),
    )
    covered = device_out_of_order(
        table=table,
        device="shuffler",
        marking="covered",
        description="Covered; shuffled by hand until the technician comes.",
        actor=floorperson,
        pin=PIN,
        idempotency_key=key(),
    )
    return failed, covered


def test_the_equipment_log_filters_by_day_and_step_and_shows_the_rooms_clock(
    stud, dealer, floorperson, compliance
) -> None:
    failed, covered = jam_and_cover(stud, dealer, floorperson)
    returned = device_return(
        table=stud, device="shuffler", description="Repaired.", actor=floorperson, pin=PIN, idempotency_key=key()
    )

    assert listed(compliance, DEVICES) == [returned.pk, covered.pk, failed.pk]
    assert listed(compliance, f"{DEVICES}?gaming_day=2026-11-28") == [failed.pk]
    assert listed(compliance, f"{DEVICES}?step=out_of_order") == [covered.pk]
    assert listed(compliance, f"{DEVICES}?table={stud.pk}&device=dealing_shoe") == []
    page = browser(compliance).get(DEVICES).content.decode()
    assert "2026-11-28 21:15 EST" in page and "§655a.13(e)" in page and "Jammed" in page
    assert f"ends step {covered.pk}" in page and dealer.credential_number in page
    detail = browser(compliance).get(f"{DEVICES}{failed.pk}/change/").content.decode()
    assert f"recorder: {dealer.get_full_name()} (Dealer, credential {dealer.credential_number}) at " in detail


def test_the_deck_log_shows_the_inspection_its_verification_and_the_flag_of_a_deck_kept_too_long(
    stud, dealer, floorperson, compliance
) -> None:
    verified = deck_change(table=stud, dealt_from="hand", actor=dealer, pin=PIN, idempotency_key=key())
    deck_verify(deck=verified, actor=floorperson, pin=PIN, idempotency_key=key())
    preinspected = deck_change(
        table=stud, dealt_from="shoe", preinspected=True, actor=dealer, pin=PIN, idempotency_key=key()
    )
    later = preinspected.changed_at + timedelta(hours=9)
    flagged = decks_overdue_flag(at=later)
    assert [flag.deck_id for flag in flagged] == [preinspected.pk]

    assert listed(compliance, f"{DECKS}?verification=verified") == [verified.pk]
    assert listed(compliance, f"{DECKS}?verification=preinspected") == [preinspected.pk]
    assert listed(compliance, f"{DECKS}?verification=to_verify") == []
    assert listed(compliance, f"{DECKS}?overdue=yes") == [preinspected.pk]
    page = browser(compliance).get(DECKS).content.decode()
    assert "none needed: received preinspected" in page and "EST" in page and "flagged at" in page
    detail = browser(compliance).get(f"{DECKS}{verified.pk}/change/").content.decode()
    assert f"inspector: {dealer.get_full_name()} (Dealer, credential {dealer.credential_number})" in detail
    assert (
        f"verifier: {floorperson.get_full_name()} (Floorperson, credential {floorperson.credential_number})" in detail
    )


def test_the_logs_are_a_rooms_own_and_nobody_changes_them(stud, dealer, floorperson, manager, make_staff) -> None:
    failed, _ = jam_and_cover(stud, dealer, floorperson)
    deck = deck_change(table=stud, dealt_from="hand", actor=dealer, pin=PIN, idempotency_key=key())
    east = room_upsert(
        code="east", name="East Room", timezone_name="America/New_York", gaming_day_starts=time(6), actor=manager
    )
    east_compliance = make_staff(Role.COMPLIANCE, rooms=[east])
    assert listed(east_compliance, DEVICES) == listed(east_compliance, DECKS) == []
    before = (DeviceEvent.objects.count(), DeckChange.objects.count(), Signature.objects.count())
    for role in (Role.COMPLIANCE, Role.FINANCE, Role.ADMINISTRATOR):
        person = browser(make_staff(role))
        for url, row in ((DEVICES, failed), (DECKS, deck)):
            assert person.get(f"{url}add/").status_code == 403
            assert person.post(f"{url}{row.pk}/change/", {"description": "x", "note": "x"}).status_code == 403
            assert person.post(f"{url}{row.pk}/delete/", {"post": "yes"}).status_code == 403
    assert (DeviceEvent.objects.count(), DeckChange.objects.count(), Signature.objects.count()) == before


def test_the_tables_open_without_a_deck_are_listed_on_the_rooms_clock_to_its_own_people_only(
    stud, floorperson, manager, make_staff
) -> None:
    assert len(decks_missing_flag(at=timezone.now() + timedelta(minutes=16))) == 1
    flag = DeckMissing.objects.get(table=stud)
    east = room_upsert(
        code="east", name="East Room", timezone_name="America/New_York", gaming_day_starts=time(6), actor=manager
    )
    compliance, east_compliance = make_staff(Role.COMPLIANCE), make_staff(Role.COMPLIANCE, rooms=[east])

    assert listed(compliance, MISSING) == [flag.pk]
    assert listed(east_compliance, MISSING) == []
    page = browser(compliance).get(f"{MISSING}{flag.pk}/change/").content.decode()
    assert re.search(r"Open since.*\d{4}-\d{2}-\d{2} \d{2}:\d{2} E[SD]T", page, re.S)
    assert browser(compliance).post(f"{MISSING}{flag.pk}/delete/", {"post": "yes"}).status_code == 403
    assert DeckMissing.objects.filter(pk=flag.pk).exists()


def _queries(person, url: str) -> int:
    client = browser(person)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_a_busy_log_opens_in_the_queries_of_a_quiet_one(stud, dealer, floorperson, finance, make_staff) -> None:
    jam_and_cover(stud, dealer, floorperson)
    deck_verify(
        deck=deck_change(table=stud, dealt_from="hand", actor=dealer, pin=PIN, idempotency_key=key()),
        actor=floorperson,
        pin=PIN,
        idempotency_key=key(),
    )
    quiet = (_queries(finance, DEVICES), _queries(finance, DECKS))
    for _ in range(5):
        device_return(
            table=stud, device="shuffler", description="Back.", actor=floorperson, pin=PIN, idempotency_key=key()
        )
        jam_and_cover(stud, make_staff(Role.DEALER), make_staff(Role.FLOORPERSON))
        deck = deck_change(table=stud, dealt_from="shoe", actor=make_staff(Role.DEALER), pin=PIN, idempotency_key=key())
        deck_verify(deck=deck, actor=make_staff(Role.FLOORPERSON), pin=PIN, idempotency_key=key())
    assert (_queries(finance, DEVICES), _queries(finance, DECKS)) == quiet
    assert max(quiet) <= 25
