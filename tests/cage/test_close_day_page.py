"""Finance closes the day from a page (issue 24, item 4): the tablet's *Close a gaming day* and the
admin's *Cage → Gaming day closes → Close a gaming day* show each open gaming day of their rooms,
what still blocks it (each a link) and the close with the PIN; a refusal says why, nothing changes."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from cage.models import GamingDayClose, Variance
from casino_backoffice.staff.models import User
from tables.models import PokerRoom
from tests.clock import gaming_day_over
from tests.conftest import PIN


def _signed_in(user: User) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


@pytest.fixture
def unexplained_day(closed_table, dealer, floorperson, security, cashier, key) -> tuple[PokerRoom, date]:
    """T1's boxes counted at the table, its drop box $1.00 short, witnessed, carried and verified at the
    cage: the variance awaits its explanation."""
    from cage.models import Box
    from cage.services import boxes_sync, cage_verify, count_record, count_witness, notice_record, transport_create

    room = closed_table.room
    boxes_sync(room=room)
    notice_record(room=room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key())
    counts = [
        count_witness(
            count=count_record(
                box=Box.objects.get(code=code), counted_cents=cents, actor=dealer, pin=PIN, idempotency_key=key()
            ),
            actor=floorperson,
            pin=PIN,
            surveillance_reference="CAM-3",
        )
        for code, cents in (("T1-bb", 300), ("T1-hh", 600), ("T1-drop", 1400))
    ]
    transport = transport_create(room=room, seal="S-9", actor=security, pin=PIN, idempotency_key=key(), counts=counts)
    cage_verify(transport=transport, counted=2300, actor=cashier, pin=PIN, idempotency_key=key())
    return room, counts[0].gaming_day


def test_the_tablet_page_shows_each_open_day_its_blockers_as_links_and_closes_a_ready_day(
    unexplained_day, finance, supervisor, monkeypatch
) -> None:
    room, day = unexplained_day
    browser = _signed_in(finance)
    home = browser.get("/floor/").content.decode()
    assert "Close a gaming day" in home
    page = browser.get("/floor/cage/gaming-days/").content.decode()
    assert "The gaming day is not over:</span> it ends at" in page
    gaming_day_over(monkeypatch, room=room, day=day)
    browser = _signed_in(finance)  # a day later, the tablet's session has timed out: finance signs in again
    page = browser.get("/floor/cage/gaming-days/").content.decode()
    (variance,) = Variance.objects.filter(room=room, gaming_day=day, needs_explanation=True)
    assert f'href="/admin/cage/variance/{variance.pk}/explain/"' in page
    assert "Variances unexplained" in page and "Close " + day.isoformat() not in page

    # Explained, the day is ready: a wrong PIN is refused and closes nothing; the PIN closes it.
    from cage.services import variance_explain

    variance_explain(variance=variance, reason="Dealer error.", actor=supervisor, pin=PIN)
    page = browser.get("/floor/cage/gaming-days/").content.decode()
    assert f"Close {day.isoformat()} and sign" in page
    wrong = browser.post(
        "/floor/cage/gaming-days/close/", {"room": room.code, "gaming_day": day.isoformat(), "pin": "1357"}
    )
    assert wrong.status_code == 400 and "Wrong PIN" in wrong.content.decode()
    assert not GamingDayClose.objects.exists()
    closed = browser.post(
        "/floor/cage/gaming-days/close/", {"room": room.code, "gaming_day": day.isoformat(), "pin": PIN}, follow=True
    )
    assert "closed and signed" in closed.content.decode()
    assert GamingDayClose.objects.get().gaming_day == day
    assert f"Close {day.isoformat()}" not in closed.content.decode()


def test_the_admin_page_lists_the_days_and_refuses_a_day_not_ready(unexplained_day, finance, cashier) -> None:
    room, day = unexplained_day
    browser = _signed_in(finance)
    changelist = browser.get("/admin/cage/gamingdayclose/").content.decode()
    assert 'href="/admin/cage/gamingdayclose/close/"' in changelist
    page = browser.get("/admin/cage/gamingdayclose/close/")
    assert page.status_code == 200
    text = page.content.decode()
    assert day.isoformat() in text and "The gaming day is not over" in text
    # A close posted for a day not ready (a resent form) is refused with every reason; nothing closes.
    refused = browser.post("/admin/cage/gamingdayclose/close/", {"room": room.code, "gaming_day": day, "pin": PIN})
    assert refused.status_code == 400 and "cannot close yet" in refused.content.decode()
    assert not GamingDayClose.objects.exists()
    # A cashier may not close a day: the page is finance's.
    assert _signed_in(cashier).get("/admin/cage/gamingdayclose/close/").status_code == 403
    assert "Close a gaming day" not in _signed_in(cashier).get("/admin/cage/gamingdayclose/").content.decode()


def test_the_page_shows_only_the_rooms_of_the_person(unexplained_day, make_staff, manager) -> None:
    from casino_backoffice.staff.roles import Role
    from tables.services import room_staff_set, room_upsert

    room, _day = unexplained_day
    other = room_upsert(
        code="east",
        name="East Room",
        timezone_name="America/New_York",
        gaming_day_starts=room.gaming_day_starts,
        actor=manager,
    )
    east_finance = make_staff(Role.FINANCE, rooms=[other])
    administrator = make_staff(Role.ADMINISTRATOR)
    room_staff_set(room=other, staff=[east_finance], actor=administrator)
    page = _signed_in(east_finance).get("/floor/cage/gaming-days/").content.decode()
    assert "East Room" in page and "Main Poker Room" not in page


def test_the_page_reads_a_fixed_number_of_queries(unexplained_day, finance, django_assert_max_num_queries) -> None:
    browser = _signed_in(finance)
    browser.get("/floor/cage/gaming-days/")
    with django_assert_max_num_queries(40):
        browser.get("/floor/cage/gaming-days/")


def test_a_blocker_names_its_moment_with_the_rooms_zone(unexplained_day, finance) -> None:
    """'it ends at 2026-12-07 06:00' read as no zone in particular: each moment of a blocker is on the
    room's clock with its abbreviation, as every page shows a moment (issue 27, item 4)."""
    from casino_backoffice.core.clock import local
    from tables.selectors import gaming_day_bounds

    room, day = unexplained_day
    ends = local(gaming_day_bounds(room=room, day=day)[1], room)
    expected = f"it ends at {ends:%Y-%m-%d %H:%M} {ends:%Z}; close it after."
    assert ends.tzname() in ("EST", "EDT")
    for url in ("/floor/cage/gaming-days/", "/admin/cage/gamingdayclose/close/"):
        assert expected in _signed_in(finance).get(url).content.decode()
