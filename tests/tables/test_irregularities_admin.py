"""The irregularity log in the admin (issue 28, item 6): a room's log with its filters, read-only for
everyone; each incident's file as a PDF with every signature; the filtered log as CSV and XLSX."""

from __future__ import annotations

import csv
import io
import uuid
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.permissions import ACTION_ROLES, Action
from casino_backoffice.staff.roles import Role
from rake.services import round_record, round_void
from tables.games import Game
from tables.irregularities.models import Irregularity, IrregularityRuling
from tables.irregularities.services import irregularity_report, irregularity_rule
from tables.services import room_upsert, table_set_open, table_upsert
from tests.conftest import PIN
from tests.jackpots.back_office import pdf_text

LOG = "/admin/tables/irregularity/"
NEW_YORK = ZoneInfo("America/New_York")  # the main room's clock
T1_AT = datetime(2026, 11, 29, 2, 15, tzinfo=UTC)  # 21:15 EST on the 28th: the gaming day 2026-11-28
NEXT_AT = datetime(2026, 11, 30, 2, 15, tzinfo=UTC)  # 21:15 EST on the 29th: the gaming day 2026-11-29


def key() -> str:
    return str(uuid.uuid4())


def browser(person) -> Client:
    signed_in = Client()
    signed_in.force_login(person)
    return signed_in


def listed(person, query: str = "") -> list[int]:
    """The ids the log's list shows ``person``, in its order."""
    response = browser(person).get(LOG + query)
    assert response.status_code == 200
    return [row.pk for row in response.context["cl"].result_list]


def report(table, actor, *, kind: str = "fouled_hand", at: datetime = T1_AT, **extra) -> Irregularity:
    return irregularity_report(
        table=table,
        kind=kind,
        description=extra.pop("description", "Seat 4's hand fouled by a card pushed from the muck."),
        occurred_at=at,
        actor=actor,
        pin=PIN,
        idempotency_key=key(),
        **extra,
    )


def rule(irregularity, actor, words: str = "Hand reconstructed; play continued.") -> IrregularityRuling:
    return irregularity_rule(irregularity=irregularity, ruling=words, actor=actor, pin=PIN, idempotency_key=key())


@pytest.fixture
def east(manager):
    """A second room, with its own T1 and a dispute reported there."""
    room = room_upsert(
        code="east", name="East Room", timezone_name="America/New_York", gaming_day_starts=time(6), actor=manager
    )
    table = table_upsert(room=room, number="T1", game=Game.HOLDEM, seats=10, actor=manager)
    return table_set_open(table=table, is_open=True, actor=manager)


@pytest.fixture
def voided(rated_table, dealer, floorperson, supervisor) -> Irregularity:
    """Round at T1 of a $120 pot with $20 uncalled (rake $5.00, bb $1.00, hh $2.00), voided by the
    floorperson for an extra card, and the void's irregularity ruled by the shift supervisor."""
    round_ = round_record(
        table=rated_table,
        ended_at=timezone.now() - timedelta(minutes=3),
        players_dealt_in=6,
        pot_cents=12000,
        uncalled_bet_cents=2000,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key=key(),
    ).round
    void = round_void(
        round=round_, reason="53 cards: a second ace of spades.", actor=floorperson, pin=PIN, idempotency_key=key()
    )
    rule(void.irregularity, supervisor, "Round void; pot returned to the players; deck replaced.")
    return void.irregularity


# --- Who sees what --------------------------------------------------------------------------------


def test_compliance_sees_its_rooms_log_and_not_another_rooms(open_table, east, dealer, make_staff, room) -> None:
    # Given an irregularity in each room, and compliance working in the main room only
    mine = report(open_table, dealer)
    theirs = report(east, make_staff(Role.DEALER, rooms=[east.room]), kind="dispute")
    compliance = make_staff(Role.COMPLIANCE, rooms=[room])

    # Then the log, the page, the file and the exports are the main room's
    assert listed(compliance) == [mine.pk]
    person = browser(compliance)
    assert person.get(f"{LOG}{mine.pk}/change/").status_code == 200
    assert person.get(f"{LOG}{theirs.pk}/change/").status_code == 302  # "does not exist": back to the list
    assert person.get(reverse("admin:tables_irregularity_file", args=[theirs.pk])).status_code == 404
    exported = person.get(reverse("admin:tables_irregularity_export", args=["csv"])).content.decode()
    assert [row["id"] for row in csv.DictReader(io.StringIO(exported))] == [str(mine.pk)]
    # And no filter names the other room (one room to choose from: no room filter), as it does to
    # compliance of every room
    assert "East Room" not in person.get(LOG).content.decode()
    everywhere = make_staff(Role.COMPLIANCE)
    assert [title for _, title in _choices(everywhere, "room")] == ["All", "East Room", "Main Poker Room"]


def _choices(person, parameter: str) -> list[tuple[str, str]]:
    changelist = browser(person).get(LOG).context["cl"]
    for spec in changelist.filter_specs:
        if getattr(spec, "parameter_name", None) == parameter or getattr(spec, "field_path", None) == parameter:
            return [(choice.get("query_string", ""), str(choice["display"])) for choice in spec.choices(changelist)]
    raise AssertionError(f"no filter {parameter}")


def test_the_filters_by_kind_gaming_day_table_and_status_give_exactly_their_rows(
    open_table, dealer, floorperson, compliance, manager
) -> None:
    t2 = table_set_open(
        table=table_upsert(room=open_table.room, number="T2", game=Game.OMAHA_HIGH, seats=9, actor=manager),
        is_open=True,
        actor=floorperson,
    )
    fouled_28 = report(open_table, dealer)
    misdeal_28 = report(open_table, dealer, kind="misdeal", cause="wrong_starting_position")
    fouled_29 = report(open_table, dealer, at=NEXT_AT)
    dispute_29_t2 = report(t2, dealer, kind="dispute", at=NEXT_AT)
    rule(misdeal_28, floorperson, "Misdeal; reshuffled and redealt.")
    assert (fouled_28.gaming_day, fouled_29.gaming_day) == (date(2026, 11, 28), date(2026, 11, 29))

    assert listed(compliance, "?kind=fouled_hand") == [fouled_29.pk, fouled_28.pk]
    assert listed(compliance, "?gaming_day=2026-11-28") == [misdeal_28.pk, fouled_28.pk]
    assert listed(compliance, "?kind=fouled_hand&gaming_day=2026-11-29") == [fouled_29.pk]
    assert listed(compliance, f"?table={t2.pk}") == [dispute_29_t2.pk]
    assert listed(compliance, "?status=ruled") == [misdeal_28.pk]
    assert listed(compliance, "?status=reported&gaming_day=2026-11-28") == [fouled_28.pk]
    assert listed(compliance, "?q=redealt") == []  # a ruling's words are not the report's
    assert listed(compliance, "?q=muck") == [dispute_29_t2.pk, fouled_29.pk, misdeal_28.pk, fouled_28.pk]
    assert listed(compliance, "?gaming_day=not-a-day") == []
    assert [title for _, title in _choices(compliance, "gaming_day")] == ["All", "2026-11-29", "2026-11-28"]
    assert [title for _, title in _choices(compliance, "table")] == ["All", "main T1", "main T2"]


def test_nobody_adds_changes_or_deletes_an_irregularity_in_the_admin(open_table, dealer, make_staff) -> None:
    irregularity = report(open_table, dealer)
    before = (Irregularity.objects.count(), Signature.objects.count())
    for role in (Role.COMPLIANCE, Role.FINANCE, Role.ADMINISTRATOR, Role.POKER_ROOM_MANAGER):
        person = browser(make_staff(role))
        assert person.get(f"{LOG}add/").status_code == 403
        assert person.post(f"{LOG}{irregularity.pk}/change/", {"description": "changed"}).status_code == 403
        assert person.post(f"{LOG}{irregularity.pk}/delete/", {"post": "yes"}).status_code == 403
        page = person.get(f"{LOG}{irregularity.pk}/change/").content.decode()
        assert 'name="_save"' not in page and "deletelink" not in page
    assert (Irregularity.objects.count(), Signature.objects.count()) == before
    assert Irregularity.objects.get().description == irregularity.description


# --- The page and the file ------------------------------------------------------------------------


def test_the_page_of_a_voided_rounds_irregularity_is_its_whole_file(voided, compliance, floorperson, supervisor):
    listed_page = browser(compliance).get(LOG).content.decode()
    assert "voided, returned $8.00: rake $5.00, bb $1.00, hh $2.00" in listed_page
    assert "pot $120.00, rake $5.00" in listed_page and f"({supervisor.credential_number})" in listed_page
    page = browser(compliance).get(f"{LOG}{voided.pk}/change/").content.decode()
    assert "Missing or extra cards: round voided, pot returned" in page and "§637a.18(i)" in page
    assert "$8.00: rake $5.00, bb $1.00, hh $2.00" in page
    assert "Round void; pot returned to the players; deck replaced." in page
    for person in (floorperson, supervisor):
        assert person.credential_number in page
    assert page.count("EST</td>") >= 3  # the signatures and the ruling on the room's clock, with its zone
    assert "Incident file (PDF)" in page


def test_the_incident_file_pdf_holds_the_kind_the_round_the_ruling_the_void_and_every_signer(
    voided, finance, floorperson, supervisor
) -> None:
    response = browser(finance).get(reverse("admin:tables_irregularity_file", args=[voided.pk]))

    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'attachment; filename="irregularity-{voided.pk}.pdf"'
    text = pdf_text(response.content)
    assert f"Irregularity {voided.pk}: Missing or extra cards: round voided, pot returned" in text
    assert "58 Pa. Code §637a.18(i)" in text and "Ruled" in text
    assert "Round void; pot returned to the players; deck replaced." in text
    assert "$120.00 $20.00 $5.00 bb $1.00, hh $2.00" in text  # the round: pot, uncalled bet, rake, drops
    assert "53 cards: a second ace of spades." in text
    assert "The drop box: the round's rake $5.00" in text and "The bb jackpot box: the round's drop $1.00" in text
    assert "Returned in all $8.00" in text
    for person, role in ((floorperson, "Floorperson"), (supervisor, "Poker shift supervisor")):
        assert f"{person.get_full_name()} {role} {person.credential_number}" in text
    signatures = Signature.objects.filter(
        credential_number__in=[floorperson.credential_number, supervisor.credential_number]
    )
    assert signatures.count() == 3  # the report, the void (the floorperson's) and the ruling (the supervisor's)
    for signature in signatures:
        assert signature.content_hash in text.replace(" ", "")
    assert " EST " in text


def test_the_file_of_a_misdeal_names_its_cause_and_its_cards_in_words(open_table, dealer, compliance) -> None:
    misdeal = report(open_table, dealer, kind="misdeal", cause="wrong_starting_position", cards="As Kd")
    text = pdf_text(browser(compliance).get(reverse("admin:tables_irregularity_file", args=[misdeal.pk])).content)
    assert "Misdeal" in text and "§637a.18(g)" in text and "(g)(2) Dealt to an incorrect starting position" in text
    assert "As Kd (ace of spades, king of diamonds)" in text
    assert "Reported, not ruled yet." in text and "No round of play named." in text
    assert "2026-11-28 21:15:00 EST" in text  # when it happened, on the room's clock


def test_the_file_is_printed_by_compliance_finance_and_the_rooms_managers_only(open_table, dealer, make_staff) -> None:
    irregularity = report(open_table, dealer)
    url = reverse("admin:tables_irregularity_file", args=[irregularity.pk])
    assert ACTION_ROLES[Action.IRREGULARITY_FILE_READ] == {
        Role.SHIFT_SUPERVISOR,
        Role.POKER_ROOM_MANAGER,
        Role.FINANCE,
        Role.COMPLIANCE,
    }
    answers = {role: browser(make_staff(role)).get(url) for role in Role}
    printed = {role for role, answer in answers.items() if answer.status_code == 200}
    # The shift supervisor may, but works on the floor: the admin is the back office's.
    assert printed == {Role.POKER_ROOM_MANAGER, Role.FINANCE, Role.COMPLIANCE}
    assert answers[Role.CAGE_CASHIER].status_code == answers[Role.ADMINISTRATOR].status_code == 403
    page = browser(make_staff(Role.CAGE_CASHIER)).get(f"{LOG}{irregularity.pk}/change/").content.decode()
    assert "Incident file (PDF)" not in page  # the cage reads the log, and is not offered the file


# --- The exports ----------------------------------------------------------------------------------


def test_the_log_exports_to_csv_and_xlsx_with_its_filters_amounts_in_dollars_and_times_on_the_rooms_clock(
    voided, open_table, dealer, floorperson, supervisor, compliance
) -> None:
    misdeal = report(open_table, dealer, kind="misdeal", cause="not_shuffled_and_cut", cards="2c")
    ruling = rule(misdeal, floorperson, "Misdeal; reshuffled and redealt.")
    void_round = voided.round
    person = browser(compliance)

    exported = person.get(reverse("admin:tables_irregularity_export", args=["csv"]) + "?kind=misdeal")
    assert exported["Content-Disposition"] == 'attachment; filename="irregularities.csv"'
    rows = list(csv.reader(io.StringIO(exported.content.decode())))
    assert rows[0][:6] == ["id", "room", "table", "round", "gaming_day", "occurred_at"]
    assert rows[1:] == [
        [
            str(misdeal.pk),
            "main",
            "T1",
            "",
            "2026-11-28",
            "2026-11-28T21:15:00-05:00",
            "misdeal",
            "Misdeal",
            "§637a.18(g)",
            "(g)(1) The cards were not shuffled and cut as §635a.5 requires",
            "2c",
            "Seat 4's hand fouled by a card pushed from the muck.",
            "",
            dealer.get_full_name(),
            dealer.credential_number,
            "ruled",
            floorperson.get_full_name(),
            floorperson.credential_number,
            "Misdeal; reshuffled and redealt.",
            timezone.localtime(ruling.ruled_at, NEW_YORK).isoformat(),
            "",
            "",
            "",
        ]
    ]

    workbook = person.get(reverse("admin:tables_irregularity_export", args=["xlsx"]) + "?kind=missing_or_extra_cards")
    sheet = load_workbook(io.BytesIO(workbook.content)).active
    header = [cell.value for cell in sheet[1]]
    assert header[5] == "occurred_at (America/New_York)" and header[19] == "ruled_at (America/New_York)"
    values = [[cell.value for cell in row] for row in sheet.iter_rows(min_row=2)]
    voided_ruling = IrregularityRuling.objects.get(irregularity=voided)
    # A cell keeps a moment to the millisecond: compared to it, the rest exactly
    moments = [(values[0][5], voided.occurred_at), (values[0][19], voided_ruling.ruled_at)]
    for cell, at in moments:
        assert abs(cell - timezone.localtime(at, NEW_YORK).replace(tzinfo=None)) < timedelta(milliseconds=1)
    values[0][5] = values[0][19] = "on the room's clock"
    assert values == [
        [
            voided.pk,
            "main",
            "T1",
            void_round.pk,
            datetime.combine(voided.gaming_day, time()),
            "on the room's clock",
            "missing_or_extra_cards",
            "Missing or extra cards: round voided, pot returned",
            "§637a.18(i)",
            None,
            None,
            "53 cards: a second ace of spades.",
            None,
            floorperson.get_full_name(),
            floorperson.credential_number,
            "ruled",
            supervisor.get_full_name(),
            supervisor.credential_number,
            "Round void; pot returned to the players; deck replaced.",
            "on the room's clock",
            5,
            "bb 1.00; hh 2.00",
            8,
        ]
    ]
    assert sheet.cell(row=2, column=21).number_format == "$#,##0.00"


# --- A busy day -----------------------------------------------------------------------------------


def _list_queries(person, django_assert_max_num_queries, limit: int) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = browser(person)
    with django_assert_max_num_queries(limit), CaptureQueriesContext(connection) as queries:
        assert client.get(LOG).status_code == 200
    return len(queries)


def test_a_day_of_30_incidents_opens_in_the_queries_of_a_day_of_3(
    voided, open_table, dealer, floorperson, finance, make_staff, django_assert_max_num_queries
) -> None:
    for n in range(2):
        rule(report(open_table, dealer, kind="misdeal", cause="wrong_starting_position"), floorperson, f"Ruling {n}")
    quiet = _list_queries(finance, django_assert_max_num_queries, 25)
    kinds = ["fouled_hand", "ineligible_player", "card_face_up_in_deck", "exposed_hole_card", "dispute"]
    for n in range(27):
        irregularity = report(open_table, make_staff(Role.DEALER), kind=kinds[n % len(kinds)])
        if n % 2:
            rule(irregularity, make_staff(Role.SHIFT_SUPERVISOR), f"Ruling {n}")
    assert Irregularity.objects.count() == 30
    assert _list_queries(finance, django_assert_max_num_queries, 25) == quiet
