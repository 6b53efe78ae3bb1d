"""A poker shift supervisor explains count variances on the tablet (issue 27, item 7): the rules let
the supervisor explain, and until now only finance's admin page could."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from cage.models import Variance
from casino_backoffice.staff.models import Signature, User
from casino_backoffice.staff.roles import Role
from tests.cage.test_close_day_page import unexplained_day  # noqa: F401
from tests.conftest import PIN

PAGE = "/floor/cage/variances/"


def _signed_in(user: User) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _state() -> tuple:
    return (
        list(Variance.objects.order_by("pk").values_list("explanation", "explained_by", "explained_at")),
        Signature.objects.count(),
    )


def test_a_supervisor_explains_a_variance_on_the_tablet_and_signs(unexplained_day, supervisor) -> None:  # noqa: F811
    (variance,) = Variance.objects.filter(needs_explanation=True)
    tablet = _signed_in(supervisor)
    assert "Explain variances" in tablet.get("/floor/").content.decode()
    page = _text(tablet.get(PAGE).content.decode())
    assert "T1-drop" in page and "short -$1.00" in page and "Over the room's threshold of" in page

    response = tablet.post(
        f"/floor/cage/variances/{variance.pk}/explain/",
        {"reason": "A $1 chip stuck to the lid.", "pin": PIN},
        follow=True,
    )

    variance.refresh_from_db()
    assert (variance.explanation, variance.explained_by) == ("A $1 chip stuck to the lid.", supervisor)
    page = _text(response.content.decode())
    assert f"Variance {variance.pk} of T1-drop: short -$1.00" in page and "explained and signed" in page
    assert "No variance awaits an explanation in your rooms." in page


@pytest.mark.parametrize(
    ("reason", "pin", "words"), [(" ", PIN, "correct what is marked"), ("Why", "0000", "Wrong PIN")]
)
def test_no_reason_or_a_wrong_pin_explains_nothing(unexplained_day, supervisor, reason, pin, words) -> None:  # noqa: F811
    (variance,) = Variance.objects.filter(needs_explanation=True)
    before = _state()

    response = _signed_in(supervisor).post(
        f"/floor/cage/variances/{variance.pk}/explain/", {"reason": reason, "pin": pin}
    )

    assert words in response.content.decode()
    assert _state() == before


def test_who_counted_the_money_may_not_explain_it_whatever_their_roles(unexplained_day, make_staff, dealer) -> None:  # noqa: F811
    """The dealer who counted the short box is also made a shift supervisor: refused, in the service's words."""
    (variance,) = Variance.objects.filter(needs_explanation=True)
    dealer.groups.add(*User.objects.filter(pk=make_staff(Role.SHIFT_SUPERVISOR).pk).get().groups.all())
    before = _state()

    response = _signed_in(dealer).post(f"/floor/cage/variances/{variance.pk}/explain/", {"reason": "Mine", "pin": PIN})

    assert "was not explained; nothing was recorded" in response.content.decode()
    assert _state() == before


def test_a_cashier_is_refused_and_another_rooms_supervisor_sees_nothing(
    unexplained_day,  # noqa: F811
    cashier,
    make_staff,
    manager,
) -> None:
    from tables.services import room_staff_set, room_upsert

    (variance,) = Variance.objects.filter(needs_explanation=True)
    room, _day = unexplained_day
    assert _signed_in(cashier).get(PAGE).status_code == 403
    other = room_upsert(
        code="east",
        name="East Room",
        timezone_name="America/New_York",
        gaming_day_starts=room.gaming_day_starts,
        actor=manager,
    )
    east = make_staff(Role.SHIFT_SUPERVISOR, rooms=[other])
    room_staff_set(room=other, staff=[east], actor=make_staff(Role.ADMINISTRATOR))
    before = _state()

    page = _signed_in(east).get(PAGE).content.decode()
    posted = _signed_in(east).post(
        f"/floor/cage/variances/{variance.pk}/explain/", {"reason": "x", "pin": PIN}, follow=True
    )

    assert "T1-drop" not in page and "No variance awaits an explanation in your rooms." in page
    assert f"There is no variance {variance.pk} in your rooms." in posted.content.decode()
    assert _state() == before
