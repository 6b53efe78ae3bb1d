"""The progressive meters' tablet pages (§655a.11-12, §657a.11-12): a round's wagers tapped by seat and
the chips collected, a winning hand with the card picker and the evaluator's verdict, the validation
queue, the meters with their reset and the wager count exceptions; each for the roles the table names,
every refusal in the service's words with nothing changed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import ACTION_ROLES, Action, may, who_may
from casino_backoffice.staff.roles import Role
from jackpots.progressive.models import (
    MeterFunding,
    ProgressiveHand,
    ProgressiveMeter,
    ProgressiveRound,
    ProgressiveValidation,
    WagerCountExplanation,
)
from jackpots.progressive.services.hands import progressive_validate
from tables.models import Table
from tests.conftest import PIN
from tests.jackpots.progressive_helpers import hand, meter_cents, play, snapshot
from tests.pages import assert_no_inline_script_or_style

pytestmark = pytest.mark.django_db


def _browser(person: User) -> Client:
    browser = Client()
    browser.force_login(person)
    return browser


def _key(page: str) -> str:
    return re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)


def _form_url(table: Table) -> str:
    return f"{reverse('floor:progressive-round')}?table={table.pk}"


def _round_body(page: str, table: Table, **changes: Any) -> dict[str, Any]:
    """The round form as the page posts it: a seat's radio holds the wager in cents, blank for none."""
    body = {
        "table": table.pk,
        "idempotency_key": _key(page),
        "seat_1": "100",
        "seat_2": "500",
        "seat_3": "",
        "seat_4": "100",
        "chips_collected": "3",
    }
    return {**body, **changes}


def _hand_body(page: str, **changes: Any) -> dict[str, Any]:
    return {"idempotency_key": _key(page), "light_confirmed": "on", **changes}


@pytest.fixture
def stud_round(stud, dealer) -> ProgressiveRound:
    return play(stud, dealer, {2: "5.00", 3: "1.00", 5: "1.00"}, community="Qs Js Ts")


# --- Who may use each page ------------------------------------------------------------------------


def _pages(round_: ProgressiveRound) -> list[tuple[str, Action]]:
    return [
        (reverse("floor:progressive-round"), Action.PROGRESSIVE_ROUND_RECORD),
        (reverse("floor:progressive-round-detail", args=[round_.pk]), Action.PROGRESSIVE_READ),
        (reverse("floor:progressive-validate"), Action.PROGRESSIVE_VALIDATE),
        (reverse("floor:progressive-meters"), Action.PROGRESSIVE_RESET),
    ]


def test_each_page_opens_for_the_roles_that_may_and_says_why_to_the_others(stud_round, make_staff, client) -> None:
    for url, action in _pages(stud_round):
        signed_out = client.get(url)
        assert signed_out.status_code == 302 and signed_out["Location"].startswith("/floor/login/")
        for role in Role:
            response = _browser(make_staff(role)).get(url)
            page = response.content.decode()
            if role in ACTION_ROLES[action]:
                assert response.status_code == 200, (url, role)
                assert escape(who_may(action)) not in page
            else:
                assert response.status_code == 403, (url, role)
                assert escape(who_may(action)) in page, (url, role)
            assert_no_inline_script_or_style(page)


def test_the_home_page_shows_each_progressive_tile_to_the_roles_that_may_use_it(make_staff) -> None:
    tiles = [
        ("floor:progressive-round", Action.PROGRESSIVE_ROUND_RECORD),
        ("floor:progressive-validate", Action.PROGRESSIVE_VALIDATE),
        ("floor:progressive-meters", Action.PROGRESSIVE_RESET),
    ]
    for role in Role:
        person = make_staff(role)
        home = _browser(person).get(reverse("floor:home")).content.decode()
        for name, action in tiles:
            assert (f'href="{reverse(name)}"' in home) == may(person, action), (role, name)


def test_a_role_that_may_not_changes_nothing_from_any_progressive_page(stud_round, dealer, make_staff) -> None:
    royal = hand(stud_round, dealer, 5, "As Ks")
    before = snapshot()
    for role in (Role.CAGE_CASHIER, Role.SECURITY, Role.FINANCE):
        browser = _browser(make_staff(role))
        round_post = browser.post(reverse("floor:progressive-round"), {"table": stud_round.table_id, "seat_1": "100"})
        hand_post = browser.post(reverse("floor:progressive-hand", args=[stud_round.pk]), {"seat": "3"})
        assert round_post.status_code == hand_post.status_code == 403
    for role in (Role.DEALER, Role.FLOORPERSON):
        browser = _browser(make_staff(role))
        response = browser.post(reverse("floor:progressive-reset", args=[stud_round.meter_id]), {"pin": PIN})
        assert response.status_code == 403 and escape(who_may(Action.PROGRESSIVE_RESET)) in response.content.decode()
    response = _browser(dealer).post(reverse("floor:progressive-validate-sign", args=[royal.pk]), {"pin": PIN})
    assert response.status_code == 403 and escape(who_may(Action.PROGRESSIVE_VALIDATE)) in response.content.decode()
    assert snapshot() == before


# --- A round --------------------------------------------------------------------------------------


def test_the_round_page_offers_the_banked_tables_and_only_the_wager_sizes_the_meter_accepts(
    stud, crazy4, dealer
) -> None:
    browser = _browser(dealer)
    picker = browser.get(reverse("floor:progressive-round")).content.decode()
    t1, t13 = Table.objects.get(number="T1"), Table.objects.get(number="T13")
    for table in (stud, crazy4, t13):
        assert f'href="?table={table.pk}"' in picker
    assert f'href="?table={t1.pk}"' not in picker  # Hold'em plays into no meter
    assert "Meter $10,000.00" in picker and "Meter $5,000.00" in picker

    form = browser.get(_form_url(stud)).content.decode()
    # Six seats, each with none, $1 and $5: the meter's sizes, and no other.
    for seat in range(1, 7):
        for value in ("", "100", "500"):
            assert f'name="seat_{seat}" value="{value}"' in form, (seat, value)
    assert 'name="seat_7"' not in form and 'value="200"' not in form
    assert 'name="chips_collected"' in form and "data-number-pad-keys" in form and "floor/number_pad.js" in form
    # Mississippi Stud's three community cards, optional, on the card picker.
    assert form.count("data-card-picker") == 1 and 'data-count="3"' in form and 'type="hidden" name="community"' in form
    assert_no_inline_script_or_style(form)

    crazy = browser.get(_form_url(crazy4)).content.decode()
    assert "data-card-picker" not in crazy and 'name="seat_6" value="500"' in crazy

    refused = browser.get(_form_url(t1), follow=True).content.decode()
    assert "Table T1 plays into no progressive meter under the rules in effect." in refused
    assert 'name="chips_collected"' not in refused


def test_a_round_recorded_by_form_raises_the_meter_by_its_increment_and_a_resent_form_records_once(
    stud, dealer
) -> None:
    browser = _browser(dealer)
    body = _round_body(browser.get(_form_url(stud)).content.decode(), stud, community="Qs Js Ts")
    meter_before = meter_cents("msp")

    response = browser.post(reverse("floor:progressive-round"), body, follow=True)

    round_ = ProgressiveRound.objects.get()
    assert response.redirect_chain[-1][0] == reverse("floor:progressive-round-detail", args=[round_.pk])
    assert sorted(round_.wagers.values_list("seat", "amount_cents")) == [(1, 100), (2, 500), (4, 100)]
    # 15% of $7.00: $1.05 to the meter, $5.95 to the house.
    assert (round_.wagers_cents, round_.increment_cents, round_.house_cents) == (700, 105, 595)
    assert (round_.chips_collected, round_.community_cards, round_.recorded_by) == (3, "Qs Js Ts", dealer)
    assert meter_cents("msp") == meter_before + 105
    page = response.content.decode()
    assert (
        f"Round {round_.pk} recorded at table T11: 3 Progressive Payout Wagers, $7.00; $1.05 to the meter, "
        "$5.95 house share." in page
    )
    assert "To the meter</dt><dd>$1.05</dd>" in page and "House share</dt><dd>$5.95</dd>" in page
    assert "the exception was recorded" not in page
    assert 'aria-label="queen of spades"' in page  # the community cards, as cards
    assert "from the player farthest to the dealer's right (the highest seat) down" in page
    assert_no_inline_script_or_style(page)

    again = browser.post(reverse("floor:progressive-round"), body, follow=True).content.decode()
    assert ProgressiveRound.objects.count() == 1 and meter_cents("msp") == meter_before + 105
    assert f"Round {round_.pk} was already recorded by this form; it counts once." in again


def test_chips_that_differ_are_recorded_for_a_supervisor_who_explains_them_on_the_meters_page(
    stud, dealer, supervisor
) -> None:
    browser = _browser(dealer)
    body = _round_body(browser.get(_form_url(stud)).content.decode(), stud, chips_collected="4")

    page = browser.post(reverse("floor:progressive-round"), body, follow=True).content.decode()

    round_ = ProgressiveRound.objects.get()
    exception = round_.count_exception
    assert (exception.wagers_accepted, exception.chips_collected) == (3, 4)
    assert (
        "The chips collected (4) differ from the wagers accepted (3): the exception was recorded for a supervisor "
        "to explain (§655a.8(b))." in page
    )
    meters = _browser(supervisor).get(reverse("floor:progressive-meters")).content.decode()
    url = reverse("floor:progressive-explain", args=[exception.pk])
    assert f'action="{url}"' in meters and "3 wagers accepted, 4 chips collected" in meters

    blank = _browser(supervisor).post(url, {"explanation": " ", "pin": PIN}).content.decode()
    assert f"The exception of round {round_.pk} at table T11 was not explained" in blank
    done = _browser(supervisor).post(url, {"explanation": "A chip fell from seat 3.", "pin": PIN}, follow=True)
    explanation = WagerCountExplanation.objects.get()
    assert (explanation.exception, explanation.explained_by) == (exception, supervisor)
    assert f"The exception of round {round_.pk} at table T11 is explained and signed." in done.content.decode()
    assert f'action="{url}"' not in done.content.decode()


def test_a_refused_round_shows_the_services_words_keeps_the_input_and_records_nothing(stud, dealer) -> None:
    browser = _browser(dealer)
    form = browser.get(_form_url(stud)).content.decode()
    before = snapshot()

    nothing = _round_body(form, stud, seat_1="", seat_2="", seat_4="", chips_collected="0")
    page = browser.post(reverse("floor:progressive-round"), nothing).content.decode()
    assert (
        "Nothing was recorded. The round has no Progressive Payout Wager and no chip collected: nothing to record."
        in page
    )
    odd = browser.post(reverse("floor:progressive-round"), _round_body(form, stud, seat_2="200")).content.decode()
    assert "Nothing was recorded: correct what is marked below." in odd
    missing = browser.post(reverse("floor:progressive-round"), _round_body(form, stud, chips_collected="")).content
    assert "This field is required." in missing.decode()
    assert 'name="seat_2" value="500"' in missing.decode() and "checked" in missing.decode()
    assert snapshot() == before


# --- A winning hand -------------------------------------------------------------------------------


def test_a_winning_hand_recorded_by_form_shows_the_verdict_and_its_envy_bonuses(stud_round, dealer) -> None:
    browser = _browser(dealer)
    url = reverse("floor:progressive-round-detail", args=[stud_round.pk])
    form = browser.get(url).content.decode()
    # The community cards are the round's: only the player's two cards are picked.
    assert form.count("data-card-picker") == 1 and 'data-count="2"' in form and 'name="cards"' in form
    assert (
        '<option value="6">Seat 6 · no wager</option>' in form
        and '<option value="2">Seat 2 · $5 wager</option>' in form
    )
    assert form.index('<option value="6">') < form.index('<option value="1">')  # the highest seat first
    assert 'name="folded"' in form and 'name="light_confirmed"' in form
    meter = meter_cents("msp")

    response = browser.post(
        reverse("floor:progressive-hand", args=[stud_round.pk]), _hand_body(form, seat="5", cards="As Ks"), follow=True
    )

    royal = ProgressiveHand.objects.get()
    assert (royal.seat, royal.words, royal.line, royal.amount_cents, royal.place) == (
        5,
        "Royal flush",
        "Royal flush",
        meter,
        "cage",
    )
    page = response.content.decode()
    assert (
        "Seat 5: Royal flush. It wins Royal flush (100% of meter): $10,001.05, paid through the cage. The meter is "
        "pending until a supervisor resets it. Envy Bonuses, paid at the table: seat 3 $1,000.00, seat 2 $5,000.00. "
        "A floorperson or above validates it now." in page
    )
    assert f'id="hand-{royal.pk}"' in page and "Through the cage" in page and "Awaits validation" in page
    assert "Pending reset" in page
    # Seats settled already are not offered again: the next is below seat 5.
    assert '<option value="5">' not in page and '<option value="4">Seat 4 · no wager</option>' in page
    assert_no_inline_script_or_style(page)

    again = browser.post(
        reverse("floor:progressive-hand", args=[stud_round.pk]), _hand_body(form, seat="5", cards="As Ks"), follow=True
    )
    assert ProgressiveHand.objects.count() == 1
    assert "Seat 5 was already recorded by this form; it counts once." in again.content.decode()


def test_a_refused_hand_shows_the_services_words_and_changes_nothing(stud_round, crazy4, dealer) -> None:
    browser = _browser(dealer)
    url = reverse("floor:progressive-hand", args=[stud_round.pk])
    form = browser.get(reverse("floor:progressive-round-detail", args=[stud_round.pk])).content.decode()
    before = snapshot()

    dark = browser.post(url, _hand_body(form, seat="5", cards="As Ks", light_confirmed="")).content.decode()
    assert "Nothing was recorded. Confirm that the progressive table game system&#x27;s light is illuminated" in dark
    assert 'name="cards" value="As Ks"' in dark
    nothing = browser.post(url, _hand_body(form, seat="3", cards="2c 3d")).content.decode()
    assert "Nothing was recorded." in nothing and "wins no progressive payout" in nothing
    board = browser.post(url, _hand_body(form, seat="3", cards="Qs 3d")).content.decode()
    assert "Qs: a community card, not the player&#x27;s." in board
    assert snapshot() == before

    # Crazy 4 Poker: five cards picked, and no community cards.
    c4 = play(crazy4, dealer, {6: "1.00", 3: "5.00"})
    page = browser.get(reverse("floor:progressive-round-detail", args=[c4.pk])).content.decode()
    assert 'data-count="5"' in page and 'name="community"' not in page
    browser.post(reverse("floor:progressive-hand", args=[c4.pk]), _hand_body(page, seat="6", cards="As Ah Ad Ac 2d"))
    assert ProgressiveHand.objects.get(round=c4).line == "Four aces"


def test_mississippi_stud_community_cards_are_picked_with_the_first_hand_when_the_round_lacks_them(
    stud, dealer
) -> None:
    round_ = play(stud, dealer, {4: "1.00", 6: "1.00"})
    browser = _browser(dealer)
    page = browser.get(reverse("floor:progressive-round-detail", args=[round_.pk])).content.decode()
    assert 'data-count="2"' in page and 'data-count="3"' in page

    browser.post(
        reverse("floor:progressive-hand", args=[round_.pk]),
        _hand_body(page, seat="6", cards="Th Jh", community="9h 8h 7h"),
    )

    first = ProgressiveHand.objects.get()
    assert (first.cards, first.words) == ("Th Jh | 9h 8h 7h", "Straight flush, jack high")
    later = browser.get(reverse("floor:progressive-round-detail", args=[round_.pk])).content.decode()
    assert 'data-count="3"' not in later and "With the community cards" in later
    browser.post(reverse("floor:progressive-hand", args=[round_.pk]), _hand_body(later, seat="4", cards="6h 5h"))
    assert ProgressiveHand.objects.get(seat=4).cards == "6h 5h | 9h 8h 7h"


# --- Validation -----------------------------------------------------------------------------------


def test_the_queue_lists_payouts_oldest_first_and_a_wrong_pin_or_the_recorder_changes_nothing(
    stud, crazy4, dealer, floorperson, make_staff
) -> None:
    round_ = play(stud, dealer, {2: "1.00", 5: "5.00"}, community="9h 8h 7h")
    straight = hand(round_, dealer, 5, "Th Jh")
    quads = hand(play(crazy4, floorperson, {3: "5.00", 1: "1.00"}), floorperson, 3, "9s 9h 9d 9c 2c")
    browser = _browser(floorperson)

    page = browser.get(reverse("floor:progressive-validate")).content.decode()

    assert page.index(f'id="hand-{straight.pk}"') < page.index(f'id="hand-{quads.pk}"')
    assert "Straight flush, jack high" in page and "Seat 2 · $300.00" in page  # its Envy Bonus
    sign = reverse("floor:progressive-validate-sign", args=[straight.pk])
    assert f'action="{sign}"' in page
    # The floorperson recorded the four nines: another validates them.
    assert f'action="{reverse("floor:progressive-validate-sign", args=[quads.pk])}"' not in page
    assert "You recorded this hand: another floorperson or above validates it." in page
    assert_no_inline_script_or_style(page)
    before = snapshot()

    wrong = browser.post(sign, {"pin": "0000"}).content.decode()
    assert "Straight flush, jack high at table T11, seat 5 was not validated." in wrong
    typo = browser.post(sign, {"pin": "12a4"}).content.decode()
    assert "it does not count as a wrong PIN" in typo
    recorder = browser.post(reverse("floor:progressive-validate-sign", args=[quads.pk]), {"pin": PIN})
    assert (
        "The person who recorded the hand does not validate its payout: another floorperson or above does."
        in recorder.content.decode()
    )
    assert snapshot() == before
    floorperson.refresh_from_db()
    assert floorperson.failed_pin_attempts == 1

    done = browser.post(sign, {"pin": PIN}, follow=True).content.decode()
    validation = ProgressiveValidation.objects.get()
    assert (validation.hand, validation.validated_by) == (straight, floorperson)
    paid = straight.amount_cents + 300_00
    assert (
        f"Validated and signed: Straight flush, jack high at table T11, seat 5. Pay ${paid // 100:,}.{paid % 100:02d}"
        in done
    )
    assert f'id="hand-{straight.pk}"' not in done and f'id="hand-{quads.pk}"' in done


def test_the_queue_and_the_round_page_read_in_a_fixed_number_of_queries(stud, dealer, floorperson) -> None:
    browser = _browser(floorperson)
    round_ = play(stud, dealer, {6: "1.00", 4: "5.00", 2: "1.00"}, community="9h 8h 7h")
    hand(round_, dealer, 6, "Th Jh")
    pages = (reverse("floor:progressive-validate"), reverse("floor:progressive-round-detail", args=[round_.pk]))
    counts = []
    for url in pages:
        with CaptureQueriesContext(connection) as queries:
            browser.get(url)
        counts.append(len(queries))
    hand(round_, dealer, 4, "6h 5h")
    hand(round_, dealer, 2, "9c 9d")
    for url, count in zip(pages, counts, strict=True):
        with CaptureQueriesContext(connection) as queries:
            browser.get(url)
        assert len(queries) == count, url


# --- The meters and their reset -------------------------------------------------------------------


def test_the_reset_button_shows_only_when_the_meter_is_pending_and_its_payout_validated(
    stud_round, dealer, floorperson, supervisor
) -> None:
    meter = ProgressiveMeter.objects.get(code="msp")
    reset = reverse("floor:progressive-reset", args=[meter.pk])
    browser = _browser(supervisor)
    page = browser.get(reverse("floor:progressive-meters")).content.decode()
    assert "$10,001.05" in page and "Pending reset" not in page and f'action="{reset}"' not in page

    royal = hand(stud_round, dealer, 5, "As Ks")
    page = browser.get(reverse("floor:progressive-meters")).content.decode()
    assert "Pending reset" in page and "Waits on the <strong>Royal flush</strong> at table T11, seat 5" in page
    assert f'action="{reset}"' not in page and "The payout is not validated yet" in page

    progressive_validate(hand=royal, actor=floorperson, pin=PIN)
    page = browser.get(reverse("floor:progressive-meters")).content.decode()
    assert f'action="{reset}"' in page and "Reset to $10,000.00 and sign" in page
    assert_no_inline_script_or_style(page)
    before = snapshot()
    wrong = browser.post(reset, {"pin": "0000"}).content.decode()
    assert "Mississippi Stud Progressive was not reset." in wrong and snapshot() == before

    done = browser.post(reset, {"pin": PIN}, follow=True).content.decode()
    funding = MeterFunding.objects.get(reason="reset")
    assert (funding.after_hand, funding.amount_cents, funding.funded_by) == (royal, 10_000_00, supervisor)
    assert meter_cents("msp") == 10_000_00
    assert "Mississippi Stud Progressive reset: $10,000.00 put on the meter and signed." in done
    assert "Pending reset" not in done and f'action="{reset}"' not in done
