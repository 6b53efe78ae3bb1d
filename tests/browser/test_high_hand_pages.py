"""The High Hand as people on the floor and at the wall see it, in a real browser under the strict
Content-Security-Policy: a floorperson picks the cards of a hand by touch and records it on the
Tracking Slip; the display board shows the new high hand within seconds, without a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from jackpots.high_hand.models import HighHandEntry
from tests.browser.conftest import screenshot, tablet
from tests.conftest import PIN
from tests.jackpots.high_hand_helpers import log_round, open_period

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_hand_recorded_by_touch_shows_on_the_board_within_seconds(
    live_server, browser, rated_table, floorperson, dealer
) -> None:
    period = open_period(rated_table)
    log_round(rated_table, period.starts_at, dealer)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    board = context.new_page()
    board.goto(f"{live_server.url}/display/main/")
    board.evaluate("window.__sameDocument = 'yes'")
    expect(board.locator(".jackpot.high-hand .amount")).to_have_text("$2.00")
    expect(board.locator(".jackpot.high-hand")).to_contain_text("No qualifying hand yet")

    page = tablet(browser, live_server, floorperson)
    page.click(".tile:has-text('Record a High Hand')")
    page.click(".offer:has-text('T1')")
    for card in ("Ah", "Ad"):
        page.locator("#id_hole_picker").locator(f"[data-card='{card}']").tap()
    expect(page.locator("#id_board_picker [data-card='Ah']")).to_be_disabled()  # in the hole already
    for card in ("Ac", "Kh", "Ks", "2c", "7d"):
        page.locator("#id_board_picker").locator(f"[data-card='{card}']").tap()
    page.select_option("#id_seat", "3")
    page.fill("#id_player_name", "Ann Player")
    page.fill("#id_player_phone", "215-555-0100")
    page.fill("#id_id_number", "PA-12345678")
    page.select_option("#id_dealer", str(dealer.pk))
    page.select_option("#id_players_dealt_in", "6")
    page.fill("#id_pot", "120.00")
    page.fill("#id_pin", PIN)
    for target in page.query_selector_all(
        "form.claim-form button:visible, form.claim-form select:visible, form.claim-form input:visible"
    ):
        box = target.bounding_box()
        assert box["height"] >= 44, target.get_attribute("name") or target.inner_text()  # a finger, not a mouse
    page.click("button:has-text('Record on the slip and sign')")

    expect(page.locator("tr.line.leader")).to_contain_text("Full house, aces full of kings")
    entry = HighHandEntry.objects.get()
    assert (entry.cards, entry.seat, entry.recorded_by) == ("Ah Ad Ac Ks Kh", 3, floorperson)
    screenshot(page, "high-hand-slip")
    assert page.console_errors == []

    expect(board.locator(".leader-words")).to_have_text("Full house, aces full of kings", timeout=12_000)
    expect(board.locator(".leader-where")).to_have_text("Table T1 · seat 3")
    assert board.evaluate("window.__sameDocument") == "yes"  # the same page, never reloaded
    screenshot(board, "display-board-high-hand")
    context.close()
    page.context.close()
