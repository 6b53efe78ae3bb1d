"""Every error page of the tablet and the admin says what happened, that nothing changed, and offers
a way back: the tablet's home, the admin's Today, and the page before when the browser named it."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.pages import assert_no_inline_script_or_style

pytestmark = pytest.mark.django_db


def test_a_tablet_page_that_does_not_exist_leads_back_home(client: Client, floorperson) -> None:
    client.force_login(floorperson)

    response = client.get("/floor/no-such-page/", HTTP_REFERER="http://testserver/floor/")

    assert response.status_code == 404
    html = response.content.decode()
    assert "Nothing here" in html and "Nothing was changed" in html
    assert 'href="http://testserver/floor/">&lsaquo; Back to the page before' in html
    assert 'href="/floor/">Your tablet home' in html
    assert_no_inline_script_or_style(html)


def test_an_admin_page_a_person_may_not_open_leads_back_to_today(client: Client, cashier) -> None:
    client.force_login(cashier)

    response = client.get("/admin/staff/user/")

    assert response.status_code == 403
    html = response.content.decode()
    assert "Not yours to open" in html and "Nothing was changed" in html
    assert 'href="/admin/">Today (the admin home)' in html
    assert "Back to the page before" not in html  # no page before was named


def test_a_referer_that_is_not_a_web_address_is_never_a_link(client: Client, floorperson) -> None:
    client.force_login(floorperson)

    response = client.get("/floor/no-such-page/", HTTP_REFERER="javascript:alert(1)")

    assert "javascript:" not in response.content.decode()


def test_a_crash_on_a_page_says_nothing_was_recorded_and_leads_back(client: Client, floorperson, monkeypatch) -> None:
    from casino_backoffice.staff.floor import views

    def crash(*args, **kwargs):
        raise RuntimeError("a crash")

    client.force_login(floorperson)
    client.raise_request_exception = False
    monkeypatch.setattr(views, "render", crash)

    response = client.get("/floor/")

    assert response.status_code == 500
    html = response.content.decode()
    assert "Nothing was recorded by this request" in html
    assert 'href="/floor/">Your tablet home' in html
