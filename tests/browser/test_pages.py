"""The pages as people use them, in a real browser under the strict Content-Security-Policy."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.services import table_set_open, table_upsert
from tests.browser.conftest import screenshot
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_display_board_updates_itself_without_a_reload(live_server, page, open_table, manager, floorperson) -> None:
    second = table_upsert(room=open_table.room, number="T2", game="omaha_high", seats=9, actor=manager)
    page.goto(f"{live_server.url}/display/main/")
    page.evaluate("window.__sameDocument = 'yes'")
    assert "1 of 2 tables open" in page.inner_text(".foot")

    table_set_open(table=second, is_open=True, actor=floorperson)

    expect(page.locator(".foot")).to_contain_text("2 of 2 tables open", timeout=12_000)
    assert page.evaluate("window.__sameDocument") == "yes"  # the same page, never reloaded
    assert page.console_errors == []
    screenshot(page, "display-board")


def test_a_floorperson_signs_in_on_a_tablet_and_opens_a_table(live_server, browser, open_table, floorperson) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, has_touch=True)  # a 10-inch tablet
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    table_set_open(table=open_table, is_open=False, actor=floorperson)

    page.goto(f"{live_server.url}/floor/")
    page.fill("#id_username", floorperson.username)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Sign in')")
    page.wait_for_selector("text=Good to see you")
    screenshot(page, "floor-home")
    for tile in page.query_selector_all(".tile"):
        box = tile.bounding_box()
        assert box["height"] >= 48 and box["width"] >= 48  # a finger, not a mouse

    page.click(".tile:has-text('Tables')")
    page.click("button:has-text('Open')")
    page.click("button:has-text('Yes, open')")  # opening a table asks first
    page.wait_for_selector("text=is open.")
    screenshot(page, "floor-tables")
    open_table.refresh_from_db()
    assert open_table.is_open
    assert errors == []
    context.close()
