"""Devices and decks on the record (§637a.18(q)-(r), §655a.3(c), §655a.4(a), §655a.13(e)-(g), §657a the
same): the equipment log's signed steps, a device's state, the deck log and the decks flagged overdue."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.roles import Role
from tables.equipment.exceptions import (
    DeckAlreadyVerified,
    DeckError,
    DeckVerifiedByInspector,
    DeviceNotOutOfOrder,
    DeviceOutOfOrder,
    EquipmentError,
)
from tables.equipment.models import DeckChange, DeckMissing, DeckOverdue, DeckVerification, DeviceEvent
from tables.equipment.selectors import decks_overdue, device_states
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
from tables.tasks import decks_overdue_tick
from tests.clock import clock_move
from tests.conftest import PIN


def key() -> str:
    return str(uuid.uuid4())


def records() -> tuple[int, ...]:
    return (
        DeviceEvent.objects.count(),
        DeckChange.objects.count(),
        DeckVerification.objects.count(),
        DeckOverdue.objects.count(),
        Signature.objects.count(),
    )


@pytest.fixture
def stud(room, manager, floorperson):
    table = table_upsert(room=room, number="M1", game=Game.MISSISSIPPI_STUD, seats=6, actor=manager)
    return table_set_open(table=table, is_open=True, actor=floorperson)


@pytest.fixture
def crazy(room, manager, floorperson):
    table = table_upsert(room=room, number="C1", game=Game.CRAZY_4_POKER, seats=6, actor=manager)
    return table_set_open(table=table, is_open=True, actor=floorperson)


def test_a_jammed_shuffler_taken_out_of_order_covered_and_returned(stud, dealer, floorperson):
    # Given the shuffler of M1 jams mid-shuffle: the dealer records it (the cards are reshuffled)
    failed = device_failure_record(
        table=stud,
        device="shuffler",
        failure="jammed",
        description="Jammed mid-shuffle; reshuffled by hand.",
        actor=dealer,
        pin=PIN,
        idempotency_key=key(),
    )
    assert (failed.step, failed.section, failed.failure) == ("failed", "§655a.13(e)", "jammed")
    assert [state.out_of_order for state in device_states(table=stud)] == [False, False]

    # When it jams again and cannot be used: the floorperson takes it out of order, covered
    out = device_out_of_order(
        table=stud,
        device="shuffler",
        marking="covered",
        description="Jams every cycle; covered.",
        actor=floorperson,
        pin=PIN,
        idempotency_key=key(),
    )
    # Then the table's shuffler is out of order since that step, signed by the floorperson
    assert (out.step, out.section, out.marking) == ("out_of_order", "§655a.13(g)", "covered")
    shuffler, shoe = device_states(table=stud)
    assert (shuffler.device, shuffler.out_of_order, shuffler.since) == ("shuffler", True, out)
    assert shoe.out_of_order is False
    assert [(s.purpose, s.signer_id, s.role) for s in out.signatures()] == [("recorder", floorperson.pk, "floorperson")]

    # When the floorperson returns it to service
    returned = device_return(
        table=stud,
        device="shuffler",
        description="Technician cleared the jam; tested 3 cycles.",
        actor=floorperson,
        pin=PIN,
        idempotency_key=key(),
    )
    # Then the return ends the out-of-order step and the shuffler is in service
    assert (returned.step, returned.ends_id, returned.section) == ("returned", out.pk, "§655a.13(g)")
    assert device_states(table=stud)[0].out_of_order is False
    assert [(s.purpose, s.signer_id) for s in returned.signatures()] == [("returner", floorperson.pk)]


def test_each_chapter_cites_its_own_provision(open_table, crazy, dealer, floorperson):
    poker = device_failure_record(
        table=open_table,
        device="shuffler",
        failure="incomplete",
        description="Stopped short.",
        actor=dealer,
        pin=PIN,
        idempotency_key=key(),
    )
    shoe = device_failure_record(
        table=crazy,
        device="dealing_shoe",
        failure="stopped",
        description="Round voided, wagers returned.",
        actor=dealer,
        pin=PIN,
        idempotency_key=key(),
    )
    covered = device_out_of_order(
        table=open_table,
        device="shuffler",
        marking="sign",
        description="Sign placed.",
        actor=floorperson,
        pin=PIN,
        idempotency_key=key(),
    )
    assert [poker.section, shoe.section, covered.section] == ["§637a.18(q)", "§657a.13(f)", "§637a.18(r)"]


def test_refusals_of_the_equipment_log_change_nothing(open_table, stud, dealer, floorperson):
    before = records()
    # Returning a device not out of order
    with pytest.raises(DeviceNotOutOfOrder, match="is not out of order") as refused:
        device_return(table=stud, device="shuffler", description="x", actor=floorperson, pin=PIN, idempotency_key=key())
    assert refused.value.code == "device_not_out_of_order"
    # A dealer takes no device out of order and returns none: a floorperson or above does
    with pytest.raises(ActionNotPermitted, match="Only a floorperson or above may take a shuffler"):
        device_out_of_order(
            table=stud,
            device="shuffler",
            marking="covered",
            description="x",
            actor=dealer,
            pin=PIN,
            idempotency_key=key(),
        )
    with pytest.raises(ActionNotPermitted):
        device_return(table=stud, device="shuffler", description="x", actor=dealer, pin=PIN, idempotency_key=key())
    # A poker table has no dealing shoe in the rules; a failure says how; out of order says how it is shown
    with pytest.raises(EquipmentError, match="not a dealing shoe"):
        device_failure_record(
            table=open_table,
            device="dealing_shoe",
            failure="jammed",
            description="x",
            actor=dealer,
            pin=PIN,
            idempotency_key=key(),
        )
    with pytest.raises(EquipmentError, match="Say how the device failed"):
        device_failure_record(
            table=stud, device="shuffler", failure="", description="x", actor=dealer, pin=PIN, idempotency_key=key()
        )
    with pytest.raises(EquipmentError, match="covered or have a sign"):
        device_out_of_order(
            table=stud,
            device="shuffler",
            marking="",
            description="x",
            actor=floorperson,
            pin=PIN,
            idempotency_key=key(),
        )
    assert records() == before

    # A device out of order neither fails nor is taken out of order again
    device_out_of_order(
        table=stud,
        device="dealing_shoe",
        marking="covered",
        description="Dead.",
        actor=floorperson,
        pin=PIN,
        idempotency_key=key(),
    )
    before = records()
    with pytest.raises(DeviceOutOfOrder, match="return it to service first"):
        device_out_of_order(
            table=stud,
            device="dealing_shoe",
            marking="sign",
            description="x",
            actor=floorperson,
            pin=PIN,
            idempotency_key=key(),
        )
    with pytest.raises(DeviceOutOfOrder):
        device_failure_record(
            table=stud,
            device="dealing_shoe",
            failure="jammed",
            description="x",
            actor=dealer,
            pin=PIN,
            idempotency_key=key(),
        )
    assert records() == before


def test_a_second_rooms_staff_are_refused(stud, manager, make_staff):
    east = room_upsert(
        code="east",
        name="East",
        timezone_name="America/New_York",
        gaming_day_starts=stud.room.gaming_day_starts,
        actor=manager,
    )
    east_floorperson = make_staff(Role.FLOORPERSON, rooms=[east])
    east_dealer = make_staff(Role.DEALER, rooms=[east])
    before = records()
    with pytest.raises(ActionNotPermitted, match="does not work in the room"):
        device_out_of_order(
            table=stud,
            device="shuffler",
            marking="covered",
            description="x",
            actor=east_floorperson,
            pin=PIN,
            idempotency_key=key(),
        )
    with pytest.raises(ActionNotPermitted, match="does not work in the room"):
        deck_change(table=stud, dealt_from="hand", actor=east_dealer, pin=PIN, idempotency_key=key())
    assert records() == before


def test_a_deck_inspected_by_the_dealer_and_verified_by_the_floorperson(stud, dealer, floorperson, make_staff):
    deck = deck_change(table=stud, dealt_from="shoe", decks=2, actor=dealer, pin=PIN, idempotency_key=key())
    assert deck.due_by == deck.changed_at + timedelta(hours=8)
    assert [(s.purpose, s.signer_id) for s in deck.signatures()] == [("inspector", dealer.pk)]
    before = records()
    with pytest.raises(ActionNotPermitted):
        deck_verify(deck=deck, actor=make_staff(Role.DEALER), pin=PIN, idempotency_key=key())
    assert records() == before
    verification = deck_verify(deck=deck, actor=floorperson, pin=PIN, idempotency_key=key())
    assert [(s.purpose, s.signer_id) for s in verification.signatures()] == [("verifier", floorperson.pk)]
    before = records()
    with pytest.raises(DeckAlreadyVerified):
        deck_verify(deck=deck, actor=make_staff(Role.FLOORPERSON), pin=PIN, idempotency_key=key())
    assert records() == before


def test_deck_refusals_change_nothing(open_table, stud, floorperson, dealer):
    before = records()
    with pytest.raises(DeckError, match="the deck log is the banked tables'"):
        deck_change(table=open_table, dealt_from="hand", actor=dealer, pin=PIN, idempotency_key=key())
    with pytest.raises(DeckError, match="one deck, or two with a shuffler"):
        deck_change(table=stud, dealt_from="hand", decks=3, actor=dealer, pin=PIN, idempotency_key=key())
    assert records() == before
    # The floorperson who put the deck into play does not verify it
    mine = deck_change(table=stud, dealt_from="hand", actor=floorperson, pin=PIN, idempotency_key=key())
    preinspected = deck_change(
        table=stud, dealt_from="hand", preinspected=True, actor=dealer, pin=PIN, idempotency_key=key()
    )
    before = records()
    with pytest.raises(DeckVerifiedByInspector, match="cannot verify their own inspection"):
        deck_verify(deck=mine, actor=floorperson, pin=PIN, idempotency_key=key())
    with pytest.raises(DeckError, match="preinspected"):
        deck_verify(deck=preinspected, actor=floorperson, pin=PIN, idempotency_key=key())
    # Two decks are played only with a shuffler: not while it is out of order
    device_out_of_order(
        table=stud,
        device="shuffler",
        marking="covered",
        description="Dead.",
        actor=floorperson,
        pin=PIN,
        idempotency_key=key(),
    )
    before = records()
    with pytest.raises(DeckError, match="Two decks are played only with a shuffler"):
        deck_change(table=stud, dealt_from="shoe", decks=2, actor=dealer, pin=PIN, idempotency_key=key())
    assert records() == before


def test_an_overdue_deck_is_flagged_once(stud, crazy, room, manager, floorperson, dealer, monkeypatch):
    # Given M1's deck dealt by hand (4 hours) and C1's from a shoe (8 hours), put into play now
    start = timezone.now()
    by_hand = deck_change(table=stud, dealt_from="hand", actor=dealer, pin=PIN, idempotency_key=key())
    by_shoe = deck_change(table=crazy, dealt_from="shoe", actor=dealer, pin=PIN, idempotency_key=key())
    # And a closed banked table whose deck is as old: not in play, not flagged
    closed = table_upsert(room=room, number="M2", game=Game.MISSISSIPPI_STUD, seats=6, actor=manager)
    deck_change(table=closed, dealt_from="hand", actor=dealer, pin=PIN, idempotency_key=key())

    # At 4 hours exactly nothing is overdue yet; a minute later M1's deck is
    assert decks_overdue(at=by_hand.changed_at + timedelta(hours=4)) == []
    clock_move(monkeypatch, to=start + timedelta(hours=4, minutes=1))
    assert decks_overdue(at=timezone.now()) == [by_hand]

    # When the schedule runs twice: M1's deck is flagged once
    decks_overdue_tick()
    decks_overdue_tick()
    flags = list(DeckOverdue.objects.values_list("deck_id", "table_id", "due_by"))
    assert flags == [(by_hand.pk, stud.pk, by_hand.changed_at + timedelta(hours=4))]

    # When the deck is changed, M1 is no longer overdue; at 8 hours C1's shoe deck is flagged too
    fresh = deck_change(table=stud, dealt_from="hand", actor=dealer, pin=PIN, idempotency_key=key())
    clock_move(monkeypatch, to=start + timedelta(hours=8, minutes=1))
    flagged = decks_overdue_flag()
    assert [flag.deck_id for flag in flagged] == [by_shoe.pk]
    assert fresh not in decks_overdue(at=timezone.now())
    assert decks_overdue_flag() == []
    assert DeckOverdue.objects.count() == 2


def test_a_banked_table_open_without_a_deck_is_flagged_once_per_opening(
    room, manager, floorperson, dealer, monkeypatch
):
    # Given M3 (banked) and H1 (Hold'em) opened now, no deck on the record at either
    start = timezone.now()
    banked = table_upsert(room=room, number="M3", game=Game.MISSISSIPPI_STUD, seats=6, actor=manager)
    banked = table_set_open(table=banked, is_open=True, actor=floorperson)
    poker = table_upsert(room=room, number="H1", game=Game.HOLDEM, seats=9, actor=manager)
    table_set_open(table=poker, is_open=True, actor=floorperson)
    opened_at = banked.history.filter(is_open=True).order_by("history_date").first().history_date

    # At 14 minutes nothing is flagged: the dealer may still be inspecting the first deck
    clock_move(monkeypatch, to=start + timedelta(minutes=14))
    assert decks_missing_flag() == []

    # When the schedule runs twice past 15 minutes: M3 is flagged once, with when it opened; H1 never
    clock_move(monkeypatch, to=start + timedelta(minutes=16))
    decks_overdue_tick()
    decks_overdue_tick()
    assert list(DeckMissing.objects.values_list("table_id", "room_id", "opened_at")) == [
        (banked.pk, room.pk, opened_at)
    ]

    # When it closes and opens again, still without a deck: this opening is flagged too
    table_set_open(table=banked, is_open=False, actor=floorperson)
    banked = table_set_open(table=banked, is_open=True, actor=floorperson)
    clock_move(monkeypatch, to=start + timedelta(minutes=40))
    again = decks_missing_flag()
    assert [(flag.table_id, flag.opened_at > opened_at) for flag in again] == [(banked.pk, True)]

    # When a deck is put into play: nothing more to flag, and the flags stay as the schedule wrote them
    deck_change(table=banked, dealt_from="hand", actor=dealer, pin=PIN, idempotency_key=key())
    clock_move(monkeypatch, to=start + timedelta(hours=1))
    assert decks_missing_flag() == []
    assert DeckMissing.objects.count() == 2
    with pytest.raises(IntegrityError, match="never updated or deleted"), transaction.atomic():
        DeckMissing.objects.filter(table=banked).update(flagged_at=timezone.now())
    assert DeckMissing.objects.count() == 2


def test_beat_runs_the_deck_schedule_every_minute(settings):
    assert settings.CELERY_BEAT_SCHEDULE["deck-schedule"] == {"task": decks_overdue_tick.name, "schedule": 60.0}


def test_the_equipment_log_is_insert_only(stud, dealer):
    failed = device_failure_record(
        table=stud,
        device="shuffler",
        failure="jammed",
        description="Jam.",
        actor=dealer,
        pin=PIN,
        idempotency_key=key(),
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        DeviceEvent.objects.filter(pk=failed.pk).update(description="Nothing happened.")
    with pytest.raises(IntegrityError), transaction.atomic():
        DeviceEvent.objects.filter(pk=failed.pk).delete()
