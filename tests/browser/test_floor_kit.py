"""The tablet pieces in a real browser under the strict Content-Security-Policy: the number pad types
amounts, the card picker picks cards, a dealer logs a round, every page leads back home."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import Round
from tests.browser.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tablet(browser, live_server, client):
    """A 10-inch tablet signed in as ``tablet.sign_in(user)``; console errors (CSP refusals) collected."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, has_touch=True)
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda message: message.type == "error" and page.console_errors.append(message.text))

    def sign_in(user) -> None:
        client.force_login(user)
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])

    page.sign_in = sign_in
    yield page
    context.close()


def test_a_dealer_logs_a_round_on_the_number_pad_and_goes_back_home(live_server, tablet, rated_table, dealer) -> None:
    tablet.sign_in(dealer)
    tablet.goto(f"{live_server.url}/floor/")
    tablet.click(".tile:has-text('Log a round')")
    screenshot(tablet, "floor-round-log")

    for key in "120":
        tablet.click(f".number-pad [data-key='{key}']")
    tablet.click("#id_uncalled_bet")  # it shows 0.00: what is typed replaces it
    for key in "20.005":  # a third decimal is not taken
        tablet.click(f".number-pad [data-key='{key}']")
    assert (tablet.input_value("#id_pot"), tablet.input_value("#id_uncalled_bet")) == ("120", "20.00")
    tablet.select_option("#id_players_dealt_in", "6")
    tablet.click("button:has-text('Record the round')")

    expect(tablet.locator(".message.success")).to_contain_text("recorded at table T1")
    expect(tablet.locator("table.takes")).to_contain_text("capped at the maximum of $5.00 per round")
    expect(tablet.locator("table.takes")).to_contain_text("$92.00")
    screenshot(tablet, "floor-round-logged")
    assert Round.objects.get().pot_cents == 12000

    tablet.click("a.back")
    expect(tablet.locator("h1")).to_contain_text("Good to see you")
    assert tablet.console_errors == []


def test_the_card_picker_picks_cards_by_touch_and_shares_the_deck(live_server, tablet, settings, dealer) -> None:
    settings.ROOT_URLCONF = "tests.browser.kit_urls"
    tablet.sign_in(dealer)
    tablet.goto(f"{live_server.url}/kit/")
    for key in ".05":
        tablet.click(f".number-pad [data-key='{key}']")
    assert tablet.input_value("#id_pot") == "0.05"  # cents typed after the point
    tablet.click(".number-pad [data-key='back']")
    assert tablet.input_value("#id_pot") == "0.0"
    winning = tablet.locator("#id_winning_picker")
    losing = tablet.locator("#id_losing_picker")

    winning.locator("[data-card='As']").tap()
    winning.locator("[data-card='Td']").tap()

    assert tablet.input_value("input[name=winning]") == "As Td"
    expect(winning.locator("[data-picked]")).to_have_text("As Td")
    expect(winning.locator("[data-card='Kh']")).to_be_disabled()  # two cards is a full hand
    expect(losing.locator("[data-card='As']")).to_be_disabled()  # the ace of spades is in the other hand
    expect(winning.locator("[data-card='Kh']")).to_be_hidden()  # full: its deck folds, the other's opens
    losing.locator("[data-card='Ah']").tap()
    winning.locator("[data-open]").tap()  # open its deck again
    expect(losing.locator("[data-card='Kh']")).to_be_hidden()
    winning.locator("[data-card='As']").tap()  # put back
    assert tablet.input_value("input[name=winning]") == "Td"
    assert tablet.input_value("input[name=losing]") == "Ah"
    expect(losing.locator("[data-card='As']")).to_be_enabled()
    screenshot(tablet, "floor-card-picker")
    assert tablet.console_errors == []
