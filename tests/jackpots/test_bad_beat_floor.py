"""The Bad Beat's tablet pages (§637a.15(f)-(h)): each acts for the roles the table names, through the
services, shows every refusal in the service's words with what was entered kept, and changes nothing
when it refuses."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from casino_backoffice.core.clock import HOUR_MINUTE_ZONED, local_text
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.models import Signature, User
from casino_backoffice.staff.permissions import ACTION_ROLES, Action, may, who_may
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.models import (
    BadBeatClaim,
    BadBeatDecision,
    BadBeatDistribution,
    BadBeatPayment,
    ClaimStatus,
    DecisionOutcome,
    DisplayAdjustment,
)
from jackpots.bad_beat.services.claims import SeatedHand, claim_verify
from jackpots.bad_beat.services.display import display_adjust, display_witness
from jackpots.bad_beat.services.payouts import distribution_prepare, share_pay
from jackpots.funds.models import Jackpot, PaymentPlace
from rake.services import round_record
from tables.models import Table
from tests.conftest import PIN
from tests.core.sealing import triggers_suspended
from tests.jackpots.bad_beat import another_hand, fund_official
from tests.pages import assert_no_inline_script_or_style
from tests.rake.factories import RULES, load, recently, rules_text


def _browser(person: User) -> Client:
    browser = Client()
    browser.force_login(person)
    return browser


def _key(page: str) -> str:
    return re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)


def _counts() -> tuple:
    return (
        BadBeatClaim.objects.count(),
        list(BadBeatClaim.objects.order_by("pk").values_list("status", flat=True)),
        BadBeatDecision.objects.count(),
        BadBeatDistribution.objects.count(),
        BadBeatPayment.objects.count(),
        list(DisplayAdjustment.objects.order_by("pk").values_list("witnessed_by", flat=True)),
        Transfer.objects.count(),
        Signature.objects.count(),
    )


def _claim_form_url(jackpot: Jackpot, table: Table) -> str:
    return f"{reverse('floor:bad-beat-claim')}?jackpot={jackpot.pk}&table={table.pk}"


def _claim_body(page: str, jackpot: Jackpot, table: Table, **changes: str) -> dict[str, Any]:
    """The claim form as the card picker posts it: each picker's hidden input holds the codes picked,
    in the order picked, separated by spaces."""
    body = {
        "jackpot": jackpot.pk,
        "table": table.pk,
        "idempotency_key": _key(page),
        "round": "",
        "players_dealt_in": "6",
        "board": "Ad Ac Kc 7s 7h",
        "losing_seat": "3",
        "losing_name": "Ann Loser",
        "losing_hole": "As Ks",
        "winning_seat": "7",
        "winning_name": "Walt Winner",
        "winning_hole": "7d 7c",
        "other_seat_1": "1",
        "other_name_1": "Pat One",
        "other_seat_2": "2",
        "other_name_2": "Sam Two",
        "other_seat_3": "",
        "other_name_3": "",
        "other_seat_4": "5",
        "other_name_4": "Lee Five",
        "other_seat_5": "9",
        "other_name_5": "Kim Nine",
        "surveillance_reference": "CAM-12 21:14:05",
        "pin": PIN,
    }
    return {**body, **changes}


# --- Who may use each page ------------------------------------------------------------------------

_PAGES = [
    ("floor:bad-beat-claim", Action.BAD_BEAT_CLAIM),
    ("floor:bad-beat-claims", Action.BAD_BEAT_READ),
    ("floor:bad-beat-decide", Action.BAD_BEAT_VERIFY),
    ("floor:bad-beat-payouts", Action.BAD_BEAT_PAY),
    ("floor:bad-beat-witness", Action.DISPLAY_WITNESS),
    ("floor:bad-beat-funds", Action.DISPLAY_ADJUST),
]


@pytest.mark.parametrize(("name", "action"), _PAGES)
def test_each_page_opens_for_the_roles_that_may_and_says_why_to_the_others(
    name, action, make_claim, make_staff, client
) -> None:
    make_claim()
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


def test_a_claim_is_read_by_who_may_read_claims(make_claim, make_staff) -> None:
    claim = make_claim()
    url = reverse("floor:bad-beat-claim-detail", args=[claim.pk])
    for role in Role:
        response = _browser(make_staff(role)).get(url)
        assert response.status_code == (200 if role in ACTION_ROLES[Action.BAD_BEAT_READ] else 403), role
    missing = _browser(make_staff(Role.FLOORPERSON)).get(reverse("floor:bad-beat-claim-detail", args=[0]), follow=True)
    assert "There is no Bad Beat claim 0." in missing.content.decode()


def test_the_home_page_shows_each_bad_beat_tile_to_the_roles_that_may_use_it(make_staff) -> None:
    for role in Role:
        person = make_staff(role)
        home = _browser(person).get(reverse("floor:home")).content.decode()
        for name, action in [*_PAGES, ("floor:bad-beat-claims", Action.BAD_BEAT_READ)]:
            assert (f'href="{reverse(name)}"' in home) == may(person, action), (role, name)


# --- Opening a claim ------------------------------------------------------------------------------


def test_the_claim_page_offers_the_tables_of_the_bad_beat_and_the_card_picker(
    rated_table, bad_beat, floorperson, dealer
) -> None:
    round_record(
        table=rated_table,
        ended_at=recently(),
        players_dealt_in=6,
        pot_cents=12_000,
        uncalled_bet_cents=0,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key="round-claim",
    )
    browser = _browser(floorperson)
    picker = browser.get(reverse("floor:bad-beat-claim")).content.decode()
    assert f'href="?jackpot={bad_beat.pk}&amp;table={rated_table.pk}"' in picker
    t2 = Table.objects.get(number="T2")  # the rules list no Bad Beat at T2
    assert f"table={t2.pk}" not in picker

    form = browser.get(_claim_form_url(bad_beat, rated_table)).content.decode()
    assert form.count("data-card-picker") == 3
    assert 'data-count="5"' in form and form.count('data-count="2"') == 2  # Hold'em: two hole cards each
    assert 'type="hidden" name="board"' in form and 'name="losing_hole"' in form and 'name="winning_hole"' in form
    assert 'name="board" type="text"' not in form  # no card is typed
    assert "pot $120.00 · 6 dealt in" in form  # the table's recent rounds
    assert form.count('name="other_seat_') == 8  # ten seats: the two hands and eight others
    assert "floor/card_picker.js" in form
    assert_no_inline_script_or_style(form)


def test_a_floorperson_opens_a_claim_with_the_card_picker_and_reads_the_verdict(
    rated_table, bad_beat, floorperson
) -> None:
    browser = _browser(floorperson)
    form = browser.get(_claim_form_url(bad_beat, rated_table)).content.decode()

    response = browser.post(reverse("floor:bad-beat-claim"), _claim_body(form, bad_beat, rated_table), follow=True)

    claim = BadBeatClaim.objects.get()
    assert response.redirect_chain[-1][0] == reverse("floor:bad-beat-claim-detail", args=[claim.pk])
    assert (claim.board, claim.losing_hole, claim.winning_hole, claim.players_dealt_in) == (
        "Ad Ac Kc 7s 7h",
        "As Ks",
        "7d 7c",
        6,
    )
    assert (claim.losing_seat, claim.losing_name, claim.winning_seat, claim.winning_name) == (
        3,
        "Ann Loser",
        7,
        "Walt Winner",
    )
    assert claim.others == [
        {"seat": 1, "name": "Pat One"},
        {"seat": 2, "name": "Sam Two"},
        {"seat": 5, "name": "Lee Five"},
        {"seat": 9, "name": "Kim Nine"},
    ]
    assert (claim.surveillance_reference, claim.opened_by, claim.status) == (
        "CAM-12 21:14:05",
        floorperson,
        ClaimStatus.CLAIMED,
    )
    assert [s.purpose for s in claim.signatures()] == ["opener"]
    page = response.content.decode()
    assert f"Claim {claim.pk} at table T1 recorded and signed: it qualifies." in page
    assert "Qualifies: Bad Beat" in page
    assert "Full house, aces full of kings" in page and "Four of a kind, sevens, ace kicker" in page
    assert escape("6 players dealt in (at least 4)") in page
    assert 'aria-label="ace of spades"' in page and 'aria-label="seven of diamonds"' in page  # cards as cards
    assert page.count('class="card-face') == 9
    assert_no_inline_script_or_style(page)


def test_a_claim_that_does_not_qualify_is_recorded_and_says_which_condition_fails(
    rated_table, bad_beat, floorperson
) -> None:
    browser = _browser(floorperson)
    form = browser.get(_claim_form_url(bad_beat, rated_table)).content.decode()
    body = _claim_body(form, bad_beat, rated_table, board="Kd Kc Ac 7s 7h", losing_hole="Ks As")

    page = browser.post(reverse("floor:bad-beat-claim"), body, follow=True).content.decode()

    claim = BadBeatClaim.objects.get()
    assert claim.qualifies is False and claim.losing_hole == "Ks As"
    assert "it does not qualify" in page and "Does not qualify as Bad Beat" in page
    # Each condition of the posted qualifier marked: the minimum is not met, the loss and the players are.
    assert (
        "<strong>Not met:</strong> Losing hand Full house, kings full of aces (both hole cards play) is below the "
        "minimum: Full house, aces full of tens" in page
    )
    assert page.count('<li class="not-met">') == 1 and page.count('<li class="met">') == 2


def test_a_refused_claim_shows_the_services_words_keeps_the_input_and_records_nothing(
    rated_table, bad_beat, floorperson
) -> None:
    browser = _browser(floorperson)
    form = browser.get(_claim_form_url(bad_beat, rated_table)).content.decode()
    before = _counts()

    # Seat 3 is the losing hand's and, by mistake, another player's too.
    body = _claim_body(form, bad_beat, rated_table, other_seat_3="3", other_name_3="Ann Again", players_dealt_in="7")
    response = browser.post(reverse("floor:bad-beat-claim"), body)

    page = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was recorded. Seat 3 is given twice: each player dealt in has their own seat." in page
    assert _counts() == before
    # What was entered is kept: the cards picked, the names, the rows of the others.
    assert 'name="board" value="Ad Ac Kc 7s 7h"' in page
    assert 'name="losing_hole" value="As Ks"' in page and 'name="winning_hole" value="7d 7c"' in page
    assert 'value="Ann Loser"' in page and 'value="Ann Again"' in page and 'value="CAM-12 21:14:05"' in page
    assert 'aria-pressed="true"' in page  # the picked cards show as picked
    floorperson.refresh_from_db()
    assert floorperson.failed_pin_attempts == 0


def test_a_hand_claimed_already_is_refused_on_the_tablet_in_the_services_words(
    make_claim, rated_table, bad_beat, floorperson, make_staff
) -> None:
    first = make_claim(actor=floorperson)
    browser = _browser(make_staff(Role.FLOORPERSON))
    form = browser.get(_claim_form_url(bad_beat, rated_table)).content.decode()
    before = _counts()

    # The same hand from another tablet, its cards picked in another order.
    body = _claim_body(form, bad_beat, rated_table, board="7h 7s Kc Ac Ad", losing_hole="Ks As")
    page = browser.post(reverse("floor:bad-beat-claim"), body).content.decode()

    assert (
        f"Nothing was recorded. The same cards at T1 on gaming day {first.gaming_day.isoformat()} (board Ad Ac Kc 7s "
        f"7h, As Ks against 7d 7c) was already claimed: claim {first.pk}, opened by {floorperson} at "
    ) in page
    assert f"if claim {first.pk} is wrong, the shift supervisor denies it and the corrected claim is recorded" in page
    assert _counts() == before
    assert 'name="board" value="7h 7s Kc Ac Ad"' in page  # what was entered is kept


def test_a_duplicate_recorded_before_the_rule_is_not_verified_on_the_tablet(make_claim, supervisor) -> None:
    first = make_claim()
    duplicate = make_claim(**another_hand(1))
    with triggers_suspended():  # sealed: as migration 0016 left a claim recorded before the rule
        BadBeatClaim.objects.filter(pk=duplicate.pk).update(cards=first.cards, duplicate_of=first)
    before = _counts()

    page = (
        _browser(supervisor)
        .post(reverse("floor:bad-beat-verify", args=[duplicate.pk]), {"pin": PIN}, follow=True)
        .content.decode()
    )

    assert (
        f"Claim {duplicate.pk} was not verified. Claim {duplicate.pk} is of the same hand as claim {first.pk}: " in page
    )
    assert _counts() == before


def test_cards_missing_or_a_pin_mistyped_are_refused_by_the_form_before_the_pin_check(
    rated_table, bad_beat, floorperson
) -> None:
    browser = _browser(floorperson)
    form = browser.get(_claim_form_url(bad_beat, rated_table)).content.decode()
    before = _counts()

    page = browser.post(
        reverse("floor:bad-beat-claim"),
        _claim_body(form, bad_beat, rated_table, board="Ad Ac Kc", winning_hole="", pin="24a8"),
    ).content.decode()

    assert "Nothing was recorded: correct what is marked below." in page
    assert "Pick 5 cards; 3 picked." in page and "Pick 2 cards." in page
    assert "it does not count as a wrong PIN" in page
    assert _counts() == before
    floorperson.refresh_from_db()
    assert floorperson.failed_pin_attempts == 0


def test_a_resent_claim_form_records_once(rated_table, bad_beat, floorperson) -> None:
    browser = _browser(floorperson)
    body = _claim_body(browser.get(_claim_form_url(bad_beat, rated_table)).content.decode(), bad_beat, rated_table)
    browser.post(reverse("floor:bad-beat-claim"), body)
    again = browser.post(reverse("floor:bad-beat-claim"), body, follow=True).content.decode()
    assert BadBeatClaim.objects.count() == 1
    assert "was already recorded by this form; it counts once" in again


def test_a_claim_tied_to_a_round_of_the_table(rated_table, bad_beat, floorperson, dealer) -> None:
    recorded = round_record(
        table=rated_table,
        ended_at=recently(),
        players_dealt_in=6,
        pot_cents=12_000,
        uncalled_bet_cents=0,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key="round-tied",
    )
    browser = _browser(floorperson)
    form = browser.get(_claim_form_url(bad_beat, rated_table)).content.decode()
    page = browser.post(
        reverse("floor:bad-beat-claim"),
        _claim_body(form, bad_beat, rated_table, round=str(recorded.round.pk)),
        follow=True,
    ).content.decode()
    claim = BadBeatClaim.objects.get()
    assert (claim.round, claim.happened_at) == (recorded.round, recorded.round.ended_at)
    assert "round of pot $120.00" in page


def test_omaha_hands_are_picked_four_hole_cards_each(room, floorperson) -> None:
    jackpots = [dict(item) for item in RULES["jackpots"]]
    jackpots[0] = {**jackpots[0], "hands": [{**jackpots[0]["hands"][0], "games": ["holdem", "omaha_high"]}]}
    tables = [
        *RULES["tables"],
        {"number": "T5", "game": "omaha_high", "seats": 9, "rake_policy": "nl10", "jackpots": ["bb"]},
    ]
    load(rules_text(jackpots=jackpots, tables=tables))
    omaha = Table.objects.get(number="T5")
    bad_beat = Jackpot.objects.get(code="bb")
    browser = _browser(floorperson)

    form = browser.get(_claim_form_url(bad_beat, omaha)).content.decode()

    assert 'data-count="5"' in form and form.count('data-count="4"') == 2 and 'data-count="2"' not in form
    assert form.count('name="other_seat_') == 7  # nine seats
    body = _claim_body(
        form,
        bad_beat,
        omaha,
        board="Ad Ac Kc 7s 7h",
        losing_hole="As Ks 2c 3d",
        winning_hole="7d 7c 4h 5h",
        other_seat_5="8",
    )
    browser.post(reverse("floor:bad-beat-claim"), body)
    claim = BadBeatClaim.objects.get()
    assert (claim.game, claim.losing_hole, claim.winning_hole) == ("omaha_high", "As Ks 2c 3d", "7d 7c 4h 5h")
    assert claim.qualifies is True, claim.reasons


def test_a_table_that_does_not_offer_the_bad_beat_is_refused(rated_table, bad_beat, floorperson) -> None:
    t2 = Table.objects.get(number="T2")
    browser = _browser(floorperson)
    page = browser.get(_claim_form_url(bad_beat, t2)).content.decode()
    assert "Table T2 did not offer the Bad Beat (bb)" in page
    assert "data-card-picker" not in page


# --- The shift supervisor's decision --------------------------------------------------------------


def test_the_supervisor_sees_each_claim_with_its_evidence_and_verdict(make_claim, supervisor) -> None:
    qualifying = make_claim()
    failing = make_claim(board="Kd Kc Ac 7s 7h", losing=SeatedHand(seat=3, name="Ann Loser", hole="Ks As"))

    page = _browser(supervisor).get(reverse("floor:bad-beat-decide")).content.decode()

    assert f'action="{reverse("floor:bad-beat-verify", args=[qualifying.pk])}"' in page
    assert f'action="{reverse("floor:bad-beat-deny", args=[qualifying.pk])}"' in page
    # A claim that does not qualify says why and is offered only the denial.
    assert f'action="{reverse("floor:bad-beat-verify", args=[failing.pk])}"' not in page
    assert f'action="{reverse("floor:bad-beat-deny", args=[failing.pk])}"' in page
    assert "It does not qualify: it cannot be verified." in page
    assert "is below the minimum: Full house, aces full of tens" in page
    assert "CAM-12 21:14:05" in page and "Seat 9 · Kim Nine" in page
    assert 'aria-label="king of spades"' in page
    assert_no_inline_script_or_style(page)


def test_the_supervisor_verifies_through_the_page_and_the_board_shows_pending(
    make_claim, bad_beat, supervisor, finance, floorperson, client
) -> None:
    fund_official(bad_beat, 100_000, finance)
    adjustment = display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="display-before")
    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)  # it takes effect (§637a.15(h)(1))
    claim = make_claim()
    tablet = _browser(supervisor)
    before_signing = tablet.get(reverse("floor:bad-beat-decide")).content.decode()

    response = tablet.post(reverse("floor:bad-beat-verify", args=[claim.pk]), {"pin": PIN}, follow=True)

    decision = BadBeatDecision.objects.get()
    assert (decision.claim, decision.outcome, decision.payout_cents, decision.decided_by) == (
        claim,
        DecisionOutcome.VERIFIED,
        100_000,
        supervisor,
    )
    preview = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", before_signing))
    assert "Official fund $1,000.00" in preview and "Payout (100% of the rest) $1,000.00" in preview  # seen before
    assert "Reserve kept for the next jackpot (0%) $0.00" in preview
    page = response.content.decode()
    assert f"Claim {claim.pk} at table T1 verified: the payout is $1,000.00" in page
    assert "No claim awaits a decision." in page
    panel = client.get(reverse("display:panel", args=["main"])).content.decode()
    assert "Pending adjustment" in panel and "$1,000.00" in panel  # what was displayed, until finance adjusts


def test_the_supervisor_denies_with_a_reason(make_claim, supervisor) -> None:
    claim = make_claim(board="Kd Kc Ac 7s 7h", losing=SeatedHand(seat=3, name="Ann Loser", hole="Ks As"))
    browser = _browser(supervisor)
    before = _counts()

    no_reason = browser.post(reverse("floor:bad-beat-deny", args=[claim.pk]), {"reason": " ", "pin": PIN})
    assert "was not denied: correct what is marked below" in no_reason.content.decode()
    assert _counts() == before

    browser.post(
        reverse("floor:bad-beat-deny", args=[claim.pk]),
        {"reason": "Kings full of aces is below the posted hand.", "pin": PIN},
    )
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.DENIED
    assert claim.decision.reason == "Kings full of aces is below the posted hand."


def test_a_refused_decision_shows_the_services_words_and_changes_nothing(make_claim, supervisor) -> None:
    own = make_claim(actor=supervisor)
    failing = make_claim(board="Kd Kc Ac 7s 7h", losing=SeatedHand(seat=3, name="Ann Loser", hole="Ks As"))
    browser = _browser(supervisor)
    page = browser.get(reverse("floor:bad-beat-decide")).content.decode()
    assert "You opened this claim: another poker shift supervisor decides it." in page
    assert f'action="{reverse("floor:bad-beat-verify", args=[own.pk])}"' not in page
    before = _counts()

    opened = browser.post(reverse("floor:bad-beat-verify", args=[own.pk]), {"pin": PIN}).content.decode()
    assert f"Claim {own.pk} was not verified." in opened and "cannot also decide it" in opened
    does_not_qualify = browser.post(reverse("floor:bad-beat-verify", args=[failing.pk]), {"pin": PIN})
    assert f"Claim {failing.pk} does not qualify: Losing hand Full house, kings full of aces" in (
        does_not_qualify.content.decode()
    )
    wrong_pin = browser.post(reverse("floor:bad-beat-deny", args=[failing.pk]), {"reason": "Below.", "pin": "9999"})
    assert f"Claim {failing.pk} was not denied." in wrong_pin.content.decode()
    assert "Below.</textarea>" in wrong_pin.content.decode()  # the reason typed is kept

    assert _counts() == before


# --- The payouts to deliver -----------------------------------------------------------------------


@pytest.fixture
def verified(make_claim, bad_beat, supervisor, finance) -> BadBeatClaim:
    """A claim verified for $5,000.00: shares $2,500, $1,250 and four table shares of $312.50."""
    fund_official(bad_beat, 500_000, finance)
    claim = make_claim()
    claim_verify(claim=claim, actor=supervisor, pin=PIN)
    return claim


def test_a_verified_claim_awaits_finances_distribution_on_the_payouts_page(verified, security) -> None:
    page = _browser(security).get(reverse("floor:bad-beat-payouts")).content.decode()
    assert "Verified for $5,000.00: awaiting finance's distribution." in page
    assert 'action="/floor/bad-beat/payouts/shares/' not in page


def test_security_pays_a_share_at_the_table_and_tax_reportable_shares_are_marked(
    verified, finance, security, bad_beat
) -> None:
    distribution = distribution_prepare(claim=verified, actor=finance, pin=PIN, idempotency_key="dist-floor")
    losing = distribution.shares.get(position=1)
    browser = _browser(security)
    page = browser.get(reverse("floor:bad-beat-payouts")).content.decode()
    assert page.count("Tax-reportable") == 2  # $2,500.00 and $1,250.00; not the $312.50 table shares
    assert "$312.50" in page and "still to pay <strong>$5,000.00</strong>" in page
    assert 'name="place"' in page and 'type="hidden" name="place" value="table"' in page  # security pays at the table
    form = re.search(rf'action="{reverse("floor:bad-beat-pay", args=[losing.pk])}".*?</form>', page, re.S).group(0)

    response = browser.post(
        reverse("floor:bad-beat-pay", args=[losing.pk]),
        {
            "id_type": "Driver's license",
            "id_number": "PA-123",
            "place": "table",
            "pin": PIN,
            "idempotency_key": _key(form),
        },
        follow=True,
    )

    payment = BadBeatPayment.objects.get()
    assert (payment.share, payment.place, payment.id_type, payment.id_number, payment.paid_by) == (
        losing,
        PaymentPlace.TABLE,
        "Driver's license",
        "PA-123",
        security,
    )
    assert payment.tax_reportable is True
    page = response.content.decode()
    assert "$2,500.00 paid to Ann Loser (seat 3), delivered at the table" in page
    assert "It is tax-reportable" in page
    assert "still to pay <strong>$2,500.00</strong>" in page and "Paid</span> Delivered at the table by" in page
    # The time of the payment on the room's clock, with its zone (a back office may hold rooms of two zones)
    paid_at = local_text(payment.paid_at, payment.share.distribution.claim.room, HOUR_MINUTE_ZONED)
    assert f"at {paid_at} · Driver" in page.replace("&#x27;", "'")
    # The patron's ID number is shown by its last four characters, here as on every page and document.
    assert "PA-123" not in page and "Driver's license ••-123" in page.replace("&#x27;", "'")


def test_finance_chooses_where_and_the_cashier_pays_at_the_cage(verified, finance, cashier) -> None:
    distribution = distribution_prepare(claim=verified, actor=finance, pin=PIN, idempotency_key="dist-floor")
    share = distribution.shares.get(position=3)
    finance_page = _browser(finance).get(reverse("floor:bad-beat-payouts")).content.decode()
    assert '<select name="place"' in finance_page
    cashier_browser = _browser(cashier)
    cashier_page = cashier_browser.get(reverse("floor:bad-beat-payouts")).content.decode()
    assert 'type="hidden" name="place" value="cage"' in cashier_page and "at the cage and sign" in cashier_page

    cashier_browser.post(
        reverse("floor:bad-beat-pay", args=[share.pk]),
        {"id_type": "Passport", "id_number": "X-9", "place": "cage", "pin": PIN, "idempotency_key": "pay-cage"},
    )
    payment = BadBeatPayment.objects.get()
    assert (payment.share, payment.place, payment.paid_by) == (share, PaymentPlace.CAGE, cashier)


def test_a_share_paid_meanwhile_is_refused_with_the_services_words(verified, finance, security, cashier) -> None:
    distribution = distribution_prepare(claim=verified, actor=finance, pin=PIN, idempotency_key="dist-floor")
    share = distribution.shares.get(position=1)
    browser = _browser(security)
    form_page = browser.get(reverse("floor:bad-beat-payouts")).content.decode()
    share_pay(share=share, id_type="Passport", id_number="X-1", actor=cashier, pin=PIN, idempotency_key="first")
    before = _counts()

    page = browser.post(
        reverse("floor:bad-beat-pay", args=[share.pk]),
        {
            "id_type": "Driver's license",
            "id_number": "PA-777",
            "place": "table",
            "pin": PIN,
            "idempotency_key": _key(form_page),
        },
    ).content.decode()

    assert "Ann Loser&#x27;s share was not paid." in page and "was paid already" in page
    assert _counts() == before


# --- Display adjustments --------------------------------------------------------------------------


def test_a_floorperson_witnesses_a_display_adjustment(bad_beat, finance, floorperson) -> None:
    fund_official(bad_beat, 20_000, finance)
    adjustment = display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="adjust-witness")
    browser = _browser(floorperson)
    page = browser.get(reverse("floor:bad-beat-witness")).content.decode()
    assert "$200.00" in page and f'action="{reverse("floor:bad-beat-witness-sign", args=[adjustment.pk])}"' in page

    wrong = browser.post(reverse("floor:bad-beat-witness-sign", args=[adjustment.pk]), {"pin": "9999"})
    assert "The adjustment was not witnessed." in wrong.content.decode()
    adjustment.refresh_from_db()
    assert adjustment.witnessed_by is None

    done = browser.post(reverse("floor:bad-beat-witness-sign", args=[adjustment.pk]), {"pin": PIN}, follow=True)

    adjustment.refresh_from_db()
    assert adjustment.witnessed_by == floorperson
    assert "You witnessed the Bad Beat display set to $200.00." in done.content.decode()
    assert "No display adjustment awaits a witness." in done.content.decode()


def test_finance_adjusts_the_display_and_prepares_the_distribution_on_the_tablet(
    verified, bad_beat, finance, floorperson, client
) -> None:
    browser = _browser(finance)
    page = browser.get(reverse("floor:bad-beat-funds")).content.decode()
    # §637a.15(h)(2): official $5,000.00, owed $5,000.00 to the verified claim, available $0.00, never displayed.
    assert re.search(r"Official record</dt><dd>\$5,000.00", page)
    assert re.search(r"Owed to verified claims</dt><dd>\$5,000.00", page)
    assert re.search(r"Available</dt><dd>\$0.00", page) and "never set" in page
    assert "Display does not match" in page and "Pending adjustment" in page
    fund_form = re.search(rf'action="{reverse("floor:bad-beat-adjust", args=[bad_beat.pk])}".*?</form>', page, re.S)

    browser.post(
        reverse("floor:bad-beat-adjust", args=[bad_beat.pk]), {"pin": PIN, "idempotency_key": _key(fund_form.group(0))}
    )

    adjustment = DisplayAdjustment.objects.get()
    assert (adjustment.amount_cents, adjustment.official_cents, adjustment.owed_cents, adjustment.adjusted_by) == (
        0,
        500_000,
        500_000,
        finance,
    )
    # It takes effect once the floorperson or above present has signed too (§637a.15(h)(1)).
    assert "Display does not match" in browser.get(reverse("floor:bad-beat-funds")).content.decode()
    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)
    after = browser.get(reverse("floor:bad-beat-funds")).content.decode()
    assert "Display matches the finance record" in after and "Pending adjustment" not in after
    panel = client.get(reverse("display:panel", args=["main"])).content.decode()
    assert "Pending adjustment" not in panel

    claim_form = re.search(
        rf'action="{reverse("floor:bad-beat-distribute", args=[verified.pk])}".*?</form>', after, re.S
    ).group(0)
    response = browser.post(
        reverse("floor:bad-beat-distribute", args=[verified.pk]),
        {"method": "cash", "pin": PIN, "idempotency_key": _key(claim_form)},
        follow=True,
    )
    distribution = BadBeatDistribution.objects.get()
    assert (distribution.claim, distribution.total_cents, distribution.prepared_by) == (verified, 500_000, finance)
    assert [share.amount_cents for share in distribution.shares.order_by("position")] == [
        250_000,
        125_000,
        31_250,
        31_250,
        31_250,
        31_250,
    ]
    assert f"Distribution of claim {verified.pk} prepared: $5,000.00 in 6 shares, cash." in response.content.decode()


def test_a_refused_distribution_shows_the_services_words(make_claim, bad_beat, supervisor, finance) -> None:
    claim = make_claim()
    claim_verify(claim=claim, actor=supervisor, pin=PIN)  # the fund held nothing official: the payout is $0.00
    before = _counts()
    page = (
        _browser(finance)
        .post(
            reverse("floor:bad-beat-distribute", args=[claim.pk]),
            {"method": "cash", "pin": PIN, "idempotency_key": "d"},
        )
        .content.decode()
    )
    assert f"Claim {claim.pk} was not distributed. The fund held nothing official to pay" in page
    assert _counts() == before


def test_a_role_that_may_not_changes_nothing_from_any_bad_beat_page(verified, finance, make_staff) -> None:
    distribution = distribution_prepare(claim=verified, actor=finance, pin=PIN, idempotency_key="dist-refused")
    adjustment = display_adjust(jackpot=verified.jackpot, actor=finance, pin=PIN, idempotency_key="adjust-refused")
    posts = {
        ("floor:bad-beat-verify", verified.pk): {"pin": PIN},
        ("floor:bad-beat-deny", verified.pk): {"reason": "no", "pin": PIN},
        ("floor:bad-beat-pay", distribution.shares.first().pk): {
            "id_type": "Passport",
            "id_number": "X",
            "place": "table",
            "pin": PIN,
            "idempotency_key": "k",
        },
        ("floor:bad-beat-witness-sign", adjustment.pk): {"pin": PIN},
        ("floor:bad-beat-adjust", verified.jackpot_id): {"pin": PIN, "idempotency_key": "k"},
        ("floor:bad-beat-distribute", verified.pk): {"method": "cash", "pin": PIN, "idempotency_key": "k"},
    }
    dealer, compliance = make_staff(Role.DEALER), make_staff(Role.COMPLIANCE)
    before = _counts()
    for person in (dealer, compliance):
        browser = _browser(person)
        for (name, pk), body in posts.items():
            response = browser.post(reverse(name, args=[pk]), body)
            assert response.status_code == 403, (name, person)
        response = browser.post(
            reverse("floor:bad-beat-claim"),
            _claim_body('name="idempotency_key" value="x"', verified.jackpot, verified.table),
        )
        assert response.status_code == 403
    assert _counts() == before
    assert list(
        User.objects.filter(pk__in=[dealer.pk, compliance.pk]).values_list("failed_pin_attempts", flat=True)
    ) == [
        0,
        0,
    ]


# --- Queries: the queues take a fixed number, however many claims ---------------------------------


@pytest.fixture
def ten_of_each(make_claim, bad_beat, make_staff, supervisor, finance, security) -> None:
    """Ten claims awaiting a decision, ten verified and distributed with a share paid, ten display
    adjustments awaiting their witness."""
    for n in range(10):
        make_claim(idempotency_key=f"queue-open-{n}", **another_hand(n + 1))
    for n in range(10):
        fund_official(bad_beat, 10_000, finance)
        claim = make_claim(idempotency_key=f"queue-paid-{n}", **another_hand(n + 11))
        claim_verify(claim=claim, actor=supervisor, pin=PIN)
        distribution = distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key=f"queue-dist-{n}")
        share_pay(
            share=distribution.shares.get(position=1),
            id_type="Passport",
            id_number=f"X-{n}",
            actor=security,
            pin=PIN,
            idempotency_key=f"queue-pay-{n}",
        )
        display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key=f"queue-adjust-{n}")


@pytest.mark.parametrize(
    ("name", "role", "most", "each", "listed"),
    [
        # The payout each verification would make: the funds' positions, read once for every claim.
        ("floor:bad-beat-decide", Role.SHIFT_SUPERVISOR, 9, 'class="card claim-card"', 10),
        ("floor:bad-beat-payouts", Role.SECURITY, 8, 'class="card payout"', 10),
        # Each adjustment supersedes the one before it not yet witnessed: one of the ten awaits.
        ("floor:bad-beat-witness", Role.FLOORPERSON, 5, 'class="card witness-row"', 1),
        ("floor:bad-beat-funds", Role.FINANCE, 10, 'class="card fund"', 1),
        ("floor:bad-beat-claims", Role.FLOORPERSON, 4, 'class="row-link"', 20),
    ],
)
def test_the_queue_pages_take_a_fixed_number_of_queries(
    name, role, most, each, listed, ten_of_each, make_staff, django_assert_max_num_queries
) -> None:
    browser = _browser(make_staff(role))
    browser.get(reverse(name))  # the session and the evaluator's tables warmed
    with django_assert_max_num_queries(most):
        page = browser.get(reverse(name)).content.decode()
    assert page.count(each) == listed
