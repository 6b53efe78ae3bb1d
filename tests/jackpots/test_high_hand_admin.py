"""The High Hand in the back office (§637a.16(f)-(i)): every page opens for the back office and is
refused to whoever may not read it; every row is read-only; a period's page is its Tracking Slip with
every signature; a cage cashier pays an award against the identification recorded with the hand and
finance approves where an uncollected award goes, each signed with the PIN, and a refusal shows the
service's message and changes nothing; a patron's ID number shows by its last four characters only."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.permissions import ACTION_ROLES, Action
from casino_backoffice.staff.roles import ADMIN_ROLES, Role
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandAwardPayment,
    HighHandEntry,
    HighHandPeriod,
    HighHandUnclaimed,
    HighHandVoid,
)
from jackpots.high_hand.services.periods import periods_run
from tests.conftest import PIN
from tests.jackpots.back_office import browser
from tests.jackpots.high_hand_back_office import TIED_ID, VOID_REASON, WINNER_ID, hours_ago, period_played

# Its pools are announced by hand, with official money no count made (``close_and_announce``).
pytestmark = pytest.mark.pools_by_hand

MODELS = [
    "highhandperiod",
    "highhandentry",
    "highhandvoid",
    "highhandaward",
    "highhandawardpayment",
    "highhandunclaimed",
]


def _key(page: str) -> str:
    return re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)


def _text(response) -> str:
    """The page as a person reads it: its words, without tags, single spaces."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def _counts() -> tuple:
    return (
        HighHandEntry.objects.count(),
        HighHandVoid.objects.count(),
        HighHandAward.objects.count(),
        HighHandAwardPayment.objects.count(),
        list(HighHandUnclaimed.objects.order_by("pk").values_list("approved_by", "into_period")),
        list(HighHandPeriod.objects.order_by("pk").values_list("status", "rolled_in_cents", "pool_cents")),
        Transfer.objects.count(),
        Signature.objects.count(),
    )


@pytest.fixture
def played(room, rated_table, dealer, floorperson, supervisor, cashier):
    """A period three hours ago played to the cage: the winner paid, the tied hand's award not
    collected in time and prepared for finance's approval."""
    return period_played(
        room=room,
        table=rated_table,
        start=hours_ago(4),
        dealer=dealer,
        floorperson=floorperson,
        supervisor=supervisor,
        cashier=cashier,
        uncollected=True,
    )


@pytest.fixture
def to_collect(room, rated_table, dealer, floorperson, supervisor, cashier):
    """The same period with the tied hand's award still to collect."""
    return period_played(
        room=room,
        table=rated_table,
        start=hours_ago(4),
        dealer=dealer,
        floorperson=floorperson,
        supervisor=supervisor,
        cashier=cashier,
    )


def _pages(played) -> list[str]:
    payment = HighHandAwardPayment.objects.get(award__entry=played.winner)
    unclaimed = HighHandUnclaimed.objects.get()
    return [
        reverse("admin:app_list", args=["jackpots"]),
        reverse("admin:jackpots_highhandperiod_change", args=[played.period.pk]),
        reverse("admin:jackpots_highhandentry_change", args=[played.winner.pk]),
        reverse("admin:jackpots_highhandentry_change", args=[played.voided.pk]),
        reverse("admin:jackpots_highhandvoid_change", args=[played.voided.void.pk]),
        reverse("admin:jackpots_highhandaward_change", args=[played.paid.pk]),
        reverse("admin:jackpots_highhandawardpayment_change", args=[payment.pk]),
        reverse("admin:jackpots_highhandunclaimed_change", args=[unclaimed.pk]),
        reverse("admin:jackpots_highhandperiod_history", args=[played.period.pk]),
        reverse("admin:jackpots_highhandperiod_report"),
        reverse("admin:jackpots_highhandperiod_slip", args=[played.period.pk]),
        reverse("admin:jackpots_highhandperiod_slip", args=[played.period.pk]) + "?export=csv",
        reverse("admin:jackpots_highhandperiod_slip", args=[played.period.pk]) + "?export=xlsx",
        *(reverse(f"admin:jackpots_{name}_changelist") for name in MODELS),
    ]


@pytest.mark.parametrize("role", sorted(ADMIN_ROLES))
def test_every_high_hand_page_opens_for_the_back_office(role, played, make_staff) -> None:
    person = browser(make_staff(role))
    for page in _pages(played):
        assert person.get(page).status_code == 200, page


@pytest.mark.parametrize("role", [Role.FLOORPERSON, Role.SHIFT_SUPERVISOR, Role.SECURITY, Role.SURVEILLANCE])
def test_the_high_hand_pages_refuse_who_may_not_read_them(role, played, make_staff) -> None:
    outsider = make_staff(role)
    assert browser(outsider).get(reverse("admin:jackpots_highhandperiod_changelist")).status_code == 302  # sign in
    outsider.is_staff = True  # even let in, the table of actions refuses them
    outsider.save(update_fields=["is_staff"])
    person = browser(outsider)
    for page in _pages(played)[1:]:
        assert person.get(page).status_code == 403, page
    assert "High hand periods" not in person.get(reverse("admin:index")).content.decode()


def test_the_back_office_reads_the_high_hand_records_as_it_reads_the_bad_beat_s() -> None:
    # One table of actions: the floor follows the High Hand on its tablets (HIGH_HAND_READ).
    assert ACTION_ROLES[Action.HIGH_HAND_RECORDS_READ] == ACTION_ROLES[Action.BAD_BEAT_RECORDS_READ] == ADMIN_ROLES
    assert ACTION_ROLES[Action.HIGH_HAND_RECORDS_READ] <= ACTION_ROLES[Action.HIGH_HAND_READ]


def test_compliance_reads_and_changes_nothing(played, compliance) -> None:
    person, period = browser(compliance), played.period
    unclaimed = HighHandUnclaimed.objects.get()
    before = _counts()
    page = person.get(reverse("admin:jackpots_highhandperiod_change", args=[period.pk])).content.decode()
    assert 'name="_save"' not in page and "Pay at the cage" not in page and "Approve where it goes" not in page
    assert "Pay at the cage" not in person.get(reverse("admin:jackpots_highhandaward_changelist")).content.decode()
    assert "Approve and sign" not in person.get(reverse("admin:jackpots_highhandunclaimed_changelist")).content.decode()
    for url, data in [
        (reverse("admin:jackpots_highhandperiod_change", args=[period.pk]), {"status": "open"}),
        (reverse("admin:jackpots_highhandperiod_delete", args=[period.pk]), {"post": "yes"}),
        (reverse("admin:jackpots_highhandentry_change", args=[played.winner.pk]), {"player_name": "X"}),
        (reverse("admin:jackpots_highhandentry_delete", args=[played.voided.pk]), {"post": "yes"}),
        (reverse("admin:jackpots_highhandvoid_delete", args=[played.voided.void.pk]), {"post": "yes"}),
        (reverse("admin:jackpots_highhandaward_change", args=[played.unpaid.pk]), {"amount_cents": "1"}),
        (
            reverse("admin:jackpots_highhandaward_pay", args=[played.unpaid.pk]),
            {"id_type": TIED_ID[0], "id_number": TIED_ID[1], "pin": PIN, "idempotency_key": "c-1"},
        ),
        (reverse("admin:jackpots_highhandunclaimed_approve", args=[unclaimed.pk]), {"pin": PIN}),
    ]:
        assert person.post(url, data).status_code == 403, url
    for name in MODELS:
        assert person.get(reverse(f"admin:jackpots_{name}_add")).status_code == 403, name
    assert _counts() == before


@pytest.mark.parametrize("role", [Role.FINANCE, Role.ADMINISTRATOR])
def test_no_one_adds_changes_or_deletes_a_signed_row(role, played, make_staff) -> None:
    person, payment = browser(make_staff(role)), HighHandAwardPayment.objects.get()
    before = _counts()
    assert person.get(reverse("admin:jackpots_highhandentry_add")).status_code == 403
    assert (
        person.post(reverse("admin:jackpots_highhandawardpayment_delete", args=[payment.pk]), {"post": "yes"})
    ).status_code == 403
    page = person.get(reverse("admin:jackpots_highhandentry_change", args=[played.winner.pk])).content.decode()
    assert 'name="_save"' not in page and played.winner.player_name in page
    assert _counts() == before


def test_the_whole_id_number_is_on_no_page(played, cashier) -> None:
    # A cashier types the number presented; no page shows the number recorded, only its last four.
    person = browser(cashier)
    pages = [*_pages(played)[:10], reverse("admin:jackpots_highhandaward_pay", args=[played.unpaid.pk])]
    for page in pages:
        content = person.get(page).content.decode()
        for _, number in (WINNER_ID, TIED_ID):
            assert number not in content, page
    entry = _text(person.get(reverse("admin:jackpots_highhandentry_change", args=[played.winner.pk])))
    assert "Driver's license ••••••••••5678" in entry


def test_the_period_page_is_its_tracking_slip(played, dealer, floorperson, supervisor, cashier, finance) -> None:
    page = _text(browser(finance).get(reverse("admin:jackpots_highhandperiod_change", args=[played.period.pk])))
    start = played.period.starts_at.astimezone(ZoneInfo("America/New_York"))
    assert f"View high hand period hh {start:%Y-%m-%d %H:%M}" in page  # the room's clock
    assert "High Hand Tracking Slip (§637a.16(f))" in page
    for words in (
        "Pat Winner 215-555-0103 seat 3 Driver's license ••••••••••5678",
        "Ah Ad Ac Ks Kh Full house, aces full of kings ace of hearts, ace of diamonds, ace of clubs",
        "7 players $45.10",
        f"{dealer.get_full_name()} {dealer.credential_number}",
        f"{floorperson.get_full_name()}, Floorperson {floorperson.credential_number}",
        f"Void: {VOID_REASON}",
        f"{supervisor.get_full_name()}, Poker shift supervisor {supervisor.credential_number}",
        "tie with the high hand then recorded",
        "Pat Winner Full house, aces full of kings $61.73",
        "Tia Tie Full house, aces full of kings $61.72",
        f"by {cashier.get_full_name()} ({cashier.credential_number})",
        "not collected: to approve",
        "Approve where it goes",
    ):
        assert words in page, words
    assert page.count("Entry 4 verified and recorded recorder") == 1
    assert "Entry 3 voided voider" in page and "Award of entry 2 paid at the cage payer" in page


def _list_queries(url: str, person) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert person.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize("name", MODELS)
def test_a_busy_list_opens_in_the_same_queries_as_a_quiet_one(
    name, room, rated_table, dealer, floorperson, supervisor, cashier, finance, make_staff
) -> None:
    person, url = browser(finance), reverse(f"admin:jackpots_{name}_changelist")
    staff = {"dealer": dealer, "floorperson": floorperson, "supervisor": supervisor, "cashier": cashier}
    period_played(room=room, table=rated_table, start=hours_ago(4), uncollected=True, **staff)
    quiet = _list_queries(url, person)
    other = {
        "dealer": make_staff(Role.DEALER),
        "floorperson": make_staff(Role.FLOORPERSON),
        "supervisor": make_staff(Role.SHIFT_SUPERVISOR),
        "cashier": make_staff(Role.CAGE_CASHIER),
    }
    period_played(
        room=room,
        table=rated_table,
        start=hours_ago(3),
        uncollected=True,
        names=("Al Two", "Bo Two", "Cy Two", "Di Two"),
        **other,
    )
    assert _list_queries(url, person) == quiet <= 20


# --- Paying an award at the cage ------------------------------------------------------------------


def test_a_cashier_pays_an_award_against_the_identification_recorded(to_collect, cashier) -> None:
    award = to_collect.unpaid
    person, url = browser(cashier), reverse("admin:jackpots_highhandaward_pay", args=[award.pk])
    period_page = person.get(reverse("admin:jackpots_highhandperiod_change", args=[to_collect.period.pk]))
    assert f'href="{url}"' in period_page.content.decode()
    assert f'href="{url}"' in person.get(reverse("admin:jackpots_highhandaward_changelist")).content.decode()
    page = person.get(url)
    text = _text(page)
    assert "Identification recorded with the hand Passport, number ending in 6543" in text
    assert "Tia Tie, 215-555-0108" in text and "Amount $61.72" in text and "State to collect" in text

    response = person.post(
        url,
        {"id_type": "Passport", "id_number": "x9876543", "pin": PIN, "idempotency_key": _key(page.content.decode())},
        follow=True,
    )

    payment = HighHandAwardPayment.objects.get(award=award)
    assert (payment.paid_by, payment.id_type) == (cashier, "Passport")
    assert f"Award {award.pk} paid at the cage to Tia Tie: $61.72." in _text(response)
    again = person.get(url).content.decode()
    assert 'name="pin"' not in again and "State paid" in _text(person.get(url))


def test_a_refused_payment_shows_why_and_changes_nothing(to_collect, cashier) -> None:
    award, paid = to_collect.unpaid, to_collect.paid
    person, url = browser(cashier), reverse("admin:jackpots_highhandaward_pay", args=[award.pk])
    before = _counts()
    mismatch = _text(
        person.post(url, {"id_type": "Passport", "id_number": "X9876544", "pin": PIN, "idempotency_key": "p-1"})
    )
    assert "The identification presented is not the one recorded with the hand on the Tracking Slip" in mismatch
    assert "Nothing was changed." in mismatch
    wrong_pin = _text(
        person.post(url, {"id_type": TIED_ID[0], "id_number": TIED_ID[1], "pin": "9999", "idempotency_key": "p-2"})
    )
    assert "Wrong PIN for" in wrong_pin and "Nothing was changed." in wrong_pin
    twice = _text(
        person.post(
            reverse("admin:jackpots_highhandaward_pay", args=[paid.pk]),
            {"id_type": WINNER_ID[0], "id_number": WINNER_ID[1], "pin": PIN, "idempotency_key": "p-3"},
        )
    )
    assert f"Award {paid.pk} is paid already; nothing was paid twice." in twice and "Nothing was changed." in twice
    assert _counts() == before


def test_an_award_gone_uncollected_is_not_paid(played, cashier) -> None:
    award = played.unpaid
    person, url = browser(cashier), reverse("admin:jackpots_highhandaward_pay", args=[award.pk])
    page = _text(person.get(url))
    assert "State not collected: to approve" in page and "Sign the payment" not in page
    before = _counts()
    refused = _text(
        person.post(url, {"id_type": TIED_ID[0], "id_number": TIED_ID[1], "pin": PIN, "idempotency_key": "p-4"})
    )
    assert f"Award {award.pk} was not collected by" in refused and "Nothing was changed." in refused
    assert _counts() == before


@pytest.mark.parametrize("role", [Role.FINANCE, Role.COMPLIANCE, Role.ADMINISTRATOR, Role.POKER_ROOM_MANAGER])
def test_only_a_cage_cashier_pays_an_award(role, to_collect, make_staff) -> None:
    person = browser(make_staff(role))
    url = reverse("admin:jackpots_highhandaward_pay", args=[to_collect.unpaid.pk])
    assert person.get(url).status_code == 403
    data = {"id_type": TIED_ID[0], "id_number": TIED_ID[1], "pin": PIN, "idempotency_key": "p-5"}
    assert person.post(url, data).status_code == 403
    assert "Pay at the cage" not in person.get(reverse("admin:jackpots_highhandaward_changelist")).content.decode()
    assert not HighHandAwardPayment.objects.filter(award=to_collect.unpaid).exists()


# --- Where an uncollected award goes --------------------------------------------------------------


def test_finance_approves_where_an_uncollected_award_goes(played, finance) -> None:
    unclaimed = HighHandUnclaimed.objects.get()
    # The schedule at the time limit: the period open then takes the award (next_period, §637a.16(i)).
    periods_run(room=played.period.room, at=unclaimed.award.collect_by + timedelta(minutes=1))
    into = HighHandPeriod.objects.filter(jackpot=played.period.jackpot, status="open").get()
    assert into.starts_at <= unclaimed.award.collect_by < into.ends_at
    rolled_in = into.rolled_in_cents
    person, url = browser(finance), reverse("admin:jackpots_highhandunclaimed_approve", args=[unclaimed.pk])
    assert url in person.get(reverse("admin:jackpots_highhandunclaimed_changelist")).content.decode()
    assert url in person.get(reverse("admin:jackpots_highhandperiod_change", args=[played.period.pk])).content.decode()
    page = _text(person.get(url))
    assert "Player Tia Tie (T1 seat 8), Full house, aces full of kings Amount $61.72" in page
    assert "The posted rules send it into the pool of the qualifying period open when its time limit ended" in page
    assert "Goes into the pool of the period from" in page and "(open)" in page

    done = _text(person.post(url, {"pin": PIN, "idempotency_key": "u-1"}, follow=True))

    unclaimed.refresh_from_db()
    assert (unclaimed.approved_by, unclaimed.into_period) == (finance, into)
    assert HighHandPeriod.objects.get(pk=into.pk).rolled_in_cents == rolled_in + 6_172
    assert f"Award {played.unpaid.pk} not collected: $61.72 moved into the pool of the period from" in done
    again = _text(person.get(url))
    assert "Approve, sign and move the money" not in again and f"by {finance.get_full_name()}" in again


def test_a_refused_approval_shows_why_and_changes_nothing(played, finance, cashier, compliance) -> None:
    unclaimed = HighHandUnclaimed.objects.get()
    url = reverse("admin:jackpots_highhandunclaimed_approve", args=[unclaimed.pk])
    before = _counts()
    no_period = _text(browser(finance).post(url, {"pin": PIN, "idempotency_key": "u-0"}))
    assert "No qualifying period open at or after the award's time limit" in no_period
    assert _counts() == before
    periods_run(room=played.period.room, at=unclaimed.award.collect_by + timedelta(minutes=1))
    before = _counts()
    wrong = _text(browser(finance).post(url, {"pin": "9999", "idempotency_key": "u-2"}))
    assert "Wrong PIN for" in wrong and "Nothing was changed." in wrong
    for person in (cashier, compliance):
        assert browser(person).get(url).status_code == 403
        assert browser(person).post(url, {"pin": PIN, "idempotency_key": "u-3"}).status_code == 403
    assert _counts() == before
    browser(finance).post(url, {"pin": PIN, "idempotency_key": "u-4"})
    before = _counts()
    twice = _text(browser(finance).post(url, {"pin": PIN, "idempotency_key": "u-5"}))
    assert f"The transfer of award {played.unpaid.pk} was approved already." in twice
    assert "Nothing was changed." in twice
    assert _counts() == before


def test_the_periods_list_shows_each_period_s_pool_and_high_hand(played, compliance) -> None:
    text = _text(
        browser(compliance).get(reverse("admin:jackpots_highhandperiod_changelist"), {"status__exact": "awarded"})
    )
    assert "awarded $123.45 $0.00 $123.45 4 (1) Full house, aces full of kings" in text
    assert "Period history" in text
