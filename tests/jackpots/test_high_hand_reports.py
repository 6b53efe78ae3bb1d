"""The posted High Hand rules and each table's notice (§637a.16(b)), generated from the rules version in
effect: every statement the regulation requires, in the room's time zone, as a page, PDF, CSV and XLSX,
and one page a table."""

from __future__ import annotations

import csv
import html
import io
from datetime import time, timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook
from pypdf import PdfReader

from casino_backoffice.staff.roles import Role
from jackpots.funds.models import Jackpot
from jackpots.high_hand.exports import HIGH_HAND_RULES_COLUMNS
from jackpots.high_hand.reports import (
    IDENTIFICATION_STATEMENT,
    PRESENCE_STATEMENT,
    high_hand_notices,
    period_words,
    posted_high_hand_rules,
)
from jackpots.high_hand.rules import TIE_RULE, Period
from tables.models import RulesVersion
from tests.jackpots.back_office import browser, pdf_text
from tests.rake import factories

RULES_URL = "admin:jackpots_badbeatreport_high_hand_rules"
NOTICES_URL = "admin:jackpots_badbeatreport_high_hand_notices"

HOURLY = (
    "Every hour from 10:00, by the room's clock (America/New_York): 10:00 to 11:00, then 11:00 to 12:00, and so on "
    "around the clock."
)
CONTRIBUTION = (
    "5% of each pot that reaches the minimum pot, the pot measured after the rake: the pot without the uncalled "
    "final bet, less the rake the dealer extracted; rounded down to the cent, at most $2.00 from a pot. Nothing is "
    "taken from a pot where no flop was dealt and the rake took nothing."
)
# Every statement of the posted rules under the tests' rules (tests/rake/factories.py), in the words posted.
STATEMENTS = {
    "qualifying_period": HOURLY,
    "collection_period": (
        f"{HOURLY} These are the qualifying periods. The contribution from a pot goes to the pool of the period in "
        "which its hand ended."
    ),
    "contribution": CONTRIBUTION,
    "minimum_pot": "$30.00, the pot measured after the rake: the pot without the uncalled final bet, less the rake the "
    "dealer extracted.",
    "min_players": "At least 6 players must be dealt into the hand for it to qualify.",
    "qualifying_hand": 'A full house or better: at least "Full house, twos full of threes" (§637a.16(f)). The '
    "highest Qualifying High Hand made during the qualifying period wins its pool.",
    "no_full_house": "If no player makes a full house during a qualifying period, its contributions are added to the "
    "next qualifying period's pool (§637a.16(h)).",
    "ties": "Tied players share equally: the pool is split equally among the tied hands, rounded down to the cent, "
    "and the odd cents go one each to the tied hands in the order they were recorded on the High Hand Tracking "
    "Slip.",
    "time_limit": "An award must be collected within 7 days of the end of the qualifying period it was won in.",
    "presence": "You do not need to be present at the end of the qualifying period to win.",
    "identification": "Valid identification must be presented for your hand to qualify.",
    "unclaimed": "An award not collected within the time limit goes into the pool of the qualifying period open when "
    "the time limit ends (§637a.16(i)).",
    "board": "The display in the poker area shows the current high hand by table and seat, without the player's name.",
}


def _flat(text: str) -> str:
    return " ".join(html.unescape(text).split())


def _csv(response) -> list[list[str]]:
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


def _new_version(**high_hand: Any) -> RulesVersion:
    """A rules version in effect a minute ago whose High Hand ``hh`` has ``high_hand`` changed."""
    jackpots = [dict(item) for item in factories.RULES["jackpots"]]
    jackpots[1] = {**jackpots[1], **high_hand}
    return factories.load(factories.rules_text(effective_from=None, jackpots=jackpots))


@pytest.fixture
def high_hand(rated_table) -> Jackpot:
    return Jackpot.objects.get(room=rated_table.room, code="hh")


# --- Words ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("every", "first", "words"),
    [
        (60, time(10), "every hour from 10:00"),
        (1440, time(6), "each gaming day from 06:00"),
        (1440, time(3), "every 24 hours from 03:00"),
        (30, time(6), "every 30 minutes from 06:00"),
        (120, time(0), "every 2 hours from 00:00"),
        (90, time(6, 30), "every 90 minutes from 06:30"),
    ],
)
def test_a_period_in_words_by_the_rooms_clock(every, first, words) -> None:
    assert period_words(Period(every, first), day_starts=time(6)) == words


# --- The posted rules -------------------------------------------------------------------------------


def test_the_posted_rules_are_generated_from_the_rules_version_in_effect(high_hand) -> None:
    rules = posted_high_hand_rules(room=high_hand.room, at=timezone.now())

    (posted,) = rules.high_hands
    assert (posted.jackpot, posted.version.number, posted.tables) == (
        high_hand,
        1,
        {"T1": "Texas Hold'em", "T2": "Texas Hold'em"},
    )
    assert {name: getattr(posted, name) for name in STATEMENTS} == STATEMENTS
    assert posted.maximum_contribution_cents == 200
    assert (posted.presence, posted.identification, posted.ties) == (
        PRESENCE_STATEMENT,
        IDENTIFICATION_STATEMENT,
        TIE_RULE,
    )


def test_a_new_rules_version_posts_its_own_words(high_hand) -> None:
    _new_version(
        contribution={"method": "fixed", "amount": "1.00", "min_pot": "0.00", "no_flop_no_drop": False},
        period={"every_minutes": 1440, "first_starts": "06:00"},
        min_players=4,
        claim_within_days=1,
        unclaimed="fund",
        show_player_name=True,
    )

    (posted,) = posted_high_hand_rules(room=high_hand.room, at=timezone.now()).high_hands

    assert posted.version.number == 2
    assert posted.qualifying_period == (
        "Each gaming day from 06:00, by the room's clock (America/New_York): each runs from 06:00 to 06:00 the next "
        "day."
    )
    assert posted.collection_period.startswith(posted.qualifying_period + " These are the qualifying periods.")
    assert posted.contribution.startswith(
        "A fixed $1.00 from each pot that reaches the minimum pot, the pot measured after the rake"
    )
    assert posted.maximum_contribution_cents == 100
    assert posted.minimum_pot == "No minimum: every pot contributes."
    assert posted.min_players == "At least 4 players must be dealt into the hand for it to qualify."
    assert (
        posted.time_limit
        == "An award must be collected within 1 day of the end of the qualifying period it was won in."
    )
    assert posted.unclaimed == (
        "An award not collected within the time limit stays in the High Hand fund and is added to the next "
        "qualifying period's pool when that period closes (§637a.16(i))."
    )
    assert posted.board == (
        "The display in the poker area shows the current high hand with the player's name, table and seat."
    )
    # The rules in effect before the new version still read as they were posted then.
    earlier = posted_high_hand_rules(room=high_hand.room, at=timezone.now() - timedelta(minutes=5))
    assert earlier.version is not None and earlier.version.number == 1
    assert earlier.high_hands[0].qualifying_period == HOURLY


def test_the_periods_are_in_the_time_zone_of_the_version_in_effect(high_hand) -> None:
    factories.load(
        factories.rules_text(
            effective_from=None,
            timezone="America/Chicago",
        )
    )

    (posted,) = posted_high_hand_rules(room=high_hand.room, at=timezone.now()).high_hands

    assert posted.qualifying_period.startswith("Every hour from 10:00, by the room's clock (America/Chicago)")


def test_no_rules_in_effect_post_no_high_hand(room) -> None:
    rules = posted_high_hand_rules(room=room, at=timezone.now())
    assert (rules.version, rules.high_hands) == (None, ())
    assert high_hand_notices(rules=rules) == []


def test_a_version_without_a_high_hand_posts_none(high_hand, compliance) -> None:
    jackpots = [factories.RULES["jackpots"][0]]
    tables = [{**table, "jackpots": [c for c in table["jackpots"] if c != "hh"]} for table in factories.RULES["tables"]]
    factories.load(factories.rules_text(effective_from=None, jackpots=jackpots, tables=tables))

    rules = posted_high_hand_rules(room=high_hand.room, at=timezone.now())

    assert rules.version is not None and rules.high_hands == () and high_hand_notices(rules=rules) == []
    page = _flat(browser(compliance).get(reverse(RULES_URL)).content.decode())
    assert "Rules version 2 offers no High Hand." in page


def test_the_page_the_pdf_and_the_exports_say_every_statement(high_hand, compliance) -> None:
    person = browser(compliance)
    url = reverse(RULES_URL)

    page = person.get(url, {"room": "main"})
    assert page.status_code == 200
    text = _flat(page.content.decode())
    for words in STATEMENTS.values():
        assert words in text, words
    assert "Maximum contribution: <strong>$2.00</strong>" in text

    response = person.get(url, {"room": "main", "format": "pdf"})
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    for words in STATEMENTS.values():
        assert words in text, words
    for section in ("(§637a.16(b)(1))", "(§637a.16(b)(2))", "(§637a.16(b)(3))", "(§637a.16(b)(4))"):
        assert section in text, section
    for section in ("(§637a.16(b)(5))", "(§637a.16(b)(6))", "(§637a.16(b)(7))", "(§637a.16(i))"):
        assert section in text, section

    rows = _csv(person.get(url, {"room": "main", "export": "csv"}))
    assert rows[0] == [column.key for column in HIGH_HAND_RULES_COLUMNS] and len(rows) == 2
    row = dict(zip(rows[0], rows[1], strict=True))
    assert {key: row[key] for key in ("code", "tables", "time_zone", "maximum_contribution", "minimum_pot")} == {
        "code": "hh",
        "tables": "T1 T2",
        "time_zone": "America/New_York",
        "maximum_contribution": "2.00",
        "minimum_pot": "30.00",
    }
    assert (row["qualifying_every_minutes"], row["qualifying_first_starts"], row["contribution_base"]) == (
        "60",
        "10:00",
        "after_rake",
    )
    assert (row["min_players_dealt_in"], row["claim_within_days"], row["unclaimed"], row["show_player_name"]) == (
        "6",
        "7",
        "next_period",
        "False",
    )
    assert (row["qualifying_period"], row["ties"], row["presence_statement"], row["identification_statement"]) == (
        HOURLY,
        TIE_RULE,
        PRESENCE_STATEMENT,
        IDENTIFICATION_STATEMENT,
    )
    assert row["unclaimed_rule"] == STATEMENTS["unclaimed"] and row["time_limit"] == STATEMENTS["time_limit"]

    response = person.get(url, {"room": "main", "export": "xlsx"})
    assert response.status_code == 200
    sheet = list(load_workbook(io.BytesIO(response.content)).active.iter_rows(values_only=True))
    header = sheet[0]
    assert sheet[1][header.index("fund")] == "High Hand"
    assert sheet[1][header.index("maximum_contribution")] == 2.0  # a number, not text


def test_the_reports_page_links_the_high_hand_rules(high_hand, compliance) -> None:
    page = browser(compliance).get(reverse("admin:jackpots_badbeatreport_changelist")).content.decode()
    assert reverse(RULES_URL) in page and reverse(NOTICES_URL) in page


# --- The table notices ------------------------------------------------------------------------------


def test_each_table_offering_the_high_hand_gets_a_one_page_notice(high_hand, compliance) -> None:
    notices = high_hand_notices(rules=posted_high_hand_rules(room=high_hand.room, at=timezone.now()))
    assert [(notice.number, notice.game, [hh.jackpot for hh in notice.offers]) for notice in notices] == [
        ("T1", "Texas Hold'em", [high_hand]),
        ("T2", "Texas Hold'em", [high_hand]),
    ]

    person = browser(compliance)
    url = reverse(NOTICES_URL)
    page = _flat(person.get(url).content.decode())
    assert "Table T1 · Texas Hold'em" in page and "Table T2 · Texas Hold'em" in page and "print-link" in page
    response = person.get(url, {"format": "pdf"})
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 3  # the summary, then one page a table
    summary = " ".join(reader.pages[0].extract_text().split())
    assert "2 notices, one page a table" in summary and "2 T1 Texas Hold'em High Hand" in summary
    assert "3 T2 Texas Hold'em High Hand" in summary
    for number, pdf_page in zip(("T1", "T2"), reader.pages[1:], strict=True):
        text = " ".join(pdf_page.extract_text().split())
        assert f"Table {number}" in text and "High Hand jackpot" in text and "§637a.16(b)" in text
        for name in (
            "qualifying_hand",
            "min_players",
            "identification",
            "qualifying_period",
            "collection_period",
            "no_full_house",
            "ties",
            "time_limit",
            "presence",
            "unclaimed",
        ):
            assert STATEMENTS[name] in text, (number, name)


def test_a_table_no_longer_offering_the_high_hand_gets_no_notice(high_hand) -> None:
    tables = [{**table, "jackpots": [c for c in table["jackpots"] if c != "hh"]} for table in factories.RULES["tables"]]
    tables[1]["jackpots"] = ["hh"]
    factories.load(factories.rules_text(effective_from=None, tables=tables))

    notices = high_hand_notices(rules=posted_high_hand_rules(room=high_hand.room, at=timezone.now()))

    assert [notice.number for notice in notices] == ["T2"]


# --- Who reads them -----------------------------------------------------------------------------------


@pytest.mark.parametrize("role", [Role.FLOORPERSON, Role.SHIFT_SUPERVISOR, Role.SECURITY, Role.DEALER])
def test_the_floor_may_not_read_them_in_the_back_office(role, high_hand, make_staff) -> None:
    outsider = make_staff(role)
    outsider.is_staff = True  # even let in, the table of actions refuses them
    outsider.save(update_fields=["is_staff"])
    versions = RulesVersion.objects.count()
    person = browser(outsider)
    for url, query in (
        (RULES_URL, {}),
        (RULES_URL, {"format": "pdf"}),
        (RULES_URL, {"export": "csv"}),
        (NOTICES_URL, {}),
        (NOTICES_URL, {"format": "pdf"}),
    ):
        assert person.get(reverse(url), query).status_code == 403, (url, query)
    assert RulesVersion.objects.count() == versions


@pytest.mark.parametrize(
    "role", [Role.POKER_ROOM_MANAGER, Role.CAGE_CASHIER, Role.FINANCE, Role.COMPLIANCE, Role.ADMINISTRATOR]
)
def test_the_back_office_reads_them(role, high_hand, make_staff) -> None:
    person = browser(make_staff(role))
    for url in (RULES_URL, NOTICES_URL):
        assert person.get(reverse(url)).status_code == 200, url
