"""The High Hand's tablet pages (§637a.16(f)): a hand recorded on the Tracking Slip with the card
picker, the slip as it stands (the high hand, ties, voided entries), a shift supervisor's void; each
for the roles the table names, every refusal in the service's words with what was entered kept and
nothing changed."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import ACTION_ROLES, Action, may, who_may
from casino_backoffice.staff.roles import Role
from jackpots.funds.models import Jackpot
from jackpots.high_hand.models import HighHandEntry, HighHandPeriod, HighHandVoid
from jackpots.high_hand.services.slip import entry_record, entry_void
from tables.models import Table
from tests.conftest import PIN
from tests.jackpots.high_hand_helpers import close_and_announce, high_hand_fund, open_period, snapshot
from tests.pages import assert_no_inline_script_or_style
from tests.rake.factories import RULES, load, rules_text

# Its pools are announced by hand, with official money no count made (``close_and_announce``).
pytestmark = pytest.mark.pools_by_hand


@pytest.fixture
def period(rated_table) -> HighHandPeriod:
    return open_period(rated_table)


def _browser(person: User) -> Client:
    browser = Client()
    browser.force_login(person)
    return browser


def _key(page: str) -> str:
    return re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)


def _form_url(jackpot: Jackpot, table: Table) -> str:
    return f"{reverse('floor:high-hand-record')}?jackpot={jackpot.pk}&table={table.pk}"


def _hhmm(period: HighHandPeriod) -> str:
    return period.starts_at.astimezone(ZoneInfo(period.room.timezone)).strftime("%H:%M")


def _body(page: str, period: HighHandPeriod, table: Table, dealt_by: User, **changes: str) -> dict[str, Any]:
    """The form as the card picker posts it: each picker's hidden input holds the codes picked."""
    body = {
        "jackpot": period.jackpot_id,
        "table": table.pk,
        "idempotency_key": _key(page),
        "hole": "Ah Ad",
        "board": "Ac Kh Ks 2c 7d",
        "seat": "3",
        "player_name": "Ann Player",
        "player_phone": "215-555-0100",
        "id_type": "Driver's license",
        "id_number": "PA-12345678",
        "dealer": str(dealt_by.pk),
        "players_dealt_in": "6",
        "pot": "120.00",
        "made_at": _hhmm(period),
        "pin": PIN,
    }
    return {**body, **changes}


def _record(period: HighHandPeriod, table: Table, *, actor: User, dealer: User, cards: str, seat: int, **more: Any):
    values = {
        "player_name": "Ann Player",
        "player_phone": "215-555-0100",
        "id_type": "Driver's license",
        "id_number": "PA-12345678",
        **more,
    }
    return entry_record(
        jackpot=period.jackpot,
        table=table,
        seat=seat,
        dealer=dealer,
        players_dealt_in=6,
        pot_cents=12_000,
        cards=cards,
        made_at=period.starts_at,
        actor=actor,
        pin=PIN,
        idempotency_key=f"floor-{cards}-{seat}",
        **values,
    )


# --- Who may use each page ------------------------------------------------------------------------

_PAGES = [("floor:high-hand-record", Action.HIGH_HAND_RECORD), ("floor:high-hand-slip", Action.HIGH_HAND_READ)]


@pytest.mark.parametrize(("name", "action"), _PAGES)
def test_each_page_opens_for_the_roles_that_may_and_says_why_to_the_others(
    name, action, period, make_staff, client
) -> None:
    url = reverse(name)
    signed_out = client.get(url)
    assert signed_out.status_code == 302 and signed_out["Location"].startswith("/floor/login/")
    for role in Role:
        response = _browser(make_staff(role)).get(url)
        page = response.content.decode()
        if role in ACTION_ROLES[action]:
            assert response.status_code == 200, (name, role)
            assert escape(who_may(action)) not in page
        else:
            assert response.status_code == 403, (name, role)
            assert escape(who_may(action)) in page, (name, role)
        assert_no_inline_script_or_style(page)


def test_the_home_page_shows_each_high_hand_tile_to_the_roles_that_may_use_it(make_staff) -> None:
    for role in Role:
        person = make_staff(role)
        home = _browser(person).get(reverse("floor:home")).content.decode()
        for name, action in _PAGES:
            assert (f'href="{reverse(name)}"' in home) == may(person, action), (role, name)


# --- Recording a hand -----------------------------------------------------------------------------


def test_the_record_page_offers_the_tables_of_the_high_hand_and_the_card_picker(
    rated_table, period, floorperson, dealer, make_staff
) -> None:
    browser = _browser(floorperson)
    picker = browser.get(reverse("floor:high-hand-record")).content.decode()
    hh = high_hand_fund(rated_table)
    t2, t7 = Table.objects.get(number="T2"), Table.objects.get(number="T7")
    assert f'href="?jackpot={hh.pk}&amp;table={rated_table.pk}"' in picker
    assert f'href="?jackpot={hh.pk}&amp;table={t2.pk}"' in picker
    assert f"table={t7.pk}" not in picker  # the rules list no High Hand at T7
    assert f"Period until {timezone.localtime(period.ends_at):%-I:%M %p}" in picker

    form = browser.get(_form_url(hh, rated_table)).content.decode()
    # Hold'em: the two hole cards and the five of the board, picked; never typed.
    assert form.count("data-card-picker") == 2 and 'data-count="2"' in form and 'data-count="5"' in form
    assert 'type="hidden" name="hole"' in form and 'type="hidden" name="board"' in form
    assert 'name="hole" type="text"' not in form and 'name="cards"' not in form
    # The dealer is picked from the dealers, with their credential number.
    assert f'<option value="{dealer.pk}">{dealer.get_full_name()} · {dealer.credential_number}</option>' in form
    assert f'<option value="{floorperson.pk}"' not in form
    assert 'name="pot"' in form and "data-number-pad" in form and 'type="time"' in form
    assert "floor/card_picker.js" in form
    assert_no_inline_script_or_style(form)

    # A table that does not offer the fund is refused before any form is shown.
    page = browser.get(_form_url(hh, t7), follow=True).content.decode()
    assert "Table T7 does not offer the High Hand under the rules in effect." in page
    assert "data-card-picker" not in page


def test_a_floorperson_records_a_hand_with_the_card_picker_and_reads_the_slip(
    rated_table, period, floorperson, dealer
) -> None:
    browser = _browser(floorperson)
    hh = high_hand_fund(rated_table)
    form = browser.get(_form_url(hh, rated_table)).content.decode()

    response = browser.post(reverse("floor:high-hand-record"), _body(form, period, rated_table, dealer), follow=True)

    entry = HighHandEntry.objects.get()
    assert response.redirect_chain[-1][0] == reverse("floor:high-hand-period", args=[period.pk])
    assert (entry.period, entry.table, entry.seat, entry.cards, entry.words) == (
        period,
        rated_table,
        3,
        "Ah Ad Ac Ks Kh",
        "Full house, aces full of kings",
    )
    assert (entry.dealer, entry.dealer_credential_number, entry.recorded_by, entry.made_at) == (
        dealer,
        dealer.credential_number,
        floorperson,
        period.starts_at,
    )
    assert (entry.players_dealt_in, entry.pot_cents, entry.id_number) == (6, 12_000, "PA-12345678")
    assert [s.purpose for s in entry.signatures()] == ["recorder"]
    page = response.content.decode()
    assert (
        "Recorded and signed: Full house, aces full of kings at table T1, seat 3 (Ann Player) is the period&#x27;s "
        "high hand." in page
    )
    assert 'class="line leader"' in page and "High hand</span>" in page
    assert 'aria-label="ace of hearts"' in page and 'aria-label="king of spades"' in page  # cards as cards
    assert_no_inline_script_or_style(page)


def test_a_refused_hand_shows_the_services_words_keeps_the_input_and_records_nothing(
    rated_table, period, floorperson, dealer
) -> None:
    _record(period, rated_table, actor=floorperson, dealer=dealer, cards="As Ah Ad Qc Qd", seat=5)
    browser = _browser(floorperson)
    form = browser.get(_form_url(period.jackpot, rated_table)).content.decode()
    assert "Period's high hand now:" in form and "Full house, aces full of queens" in form
    before = snapshot()

    # Kings full of aces: lower than the slip's aces full of queens.
    body = _body(form, period, rated_table, dealer, hole="Kh Kd", board="Kc As Ah 2c 7d", player_name="Ken Lower")
    page = browser.post(reverse("floor:high-hand-record"), body).content.decode()

    assert (
        "Nothing was recorded. Full house, kings full of aces is lower than the period&#x27;s high hand, Full house, "
        "aces full of queens (table T1, seat 5)" in page
    )
    assert snapshot() == before
    assert 'name="hole" value="Kh Kd"' in page and 'name="board" value="Kc As Ah 2c 7d"' in page
    assert 'value="Ken Lower"' in page and 'value="120.00"' in page and 'aria-pressed="true"' in page

    for changes, words in [
        ({"players_dealt_in": "5"}, "Only 5 players were dealt in; at least 6 are required"),
        ({"hole": "2h 3d", "board": "Ac Kh Ks 9c 7d"}, "is below a full house"),
    ]:
        page = browser.post(reverse("floor:high-hand-record"), {**body, **changes}).content.decode()
        assert "Nothing was recorded." in page and escape(words) in page, words
    assert snapshot() == before


def test_cards_missing_or_a_pin_mistyped_are_refused_by_the_form_before_the_pin_check(
    rated_table, period, floorperson, dealer
) -> None:
    browser = _browser(floorperson)
    form = browser.get(_form_url(period.jackpot, rated_table)).content.decode()
    before = snapshot()

    page = browser.post(
        reverse("floor:high-hand-record"),
        _body(form, period, rated_table, dealer, board="Ac Kh Ks", hole="", dealer="", pin="24a8"),
    ).content.decode()

    assert "Nothing was recorded: correct what is marked below." in page
    assert "Pick 5 cards; 3 picked." in page and "Pick 2 cards." in page
    assert "it does not count as a wrong PIN" in page
    assert snapshot() == before
    floorperson.refresh_from_db()
    assert floorperson.failed_pin_attempts == 0


def test_a_resent_form_records_once(rated_table, period, floorperson, dealer) -> None:
    browser = _browser(floorperson)
    body = _body(browser.get(_form_url(period.jackpot, rated_table)).content.decode(), period, rated_table, dealer)
    browser.post(reverse("floor:high-hand-record"), body)
    again = browser.post(reverse("floor:high-hand-record"), body, follow=True).content.decode()
    assert HighHandEntry.objects.count() == 1
    assert "was already recorded by this form; it counts once" in again


def test_omaha_and_stud_hands_are_picked_as_the_game_deals_them(room, floorperson, dealer) -> None:
    load(
        rules_text(
            tables=[
                *RULES["tables"][:2],
                {"number": "T5", "game": "omaha_high", "seats": 9, "rake_policy": "nl10", "jackpots": ["hh"]},
                {**RULES["tables"][2], "jackpots": ["hh"]},  # T7, Seven-card Stud
            ]
        )
    )
    omaha, stud = Table.objects.get(number="T5"), Table.objects.get(number="T7")
    period = open_period(omaha)
    browser = _browser(floorperson)

    form = browser.get(_form_url(period.jackpot, omaha)).content.decode()
    assert 'data-count="4"' in form and 'data-count="5"' in form
    assert "the evaluator takes exactly two of the hole cards and three of the board (§637a.12(k))" in form
    # Three aces in the hole and three kings on the board: at Omaha, kings full of aces.
    body = _body(form, period, omaha, dealer, hole="As Ah Ad Qc", board="Kd Kh Kc 2c 3c")
    browser.post(reverse("floor:high-hand-record"), body)
    assert HighHandEntry.objects.get().words == "Full house, kings full of aces"

    form = browser.get(_form_url(period.jackpot, stud)).content.decode()
    assert form.count("data-card-picker") == 1 and 'data-count="7"' in form and 'name="board"' not in form
    body = _body(form, period, stud, dealer, hole="As Ah Ac Kd Ks Kh 2c", seat="2")
    del body["board"]
    browser.post(reverse("floor:high-hand-record"), body)
    assert HighHandEntry.objects.order_by("pk").last().words == "Full house, aces full of kings"


# --- The slip and the void ------------------------------------------------------------------------


def test_the_slip_shows_the_high_hand_the_ties_and_the_voided_entries_struck_through(
    rated_table, period, floorperson, supervisor, dealer
) -> None:
    t2 = Table.objects.get(number="T2")
    kings = _record(period, rated_table, actor=floorperson, dealer=dealer, cards="Kh Kd Kc 2s 2d", seat=2)
    aces = _record(period, rated_table, actor=floorperson, dealer=dealer, cards="Ah Ad Ac Kh Ks", seat=3)
    tie = _record(period, t2, actor=floorperson, dealer=dealer, cards="As Ac Ah Kd Kc", seat=5, player_name="Tia Tie")
    sevens = _record(period, t2, actor=floorperson, dealer=dealer, cards="7h 7d 7c 7s 2c", seat=1)
    entry_void(entry=sevens, reason="Seat 1 had folded: the wrong player.", actor=supervisor, pin=PIN)

    page = _browser(floorperson).get(reverse("floor:high-hand-slip")).content.decode()

    assert (
        page.index(f'id="entry-{kings.pk}"') < page.index(f'id="entry-{aces.pk}"') < page.index(f'id="entry-{tie.pk}"')
    )
    assert f'<tr class="line leader" id="entry-{aces.pk}">' in page
    assert f'<tr class="line tied" id="entry-{tie.pk}">' in page
    assert f'<tr class="line voided" id="entry-{sevens.pk}">' in page
    assert "Void: Seat 1 had folded: the wrong player." in page
    assert "Full house, aces full of kings · table T1, seat 3 · 2 tied" in page
    assert "Estimated pool · not counted yet" in page
    assert 'action="/floor/high-hand/entries/' not in page  # a floorperson does not void
    assert_no_inline_script_or_style(page)

    # The shift supervisor may void every entry not voided.
    page = _browser(supervisor).get(reverse("floor:high-hand-slip")).content.decode()
    for entry in (kings, aces, tie):
        assert f'action="{reverse("floor:high-hand-void", args=[entry.pk])}"' in page
    assert f'action="{reverse("floor:high-hand-void", args=[sevens.pk])}"' not in page


def test_a_supervisor_voids_on_the_slip_and_the_high_hand_falls_back(
    rated_table, period, floorperson, supervisor, dealer
) -> None:
    kings = _record(period, rated_table, actor=floorperson, dealer=dealer, cards="Kh Kd Kc 2s 2d", seat=2)
    aces = _record(period, rated_table, actor=floorperson, dealer=dealer, cards="Ah Ad Ac Kh Ks", seat=3)
    browser = _browser(supervisor)
    url = reverse("floor:high-hand-void", args=[aces.pk])
    before = snapshot()

    no_reason = browser.post(url, {"reason": " ", "pin": PIN}).content.decode()
    assert f"Entry {aces.pk} was not voided: correct what is marked below." in no_reason
    assert "<details open>" in no_reason  # the form that was refused stays open
    wrong_pin = browser.post(url, {"reason": "Wrong seat.", "pin": "0000"}).content.decode()
    assert f"Entry {aces.pk} was not voided." in wrong_pin
    supervisor.refresh_from_db()
    assert supervisor.failed_pin_attempts == 1
    supervisor.failed_pin_attempts = 0
    supervisor.save(update_fields=["failed_pin_attempts"])
    assert snapshot() == before

    response = browser.post(url, {"reason": "Seat 3 had folded: the wrong player.", "pin": PIN}, follow=True)

    void = HighHandVoid.objects.get()
    assert (void.entry, void.reason, void.voided_by) == (aces, "Seat 3 had folded: the wrong player.", supervisor)
    page = response.content.decode()
    assert (
        f"Entry {aces.pk} (Full house, aces full of kings at table T1, seat 3) voided; the period&#x27;s high hand "
        "is now Full house, kings full of twos at table T1, seat 2." in page
    )
    assert f'<tr class="line leader" id="entry-{kings.pk}">' in page
    assert f'<tr class="line voided" id="entry-{aces.pk}">' in page

    again = browser.post(url, {"reason": "Twice.", "pin": PIN}, follow=True).content.decode()
    assert f"Entry {aces.pk} was not voided. Entry {aces.pk} is void already." in again
    missing = browser.post(reverse("floor:high-hand-void", args=[0]), {"reason": "x", "pin": PIN}, follow=True)
    assert "There is no High Hand entry 0." in missing.content.decode()
    assert HighHandVoid.objects.count() == 1


def test_an_announced_period_shows_its_pool_and_winners_and_offers_no_void(
    rated_table, floorperson, supervisor, dealer, finance
) -> None:
    earlier = open_period(rated_table, at=timezone.now() - timedelta(hours=1))
    _record(earlier, rated_table, actor=floorperson, dealer=dealer, cards="Ah Ad Ac Kh Ks", seat=3)
    close_and_announce(earlier, pool_cents=4_321, at=timezone.now(), actor=finance)

    page = _browser(supervisor).get(reverse("floor:high-hand-period", args=[earlier.pk])).content.decode()

    assert "Pool (counted and verified)" in page and "$43.21" in page
    assert "Awarded: " in page and "Ann Player · table T1, seat 3 · $43.21" in page
    assert 'action="/floor/high-hand/entries/' not in page
    # The slip page shows the period open now, and links to the one before it.
    slip = _browser(supervisor).get(reverse("floor:high-hand-slip")).content.decode()
    assert "No hand on this slip yet." in slip and "Open</span>" in slip
    assert f'href="{reverse("floor:high-hand-period", args=[earlier.pk])}"' in slip
    missing = _browser(supervisor).get(reverse("floor:high-hand-period", args=[0]), follow=True).content.decode()
    assert "There is no High Hand period 0." in missing


def test_a_role_that_may_not_changes_nothing_from_any_high_hand_page(
    rated_table, period, floorperson, dealer, make_staff
) -> None:
    entry = _record(period, rated_table, actor=floorperson, dealer=dealer, cards="Ah Ad Ac Kh Ks", seat=3)
    before = snapshot()
    for role in (Role.DEALER, Role.CAGE_CASHIER, Role.SECURITY):
        browser = _browser(make_staff(role))
        response = browser.post(reverse("floor:high-hand-record"), {"jackpot": period.jackpot_id, "pin": PIN})
        assert response.status_code == 403
    for role in (Role.FLOORPERSON, Role.POKER_ROOM_MANAGER, Role.FINANCE):
        response = _browser(make_staff(role)).post(
            reverse("floor:high-hand-void", args=[entry.pk]), {"reason": "no", "pin": PIN}
        )
        assert response.status_code == 403
        assert escape(who_may(Action.HIGH_HAND_VOID)) in response.content.decode()
    assert snapshot() == before
