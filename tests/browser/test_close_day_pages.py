"""Finance's pages of the gaming days to close (issue 24, item 4), as a tablet and the admin show them
in Chromium: each open day, its blockers as links, screenshots in var/screenshots/."""

from __future__ import annotations

import pytest

from tests.cage.test_close_day_page import unexplained_day  # noqa: F401 - the fixture

from .conftest import screenshot, tablet


@pytest.mark.django_db(transaction=True)
def test_the_pages_as_finance_sees_them(browser, live_server, unexplained_day, finance) -> None:  # noqa: F811
    _room, day = unexplained_day
    page = tablet(browser, live_server, finance)
    page.goto(f"{live_server.url}/floor/cage/gaming-days/")
    assert page.locator("article.close-day").count() >= 1
    assert page.locator("text=The gaming day is not over").count() >= 1
    screenshot(page, "close-days-tablet")
    assert page.console_errors == []  # type: ignore[attr-defined]
    page.goto(f"{live_server.url}/admin/cage/gamingdayclose/close/")
    assert page.locator(f"text={day.isoformat()}").count() >= 1
    screenshot(page, "close-days-admin")
