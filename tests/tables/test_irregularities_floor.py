"""The tablet faces of irregularities (issue 28, item 6): *Report an irregularity* at a table, *Rule*
on those awaiting a ruling, the day's log, and surveillance's section beside its counts."""

from __future__ import annotations

import html
import re
import uuid
from datetime import time

import pytest
from django.test import Client
from django.urls import reverse

from casino_backoffice.staff.models import Signature, User
from casino_backoffice.staff.roles import Role
from tables.games import Game
from tables.irregularities.models import Irregularity, IrregularityRuling
from tables.irregularities.services import irregularity_report, irregularity_rule
from tables.models import Table
from tables.services import room_upsert, table_set_open, table_upsert
from tests.conftest import PIN
from tests.pages import assert_no_inline_script_or_style
from tests.rake.factories import round_logged

REPORT = "/floor/irregularities/report/"
RULE = "/floor/irregularities/rule/"
LOG = "/floor/irregularities/"


def signed_in(user: User) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def records() -> tuple[int, int, int]:
    return Irregularity.objects.count(), IrregularityRuling.objects.count(), Signature.objects.count()


def reported(table: Table, by: User, *, kind: str = "fouled_hand", **extra) -> Irregularity:
    return irregularity_report(
        table=table,
        kind=kind,
        description=extra.pop("description", "Seat 2's hand was fouled; reconstructed."),
        actor=by,
        pin=PIN,
        idempotency_key=str(uuid.uuid4()),
        **extra,
    )


def report_form(**values) -> dict[str, str]:
    return {
        "idempotency_key": str(uuid.uuid4()),
        "kind": "card_face_up_in_deck",
        "round": "",
        "cause": "",
        "compliance_notified": "",
        "cards": "",
        "description": "The 7 of clubs was face up in the deck.",
        "pin": PIN,
        **values,
    }


@pytest.fixture
def stud(room, manager, floorperson) -> Table:
    table = table_upsert(room=room, number="M1", game=Game.MISSISSIPPI_STUD, seats=6, actor=manager)
    return table_set_open(table=table, is_open=True, actor=floorperson)


@pytest.fixture
def east(db, manager):
    return room_upsert(
        code="east", name="East Room", timezone_name="America/Chicago", gaming_day_starts=time(6), actor=manager
    )


# --- Report ---------------------------------------------------------------------------------------


def test_a_dealer_picks_an_open_table_and_sees_its_kinds_rounds_and_the_card_picker(rated_table, stud, dealer):
    round_ = round_logged(rated_table, dealer)
    tablet = signed_in(dealer)
    assert "Report an irregularity" in tablet.get("/floor/").content.decode()
    tables = text(tablet.get(REPORT))
    assert "T1" in tables and "M1" in tables

    response = tablet.get(reverse("floor:irregularity-report-table", args=[rated_table.pk]))

    page = text(response)
    assert_no_inline_script_or_style(response.content.decode())
    # The kinds of a Hold'em table, each with its provision there; none of the banked games'.
    assert "Misdeal · §637a.18(g) · with its cause" in page
    assert "A hole card exposed in the dealing · §637a.18(p)" in page
    assert "A dispute and its ruling · §637a.18(a) · ruled by a shift supervisor" in page
    assert "shuffler counted the wrong number" not in page
    # The table's round of the gaming day, on the room's clock with its zone.
    assert re.search(rf"Round {round_.pk} · \d\d:\d\d E[SD]T · pot \$120\.00", page)
    assert 'data-card-picker data-count="10"' in response.content.decode() and "(up to 10 cards)" in page


def test_a_banked_table_offers_its_own_chapters_kinds(stud, dealer):
    page = text(signed_in(dealer).get(reverse("floor:irregularity-report-table", args=[stud.pk])))
    assert "A shuffler counted the wrong number of cards · §655a.5(b)" in page
    assert "A dealer's card error at a banked table · §655a.13(a)-(d)" in page
    assert "Misdeal" not in page


def test_a_report_records_one_irregularity_signed_by_the_dealer(rated_table, dealer):
    round_ = round_logged(rated_table, dealer)
    before = records()

    response = signed_in(dealer).post(
        reverse("floor:irregularity-report-table", args=[rated_table.pk]),
        report_form(kind="misdeal", cause="wrong_starting_position", round=str(round_.pk), cards="As Kd"),
        follow=True,
    )

    assert records() == (before[0] + 1, before[1], before[2] + 1)
    found = Irregularity.objects.get()
    assert (found.kind, found.section, found.cause, found.round_id, found.cards, found.reported_by_id) == (
        "misdeal",
        "§637a.18(g)",
        "wrong_starting_position",
        round_.pk,
        "As Kd",
        dealer.pk,
    )
    assert f"Irregularity {found.pk} at table T1 (Misdeal, §637a.18(g)) is on the record" in text(response)


def test_the_same_form_sent_twice_records_once(open_table, dealer):
    form = report_form()
    tablet = signed_in(dealer)
    tablet.post(reverse("floor:irregularity-report-table", args=[open_table.pk]), form)
    tablet.post(reverse("floor:irregularity-report-table", args=[open_table.pk]), form)
    assert Irregularity.objects.count() == 1


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"kind": "misdeal"}, "Say the misdeal's cause (§637a.18(g)(1)-(4))"),
        ({"kind": "collusion_removal"}, "Say who at compliance was notified of the player's removal"),
        ({"kind": "missing_or_extra_cards"}, "is recorded with its round of play"),
        ({"pin": "0000"}, "Wrong PIN"),
        ({"description": " "}, "correct what is marked below"),
    ],
)
def test_a_report_refused_says_why_keeps_the_form_and_records_nothing(open_table, dealer, values, words):
    before = records()

    response = signed_in(dealer).post(
        reverse("floor:irregularity-report-table", args=[open_table.pk]), report_form(**values)
    )

    assert response.status_code == 200
    page = text(response)
    assert "Nothing was reported" in page and words in page
    assert "The 7 of clubs was face up in the deck." in page or values.get("description")
    assert records() == before


def test_a_cashier_is_refused_the_report_and_does_not_see_its_tile(open_table, cashier):
    tablet = signed_in(cashier)
    assert "Report an irregularity" not in tablet.get("/floor/").content.decode()
    before = records()
    response = tablet.post(reverse("floor:irregularity-report-table", args=[open_table.pk]), report_form())
    assert response.status_code == 403 and "Only a dealer or a floorperson or above may report" in text(response)
    assert tablet.get(REPORT).status_code == 403 and tablet.get(RULE).status_code == 403
    assert records() == before


def test_a_closed_table_is_not_offered(room, manager, dealer):
    closed = table_upsert(room=room, number="T2", game=Game.HOLDEM, seats=10, actor=manager)
    tablet = signed_in(dealer)
    assert "No table of your rooms is open." in text(tablet.get(REPORT))
    response = tablet.post(reverse("floor:irregularity-report-table", args=[closed.pk]), report_form(), follow=True)
    assert "That table is not an open table of your rooms" in text(response)
    assert Irregularity.objects.count() == 0


# --- Rule -----------------------------------------------------------------------------------------


def test_a_floorperson_rules_in_words_and_signs(open_table, dealer, floorperson):
    found = reported(open_table, dealer)
    tablet = signed_in(floorperson)
    page = text(tablet.get(RULE))
    assert "Table T1 · A protected hand fouled and reconstructed" in page and "reported by" in page
    before = records()

    response = tablet.post(
        reverse("floor:irregularity-rule-sign", args=[found.pk]),
        {"ruling": "Hand reconstructed; play continued.", "pin": PIN, "idempotency_key": "k-1"},
        follow=True,
    )

    assert records() == (before[0], before[1] + 1, before[2] + 1)
    assert IrregularityRuling.objects.get().ruled_by == floorperson
    page = text(response)
    assert f"Irregularity {found.pk} at table T1 is ruled, signed by you." in page
    assert "No irregularity awaits a ruling in your rooms." in page


def test_the_reporter_is_told_they_cannot_rule_and_a_post_is_refused(open_table, floorperson):
    found = reported(open_table, floorperson)
    tablet = signed_in(floorperson)
    assert "You reported it: another floorperson or above rules on it." in text(tablet.get(RULE))
    before = records()

    response = tablet.post(
        reverse("floor:irregularity-rule-sign", args=[found.pk]),
        {"ruling": "Mine.", "pin": PIN, "idempotency_key": "k-2"},
    )

    assert "was not ruled; nothing was recorded" in text(response)
    assert "cannot also rule on it" in text(response)
    assert records() == before


def test_a_dispute_awaits_a_shift_supervisor_and_a_floorpersons_ruling_is_refused(
    open_table, dealer, floorperson, supervisor
):
    dispute = reported(open_table, dealer, kind="dispute", description="Seat 3 says the bet was a call.")
    page = text(signed_in(floorperson).get(RULE))
    assert "Awaiting a shift supervisor" in page and "Dispute" in page
    before = records()

    response = signed_in(floorperson).post(
        reverse("floor:irregularity-rule-sign", args=[dispute.pk]),
        {"ruling": "Call stands.", "pin": PIN, "idempotency_key": "k-3"},
    )

    assert "nothing was recorded" in text(response) and "Only a poker shift supervisor" in text(response)
    assert records() == before

    # The shift supervisor rules, finally (§637a.18(a)).
    signed_in(supervisor).post(
        reverse("floor:irregularity-rule-sign", args=[dispute.pk]),
        {"ruling": "Call stands.", "pin": PIN, "idempotency_key": "k-4"},
    )
    assert IrregularityRuling.objects.get().ruled_by == supervisor


@pytest.mark.parametrize(
    ("ruling", "pin", "words"), [(" ", PIN, "correct what is marked"), ("Ok", "0000", "Wrong PIN")]
)
def test_no_ruling_or_a_wrong_pin_rules_nothing(open_table, dealer, floorperson, ruling, pin, words):
    found = reported(open_table, dealer)
    before = records()
    response = signed_in(floorperson).post(
        reverse("floor:irregularity-rule-sign", args=[found.pk]), {"ruling": ruling, "pin": pin, "idempotency_key": "k"}
    )
    assert words in text(response)
    assert records() == before


# --- Rooms, the log, surveillance -----------------------------------------------------------------


def test_another_rooms_floorperson_sees_nothing_of_room_a(open_table, dealer, east, make_staff):
    found = reported(open_table, dealer, description="Room A's secret.")
    floor_east = make_staff(Role.FLOORPERSON, rooms=[east])
    tablet = signed_in(floor_east)

    for page in (REPORT, RULE, LOG):
        assert "Room A's secret." not in text(tablet.get(page)) and "T1" not in text(tablet.get(page))
    response = tablet.post(
        reverse("floor:irregularity-rule-sign", args=[found.pk]),
        {"ruling": "x", "pin": PIN, "idempotency_key": "k"},
        follow=True,
    )
    assert f"There is no irregularity {found.pk} in your rooms." in text(response)
    response = tablet.post(reverse("floor:irregularity-report-table", args=[open_table.pk]), report_form(), follow=True)
    assert "not an open table of your rooms" in text(response)
    assert IrregularityRuling.objects.count() == 0 and Irregularity.objects.count() == 1


def test_the_days_log_shows_ruled_and_awaiting(open_table, dealer, floorperson):
    ruled = reported(open_table, dealer, description="Ruled one.")
    irregularity_rule(irregularity=ruled, ruling="Reconstructed.", actor=floorperson, pin=PIN, idempotency_key="r")
    reported(open_table, dealer, kind="card_face_up_in_deck", description="Awaiting one.")

    page = text(signed_in(dealer).get(LOG))

    assert "Ruled one." in page and "Reconstructed." in page and "Ruled" in page
    assert "Awaiting one." in page and "Awaiting a ruling" in page
    assert "No irregularity that day." in text(signed_in(dealer).get(LOG + "?day=2020-01-01"))


def test_surveillance_sees_the_days_irregularities_beside_its_counts(open_table, dealer, make_staff):
    reported(open_table, dealer, kind="card_face_up_in_deck")
    surveillance = make_staff(Role.SURVEILLANCE)
    tablet = signed_in(surveillance)

    for url in (reverse("floor:cage-surveillance"), reverse("floor:cage-surveillance-rows")):
        page = text(tablet.get(url))
        assert "Irregularities today" in page
        assert re.search(r"\d\d:\d\d E[SD]T T1 A card face up in the deck §637a.18\(j\) Awaiting a ruling", page)
