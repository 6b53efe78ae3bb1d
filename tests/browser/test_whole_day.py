"""One gaming day of a poker room played through the pages only (issue 27, "Done when"): the tablet
under /floor/ and the admin under /admin/, never the API.

A floorperson opens T1; the dealer logs three rounds on the number pad; a floorperson files a Bad Beat
claim with the card picker and a shift supervisor verifies it; a High Hand goes on the Tracking Slip;
T1 closes; the dealer counts its three boxes, a floorperson witnesses them in one signing, security
carries them to the cage, the cashier verifies the container in the admin; finance reads *Today*, the
official record and the display check and, once the day is over, closes it in the admin. The display
board is checked at ``test_board_fits``'s four screens during the day and after the close. Each step
leaves a screenshot under var/screenshots/whole_day/.

Set-up comes from fixtures: the people, the room and its rules (T1: nl10, Bad Beat bb, High Hand hh),
the boxes and the High Hand's open period (the schedule's work), and the Bad Beat fund's money from
earlier days. The clock stands at 10:15 of a coming day on the room's clock, so that the High Hand's
hourly period (from 10:00) lasts the whole test whenever it runs.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from django.utils.formats import date_format
from playwright.sync_api import expect

from cage.models import CageVerification, Count, CountStatus, GamingDayClose, Transport, TransportStatus
from cage.selectors import official_record
from cage.services import boxes_sync
from casino_backoffice.ledger.selectors import ledger_total
from jackpots.bad_beat.models import BadBeatClaim, ClaimStatus
from jackpots.board.check import display_check_lines
from jackpots.funds.models import Jackpot
from jackpots.high_hand.models import HighHandEntry
from tables.models import PokerRoom, Round, Table
from tables.selectors import gaming_day
from tests.browser.conftest import SCREENSHOTS, admin, rows, screenshot, tablet
from tests.browser.test_board_fits import OVERFLOWS, SCREENS, _board_at
from tests.clock import clock_move, gaming_day_over
from tests.conftest import PIN
from tests.jackpots.bad_beat import fund_official
from tests.jackpots.high_hand_helpers import open_period

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "whole_day"
BAD_BEAT_FUND = 250_000  # what earlier days left in the Bad Beat fund, official


class Day:
    """The steps' screenshots, numbered in the order they were taken: those of an earlier run go first."""

    def __init__(self) -> None:
        (SCREENSHOTS / SHOTS).mkdir(parents=True, exist_ok=True)
        for old in (SCREENSHOTS / SHOTS).glob("*.png"):
            old.unlink()
        self.step = 0

    def shot(self, page, name: str) -> None:
        self.step += 1
        screenshot(page, f"{SHOTS}/{self.step:02d}-{name}")


def _done(page) -> None:
    """A screen put down: nothing the strict Content-Security-Policy refused on any of its pages."""
    assert page.console_errors == []
    page.context.close()


def _open_the_table(day: Day, browser, live_server, floorperson):
    page = tablet(browser, live_server, floorperson)
    day.shot(page, "floorperson-home")
    page.click(".tile:has-text('Tables')")
    row = page.locator("tr", has=page.locator("td.big", has_text="T1"))
    row.locator("button:has-text('Open')").click()
    expect(page.locator("h1")).to_have_text("Open table T1?")
    day.shot(page, "open-t1-confirm")
    page.click("button:has-text('Yes, open T1')")
    expect(page.locator(".message.success")).to_have_text("Table T1 (Texas Hold'em) is open.")
    expect(row).to_contain_text(f"Opened by {floorperson}")  # who and when, from the table's history
    day.shot(page, "t1-open")
    return page


def _log_rounds(day: Day, browser, live_server, dealer) -> None:
    page = tablet(browser, live_server, dealer)
    page.click(".tile:has-text('Log a round')")
    for n, pot in enumerate(("120", "120", "25"), start=1):
        page.click("#id_pot")
        for key in pot:
            page.click(f".number-pad [data-key='{key}']")
        page.select_option("#id_players_dealt_in", "9")
        if n == 1:
            day.shot(page, "round-on-the-number-pad")
        page.click("button:has-text('Record the round')")
        expect(page.locator(".message.success")).to_contain_text("recorded at table T1")
        if n == 1:  # what a $120 pot gave: rake $5.00, Bad Beat $1.00, High Hand $2.00
            expect(page.locator("table.takes")).to_contain_text("$112.00")
    # The last, a $25 pot: $2.00 rake, $1.00 Bad Beat, nothing for the High Hand (under its $30.00 minimum).
    assert {name: amount for name, amount, _rule in rows(page.locator("table.takes tbody"))} == {
        "Rake": "$2.00",
        "Bad Beat": "$1.00",
        "High Hand": "$0.00",
        "To the winner": "$22.00",
    }
    day.shot(page, "rounds-logged")
    _done(page)


def _file_a_bad_beat(day: Day, floor) -> None:
    """The floorperson picks the cards of the hand by touch: aces full of kings beaten by four sevens."""
    floor.click("a.brand")  # home
    floor.click(".tile:has-text('Open a Bad Beat claim')")
    floor.click(".offer:has-text('T1')")
    floor.select_option("#id_players_dealt_in", "4")
    for card in ("Ad", "Ac", "Kc", "7s", "7h"):
        floor.locator("#id_board_picker").locator(f"[data-card='{card}']").tap()
    floor.select_option("#id_losing_seat", "3")
    floor.fill("#id_losing_name", "Ann Loser")
    for card in ("As", "Ks"):
        floor.locator("#id_losing_hole_picker").locator(f"[data-card='{card}']").tap()
    floor.select_option("#id_winning_seat", "7")
    floor.fill("#id_winning_name", "Walt Winner")
    for card in ("7d", "7c"):
        floor.locator("#id_winning_hole_picker").locator(f"[data-card='{card}']").tap()
    for row, (seat, name) in enumerate((("1", "Pat One"), ("9", "Kim Nine")), start=1):
        floor.select_option(f"#id_other_seat_{row}", seat)
        floor.fill(f"#id_other_name_{row}", name)
    floor.fill("#id_surveillance_reference", "CAM-12 10:20:05")
    floor.fill("#id_pin", PIN)
    day.shot(floor, "bad-beat-claim")
    floor.click("button:has-text('Record the claim and sign')")
    expect(floor.locator(".verdict h2")).to_have_text("Qualifies: Bad Beat")
    day.shot(floor, "bad-beat-verdict")


def _verify_the_bad_beat(day: Day, browser, live_server, supervisor) -> None:
    claim = BadBeatClaim.objects.get()
    page = tablet(browser, live_server, supervisor)
    page.click(".tile:has-text('Bad Beat claims to decide')")
    card = page.locator(f"article[aria-label='Claim {claim.pk}']")
    expect(card).to_contain_text("Full house, aces full of kings")
    card.locator("form.verify input[name='pin']").fill(PIN)
    day.shot(page, "bad-beat-to-verify")
    card.locator("button:has-text('Verify and sign')").click()
    expect(page.locator(".message.success")).to_contain_text(
        f"Claim {claim.pk} at table T1 verified: the payout is $2,500.00 (official $2,500.00"
    )
    day.shot(page, "bad-beat-verified")
    _done(page)


def _record_a_high_hand(day: Day, floor, dealer) -> None:
    floor.click("a.brand")  # home
    floor.click(".tile:has-text('Record a High Hand')")
    floor.click(".offer:has-text('T1')")
    for card in ("Qh", "Qd"):
        floor.locator("#id_hole_picker").locator(f"[data-card='{card}']").tap()
    for card in ("Qc", "Jh", "Js", "2c", "3d"):
        floor.locator("#id_board_picker").locator(f"[data-card='{card}']").tap()
    floor.select_option("#id_seat", "5")
    floor.fill("#id_player_name", "Hal Hand")
    floor.fill("#id_player_phone", "215-555-0155")
    floor.fill("#id_id_number", "PA-55554444")
    floor.select_option("#id_dealer", str(dealer.pk))
    floor.select_option("#id_players_dealt_in", "9")
    floor.fill("#id_pot", "120.00")
    floor.fill("#id_pin", PIN)
    day.shot(floor, "high-hand-record")
    floor.click("button:has-text('Record on the slip and sign')")
    expect(floor.locator("tr.line.leader")).to_contain_text("Full house, queens full of jacks")
    day.shot(floor, "high-hand-slip")


def _close_the_table(day: Day, floor) -> None:
    floor.click("a.brand")
    floor.click(".tile:has-text('Tables')")
    row = floor.locator("tr", has=floor.locator("td.big", has_text="T1"))
    row.locator("button:has-text('Close')").click()
    floor.click("button:has-text('Yes, close T1')")
    expect(floor.locator(".message.success")).to_have_text("Table T1 (Texas Hold'em) is closed.")
    expect(row).to_contain_text("Closed by Floorperson")
    day.shot(floor, "t1-closed")
    floor.click("a.brand")  # home
    floor.click(".tile:has-text('Notice to compliance')")
    floor.fill("#id_notified", "J. Smith")
    floor.fill("#id_pin", PIN)
    floor.click("button:has-text('Record the notice')")
    expect(floor.locator("table.list")).to_contain_text("J. Smith")
    day.shot(floor, "notice-to-compliance")


def _count_the_boxes(day: Day, browser, live_server, dealer) -> None:
    page = tablet(browser, live_server, dealer)
    page.click(".tile:has-text('Count a box')")
    day.shot(page, "boxes-to-count")
    for code, amount in (("T1-drop", "12"), ("T1-bb", "3"), ("T1-hh", "4")):
        page.click(f".box-button:has-text('{code}')")
        page.click("#id_counted")
        for key in amount:
            page.click(f".number-pad [data-key='{key}']")
        page.fill("#id_pin", PIN)
        page.click("button:has-text('Record the count')")
        result = page.locator(".result")
        expect(result).to_contain_text("Expected by the ledger")
        expect(result.locator(".even dd")).to_have_text("$0.00")  # what the ledger expected, to the cent
        day.shot(page, f"counted-{code}")
        page.click("a:has-text('Count another box')")
    _done(page)


def _witness_the_counts(day: Day, floor) -> None:
    floor.click("a.brand")  # home
    floor.click(".tile:has-text('Witness counts')")
    everything = floor.locator("article[aria-label='Every count of table T1']")
    expect(everything).to_contain_text("All 3 counts")
    everything.locator("input[name='surveillance_reference']").fill("CAM-12 11:02")
    everything.locator("input[name='pin']").fill(PIN)
    day.shot(floor, "witness-table-t1")
    everything.locator("button:has-text('Witness all 3 and sign once')").click()
    expect(floor.locator(".message.success")).to_contain_text(
        "3 counts of table T1 witnessed in one signing, recording CAM-12 11:02: "
    )
    day.shot(floor, "witnessed")


def _carry_to_the_cage(day: Day, browser, live_server, security) -> None:
    page = tablet(browser, live_server, security)
    page.click(".tile:has-text('Carry to the cage')")
    for code, amount in (("T1-bb", "$3.00"), ("T1-drop", "$12.00"), ("T1-hh", "$4.00")):
        page.click(f"label.check:has-text('{code} · counted {amount}')")
    page.fill("#id_container-seal", "S-2701")
    page.fill("#id_container-pin", PIN)
    day.shot(page, "carry-to-the-cage")
    page.click("button:has-text('Sign for the container')")
    expect(page.locator(".message.success")).to_contain_text("is in your custody")
    day.shot(page, "carried")
    _done(page)


def _verify_at_the_cage(day: Day, browser, live_server, cashier) -> None:
    page = admin(browser, live_server, cashier)
    arriving = page.locator(".today-section[data-section='Transports arriving and to verify']")
    expect(arriving.locator(".count")).to_have_text("1")
    expect(arriving).to_contain_text("Seal S-2701")
    expect(arriving).to_contain_text("$19.00 declared")
    day.shot(page, "cashier-today")
    arriving.locator("a:has-text('Verify')").click()
    expect(page.locator("#content-main")).to_contain_text("S-2701")
    page.fill("input[name='aggregate']", "19.00")
    page.fill("input[name='pin']", PIN)
    day.shot(page, "cage-verify")
    page.click("input[value='Sign and make official']")
    expect(page.locator(".messagelist")).to_have_text("Seal S-2701 verified: $19.00 made official.")
    day.shot(page, "cage-verified")
    _done(page)


def _the_board_on_every_screen(day: Day, browser, live_server, when: str) -> list:
    """The display board at each of ``test_board_fits``'s screens: every jackpot on one screen, nothing
    overflowing its card or the viewport. Returns what each card shows, the same at every size."""
    shown = []
    for width, height in SCREENS:
        context, board = _board_at(browser, f"{live_server.url}/display/main/", width, height)
        expect(board.locator(".jackpot")).to_have_count(2)
        day.shot(board, f"board-{when}-{width}x{height}")
        assert board.evaluate(OVERFLOWS) == [], (when, width, height)
        shown.append(board.locator(".jackpot").evaluate_all("cards => cards.map(card => card.innerText)"))
        context.close()
    assert all(cards == shown[0] for cards in shown)
    return shown[0]


def _finance_reads_the_record(day: Day, browser, live_server, finance, gaming_day) -> None:
    """Finance's *Today*, the official record of the day and the display check, while the day goes on."""
    page = admin(browser, live_server, finance)
    to_close = page.locator(".today-section[data-section='Gaming days to close']")
    expect(to_close.locator(".count")).to_have_text("0")  # the day is not over
    shares = page.locator(".today-section[data-section='Bad Beat shares to pay']")
    expect(shares).to_contain_text("No share to pay yet: 1 verified claim awaits its distribution")
    day.shot(page, "finance-today")
    page.goto(f"{live_server.url}/admin/cage/cageverification/official-record/?room=main")
    shown_day = date_format(gaming_day)
    assert rows(page.locator("#official-record tbody")) == [
        [shown_day, "Bad Beat fund", "$3.00", ""],
        ["", "Main Poker Room: poker revenue (official)", "$12.00", ""],
        ["", "High Hand fund", "$4.00", ""],
        ["", f"Total of {shown_day}", "$19.00", "Count sheets (PDF) · Custody log"],
    ]
    # The Bad Beat fund holds what earlier days left and today's box; the verified claim is owed from it.
    assert rows(page.locator("#balances tbody")) == [
        ["Bad Beat fund", "$2,503.00"],
        ["High Hand fund", "$4.00"],
        ["Main Poker Room: poker revenue (official)", "$12.00"],
    ]
    day.shot(page, "official-record")
    page.goto(f"{live_server.url}/admin/jackpots/badbeatreport/display-check/")
    high_hand = page.locator("tr[data-fund='hh']")
    assert rows(high_hand)[0][2:6] == ["$4.00", "$4.00", "$0.00", "matches"]  # the board, the record
    bad_beat = page.locator("tr[data-fund='bb']")
    assert rows(bad_beat)[0][2:6] == ["—", "$3.00", "—", "not shown"]
    expect(bad_beat).to_contain_text("less $2,500.00 owed to verified claims")
    day.shot(page, "display-check")
    _done(page)


def _finance_closes_the_day(day: Day, browser, live_server, finance, gaming_day) -> None:
    page = admin(browser, live_server, finance)  # a day later: finance signs in again
    to_close = page.locator(".today-section[data-section='Gaming days to close']")
    expect(to_close.locator(".count")).to_have_text("1")
    expect(to_close).to_contain_text("ready to close")
    day.shot(page, "finance-today-day-over")
    to_close.locator("a:has-text('Close')").click()
    expect(page.locator("#content-main")).to_contain_text("Rule: Signed as the closer by finance")
    block = page.locator(f"#day-main-{gaming_day.isoformat()}")
    expect(block).not_to_contain_text("Still blocks the close")
    block.locator("input[name='pin']").fill(PIN)
    day.shot(page, "close-the-day")
    block.locator(f"input[value='Close {gaming_day.isoformat()} and sign']").click()
    expect(page.locator(".messagelist")).to_have_text(
        f"Gaming day {gaming_day.isoformat()} of Main Poker Room closed and signed."
    )
    expect(block).to_have_count(0)
    day.shot(page, "day-closed")
    _done(page)


def test_a_whole_gaming_day_through_the_pages(
    live_server, browser, monkeypatch, rules, dealer, floorperson, supervisor, security, cashier, finance
) -> None:
    room = PokerRoom.objects.get(code="main")
    zone = ZoneInfo(room.timezone)
    morning = datetime.combine(timezone.now().astimezone(zone).date() + timedelta(days=1), time(10, 15), tzinfo=zone)
    clock_move(monkeypatch, to=morning)
    today = gaming_day(room=room, at=morning)
    boxes_sync(room=room)  # the schedule's work
    fund_official(Jackpot.objects.get(room=room, code="bb"), BAD_BEAT_FUND, finance)  # earlier days' money
    day = Day()

    floor = _open_the_table(day, browser, live_server, floorperson)
    open_period(Table.objects.get(room=room, number="T1"))  # the schedule opens the High Hand's 10:00 period
    _log_rounds(day, browser, live_server, dealer)
    _file_a_bad_beat(day, floor)
    _verify_the_bad_beat(day, browser, live_server, supervisor)
    _record_a_high_hand(day, floor, dealer)
    _close_the_table(day, floor)
    _count_the_boxes(day, browser, live_server, dealer)
    _witness_the_counts(day, floor)
    _done(floor)
    _carry_to_the_cage(day, browser, live_server, security)
    _verify_at_the_cage(day, browser, live_server, cashier)
    _finance_reads_the_record(day, browser, live_server, finance, today)
    bad_beat, high_hand = _the_board_on_every_screen(day, browser, live_server, "during-the-day")
    assert "PENDING ADJUSTMENT" in bad_beat.upper()  # the verified claim, until finance adjusts it
    assert "$4.00" in high_hand and "Full house, queens full of jacks" in high_hand and "Table T1 · seat 5" in high_hand
    lines = {line.code: line for line in display_check_lines(rooms=[room], at=timezone.now())}
    assert (lines["hh"].shown_cents, lines["hh"].official_cents) == (400, 400)

    gaming_day_over(monkeypatch, room=room, day=today)  # a minute past 06:00; the schedule ends the periods
    _finance_closes_the_day(day, browser, live_server, finance, today)
    _the_board_on_every_screen(day, browser, live_server, "after-the-close")
    _the_records_hold(room=room, day=today, people=(dealer, floorperson, supervisor, security, cashier, finance))


def _the_records_hold(*, room, day, people) -> None:
    """What the pages did, in the database: the day closed by finance on what the boxes held."""
    dealer, floorperson, supervisor, security, cashier, finance = people
    close = GamingDayClose.objects.get(room=room, gaming_day=day)
    assert close.closed_by == finance
    assert sorted((row.account.code, row.gaming_day, row.official_cents) for row in official_record(room=room)) == [
        ("jackpot:main:bb:fund", day, 300),
        ("jackpot:main:hh:fund", day, 400),
        ("room:main:revenue", day, 1200),
    ]
    rounds = Round.objects.filter(table__room=room, gaming_day=day)
    assert sorted(rounds.values_list("pot_cents", "rake_cents", "created_by")) == [
        (2500, 200, dealer.pk),
        (12000, 500, dealer.pk),
        (12000, 500, dealer.pk),
    ]
    counts = Count.objects.filter(box__room=room, gaming_day=day).order_by("box__code")
    assert [(c.box.code, c.counted_cents, c.expected_cents, c.status) for c in counts] == [
        ("T1-bb", 300, 300, CountStatus.VERIFIED),
        ("T1-drop", 1200, 1200, CountStatus.VERIFIED),
        ("T1-hh", 400, 400, CountStatus.VERIFIED),
    ]
    assert {(c.counted_by, c.witnessed_by) for c in counts} == {(dealer, floorperson)}
    transport = Transport.objects.get(room=room)
    assert (transport.seal, transport.carried_by, transport.status) == ("S-2701", security, TransportStatus.VERIFIED)
    verification = CageVerification.objects.get(transport=transport)
    assert (verification.official_cents, verification.variance_cents, verification.cashier) == (1900, 0, cashier)
    claim = BadBeatClaim.objects.get()
    assert (claim.status, claim.opened_by) == (ClaimStatus.VERIFIED, floorperson)
    assert (claim.decision.decided_by, claim.decision.payout_cents) == (supervisor, BAD_BEAT_FUND)
    entry = HighHandEntry.objects.get()
    assert (entry.cards, entry.seat, entry.recorded_by) == ("Qh Qd Qc Js Jh", 5, floorperson)
    assert not Table.objects.get(room=room, number="T1").is_open
    assert ledger_total() == 0
