"""The High Hand's reports (§637a.16): the history of a fund's periods, whose pools, awards, payments,
roll-overs and uncollected awards add up to the cent, as a page, CSV and XLSX; the High Hand Tracking
Slip of a period as a PDF with every item of §637a.16(f) and every signature, and as CSV and XLSX; each
read in the same queries however many rows."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from casino_backoffice.staff.roles import Role
from jackpots.funds.reports import id_number_masked
from jackpots.high_hand.exports import PERIOD_HISTORY_COLUMNS, TRACKING_SLIP_COLUMNS
from jackpots.high_hand.models import HighHandPeriod, HighHandUnclaimed, PeriodStatus
from jackpots.high_hand.reports import period_history, tracking_slip
from jackpots.high_hand.services.awards import unclaimed_approve
from jackpots.high_hand.services.periods import periods_run
from tables.selectors import gaming_day
from tests.conftest import PIN
from tests.jackpots.back_office import browser, pdf_text
from tests.jackpots.high_hand_back_office import (
    VOID_REASON,
    announce_in_order,
    high_hand_of,
    hours_ago,
    period_open,
    period_played,
)
from tests.rake.factories import RULES, load, rules_text

# Its pools are announced by hand, with official money no count made (``close_and_announce``).
pytestmark = pytest.mark.pools_by_hand

ZONE = ZoneInfo("America/New_York")


def _csv(response) -> list[list[str]]:
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


def _xlsx(response) -> list[tuple]:
    assert response.status_code == 200 and response["Content-Type"].startswith("application/vnd.openxmlformats")
    return list(load_workbook(io.BytesIO(response.content)).active.iter_rows(values_only=True))


def _keys(columns) -> list[str]:
    return [column.key for column in columns]


def _local(moment) -> str:
    return moment.astimezone(ZONE).strftime("%Y-%m-%d %H:%M:%S")


@pytest.fixture
def rules(room):
    """The tests' rules with the posted destination ``fund`` for an uncollected award: kept in the fund
    and added to the pool of the next period to close (§637a.16(i))."""
    jackpots = [{**item, "unclaimed": "fund"} if item["code"] == "hh" else item for item in RULES["jackpots"]]
    return load(rules_text(jackpots=jackpots))


@pytest.fixture
def three_periods(room, rated_table, dealer, floorperson, supervisor, cashier, finance):
    """Three hours of a fund: the first period played ($123.45 shared by two aces full, the first paid,
    the second not collected in time and approved by finance, kept in the fund until the third closes
    and takes it into its pool); the second without a hand ($10.00 rolled into the third); the third
    closed, its pool not announced; the fourth open."""
    played = period_played(
        room=room,
        table=rated_table,
        start=hours_ago(4),
        dealer=dealer,
        floorperson=floorperson,
        supervisor=supervisor,
        cashier=cashier,
        uncollected=True,
    )
    second = HighHandPeriod.objects.get(jackpot=played.period.jackpot, starts_at=played.period.ends_at)
    announce_in_order(second, 1_000, at=second.ends_at + timedelta(minutes=2))
    third = HighHandPeriod.objects.get(jackpot=played.period.jackpot, starts_at=second.ends_at)
    unclaimed_approve(unclaimed=HighHandUnclaimed.objects.get(), actor=finance, pin=PIN)
    periods_run(room=room, at=third.ends_at + timedelta(seconds=30))  # the third closes: it takes the award in
    third.refresh_from_db()
    days = (gaming_day(room=room, at=played.period.starts_at), gaming_day(room=room, at=third.starts_at))
    return {"played": played, "second": second, "third": third, "days": days}


# --- The history of the periods -------------------------------------------------------------------


def test_the_history_adds_up_each_period_to_the_cent(three_periods) -> None:
    played, second, third = three_periods["played"], three_periods["second"], three_periods["third"]
    start, end = three_periods["days"]

    history = period_history(jackpot=played.period.jackpot, start=start, end=end)

    rows = {row.period.pk: row for row in history.rows}
    first = rows[played.period.pk]
    assert first.period.status == PeriodStatus.AWARDED
    assert (first.period.contributions_cents, first.period.rolled_in_cents, first.period.pool_cents) == (
        12_345,
        0,
        12_345,
    )
    assert (first.entries, first.voids, first.high_hand) == (4, 1, "Full house, aces full of kings")
    assert [(award.entry.player_name, award.amount_cents) for award in first.awards] == [
        ("Pat Winner", 6_173),
        ("Tia Tie", 6_172),
    ]
    assert (first.awarded_cents, first.paid_cents, first.to_collect_cents, first.unclaimed_cents) == (
        12_345,
        6_173,
        0,
        6_172,
    )
    assert first.rolled_over_cents is None
    assert first.winners == (
        "Pat Winner (T1 seat 3, Full house, aces full of kings) $61.73; "
        "Tia Tie (T1 seat 8, Full house, aces full of kings) $61.72"
    )
    rolled = rows[second.pk]
    assert (rolled.period.status, rolled.entries, rolled.high_hand, rolled.awards) == (
        PeriodStatus.ROLLED_OVER,
        0,
        "",
        (),
    )
    assert (rolled.rolled_over_cents, rolled.rolled_into.pk) == (1_000, third.pk)
    last = rows[third.pk]
    assert (last.period.status, last.period.pool_cents, last.period.rolled_in_cents) == (
        PeriodStatus.CLOSED,
        None,
        7_172,
    )
    assert (last.rolled_over_in_cents, last.unclaimed_in_cents) == (1_000, 6_172)
    assert dict(history.totals()) == {
        "Contributions made official": 13_345,
        "Rolled in from periods without a qualifying hand": 1_000,
        "Uncollected awards moved into a pool": 6_172,
        "Pools announced": 13_345,
        "Awarded": 12_345,
        "Paid at the cage": 6_173,
        "Still to collect": 0,
        "Not collected in time": 6_172,
        "Rolled over to the next period": 1_000,
    }


def test_the_history_page_csv_and_xlsx(three_periods, compliance) -> None:
    played, start, end = three_periods["played"], *three_periods["days"]
    query = {"jackpot": played.period.jackpot.pk, "from": start.isoformat(), "to": end.isoformat()}
    person, url = browser(compliance), reverse("admin:jackpots_highhandperiod_report")
    page = person.get(url, query).content.decode()
    assert "High Hand (hh) period history" in page and "$123.45" in page and "$61.72 uncollected" in page
    assert 'Pat Winner (T1 seat 3) <span class="nowrap">$61.73</span>' in page
    assert "Rolled over to the next period" in page

    rows = _csv(person.get(url, {**query, "export": "csv"}))
    assert rows[0] == _keys(PERIOD_HISTORY_COLUMNS)
    by_period = {int(row[0]): dict(zip(rows[0], row, strict=True)) for row in rows[1:]}
    first = by_period[played.period.pk]
    assert (first["status"], first["contributions"], first["pool"], first["entries"], first["voids"]) == (
        "Awarded",
        "123.45",
        "123.45",
        "4",
        "1",
    )
    assert (first["awarded"], first["paid"], first["to_collect"], first["not_collected"]) == (
        "123.45",
        "61.73",
        "0.00",
        "61.72",
    )
    second = by_period[three_periods["second"].pk]
    assert (second["rolled_over"], second["rolled_over_into"]) == (
        "10.00",
        three_periods["third"].starts_at.isoformat(),
    )
    third = by_period[three_periods["third"].pk]
    assert (third["rolled_in"], third["rolled_over_in"], third["unclaimed_awards_in"], third["pool"]) == (
        "71.72",
        "10.00",
        "61.72",
        "",
    )

    sheet = _xlsx(person.get(url, {**query, "export": "xlsx"}))
    assert sheet[0][:3] == ("period", "fund", "starts_at (America/New_York)")
    row = next(line for line in sheet[1:] if line[0] == played.period.pk)
    assert (Decimal(str(row[5])), Decimal(str(row[16]))) == (Decimal("123.45"), Decimal("61.73"))


def test_the_history_is_read_in_the_same_queries_however_many_periods(
    room, rated_table, dealer, floorperson, supervisor, cashier, make_staff
) -> None:
    staff = {"dealer": dealer, "floorperson": floorperson, "supervisor": supervisor, "cashier": cashier}
    played = period_played(room=room, table=rated_table, start=hours_ago(4), uncollected=True, **staff)
    day = gaming_day(room=room, at=played.period.starts_at)
    fund = high_hand_of(room)
    fund.room  # noqa: B018 (read before counting)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            period_history(jackpot=fund, start=day - timedelta(days=1), end=day + timedelta(days=1))
            tracking_slip(period=HighHandPeriod.objects.filter(awards__isnull=False).latest("starts_at"))
        return len(captured)

    quiet = queries()
    period_played(
        room=room,
        table=rated_table,
        start=hours_ago(3),
        uncollected=True,
        names=("Al Two", "Bo Two", "Cy Two", "Di Two"),
        dealer=make_staff(Role.DEALER),
        floorperson=make_staff(Role.FLOORPERSON),
        supervisor=make_staff(Role.SHIFT_SUPERVISOR),
        cashier=make_staff(Role.CAGE_CASHIER),
    )
    assert queries() == quiet <= 8


# --- The Tracking Slip ----------------------------------------------------------------------------


def test_the_tracking_slip_pdf_has_every_item_of_the_regulation(
    three_periods, dealer, floorperson, supervisor, cashier, compliance
) -> None:
    played = three_periods["played"]
    response = browser(compliance).get(reverse("admin:jackpots_highhandperiod_slip", args=[played.period.pk]))
    assert response["Content-Type"] == "application/pdf"
    assert (
        f'filename="high-hand-slip-main-hh-{played.period.starts_at.astimezone(ZONE):%Y-%m-%d-%H%M}.pdf"'
        in (response["Content-Disposition"])
    )
    text = pdf_text(response.content)
    winner = played.winner

    for words in (
        "High Hand Tracking Slip: High Hand (hh)",
        "58 Pa. Code §637a.16(f)",
        # (1) the player's name, phone number and seat, with the identification (its last four)
        "Pat Winner 215-555-0103 seat 3 Driver's license ••••••••••5678",
        # (2) the table, (3) the hand in cards and in words
        "Ah Ad Ac Ks Kh Full house, aces full of kings ace of hearts, ace of diamonds, ace of clubs, king of spades, "
        "king of hearts",
        "T1",
        # the players dealt in and the pot, the moment made and recorded
        "7 players $45.10",
        _local(winner.made_at),
        _local(winner.recorded_at),
        # (4) the dealer's name and Board credential number
        f"{dealer.get_full_name()} {dealer.credential_number}",
        # (5) the signature and credential number of the floorperson or above who verified the hand
        f"{floorperson.get_full_name()}, Floorperson {floorperson.credential_number}",
        # a tie, a void with its reason and the supervisor's signature
        "tie with the high hand then recorded",
        f"Void: {VOID_REASON}",
        f"{supervisor.get_full_name()}, Poker shift supervisor {supervisor.credential_number}",
        # the pool and the awards, their payment and the uncollected award's approval
        "$123.45 contributions + $0.00 rolled in = $123.45",
        "$61.73",
        "$61.72",
        f"{cashier.get_full_name()} {cashier.credential_number}",
        "into the period from",
        "Entry 2 verified and recorded recorder",
        "Entry 3 voided voider",
        "Award of entry 2 paid at the cage payer",
        "Award of entry 4 not collected: transfer approved approver",
        "A hand is recorded at Full house, twos full of threes or better; at least 6 players dealt in; a pot of at "
        "least $30.00",
    ):
        assert words in text, words
    verified = next(line for step, line in tracking_slip(period=played.period).signatures if step.startswith("Entry 2"))
    assert f"signed {_local(verified.signed_at)}" in text
    for number in ("PA-DL-12345678", "X9876543", "Q5555555"):
        assert number not in text


def test_the_slip_of_a_period_without_a_hand_and_of_an_open_period(three_periods, room, finance) -> None:
    person = browser(finance)
    rolled = pdf_text(
        person.get(reverse("admin:jackpots_highhandperiod_slip", args=[three_periods["second"].pk])).content
    )
    assert "No hand was recorded in this period." in rolled
    assert "No qualifying hand: the pool of $10.00 rolled into the next period" in rolled
    still = pdf_text(
        person.get(reverse("admin:jackpots_highhandperiod_slip", args=[three_periods["third"].pk])).content
    )
    assert "not announced yet; $71.72 rolled in" in still


def test_the_slip_csv_and_xlsx(three_periods, floorperson, supervisor, cashier, compliance) -> None:
    played = three_periods["played"]
    person, url = browser(compliance), reverse("admin:jackpots_highhandperiod_slip", args=[played.period.pk])
    rows = _csv(person.get(url, {"export": "csv"}))
    assert rows[0] == _keys(TRACKING_SLIP_COLUMNS)
    lines = [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
    assert [(line["entry"], line["player_name"], line["hand"], line["tie"], line["void"]) for line in lines] == [
        ("1", "Kim Early", "Full house, kings full of twos", "False", "False"),
        ("2", "Pat Winner", "Full house, aces full of kings", "False", "False"),
        ("3", "Vic Void", "Four of a kind, queens, three kicker", "False", "True"),
        ("4", "Tia Tie", "Full house, aces full of kings", "True", "False"),
    ]
    winner = lines[1]
    assert (winner["player_phone"], winner["seat"], winner["table"], winner["cards"]) == (
        "215-555-0103",
        "3",
        "T1",
        "Ah Ad Ac Ks Kh",
    )
    assert (winner["id_type"], winner["id_number_masked"]) == ("Driver's license", id_number_masked("PA-DL-12345678"))
    assert winner["id_number_masked"].endswith("5678") and "PA-DL" not in winner["id_number_masked"]
    assert (winner["players_dealt_in"], winner["pot"], winner["dealer_credential"]) == (
        "7",
        "45.10",
        played.winner.dealer_credential_number,
    )
    assert (winner["verified_by_role"], winner["verified_by_credential"]) == (
        "Floorperson",
        floorperson.credential_number,
    )
    assert (winner["award"], winner["award_state"], winner["paid_by_credential"]) == (
        "61.73",
        "paid",
        cashier.credential_number,
    )
    voided = lines[2]
    assert (voided["void_reason"], voided["voided_by_credential"]) == (VOID_REASON, supervisor.credential_number)
    assert (lines[3]["award"], lines[3]["award_state"]) == ("61.72", "not collected: moved")

    sheet = _xlsx(person.get(url, {"export": "xlsx"}))
    assert sheet[0][5] == "recorded_at (America/New_York)" and len(sheet) == 5
    assert (Decimal(str(sheet[2][16])), Decimal(str(sheet[2][29]))) == (Decimal("45.10"), Decimal("61.73"))


def test_the_reports_refuse_who_may_not_read_them(three_periods, make_staff) -> None:
    outsider = make_staff(Role.FLOORPERSON)
    outsider.is_staff = True
    outsider.save(update_fields=["is_staff"])
    person = browser(outsider)
    period = three_periods["played"].period
    for url in (
        reverse("admin:jackpots_highhandperiod_report"),
        reverse("admin:jackpots_highhandperiod_report") + "?export=csv",
        reverse("admin:jackpots_highhandperiod_slip", args=[period.pk]),
        reverse("admin:jackpots_highhandperiod_slip", args=[period.pk]) + "?export=xlsx",
    ):
        assert person.get(url).status_code == 403, url


def test_the_history_without_a_period_in_its_days(room, rated_table, compliance) -> None:
    period_open(room=room, start=hours_ago(1))
    fund = high_hand_of(room)
    response = browser(compliance).get(
        reverse("admin:jackpots_highhandperiod_report"), {"jackpot": fund.pk, "from": "2026-01-05", "to": "2026-01-05"}
    )
    assert "No period of High Hand started on these days." in response.content.decode()
