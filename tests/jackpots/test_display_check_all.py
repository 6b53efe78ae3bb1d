"""The display check of every fund (issue 27, item 2): on the board, the official record, the
difference and why, for the Bad Beat, the High Hand and the progressive meters; the same figures on the
admin's page, in its CSV and on the API; nothing of a room to a person of another."""

from __future__ import annotations

import csv
import io
from datetime import time
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from casino_backoffice.core.api_common import money
from casino_backoffice.ledger.models import Account
from casino_backoffice.ledger.selectors import account_balance
from casino_backoffice.staff.models import User
from casino_backoffice.staff.roles import Role
from jackpots.board.check import BAD_BEAT, HIGH_HAND, PROGRESSIVE, display_check_lines
from jackpots.board.selectors import displayed_jackpots
from jackpots.funds.accounts import jackpot_fund_account
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.progressive.selectors import meters_standing
from tables.models import PokerRoom
from tables.services import room_staff_set, room_upsert

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo() -> PokerRoom:
    call_command("load_demo", stdout=StringIO())
    return PokerRoom.objects.get(code="main")


def test_every_fund_is_checked_against_what_the_board_shows(demo) -> None:
    lines = {line.code: line for line in display_check_lines(rooms=[demo], at=timezone.now())}
    shown = {jackpot.name: jackpot for jackpot in displayed_jackpots(room=demo)}

    high_hand = Jackpot.objects.get(room=demo, kind=JackpotKind.HIGH_HAND)
    line = lines[high_hand.code]
    official = account_balance(account=Account.objects.get(code=jackpot_fund_account(jackpot=high_hand).code))
    assert (line.product, line.official_cents) == (HIGH_HAND, official)
    assert line.shown_cents == shown[high_hand.name].amount_cents  # the board's estimate
    assert line.difference_cents == line.shown_cents - official
    assert any("estimated from its drops" in reason for reason in line.why)

    bad_beat = Jackpot.objects.get(room=demo, kind=JackpotKind.BAD_BEAT)
    line = lines[bad_beat.code]
    assert line.product == BAD_BEAT and line.shown_cents == shown[bad_beat.name].amount_cents
    assert line.state == ("matches" if line.shown_cents == line.official_cents else "differs")

    meters = meters_standing(room=demo)
    assert meters
    for standing in meters:
        line = lines[standing.meter.code]
        assert (line.product, line.shown_cents, line.official_cents, line.state) == (
            PROGRESSIVE,
            standing.amount_cents,
            standing.amount_cents,
            "matches",
        )


def test_the_page_the_csv_and_the_api_tell_the_same_figures(demo) -> None:
    finance = User.objects.get(username="finance")
    lines = display_check_lines(rooms=[demo], at=timezone.now())
    browser = Client()
    browser.force_login(finance)
    url = reverse("admin:jackpots_display_check")

    page = browser.get(url).content.decode()
    for line in lines:
        assert f'data-fund="{line.code}"' in page and line.why[0] in page.replace("&#x27;", "'")

    exported = browser.get(url, {"export": "csv"})
    rows = list(csv.DictReader(io.StringIO(exported.content.decode())))
    assert [(row["Code"], row["Official record"], row["Shown on the board"]) for row in rows] == [
        (line.code, money(line.official_cents), money(line.shown_cents) or "") for line in lines
    ]

    api = APIClient()
    api.force_authenticate(finance)
    answered = api.get("/api/display-check/", {"room": "main"}).json()
    assert [
        (item["code"], item["shown"], item["official"], item["difference"], item["state"]) for item in answered
    ] == [
        (line.code, money(line.shown_cents), money(line.official_cents), money(line.difference_cents), line.state)
        for line in lines
    ]


def test_a_person_of_another_room_sees_none_of_its_funds_and_a_dealer_none_at_all(demo, make_staff, administrator):
    room_b = room_upsert(
        code="b", name="Room B", timezone_name="America/New_York", gaming_day_starts=time(6), actor=administrator
    )
    finance_b = make_staff(Role.FINANCE, rooms=[room_b])
    room_staff_set(room=room_b, staff=[finance_b], actor=administrator)
    api = APIClient()
    api.force_authenticate(finance_b)
    assert api.get("/api/display-check/").json() == []
    assert api.get("/api/display-check/", {"room": "main"}).status_code == 400  # no such room of theirs

    api.force_authenticate(User.objects.get(username="dealer"))
    assert api.get("/api/display-check/").status_code == 403
