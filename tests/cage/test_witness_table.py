"""A table's counts witnessed in one signing (issue 27, item 6): one surveillance reference and one PIN
instead of three, each count keeping its own witness signature (§637a.15(d)(1)); all or none."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from cage.exceptions import CageError
from cage.models import Box, Count, CountStatus
from cage.services import boxes_sync, count_record, counts_witness, notice_record
from casino_backoffice.staff.exceptions import SignerNotIndependent, WrongPin
from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.roles import Role
from tests.conftest import PIN

CODES = (("T1-bb", 300), ("T1-hh", 600), ("T1-drop", 1500))


def _count_t1(table, *, by: dict[str, object], floorperson, key) -> list[Count]:
    boxes_sync(room=table.room)
    notice_record(
        room=table.room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key()
    )
    return [
        count_record(
            box=Box.objects.get(code=code), counted_cents=cents, actor=by[code], pin=PIN, idempotency_key=key()
        )
        for code, cents in CODES
    ]


@pytest.fixture
def counted(closed_table, dealer, floorperson, key) -> list[Count]:
    """T1's three boxes counted by the dealer, awaiting their witness."""
    return _count_t1(
        closed_table, by=dict.fromkeys(("T1-bb", "T1-hh", "T1-drop"), dealer), floorperson=floorperson, key=key
    )


def _witness_signatures() -> int:
    return Signature.objects.filter(purpose="witness").count()


def test_one_signing_witnesses_each_count_with_its_own_signature(counted, floorperson) -> None:
    witnessed = counts_witness(counts=counted, actor=floorperson, pin=PIN, surveillance_reference=" CAM-7 ")

    assert [count.pk for count in witnessed] == sorted(count.pk for count in counted)
    for count in Count.objects.filter(pk__in=[c.pk for c in counted]):
        assert (count.status, count.witnessed_by, count.surveillance_reference) == (
            CountStatus.WITNESSED,
            floorperson,
            "CAM-7",
        )
        assert Signature.objects.filter(purpose="witness", document_id=str(count.pk)).count() == 1
    # Sent again (a double tap): the same answer, no signature twice.
    counts_witness(counts=counted, actor=floorperson, pin=PIN, surveillance_reference="CAM-7")
    assert _witness_signatures() == 3


def test_a_count_the_witness_may_not_sign_refuses_them_all(closed_table, dealer, floorperson, make_staff, key) -> None:
    """A dealer who is also a floorperson counted the drop box: they may not witness that count
    (§637a.15(d)(1)), so nothing is witnessed, not even the other dealer's two counts."""
    both = make_staff(Role.DEALER, extra_roles=[Role.FLOORPERSON])
    counted = _count_t1(
        closed_table, by={"T1-bb": dealer, "T1-hh": dealer, "T1-drop": both}, floorperson=floorperson, key=key
    )

    with pytest.raises(SignerNotIndependent):
        counts_witness(counts=counted, actor=both, pin=PIN, surveillance_reference="CAM-7")

    assert set(Count.objects.filter(pk__in=[c.pk for c in counted]).values_list("status", flat=True)) == {
        CountStatus.COUNTED
    }
    assert _witness_signatures() == 0


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        ({"pin": "0000"}, WrongPin),
        ({"surveillance_reference": "  "}, CageError),
        ({"counts": []}, CageError),
    ],
)
def test_a_wrong_pin_a_blank_reference_or_no_count_records_nothing(counted, floorperson, change, refusal) -> None:
    asked = {"counts": counted, "actor": floorperson, "pin": PIN, "surveillance_reference": "CAM-7", **change}

    with pytest.raises(refusal):
        counts_witness(**asked)

    assert _witness_signatures() == 0
    assert not Count.objects.filter(status=CountStatus.WITNESSED).exists()


def test_the_witness_page_offers_a_tables_counts_in_one_signing(counted, floorperson) -> None:
    browser = Client()
    browser.force_login(floorperson)
    table = counted[0].box.table
    page = browser.get(reverse("floor:cage-witness")).content.decode()
    assert "Witness all 3 and sign once" in page and reverse("floor:cage-witness-table", args=[table.pk]) in page

    typo = browser.post(
        reverse("floor:cage-witness-table", args=[table.pk]),
        {"count": [c.pk for c in counted], "surveillance_reference": "CAM-7", "pin": "12"},
    ).content.decode()
    assert "Nothing was witnessed" in typo and _witness_signatures() == 0

    done = browser.post(
        reverse("floor:cage-witness-table", args=[table.pk]),
        {"count": [c.pk for c in counted], "surveillance_reference": "CAM-7", "pin": PIN},
        follow=True,
    ).content.decode()

    assert "3 counts of table T1 witnessed in one signing, recording CAM-7" in done
    assert "No count awaits a witness." in done and _witness_signatures() == 3


def test_another_rooms_floorperson_neither_sees_nor_witnesses_a_tables_counts(counted, make_staff, manager) -> None:
    """A floorperson of room East posts the witness of main's T1 with their own valid PIN: refused as
    a table that is not theirs, nothing signed; the service refuses them too, called directly."""
    from casino_backoffice.staff.exceptions import ActionNotPermitted
    from tables.services import room_staff_set, room_upsert

    table = counted[0].box.table
    east = room_upsert(
        code="east",
        name="East Room",
        timezone_name="America/Chicago",
        gaming_day_starts=table.room.gaming_day_starts,
        actor=manager,
    )
    outsider = make_staff(Role.FLOORPERSON, rooms=[east])
    room_staff_set(room=east, staff=[outsider], actor=make_staff(Role.ADMINISTRATOR))
    browser = Client()
    browser.force_login(outsider)

    page = browser.get(reverse("floor:cage-witness")).content.decode()
    posted = browser.post(
        reverse("floor:cage-witness-table", args=[table.pk]),
        {"count": [c.pk for c in counted], "surveillance_reference": "CAM-7", "pin": PIN},
        follow=True,
    ).content.decode()

    assert "T1-drop" not in page and "3 counts of table T1 witnessed" not in posted
    with pytest.raises(ActionNotPermitted):
        counts_witness(counts=counted, actor=outsider, pin=PIN, surveillance_reference="CAM-7")
    assert _witness_signatures() == 0
    assert set(Count.objects.filter(pk__in=[c.pk for c in counted]).values_list("status", flat=True)) == {
        CountStatus.COUNTED
    }
