"""The Bad Beat in the back office (§637a.15(f)-(i)): every page opens for finance and compliance and
is refused to whoever may not read it; money rows are read-only; finance distributes, adjusts a
display and moves a discontinued fund, a cashier or finance pays a share at the cage, each signed with
the PIN, and a refusal shows the service's message and changes nothing."""

from __future__ import annotations

import html
import re
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.permissions import ACTION_ROLES, Action
from casino_backoffice.staff.roles import ADMIN_ROLES, Role
from jackpots.bad_beat.models import (
    BadBeatClaim,
    BadBeatDecision,
    BadBeatDistribution,
    BadBeatPayment,
    BadBeatShare,
    ClaimStatus,
    DisplayAdjustment,
    DisplayOverdue,
    FundTransfer,
    FundTransferStatus,
)
from jackpots.bad_beat.selectors import fund_position
from jackpots.bad_beat.services.claims import claim_deny, claim_verify
from jackpots.bad_beat.services.display import display_adjust, display_witness
from jackpots.funds.models import Jackpot, PaymentPlace
from tests.conftest import PIN
from tests.jackpots.back_office import browser, paid_in_part, pdf_text, unpaid_share
from tests.jackpots.bad_beat import QUALIFYING, another_hand, discontinue_bb_for_bb2, fund_official


def _key(page: str) -> str:
    return re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)


def _text(response) -> str:
    """The page as a person reads it: its words, without tags, single spaces."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def _counts() -> tuple[int, ...]:
    return (
        BadBeatDistribution.objects.count(),
        BadBeatShare.objects.count(),
        BadBeatPayment.objects.count(),
        DisplayAdjustment.objects.count(),
        FundTransfer.objects.count(),
        FundTransfer.objects.filter(status=FundTransferStatus.APPROVED).count(),
        Transfer.objects.count(),
        Signature.objects.count(),
        list(BadBeatClaim.objects.order_by("pk").values_list("status", flat=True)),
    )


@pytest.fixture
def bad_beat_day(make_claim, bad_beat, supervisor, finance, security, floorperson, make_staff):
    """A claim partly paid (the losing hand at the table), a claim denied, the display adjusted and
    witnessed, a day flagged without an adjustment, and a fund transfer prepared: every page has a row."""
    claim = paid_in_part(
        make_claim=make_claim, bad_beat=bad_beat, supervisor=supervisor, finance=finance, security=security
    )
    denied = make_claim(board="Kd Kc Ac 7s 7h")
    claim_deny(claim=denied, reason="Kings full is below the posted minimum.", actor=supervisor, pin=PIN)
    adjustment = display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="adj-day")
    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)
    DisplayOverdue.objects.create(
        jackpot=bad_beat, gaming_day=adjustment.gaming_day.replace(day=1), flagged_at=claim.opened_at
    )
    fund_official(bad_beat, 1_000, finance)
    return {"claim": claim, "denied": denied, "adjustment": adjustment}


def _pages(day) -> list[str]:
    claim, bad_beat = day["claim"], day["claim"].jackpot
    decision = BadBeatDecision.objects.get(claim=claim)
    distribution = BadBeatDistribution.objects.get(claim=claim)
    payment = BadBeatPayment.objects.get()
    pages = [
        reverse("admin:app_list", args=["jackpots"]),
        reverse("admin:jackpots_badbeatclaim_change", args=[claim.pk]),
        reverse("admin:jackpots_badbeatclaim_change", args=[day["denied"].pk]),
        reverse("admin:jackpots_badbeatdecision_change", args=[decision.pk]),
        reverse("admin:jackpots_badbeatdistribution_change", args=[distribution.pk]),
        reverse("admin:jackpots_badbeatshare_change", args=[payment.share_id]),
        reverse("admin:jackpots_badbeatpayment_change", args=[payment.pk]),
        reverse("admin:jackpots_displayadjustment_change", args=[day["adjustment"].pk]),
        reverse("admin:jackpots_displayoverdue_change", args=[DisplayOverdue.objects.get().pk]),
        reverse("admin:jackpots_badbeatdisplaycheck_changelist"),
        reverse("admin:jackpots_badbeatreport_changelist"),
        reverse("admin:jackpots_badbeatreport_rules"),
        reverse("admin:jackpots_badbeatreport_notices"),
        reverse("admin:jackpots_badbeatreport_statement", args=[bad_beat.pk]),
        reverse("admin:jackpots_badbeatclaim_file", args=[claim.pk]),
    ]
    for name in (
        "badbeatclaim",
        "badbeatdecision",
        "badbeatdistribution",
        "badbeatshare",
        "badbeatpayment",
        "displayadjustment",
        "displayoverdue",
        "fundtransfer",
    ):
        pages.append(reverse(f"admin:jackpots_{name}_changelist"))
    return pages


@pytest.mark.parametrize("role", sorted(ADMIN_ROLES))
def test_every_bad_beat_page_opens_for_the_back_office(role, bad_beat_day, make_staff) -> None:
    person = browser(make_staff(role))
    for page in _pages(bad_beat_day):
        assert person.get(page).status_code == 200, page


@pytest.mark.parametrize("role", [Role.FLOORPERSON, Role.SHIFT_SUPERVISOR, Role.SECURITY, Role.SURVEILLANCE])
def test_the_bad_beat_pages_refuse_who_may_not_read_them(role, bad_beat_day, make_staff) -> None:
    outsider = make_staff(role)
    assert browser(outsider).get(reverse("admin:jackpots_badbeatclaim_changelist")).status_code == 302  # to sign in
    outsider.is_staff = True  # even let in, the table of actions refuses them
    outsider.save(update_fields=["is_staff"])
    person = browser(outsider)
    for page in _pages(bad_beat_day)[1:]:
        assert person.get(page).status_code == 403, page
    index = person.get(reverse("admin:index")).content.decode()
    assert "Bad Beat claims" not in index and "Bad Beat display check" not in index


def test_the_back_office_reads_the_bad_beat_records_the_floor_reads_them_on_its_tablets() -> None:
    # One table of actions: the admin's Bad Beat pages are the back office's, as the cage's official
    # record is; a floorperson, a supervisor or security follows claims and payouts on the floor.
    assert ACTION_ROLES[Action.BAD_BEAT_RECORDS_READ] == ADMIN_ROLES == ACTION_ROLES[Action.CAGE_RECORD_READ]
    assert ACTION_ROLES[Action.BAD_BEAT_RECORDS_READ] <= ACTION_ROLES[Action.BAD_BEAT_READ]


def test_the_admin_index_lists_the_display_check_and_the_reports(compliance, db) -> None:
    page = browser(compliance).get(reverse("admin:index")).content.decode()
    assert reverse("admin:jackpots_badbeatdisplaycheck_changelist") in page
    assert reverse("admin:jackpots_badbeatreport_changelist") in page


def test_compliance_reads_and_changes_nothing(bad_beat_day, compliance) -> None:
    claim, person = bad_beat_day["claim"], browser(compliance)
    before = _counts()
    page = person.get(reverse("admin:jackpots_badbeatclaim_change", args=[claim.pk])).content.decode()
    assert 'name="_save"' not in page and "Pay at the cage" not in page and "Prepare the distribution" not in page
    check = person.get(reverse("admin:jackpots_badbeatdisplaycheck_changelist")).content.decode()
    assert "Adjust the display" not in check
    assert "Approve and sign" not in person.get(reverse("admin:jackpots_fundtransfer_changelist")).content.decode()
    share = unpaid_share(claim)
    for url, data in [
        (reverse("admin:jackpots_badbeatclaim_change", args=[claim.pk]), {"status": "paid"}),
        (reverse("admin:jackpots_badbeatclaim_delete", args=[claim.pk]), {"post": "yes"}),
        (reverse("admin:jackpots_badbeatshare_change", args=[share.pk]), {"amount_cents": "1"}),
        (reverse("admin:jackpots_badbeatshare_pay", args=[share.pk]), {"id_type": "x", "id_number": "1", "pin": PIN}),
        (reverse("admin:jackpots_badbeatdisplaycheck_adjust", args=[claim.jackpot_id]), {"pin": PIN}),
        (reverse("admin:jackpots_fundtransfer_prepare"), {"pin": PIN}),
    ]:
        assert person.post(url, data).status_code == 403, url
    assert person.get(reverse("admin:jackpots_badbeatpayment_add")).status_code == 403
    assert _counts() == before


@pytest.mark.parametrize("role", [Role.FINANCE, Role.ADMINISTRATOR])
def test_no_one_adds_changes_or_deletes_a_signed_money_row(role, bad_beat_day, make_staff) -> None:
    person, payment = browser(make_staff(role)), BadBeatPayment.objects.get()
    before = _counts()
    assert person.get(reverse("admin:jackpots_badbeatpayment_add")).status_code == 403
    assert (
        person.post(reverse("admin:jackpots_badbeatpayment_delete", args=[payment.pk]), {"post": "yes"}).status_code
        == 403
    )
    page = person.get(reverse("admin:jackpots_badbeatpayment_change", args=[payment.pk])).content.decode()
    assert 'name="_save"' not in page and "••-555" in page and "PA-555" not in page
    assert _counts() == before


def _list_queries(url: str, person) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert person.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    "name", ["badbeatclaim", "badbeatdecision", "badbeatdistribution", "badbeatshare", "badbeatpayment"]
)
def test_a_busy_list_opens_in_the_same_queries_as_a_quiet_one(
    name, make_claim, bad_beat, supervisor, finance, security, make_staff
) -> None:
    person, url = browser(finance), reverse(f"admin:jackpots_{name}_changelist")
    paid_in_part(make_claim=make_claim, bad_beat=bad_beat, supervisor=supervisor, finance=finance, security=security)
    quiet = _list_queries(url, person)
    for n in range(2):
        paid_in_part(
            make_claim=make_claim,
            bad_beat=bad_beat,
            supervisor=make_staff(Role.SHIFT_SUPERVISOR),
            finance=finance,
            security=security,
            hand=another_hand(n + 1),
        )
    assert _list_queries(url, person) == quiet <= 20


def test_the_claim_page_is_its_whole_file(bad_beat_day, finance, supervisor, security, floorperson) -> None:
    claim = bad_beat_day["claim"]
    page = _text(browser(finance).get(reverse("admin:jackpots_badbeatclaim_change", args=[claim.pk])))
    assert "ace of spades, king of spades" in page and "Full house, aces full of kings" in page
    assert "Four of a kind, sevens" in page and "seat 1 Pat One" in page and "CAM-12 21:14:05" in page
    assert "Qualifies for the Bad Beat under rules version 1." in page
    assert "Losing hand Full house, aces full of kings (both hole cards play) meets the minimum" in page
    for person in (floorperson, supervisor, finance, security):
        assert person.credential_number in page
    assert "Driver's license ••-555" in page and "PA-555" not in page and "$200.03 paid" not in page
    assert "Decision of the shift supervisor" in page and "Distribution prepared by finance" in page
    assert "Pay at the cage" in page  # finance pays at the cage too
    # Its moments on the room's clock with the zone, in its fieldsets as in its list
    zone = ZoneInfo(claim.room.timezone)
    for moment in (claim.happened_at, claim.opened_at):
        assert moment.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z") in page
    assert " p.m." not in page and " a.m." not in page  # its decision and payments too
    decided_at = claim.decision.decided_at.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z")
    assert decided_at in page.split("Decision of the shift supervisor")[1]


def test_a_patrons_id_number_is_masked_on_every_bad_beat_page_and_document(bad_beat_day, finance) -> None:
    """It was printed whole on the Bad Beat's payments while every other product masked it (issue 27)."""
    claim, payment = bad_beat_day["claim"], BadBeatPayment.objects.get()
    person = browser(finance)
    for url in (
        reverse("admin:jackpots_badbeatpayment_changelist"),
        reverse("admin:jackpots_badbeatpayment_change", args=[payment.pk]),
        reverse("admin:jackpots_badbeatclaim_change", args=[claim.pk]),
    ):
        page = _text(person.get(url))
        assert "••-555" in page and "PA-555" not in page, url
    claim_file = pdf_text(person.get(reverse("admin:jackpots_badbeatclaim_file", args=[claim.pk])).content)
    assert "••-555" in claim_file and "PA-555" not in claim_file
    # A cashier still finds the payment by the whole number the patron shows.
    found = _text(person.get(reverse("admin:jackpots_badbeatpayment_changelist"), {"q": "PA-555"}))
    assert "1 result" in found or "1 Bad Beat payment" in found


# --- Finance's distribution -----------------------------------------------------------------------


def _verified(make_claim, bad_beat, supervisor, finance, cents: int = 10_001) -> BadBeatClaim:
    fund_official(bad_beat, cents, finance)
    claim = make_claim()
    claim_verify(claim=claim, actor=supervisor, pin=PIN)
    return claim


def test_finance_prepares_the_distribution_after_reading_its_split(make_claim, bad_beat, supervisor, finance) -> None:
    claim = _verified(make_claim, bad_beat, supervisor, finance)
    person, url = browser(finance), reverse("admin:jackpots_badbeatclaim_distribute", args=[claim.pk])
    assert f'href="{url}"' in person.get(reverse("admin:jackpots_badbeatclaim_changelist")).content.decode()
    page = _text(person.get(url))
    # $100.01: the losing hand half and the odd cent, the winning hand a quarter, the table share by four.
    assert "Payout fixed at verification $100.01" in page
    for amount in ("$50.01", "$25.00", "$6.25"):
        assert amount in page
    response = person.post(
        url, {"method": "cash", "pin": PIN, "idempotency_key": _key(person.get(url).content.decode())}, follow=True
    )

    distribution = BadBeatDistribution.objects.get(claim=claim)
    assert distribution.total_cents == 10_001 and distribution.shares.count() == 6
    assert BadBeatClaim.objects.get(pk=claim.pk).status == ClaimStatus.DISTRIBUTED
    assert f"Distribution of claim {claim.pk} prepared and signed: $100.01 in 6 shares." in _text(response)
    again = person.get(url).content.decode()
    assert 'name="pin"' not in again and "Distribution prepared, shares to pay" in again  # nothing left to sign


def test_a_refused_distribution_shows_why_and_changes_nothing(make_claim, bad_beat, supervisor, finance) -> None:
    claim = _verified(make_claim, bad_beat, supervisor, finance)
    person, url = browser(finance), reverse("admin:jackpots_badbeatclaim_distribute", args=[claim.pk])
    before = _counts()
    wrong = _text(person.post(url, {"method": "cash", "pin": "9999", "idempotency_key": "d-1"}))
    assert "Wrong PIN for" in wrong and "Nothing was changed." in wrong
    assert _counts() == before
    unverified = make_claim(**another_hand(1))
    before = _counts()
    refused = _text(
        person.post(
            reverse("admin:jackpots_badbeatclaim_distribute", args=[unverified.pk]),
            {"method": "cash", "pin": PIN, "idempotency_key": "d-2"},
        )
    )
    assert (
        f"Claim {unverified.pk} is claimed, awaiting the shift supervisor; this needs a claim that is verified"
        in refused
    )
    assert _counts() == before and not BadBeatDistribution.objects.exists()


def test_only_finance_prepares_a_distribution(make_claim, bad_beat, supervisor, finance, cashier, compliance) -> None:
    claim = _verified(make_claim, bad_beat, supervisor, finance)
    url = reverse("admin:jackpots_badbeatclaim_distribute", args=[claim.pk])
    for person in (cashier, compliance):
        assert browser(person).get(url).status_code == 403
        assert browser(person).post(url, {"method": "cash", "pin": PIN, "idempotency_key": "x"}).status_code == 403
    assert not BadBeatDistribution.objects.exists()


# --- Paying a share at the cage -------------------------------------------------------------------


@pytest.mark.parametrize("payer", ["cashier", "finance"])
def test_a_cashier_or_finance_pays_a_share_at_the_cage(payer, bad_beat_day, request, make_staff) -> None:
    # Finance pays a share of a distribution another finance person prepared (issue 25: not the preparer).
    person = request.getfixturevalue(payer) if payer == "cashier" else make_staff(Role.FINANCE)
    claim = bad_beat_day["claim"]
    share = unpaid_share(claim)
    signed_in, url = browser(person), reverse("admin:jackpots_badbeatshare_pay", args=[share.pk])
    page = signed_in.get(url).content.decode()
    assert share.name in page and "$100.00" in page
    official = fund_position(jackpot=claim.jackpot).official_cents

    response = signed_in.post(
        url, {"id_type": "Passport", "id_number": "X123", "pin": PIN, "idempotency_key": _key(page)}, follow=True
    )

    payment = BadBeatPayment.objects.get(share=share)
    assert (payment.place, payment.id_number, payment.paid_by) == (PaymentPlace.CAGE, "X123", person)
    assert fund_position(jackpot=claim.jackpot).official_cents == official - share.amount_cents
    assert f"paid at the cage to {share.name}: $100.00" in _text(response)


def test_the_cage_picks_the_patrons_identification_from_the_tablets_list(bad_beat_day, cashier) -> None:
    """The admin offers the tablet's list of documents; typed words of another spelling are refused."""
    share = unpaid_share(bad_beat_day["claim"])
    person, url = browser(cashier), reverse("admin:jackpots_badbeatshare_pay", args=[share.pk])
    page = person.get(url).content.decode()
    assert '<select name="id_type"' in page
    assert all(f'<option value="{kind}">' in page for kind in ("Driver&#x27;s license", "State ID card", "Passport"))
    before = _counts()

    refused = _text(
        person.post(url, {"id_type": "Drivers licence", "id_number": "X1", "pin": PIN, "idempotency_key": _key(page)})
    )

    assert "Select a valid choice" in refused
    assert _counts() == before


def test_a_share_paid_twice_or_with_a_wrong_pin_pays_nothing(bad_beat_day, cashier, compliance) -> None:
    paid = BadBeatPayment.objects.get().share
    share = unpaid_share(bad_beat_day["claim"])
    person = browser(cashier)
    before = _counts()
    wrong = _text(
        person.post(
            reverse("admin:jackpots_badbeatshare_pay", args=[share.pk]),
            {"id_type": "Passport", "id_number": "X1", "pin": "9999", "idempotency_key": "p-1"},
        )
    )
    assert "Wrong PIN for" in wrong and "Nothing was changed." in wrong
    again = _text(
        person.post(
            reverse("admin:jackpots_badbeatshare_pay", args=[paid.pk]),
            {"id_type": "Passport", "id_number": "X1", "pin": PIN, "idempotency_key": "p-2"},
        )
    )
    assert f"Share {paid.pk} (Ann Loser, $200.03) was paid already" in again and "Nothing was changed." in again
    assert _counts() == before


# --- The display check and the adjustment ---------------------------------------------------------


def test_the_display_check_compares_the_finance_record_with_the_display(
    make_claim, bad_beat, supervisor, finance, floorperson
) -> None:
    fund_official(bad_beat, 30_000, finance)
    adjustment = display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="a-1")
    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)
    claim_verify(claim=make_claim(), actor=supervisor, pin=PIN)  # owes the whole fund: pending adjustment
    response = browser(finance).get(reverse("admin:jackpots_badbeatdisplaycheck_changelist"))
    page = _text(response)
    row = page[page.index("Bad Beat (bb)") :]
    assert row.index("$300.00") < row.index("$300.00", row.index("$300.00") + 1)  # official, owed
    assert "$0.00" in row and "does not match" in row and "pending adjustment" in row
    assert f"witnessed by {floorperson.get_full_name()} ({floorperson.credential_number})" in row
    assert reverse("admin:jackpots_badbeatdisplaycheck_adjust", args=[bad_beat.pk]) in response.content.decode()


def test_finance_adjusts_the_display_from_the_check(bad_beat, finance) -> None:
    fund_official(bad_beat, 12_345, finance)
    person, url = browser(finance), reverse("admin:jackpots_badbeatdisplaycheck_adjust", args=[bad_beat.pk])
    page = _text(person.get(url))
    assert "Finance record (the display will show) $123.45" in page and "Displayed now never adjusted" in page

    response = person.post(url, {"pin": PIN, "idempotency_key": _key(person.get(url).content.decode())}, follow=True)

    adjustment = DisplayAdjustment.objects.get()
    assert (adjustment.amount_cents, adjustment.adjusted_by) == (12_345, finance)
    # It takes effect when the floorperson or above present has signed too (§637a.15(h)(1)).
    assert "The display of Bad Beat shows $123.45 once the floorperson or above" in _text(response)
    assert "✔ matches" not in _text(response)


def test_a_refused_adjustment_changes_nothing(bad_beat, finance, cashier) -> None:
    high_hand = Jackpot.objects.get(room=bad_beat.room, code="hh")
    person = browser(finance)
    before = _counts()
    refused = _text(
        person.post(
            reverse("admin:jackpots_badbeatdisplaycheck_adjust", args=[high_hand.pk]),
            {"pin": PIN, "idempotency_key": "a-2"},
        )
    )
    assert "High Hand is a High Hand fund: its display shows the pool of its qualifying period" in refused
    wrong = _text(
        person.post(
            reverse("admin:jackpots_badbeatdisplaycheck_adjust", args=[bad_beat.pk]),
            {"pin": "9999", "idempotency_key": "a-3"},
        )
    )
    assert "Wrong PIN for" in wrong and "Nothing was changed." in wrong
    assert (
        browser(cashier).get(reverse("admin:jackpots_badbeatdisplaycheck_adjust", args=[bad_beat.pk])).status_code
        == 403
    )
    assert _counts() == before


# --- A discontinued fund's transfer ---------------------------------------------------------------


def test_finance_prepares_and_another_approves_a_fund_transfer(bad_beat, finance, make_staff) -> None:
    fund_official(bad_beat, 30_000, finance)
    bb2 = discontinue_bb_for_bb2()
    preparer = browser(finance)
    url = reverse("admin:jackpots_fundtransfer_prepare")
    assert url in preparer.get(reverse("admin:jackpots_fundtransfer_changelist")).content.decode()
    data = {
        "source": bad_beat.pk,
        "destination": bb2.pk,
        "amount": "300.00",
        "reason": "Approved procedure DP-1",
        "pin": PIN,
        "idempotency_key": _key(preparer.get(url).content.decode()),
    }
    assert "prepared and signed" in _text(preparer.post(url, data, follow=True))
    transfer = FundTransfer.objects.get()
    assert fund_position(jackpot=bad_beat).official_cents == 30_000  # nothing moves before the approval

    approve = reverse("admin:jackpots_fundtransfer_approve", args=[transfer.pk])
    before = _counts()
    same = _text(preparer.post(approve, {"pin": PIN, "idempotency_key": "x"}))
    assert "cannot" in same and "Nothing was changed." in same and _counts() == before
    approver = browser(make_staff(Role.ADMINISTRATOR))
    assert approve in approver.get(reverse("admin:jackpots_fundtransfer_changelist")).content.decode()
    done = _text(approver.post(approve, {"pin": PIN, "idempotency_key": "y"}, follow=True))

    assert f"Transfer {transfer.pk} approved: $300.00 moved from bb to bb2." in done
    assert FundTransfer.objects.get().status == FundTransferStatus.APPROVED
    assert (fund_position(jackpot=bad_beat).official_cents, fund_position(jackpot=bb2).official_cents) == (0, 30_000)


def test_a_refused_fund_transfer_shows_why_and_changes_nothing(bad_beat, finance, compliance) -> None:
    fund_official(bad_beat, 30_000, finance)
    bb2 = Jackpot.objects.create(room=bad_beat.room, code="bb9", kind="bad_beat", name="Other Bad Beat")
    person = browser(finance)
    before = _counts()
    refused = _text(
        person.post(
            reverse("admin:jackpots_fundtransfer_prepare"),
            {
                "source": bad_beat.pk,
                "destination": bb2.pk,
                "amount": "10.00",
                "reason": "DP-1",
                "pin": PIN,
                "idempotency_key": "t-1",
            },
        )
    )
    assert "Bad Beat (bb) still collects at tables T1 under rules version 1" in refused
    assert "Nothing was changed." in refused
    assert browser(compliance).get(reverse("admin:jackpots_fundtransfer_prepare")).status_code == 403
    assert _counts() == before


def test_the_claim_list_exports_the_filtered_claims(bad_beat_day, compliance) -> None:
    response = browser(compliance).get(
        reverse("admin:jackpots_badbeatclaim_export", args=["csv"]), {"status__exact": "denied"}
    )
    rows = response.content.decode().splitlines()
    assert len(rows) == 2 and ",Denied," in rows[1] and QUALIFYING["losing"].name in rows[1]
