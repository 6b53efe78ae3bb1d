"""*Today*, the admin's first page (issue 27, item 3): what waits for the cage and finance in their
rooms, each line a link to the page that does it; nothing of another room."""

from __future__ import annotations

from datetime import time

import pytest
from django.test import Client
from django.urls import reverse

from cage.models import Variance
from cage.services import cage_verify, count_record, count_witness, transport_create
from casino_backoffice.staff.roles import Role
from tables.services import room_staff_set, room_upsert
from tests.conftest import PIN

pytestmark = pytest.mark.django_db


def _today(person) -> str:
    client = Client()
    client.force_login(person)
    answer = client.get(reverse("admin:index"))
    assert answer.status_code == 200
    return answer.content.decode()


def _section(page: str, title: str) -> str:
    start = page.index(f'data-section="{title}"')
    return page[start : page.index("</div>", start)]


def test_a_cashier_lands_on_the_transports_to_verify_and_the_verification_clears_it(
    witnessed_counts, security, cashier, key
) -> None:
    room = witnessed_counts[0].box.room
    transport = transport_create(
        room=room, seal="S-77", counts=witnessed_counts[:1], actor=security, pin=PIN, idempotency_key=key()
    )
    page = _today(cashier)
    transports = _section(page, "Transports arriving and to verify")
    assert 'aria-label="1 waiting"' in transports
    assert "Seal S-77" in transports and "$3.00 declared" in transports
    assert reverse("admin:cage_transport_verify", args=[transport.pk]) in transports
    assert ">Verify</a>" in transports

    cage_verify(transport=transport, counted=300, actor=cashier, pin=PIN, idempotency_key=key())
    assert 'aria-label="0 waiting"' in _section(_today(cashier), "Transports arriving and to verify")


def test_a_variance_to_explain_shows_with_its_sign_and_its_explain_link(
    closed_table, dealer, floorperson, security, cashier, finance, key
) -> None:
    from cage.models import Box

    count = count_record(
        box=Box.objects.get(code="T1-drop"), counted_cents=1400, actor=dealer, pin=PIN, idempotency_key=key()
    )
    count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-1")
    transport = transport_create(
        room=closed_table.room, seal="S-2", counts=[count], actor=security, pin=PIN, idempotency_key=key()
    )
    cage_verify(transport=transport, counted=1390, confirm_variance=True, actor=cashier, pin=PIN, idempotency_key=key())
    waiting = Variance.objects.filter(needs_explanation=True, explained_at__isnull=True)
    assert waiting.exists()

    variances = _section(_today(finance), "Variances to explain")
    assert f'aria-label="{waiting.count()} waiting"' in variances
    for variance in waiting:
        assert reverse("admin:cage_variance_explain", args=[variance.pk]) in variances
    assert "short" in variances and "-$" in variances  # money with its sign, in words


def test_a_cashier_of_another_room_sees_none_of_its_work(witnessed_counts, security, make_staff, administrator, key):
    room = witnessed_counts[0].box.room
    transport_create(
        room=room, seal="S-78", counts=witnessed_counts[:1], actor=security, pin=PIN, idempotency_key=key()
    )
    room_b = room_upsert(
        code="b", name="Room B", timezone_name="America/New_York", gaming_day_starts=time(6), actor=administrator
    )
    cashier_b = make_staff(Role.CAGE_CASHIER, rooms=[room_b])
    room_staff_set(room=room_b, staff=[cashier_b], actor=administrator)

    page = _today(cashier_b)
    assert 'aria-label="0 waiting"' in _section(page, "Transports arriving and to verify")
    assert "S-78" not in page


def test_the_admin_home_is_closed_to_a_floorperson(floorperson) -> None:
    """The admin (and so *Today*) is the back office's: a floorperson works on the tablet."""
    client = Client()
    client.force_login(floorperson)
    answer = client.get(reverse("admin:index"))
    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]


def test_compliance_reads_today_without_a_link_to_act(witnessed_counts, security, compliance, key) -> None:
    room = witnessed_counts[0].box.room
    transport_create(
        room=room, seal="S-79", counts=witnessed_counts[:1], actor=security, pin=PIN, idempotency_key=key()
    )
    transports = _section(_today(compliance), "Transports arriving and to verify")
    assert 'aria-label="1 waiting"' in transports
    assert ">Open</a>" in transports and ">Verify</a>" not in transports


def test_a_person_of_two_roles_sees_each_section_once_with_the_work_of_both(
    witnessed_counts, security, make_staff, key
) -> None:
    """A cashier who is also finance (issue 27's auditor: one person, two roles): the cage's and
    finance's work on one page, each section and each transport once, not once per role."""
    room = witnessed_counts[0].box.room
    transport_create(
        room=room, seal="S-88", counts=witnessed_counts[:1], actor=security, pin=PIN, idempotency_key=key()
    )
    both = make_staff(Role.CAGE_CASHIER, extra_roles=[Role.FINANCE], rooms=[room])

    page = _today(both)

    for title in ("Transports arriving and to verify", "Variances to explain"):
        assert page.count(f'data-section="{title}"') == 1, title
    assert page.count("Seal S-88") == 1 and ">Verify</a>" in _section(page, "Transports arriving and to verify")
