"""Irregularities, devices and decks on the tablet (issue 28, item 6), in a real browser under the
strict Content-Security-Policy: a dealer reports a misdeal with the cards picked by touch, a floorperson
and a shift supervisor rule, a floorperson takes a shuffler out of order and voids a round. Each leaves a screenshot in
var/screenshots, landscape and portrait."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from rake.models import RoundVoid
from tables.equipment.models import DeviceEvent
from tables.equipment.services import deck_change, decks_missing_flag
from tables.games import Game
from tables.irregularities.models import Irregularity, IrregularityRuling
from tables.irregularities.services import irregularity_report
from tables.services import table_set_open, table_upsert
from tests.browser.conftest import screenshot, tablet
from tests.conftest import PIN
from tests.rake.factories import round_logged

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PORTRAIT = {"width": 800, "height": 1280}
LANDSCAPE = {"width": 1280, "height": 800}


def fits(page) -> bool:
    """Nothing wider than the screen: no sideways scrolling on the tablet."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_dealer_reports_a_misdeal_with_the_cards_picked_by_touch(live_server, browser, open_table, dealer) -> None:
    page = tablet(browser, live_server, dealer)
    page.click(".tile:has-text('Report an irregularity')")
    page.click(".offer:has-text('T1')")
    page.set_viewport_size(PORTRAIT)
    page.reload()
    screenshot(page, "irregularity-report-portrait")
    assert fits(page)
    page.set_viewport_size(LANDSCAPE)
    page.reload()
    page.click("label:has-text('Misdeal · §637a.18(g)')")
    page.select_option("select[name='cause']", "wrong_starting_position")
    page.click("button[data-card='As']")
    page.click("button[data-card='Kd']")
    page.fill("textarea[name='description']", "Dealt from seat 4 instead of seat 3.")
    screenshot(page, "irregularity-report")
    assert fits(page)
    # A wrong PIN: refused, the form kept with its cards, nothing recorded.
    page.fill("input[name='pin']", "0000")
    page.click("button:has-text('Report and sign')")
    page.wait_for_selector("text=Nothing was reported")
    assert Irregularity.objects.count() == 0
    assert page.locator("[data-picked]").inner_text() == "As Kd"
    page.fill("input[name='pin']", PIN)
    page.click("button:has-text('Report and sign')")
    page.wait_for_selector("text=is on the record")
    found = Irregularity.objects.get()
    assert (found.kind, found.cause, found.cards) == ("misdeal", "wrong_starting_position", "As Kd")
    assert page.console_errors == []


def test_the_rule_page_offers_a_dispute_only_to_a_shift_supervisor(
    live_server, browser, open_table, dealer, floorperson, supervisor
) -> None:
    for kind, words in (
        ("fouled_hand", "Seat 2's hand fouled by a player's discard."),
        ("dispute", "Seat 3 says the bet was a call, not a raise; the dealer heard a raise."),
    ):
        irregularity_report(
            table=open_table, kind=kind, description=words, actor=dealer, pin=PIN, idempotency_key=str(uuid.uuid4())
        )
    page = tablet(browser, live_server, floorperson)
    page.click(".tile:has-text('Rule on irregularities')")
    assert page.locator("text=Awaiting a shift supervisor").count() == 1
    screenshot(page, "irregularity-rule-floorperson")
    assert fits(page)
    page.set_viewport_size(PORTRAIT)
    page.reload()
    screenshot(page, "irregularity-rule-floorperson-portrait")
    assert fits(page)

    page = tablet(browser, live_server, supervisor)
    page.click(".tile:has-text('Rule on irregularities')")
    dispute = page.locator("article:has-text('A dispute and its ruling')")
    dispute.locator("textarea[name='ruling']").fill("The raise stands: the dealer heard it and seat 4 confirms.")
    dispute.locator("input[name='pin']").fill(PIN)
    dispute.locator("button:has-text('Rule and sign')").click()
    page.wait_for_selector("text=is ruled, signed by you")
    assert IrregularityRuling.objects.get().ruled_by == supervisor
    assert page.console_errors == []


def test_a_floorperson_takes_a_shuffler_out_of_order(live_server, browser, room, manager, dealer, floorperson) -> None:
    stud = table_set_open(
        table=table_upsert(room=room, number="M1", game=Game.MISSISSIPPI_STUD, seats=6, actor=manager),
        is_open=True,
        actor=floorperson,
    )
    deck_change(table=stud, dealt_from="hand", actor=dealer, pin=PIN, idempotency_key="d")
    # And C1, open a quarter of an hour with no deck on the record: the schedule flagged it
    crazy = table_upsert(room=room, number="C1", game=Game.CRAZY_4_POKER, seats=6, actor=manager)
    table_set_open(table=crazy, is_open=True, actor=floorperson)
    assert len(decks_missing_flag(at=timezone.now() + timedelta(minutes=16))) == 1
    page = tablet(browser, live_server, floorperson)
    page.click(".tile:has-text('Devices and decks')")
    screenshot(page, "equipment-list")
    assert fits(page)
    assert page.locator("tr:has-text('C1') .chip.bad").inner_text() == "No deck on the record"
    page.click("tr:has-text('M1') a:has-text('Open')")
    shuffler = page.locator("section[aria-label='Automated card shuffling device']")
    shuffler.locator("summary:has-text('Take out of order')").click()
    shuffler.locator("label:has-text('Covered')").click()
    shuffler.locator("textarea[name$='out_of_order-description']").fill("Does not power on; covered.")
    shuffler.locator("input[name$='out_of_order-pin']").fill(PIN)
    screenshot(page, "equipment-table")
    assert fits(page)
    shuffler.locator("button:has-text('Take out of order and sign')").click()
    page.wait_for_selector("text=signed by you")
    assert DeviceEvent.objects.get().step == "out_of_order"
    page.set_viewport_size(PORTRAIT)
    page.reload()
    screenshot(page, "equipment-table-portrait")
    assert fits(page)
    assert page.console_errors == []


def test_a_floorperson_voids_a_round_just_logged(live_server, browser, rated_table, floorperson) -> None:
    round_ = round_logged(rated_table, floorperson)
    page = tablet(browser, live_server, floorperson)
    page.goto(f"{live_server.url}/floor/rounds/log/?recorded={round_.pk}")
    page.click("a:has-text('Void this round')")
    page.fill("textarea[name='reason']", "51 cards at the count-down: the 7 of clubs missing.")
    page.fill("input[name='pin']", PIN)
    screenshot(page, "round-void")
    assert fits(page)
    page.click("button:has-text('Void the round and sign')")
    page.wait_for_selector("text=is void (§637a.18(i))")
    assert RoundVoid.objects.get().round_id == round_.pk
    screenshot(page, "round-void-list")
    assert page.console_errors == []
