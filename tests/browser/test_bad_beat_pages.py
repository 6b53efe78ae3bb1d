"""The Bad Beat as people on the floor use it, in a real browser under the strict Content-Security-Policy:
a floorperson picks the cards of the hand by touch and reads the verdict; the display board on the wall
shows 'Pending adjustment' within seconds of the shift supervisor's verification, without a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from jackpots.bad_beat.models import BadBeatClaim
from jackpots.bad_beat.services.claims import claim_verify
from jackpots.bad_beat.services.display import display_adjust, display_witness
from tests.browser.conftest import screenshot, tablet
from tests.conftest import PIN
from tests.jackpots.bad_beat import fund_official

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_floorperson_picks_the_cards_of_a_bad_beat_by_touch(live_server, browser, rated_table, floorperson) -> None:
    page = tablet(browser, live_server, floorperson)
    page.click(".tile:has-text('Open a Bad Beat claim')")
    page.click(".offer:has-text('T1')")
    page.select_option("#id_players_dealt_in", "4")
    for card in ("Ad", "Ac", "Kc", "7s", "7h"):
        page.locator("#id_board_picker").locator(f"[data-card='{card}']").tap()
    expect(page.locator("#id_losing_hole_picker [data-card='Ad']")).to_be_disabled()  # on the board already
    page.select_option("#id_losing_seat", "3")
    page.fill("#id_losing_name", "Ann Loser")
    for card in ("As", "Ks"):
        page.locator("#id_losing_hole_picker").locator(f"[data-card='{card}']").tap()
    page.select_option("#id_winning_seat", "7")
    page.fill("#id_winning_name", "Walt Winner")
    for card in ("7d", "7c"):
        page.locator("#id_winning_hole_picker").locator(f"[data-card='{card}']").tap()
    for row, (seat, name) in enumerate((("1", "Pat One"), ("9", "Kim Nine")), start=1):
        page.select_option(f"#id_other_seat_{row}", seat)
        page.fill(f"#id_other_name_{row}", name)
    # One deck open at a time: the board's and the hands' cards and seats fit one 1280x800 screen (issue 27).
    top = page.locator("form.claim-form fieldset").nth(1).bounding_box()["y"]
    winning = page.locator("#id_winning_hole_picker").bounding_box()
    height = page.evaluate("document.documentElement.scrollHeight")
    print(f"claim form: board to the winning hand {winning['y'] + winning['height'] - top:.0f} px; page {height} px")
    assert winning["y"] + winning["height"] - top <= 800 and height < 2742
    page.fill("#id_surveillance_reference", "CAM-12 21:14:05")
    page.fill("#id_pin", PIN)
    for target in page.query_selector_all(
        "form.claim-form button:visible, form.claim-form select:visible, form.claim-form input:visible"
    ):
        box = target.bounding_box()
        assert box["height"] >= 48, target.get_attribute("name") or target.inner_text()  # a finger, not a mouse
    page.click("button:has-text('Record the claim and sign')")

    expect(page.locator(".verdict h2")).to_have_text("Qualifies: Bad Beat")
    expect(page.locator(".hand.losing")).to_contain_text("Full house, aces full of kings")
    claim = BadBeatClaim.objects.get()
    assert (claim.board, claim.losing_hole, claim.winning_hole, claim.others) == (
        "Ad Ac Kc 7s 7h",
        "As Ks",
        "7d 7c",
        [{"seat": 1, "name": "Pat One"}, {"seat": 9, "name": "Kim Nine"}],
    )
    screenshot(page, "bad-beat-claim-verdict")
    assert page.console_errors == []


def test_the_board_shows_pending_adjustment_within_seconds_of_a_verification(
    live_server, browser, make_claim, bad_beat, supervisor, finance, floorperson
) -> None:
    fund_official(bad_beat, 250_000, finance)
    before = display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="board-before")
    display_witness(adjustment=before, actor=floorperson, pin=PIN)  # in effect once witnessed (§637a.15(h)(1))
    claim = make_claim()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    board = context.new_page()
    board.goto(f"{live_server.url}/display/main/")
    board.evaluate("window.__sameDocument = 'yes'")
    expect(board.locator(".jackpot").first).to_contain_text("$2,500.00")
    assert board.locator(".pending-notice").count() == 0

    claim_verify(claim=claim, actor=supervisor, pin=PIN)

    expect(board.locator(".pending-notice")).to_have_text("Pending adjustment", timeout=12_000)
    expect(board.locator(".jackpot.pending .amount")).to_have_text("$2,500.00")  # what finance last set, nothing else
    assert board.evaluate("window.__sameDocument") == "yes"  # the same page, never reloaded
    screenshot(board, "display-board-pending")
    notice = board.locator(".pending-notice").bounding_box()
    assert notice["height"] >= 40 and notice["width"] >= 400  # a band across the card, not a footnote

    after = display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="board-after")
    display_witness(adjustment=after, actor=floorperson, pin=PIN)
    expect(board.locator(".pending-notice")).to_have_count(0, timeout=12_000)
    expect(board.locator(".jackpot").first).to_contain_text("$0.00")
    context.close()
