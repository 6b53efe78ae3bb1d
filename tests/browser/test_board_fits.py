"""The display board fits the screen it is shown on (issue 27, item 1): a TV cannot scroll.

At 1920x1080, 1280x720, 1080x1920 and 800x1280, every jackpot of the room is on one screen, nothing
overflows its card or the viewport, and at 1920x1080 with six jackpots the amounts stay legible at three
metres: their type at least 6% of the screen's height. Boards at their fullest come from
tests/browser/board_kit_urls.py (six-figure amounts, a High Hand with its leader, two tied hands and the
last winners); a real room's board, from the database, is checked at the same sizes. The screenshots are
written under var/screenshots/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.jackpots.high_hand_helpers import log_round, open_period

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = ((1920, 1080), (1280, 720), (1080, 1920), (800, 1280))
LEGIBLE_SHARE = 0.06  # of the screen's height, for the amounts at 1920x1080 with six jackpots

# Everything that overflows: the page beyond the viewport, an element beyond its card, a text wider than
# its box (an amount cut to "$1.7C"); each as words a failure can show.
OVERFLOWS = """() => {
  const found = [];
  const page = document.documentElement;
  if (page.scrollWidth > innerWidth || page.scrollHeight > innerHeight)
    found.push(`page ${page.scrollWidth}x${page.scrollHeight} in ${innerWidth}x${innerHeight}`);
  for (const card of document.querySelectorAll(".jackpot")) {
    const frame = card.getBoundingClientRect();
    if (frame.right > innerWidth + 1 || frame.bottom > innerHeight + 1) found.push(`card beyond the screen: ${card.innerText.slice(0, 40)}`);
    for (const element of card.querySelectorAll("*")) {
      const box = element.getBoundingClientRect();
      const what = `${element.className || element.tagName} "${element.innerText.slice(0, 40)}"`;
      if (box.left < frame.left - 1 || box.right > frame.right + 1 || box.top < frame.top - 1 || box.bottom > frame.bottom + 1)
        found.push(`${what} leaves its card`);
      if (element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).display !== "inline")
        found.push(`${what} is wider than its box`);
    }
  }
  return found;
}"""
AMOUNT_SIZES = (
    "() => Array.from(document.querySelectorAll('.jackpot .amount')).map(e => parseFloat(getComputedStyle(e).fontSize))"
)


def _board_at(browser, url: str, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height})
    board = context.new_page()
    board.goto(url)
    expect(board.locator("body[data-fitted]")).to_have_count(1)
    return context, board


@pytest.mark.parametrize("count", [1, 4, 6])
def test_a_full_board_fits_every_screen_without_overflowing_a_card(live_server, browser, settings, count) -> None:
    settings.ROOT_URLCONF = "tests.browser.board_kit_urls"
    for width, height in SCREENS:
        context, board = _board_at(browser, f"{live_server.url}/board-kit/{count}/", width, height)
        expect(board.locator(".jackpot")).to_have_count(count)
        screenshot(board, f"board-{count}-jackpots-{width}x{height}")
        assert board.evaluate(OVERFLOWS) == [], (width, height)
        sizes = board.evaluate(AMOUNT_SIZES)
        assert len(sizes) == count
        if (width, height) == (1920, 1080):
            assert min(sizes) >= LEGIBLE_SHARE * height, sizes
        context.close()


def test_the_board_fits_again_when_the_screen_turns(live_server, browser, settings) -> None:
    settings.ROOT_URLCONF = "tests.browser.board_kit_urls"
    context, board = _board_at(browser, f"{live_server.url}/board-kit/6/", 1920, 1080)
    landscape = board.evaluate(
        "getComputedStyle(document.querySelector('.jackpots')).gridTemplateColumns.split(' ').length"
    )
    board.set_viewport_size({"width": 1080, "height": 1920})
    board.wait_for_function(
        "document.querySelector('.jackpots').clientHeight > document.querySelector('.jackpots').clientWidth"
    )
    board.wait_for_timeout(400)  # the board lays itself out again 100 ms after the last resize
    portrait = board.evaluate(
        "getComputedStyle(document.querySelector('.jackpots')).gridTemplateColumns.split(' ').length"
    )
    assert (landscape, portrait) == (3, 2)
    assert board.evaluate(OVERFLOWS) == []
    context.close()


def test_a_rooms_board_from_its_records_fits_every_screen(live_server, browser, rated_table, dealer) -> None:
    period = open_period(rated_table)
    log_round(rated_table, period.starts_at, dealer)
    for width, height in SCREENS:
        context, board = _board_at(browser, f"{live_server.url}/display/main/", width, height)
        expect(board.locator(".jackpot.high-hand .amount")).to_have_text("$2.00")
        screenshot(board, f"board-room-{width}x{height}")
        assert board.evaluate(OVERFLOWS) == [], (width, height)
        context.close()
