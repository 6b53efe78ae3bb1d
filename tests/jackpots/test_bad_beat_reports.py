"""The Bad Beat's reports (§637a.15): the posted rules and the table notices from the rules version in
effect, the fund statement whose opening plus movements is its closing to the cent, the claim file for
the regulator with the hands in words and every credential number, the display check and the claims of
a period, as pages, PDF, CSV and XLSX."""

from __future__ import annotations

import csv
import html
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from casino_backoffice.ledger.models import Account, AccountKind, TransferKind
from casino_backoffice.ledger.selectors import account_balance
from casino_backoffice.ledger.services import AccountSpec, account_open_as, transfer_post_atomic
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.exports import CLAIM_COLUMNS, DISPLAY_CHECK_COLUMNS, POSTED_RULES_COLUMNS, STATEMENT_COLUMNS
from jackpots.bad_beat.models import BadBeatShare, FundTransfer
from jackpots.bad_beat.reports import Movement, fund_statement, posted_rules, table_notices
from jackpots.bad_beat.services.claims import claim_deny
from jackpots.bad_beat.services.display import (
    display_adjust,
    display_witness,
    fund_transfer_approve,
    fund_transfer_prepare,
)
from jackpots.bad_beat.services.payouts import LEFTOVER_RULE
from jackpots.funds.accounts import jackpot_fund_account
from jackpots.funds.reports import card_words
from tables.selectors import gaming_day
from tests.conftest import PIN
from tests.jackpots.back_office import browser, paid_in_part, pdf_text
from tests.jackpots.bad_beat import discontinue_bb_for_bb2, fund_official
from tests.rake import factories


def _csv(response) -> list[list[str]]:
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


def _xlsx(response) -> list[tuple]:
    assert response.status_code == 200 and response["Content-Type"].startswith("application/vnd.openxmlformats")
    return list(load_workbook(io.BytesIO(response.content)).active.iter_rows(values_only=True))


def _keys(columns) -> list[str]:
    return [column.key for column in columns]


# --- The fund statement ---------------------------------------------------------------------------


@pytest.fixture
def fund_history(make_claim, bad_beat, supervisor, finance, security, floorperson, make_staff):
    """On one gaming day: $400.03 made official and a Bad Beat verified for all of it, its losing hand
    ($200.03) paid; $12.34 made official in error and reversed; $50.50 made official; the display
    adjusted twice; then bb discontinued and the $50.50 nobody is owed moved to bb2."""
    claim = paid_in_part(
        make_claim=make_claim, bad_beat=bad_beat, supervisor=supervisor, finance=finance, security=security
    )
    first = display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="st-adj-1")
    display_witness(adjustment=first, actor=floorperson, pin=PIN)
    fund_official(bad_beat, 1_234, finance)
    transfer_post_atomic(
        debit=account_open_as(AccountSpec(code="test:cage", name="Test cage", kind=AccountKind.CAGE)),
        credit=Account.objects.get(code=jackpot_fund_account(jackpot=bad_beat).code),
        amount_cents=1_234,
        kind=TransferKind.REVERSAL,
        idempotency_key="st-reversal",
        actor=finance,
    )
    fund_official(bad_beat, 5_050, finance)
    display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="st-adj-2")
    bb2 = discontinue_bb_for_bb2()
    prepared = fund_transfer_prepare(
        source=bad_beat,
        destination=bb2,
        amount_cents=5_050,
        reason="Approved procedure DP-1",
        actor=finance,
        pin=PIN,
        idempotency_key="st-ft",
    )
    fund_transfer_approve(transfer=prepared, actor=make_staff(Role.FINANCE), pin=PIN)
    return {"claim": claim, "bb2": bb2, "day": gaming_day(room=bad_beat.room, at=timezone.now())}


def test_the_statement_opening_plus_its_movements_is_its_closing_to_the_cent(fund_history, bad_beat) -> None:
    day = fund_history["day"]

    statement = fund_statement(jackpot=bad_beat, start=day - timedelta(days=3), end=day)

    assert statement.opening_cents == 0
    assert statement.contributions_cents == 40_003 + 1_234 + 5_050
    assert statement.payouts_cents == -20_003  # the losing hand: half of $400.03 and the odd cents
    assert statement.transfers_in_cents == 0
    assert statement.transfers_out_cents == -5_050
    assert statement.other_cents == -1_234  # the reversal
    assert statement.closing_cents == statement.opening_cents + statement.movements_cents == 20_000
    fund = Account.objects.get(code=jackpot_fund_account(jackpot=bad_beat).code)
    assert statement.closing_cents == account_balance(account=fund)  # what the winning hand and table still await
    assert [line.movement for line in statement.lines] == [
        Movement.CONTRIBUTION,
        Movement.PAYOUT,
        Movement.CONTRIBUTION,
        Movement.OTHER,
        Movement.CONTRIBUTION,
        Movement.TRANSFER_OUT,
    ]
    assert [line.balance_cents for line in statement.lines] == [40_003, 20_000, 21_234, 20_000, 25_050, 20_000]
    adjustments = [(a.amount_cents, a.previous_cents, a.official_cents, a.owed_cents) for a in statement.adjustments]
    assert adjustments == [(0, None, 20_000, 20_000), (5_050, 0, 25_050, 20_000)]

    into_bb2 = fund_statement(jackpot=fund_history["bb2"], start=day, end=day)
    assert (into_bb2.opening_cents, into_bb2.transfers_in_cents, into_bb2.closing_cents) == (0, 5_050, 5_050)


def test_a_statement_opens_on_what_the_days_before_left(fund_history, bad_beat) -> None:
    day = fund_history["day"]
    later = fund_statement(jackpot=bad_beat, start=day + timedelta(days=1), end=day + timedelta(days=2))
    assert (later.opening_cents, later.lines, later.closing_cents) == (20_000, (), 20_000)
    earlier = fund_statement(jackpot=bad_beat, start=day - timedelta(days=2), end=day - timedelta(days=1))
    assert (earlier.opening_cents, earlier.closing_cents, earlier.adjustments) == (0, 0, ())


def test_the_statement_page_pdf_csv_and_xlsx(fund_history, bad_beat, compliance) -> None:
    day = fund_history["day"].isoformat()
    person = browser(compliance)
    url = reverse("admin:jackpots_badbeatreport_statement", args=[bad_beat.pk])
    page = person.get(url, {"from": day, "to": day}).content.decode()
    assert "Contributions made official (cage verifications)" in page and "$462.87" in page
    assert "Closing balance" in page and "$200.00" in page and "-$12.34" in page

    rows = _csv(person.get(url, {"from": day, "to": day, "export": "csv"}))
    assert rows[0] == _keys(STATEMENT_COLUMNS)
    assert rows[1][2:] == ["Opening balance", "", "", "", "", "", "", "0.00"]
    assert [(row[2], row[7], row[8], row[9]) for row in rows[2:-1]] == [
        (Movement.CONTRIBUTION, "400.03", "", "400.03"),
        (Movement.PAYOUT, "", "200.03", "200.00"),
        (Movement.CONTRIBUTION, "12.34", "", "212.34"),
        (Movement.OTHER, "", "12.34", "200.00"),
        (Movement.CONTRIBUTION, "50.50", "", "250.50"),
        (Movement.TRANSFER_OUT, "", "50.50", "200.00"),
    ]
    assert rows[-1][2] == "Closing balance" and rows[-1][9] == "200.00"
    assert rows[3][5].startswith("Bad Beat payment")  # the document behind the transfer

    sheet = _xlsx(person.get(url, {"from": day, "to": day, "export": "xlsx"}))
    assert sheet[0][0] == "gaming_day" and sheet[0][1] == "posted_at (America/New_York)"
    assert sheet[-1][9] == Decimal("200.00")

    history = _csv(person.get(url, {"from": day, "to": day, "export": "csv", "part": "display"}))
    assert history[0][:6] == ["adjusted_at", "gaming_day", "amount", "previous", "official", "owed"]
    assert [row[2:6] for row in history[1:]] == [
        ["0.00", "", "200.00", "200.00"],
        ["50.50", "0.00", "250.50", "200.00"],
    ]
    assert history[1][8] and history[1][9]  # witnessed by, with the witness's credential number
    assert history[2][8] == ""  # the second adjustment awaits its witness

    text = pdf_text(person.get(url, {"from": day, "to": day, "format": "pdf"}).content)
    assert "Opening balance $0.00" in text and "Closing balance $200.00" in text and "never adjusted" in text


# --- The claim file and the claims ----------------------------------------------------------------


def test_the_claim_file_pdf_has_the_hands_in_words_and_every_credential_number(
    make_claim, bad_beat, supervisor, finance, security, floorperson, compliance
) -> None:
    claim = paid_in_part(
        make_claim=make_claim, bad_beat=bad_beat, supervisor=supervisor, finance=finance, security=security
    )
    response = browser(compliance).get(reverse("admin:jackpots_badbeatclaim_file", args=[claim.pk]))
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)

    for words in (
        "As Ks",
        "ace of spades, king of spades",
        "seven of diamonds, seven of clubs",
        "ace of diamonds, ace of clubs, king of clubs, seven of spades, seven of hearts",
        "Full house, aces full of kings",
        "Four of a kind, sevens",
        "Losing hand Full house, aces full of kings (both hole cards play) meets the minimum",
        "under rules version 1",
        'The losing hand is at least "Full house, aces full of tens"',
        "CAM-12 21:14:05",
        "Driver's license ••-555",  # masked, as on every page
        "$400.03",
        "$200.03",
        "still to pay $200.00",
    ):
        assert words in text, words
    for person in (floorperson, supervisor, finance, security):
        assert person.credential_number in text, person
    for step in ("opener", "verifier", "preparer", "payer"):
        assert step in text
    assert "jackpot:main:bb:fund" in text and "jackpot:main:bb:paid" in text  # the transfer that paid


def test_a_denied_claims_file_says_why_and_that_nothing_is_paid(make_claim, supervisor, compliance) -> None:
    claim = make_claim(board="Kd Kc Ac 7s 7h")
    claim_deny(claim=claim, reason="Kings full is below the posted minimum.", actor=supervisor, pin=PIN)
    text = pdf_text(browser(compliance).get(reverse("admin:jackpots_badbeatclaim_file", args=[claim.pk])).content)
    assert "Does not qualify" in text and "Kings full is below the posted minimum." in text
    assert "Denied: nothing is paid." in text and supervisor.credential_number in text


def test_the_claims_of_a_period_with_their_status_and_amounts(
    make_claim, bad_beat, supervisor, finance, security, compliance
) -> None:
    claim = paid_in_part(
        make_claim=make_claim, bad_beat=bad_beat, supervisor=supervisor, finance=finance, security=security
    )
    denied = make_claim(board="Kd Kc Ac 7s 7h")
    claim_deny(claim=denied, reason="Below the minimum.", actor=supervisor, pin=PIN)
    day = gaming_day(room=bad_beat.room, at=timezone.now())
    url = reverse("admin:jackpots_badbeatreport_claims")
    person = browser(compliance)

    rows = _csv(person.get(url, {"room": "main", "from": day.isoformat(), "to": day.isoformat(), "export": "csv"}))

    assert rows[0] == _keys(CLAIM_COLUMNS)
    found = {int(row[0]): dict(zip(rows[0], row, strict=True)) for row in rows[1:]}
    paid = found[claim.pk]
    assert (paid["status"], paid["qualifies"], paid["losing_hole"], paid["opened_by_credential"]) == (
        "Distribution prepared, shares to pay",
        "True",
        "As Ks",
        claim.opened_by.credential_number,
    )
    assert (paid["payout"], paid["distributed"], paid["paid"], paid["unpaid"]) == (
        "400.03",
        "400.03",
        "200.03",
        "200.00",
    )
    assert (found[denied.pk]["decision"], found[denied.pk]["reason"], found[denied.pk]["payout"]) == (
        "Denied",
        "Below the minimum.",
        "",
    )
    yesterday = (day - timedelta(days=1)).isoformat()
    assert len(_csv(person.get(url, {"room": "main", "from": yesterday, "to": yesterday, "export": "csv"}))) == 1
    sheet = _xlsx(person.get(url, {"room": "main", "from": day.isoformat(), "to": day.isoformat(), "export": "xlsx"}))
    assert sheet[0][0] == "id" and len(sheet) == 3
    payout = sheet[0].index("payout")
    assert sorted(row[payout] for row in sheet[1:] if row[payout] is not None) == [400.03]  # a number, not text


# --- The posted rules and the table notices -------------------------------------------------------


def test_the_posted_rules_are_generated_from_the_rules_version_in_effect(bad_beat, rated_table, compliance) -> None:
    rules = posted_rules(room=bad_beat.room, at=timezone.now())
    (posted,) = rules.bad_beats
    assert (posted.jackpot, posted.version.number, posted.tables) == (bad_beat, 1, {"T1": "Texas Hold'em"})
    assert posted.contribution.startswith(
        "A fixed $1.00 from each pot that reaches the minimum pot, the pot measured after the rake"
    )
    assert posted.maximum_contribution_cents == 100
    assert posted.minimum_pot.startswith("$20.00, the pot measured after the rake")
    (hand,) = posted.hands
    assert hand.requirements == (
        'The losing hand is at least "Full house, aces full of tens" and loses to a better hand: a tie does not qualify.',
        "At Texas Hold'em, both of the losing hand's hole cards play in it.",
        "At least 4 players dealt in, the losing and the winning hand included.",
        "Played at: Texas Hold'em.",
    )
    assert hand.shares == (
        ("the losing hand", "50%"),
        ("the winning hand", "25%"),
        ("the table share, split equally among every other player dealt in", "25%"),
    )
    assert "PGCB approval 2025-117" in posted.discontinuation and posted.current_cents is None

    person = browser(compliance)
    url = reverse("admin:jackpots_badbeatreport_rules")
    page = " ".join(person.get(url).content.decode().split())
    assert "Full house, aces full of tens" in page and "Maximum contribution: <strong>$1.00</strong>" in page
    text = pdf_text(person.get(url, {"format": "pdf"}).content)
    for words in (
        "(§637a.15(b)(1))",
        "(§637a.15(b)(2))",
        "(§637a.15(b)(3))",
        "after the rake",
        "PGCB approval 2025-117",
    ):
        assert words in text, words
    assert " ".join(LEFTOVER_RULE.split()) in text
    rows = _csv(person.get(url, {"export": "csv"}))
    assert rows[0] == _keys(POSTED_RULES_COLUMNS)
    row = dict(zip(rows[0], rows[1], strict=True))
    assert (row["code"], row["tables"], row["maximum_contribution"], row["minimum_pot"], row["contribution_base"]) == (
        "bb",
        "T1",
        "1.00",
        "20.00",
        "after_rake",
    )
    assert (row["losing_hand_at_least"], row["min_players_dealt_in"], row["table_share_percent"]) == (
        "Full house, aces full of tens",
        "4",
        "25",
    )
    assert _xlsx(person.get(url, {"export": "xlsx"}))[1][3] == "Bad Beat"


def test_a_new_rules_version_posts_its_own_words(bad_beat, rated_table) -> None:
    bb = {
        "code": "bb",
        "kind": "bad_beat",
        "contribution": {
            "method": "percent",
            "rate_percent": 2.5,
            "max": "3.00",
            "min_pot": "0.00",
            "no_flop_no_drop": False,
        },
        "reserve_percent": 10,
        "discontinuation": {"approved_on": "2026-02-01", "reference": "PGCB letter 2026-9"},
        "hands": [
            {
                "code": "bad_beat",
                "name": "Bad Beat",
                "games": ["holdem", "omaha_high"],
                "payout_percent": 100,
                "qualifier": {"losing_hand_at_least": "8888A", "both_hole_cards_play": False, "min_players": 6},
                "shares": {"losing_hand": 60, "winning_hand": 40},
            },
            {
                "code": "mini",
                "name": "Mini Bad Beat",
                "games": ["holdem"],
                "payout_percent": 20,
                "qualifier": {"losing_hand_at_least": "TTT22", "both_hole_cards_play": True, "min_players": 4},
                "shares": {"losing_hand": 100},
            },
        ],
    }
    tables = [{**table, "jackpots": []} if table["number"] != "T1" else table for table in factories.RULES["tables"]]
    factories.load(
        factories.rules_text(
            effective_from=None,
            jackpots=[bb, factories.RULES["jackpots"][1]],
            tables=tables,
        )
    )

    (posted,) = posted_rules(room=bad_beat.room, at=timezone.now()).bad_beats

    assert posted.version.number == 2
    assert posted.contribution.startswith(
        "2.5% of each pot that reaches the minimum pot, the pot measured after the rake"
    )
    assert "at most $3.00 from a pot" in posted.contribution and posted.maximum_contribution_cents == 300
    assert posted.minimum_pot == "No minimum: every pot contributes."
    assert posted.reserve.startswith("10% of the current amount is kept back from each payout")
    big, mini = posted.hands
    assert 'at least "Four of a kind, eights' in big.requirements[0]
    assert "At Omaha, every hand uses exactly two of its hole cards and three cards of the board (§637a.12(k))." in (
        big.requirements
    )
    assert not any("both of the losing hand's hole cards" in words for words in big.requirements)
    assert big.payout.startswith("100% of the current amount after 10% of it is kept back")
    assert mini.shares == (("the losing hand", "100%"),) and mini.payout.startswith("20% of the current amount")
    assert posted.discontinuation == (
        "The Executive Director approved the procedures for discontinuing this Bad Beat on 2026-02-01 "
        "(PGCB letter 2026-9) (§637a.15(i))."
    )
    assert posted.order.startswith("A hand that qualifies for more than one")
    # A table's notice says only what applies at its game.
    (notice,) = table_notices(rules=posted_rules(room=bad_beat.room, at=timezone.now()))
    ((_, hands),) = notice.offers
    assert [hand.hand.name for hand in hands] == ["Bad Beat", "Mini Bad Beat"]
    assert hands[0].requirements == (
        'The losing hand is at least "Four of a kind, eights, ace kicker" and loses to a better hand: a tie does not '
        "qualify.",
        "At least 6 players dealt in, the losing and the winning hand included.",
    )
    assert hands[1].requirements[1] == "Both of the losing hand's hole cards play in it."


def test_each_table_offering_a_bad_beat_gets_a_one_page_notice(bad_beat, rated_table, compliance) -> None:
    notices = table_notices(rules=posted_rules(room=bad_beat.room, at=timezone.now()))
    assert [(notice.number, notice.game) for notice in notices] == [("T1", "Texas Hold'em")]

    person = browser(compliance)
    url = reverse("admin:jackpots_badbeatreport_notices")
    page = " ".join(html.unescape(person.get(url).content.decode()).split())
    assert "Table T1 · Texas Hold'em" in page and "print-link" in page
    response = person.get(url, {"format": "pdf"})
    from pypdf import PdfReader

    pages = PdfReader(io.BytesIO(response.content)).pages
    assert len(pages) == 2  # the summary, then one page a table
    summary = " ".join(pages[0].extract_text().split())
    assert "1 notice, one page a table" in summary and "2 T1 Texas Hold'em Bad Beat" in summary
    text = pdf_text(response.content)
    assert "Bad Beat jackpot" in text and "At least 4 players dealt in" in text and "§637a.15(b)" in text


def test_card_words() -> None:
    assert card_words("As Ks") == "ace of spades, king of spades"
    assert card_words("Td 2c") == "ten of diamonds, two of clubs"


# --- The display check as a file ------------------------------------------------------------------


def test_the_display_check_exports(make_claim, bad_beat, finance, floorperson, compliance) -> None:
    fund_official(bad_beat, 7_777, finance)
    adjustment = display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="dc-1")
    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)
    fund_official(bad_beat, 1, finance)
    url = reverse("admin:jackpots_badbeatdisplaycheck_changelist")
    rows = _csv(browser(compliance).get(url, {"export": "csv"}))
    assert rows[0] == _keys(DISPLAY_CHECK_COLUMNS)
    row = dict(zip(rows[0], rows[1], strict=True))
    assert (row["code"], row["official"], row["owed"], row["available"], row["displayed"], row["matches"]) == (
        "bb",
        "77.78",
        "0.00",
        "77.78",
        "77.77",
        "False",
    )
    assert (row["adjusted_by_credential"], row["witnessed_by_credential"]) == (
        finance.credential_number,
        floorperson.credential_number,
    )
    assert _xlsx(browser(compliance).get(url, {"export": "xlsx"}))[1][2] == "bb"


def test_the_reports_refuse_who_may_not_read_them(bad_beat, make_staff) -> None:
    outsider = make_staff(Role.FLOORPERSON)
    outsider.is_staff = True
    outsider.save(update_fields=["is_staff"])
    person = browser(outsider)
    for url in (
        reverse("admin:jackpots_badbeatreport_claims") + "?export=csv",
        reverse("admin:jackpots_badbeatreport_rules") + "?format=pdf",
        reverse("admin:jackpots_badbeatreport_notices") + "?format=pdf",
        reverse("admin:jackpots_badbeatreport_statement", args=[bad_beat.pk]) + "?export=xlsx",
        reverse("admin:jackpots_badbeatdisplaycheck_changelist") + "?export=csv",
    ):
        assert person.get(url).status_code == 403, url
    assert not FundTransfer.objects.exists() and not BadBeatShare.objects.exists()
