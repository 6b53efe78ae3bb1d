"""Money reads as money everywhere in the admin ($1,234.56, never raw cents), the accounts list shows
balances in one query, names and roles read as words, and a cashier's lists carry their totals."""

from __future__ import annotations

import html
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from casino_backoffice.core.exports import pdf_bytes
from casino_backoffice.ledger.models import Account, AccountKind, Transfer, TransferKind
from casino_backoffice.ledger.services import transfer_post_atomic
from casino_backoffice.staff.roles import Role
from rake.services import round_record
from tables.models import Round
from tests.rake import factories


@pytest.fixture
def finance_browser(finance) -> Client:
    browser = Client()
    browser.force_login(finance)
    return browser


def _text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.fixture
def logged(rated_table, dealer) -> Round:
    """A $1,234.50 pot at T1: rake $5.00, bb $1.00, hh $2.00."""
    return round_record(
        table=rated_table,
        ended_at=factories.recently(),
        players_dealt_in=9,
        pot_cents=123450,
        uncalled_bet_cents=0,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key=str(uuid.uuid4()),
    ).round


def test_a_round_and_a_transfer_read_as_money_not_cents(logged, finance_browser) -> None:
    page = _text(finance_browser.get(reverse("admin:tables_round_change", args=[logged.pk])).content.decode())
    assert "Pot: $1,234.50" in page and "Uncalled bet: $0.00" in page and "Rake: $5.00" in page
    assert "cents" not in page.lower() and "123450" not in page
    transfer = Transfer.objects.filter(kind=TransferKind.RAKE).get()
    page = _text(finance_browser.get(reverse("admin:ledger_transfer_change", args=[transfer.pk])).content.decode())
    assert "Amount: $5.00" in page and "cents" not in page.lower()


def test_a_cashiers_lists_carry_totals_of_every_row_the_filters_select(logged, finance_browser) -> None:
    rounds = _text(finance_browser.get(reverse("admin:tables_round_changelist")).content.decode())
    assert "Totals of the 1 row selected by the filters: Pot $1,234.50 · Rake $5.00" in rounds
    transfers = _text(
        finance_browser.get(reverse("admin:ledger_transfer_changelist"), {"kind__exact": "drop"}).content.decode()
    )
    assert "Totals of the 2 rows selected by the filters: Amount $3.00" in transfers
    assert "Round " + str(logged.pk) in transfers  # the document in words, not a type and an id


def test_the_accounts_list_shows_balances_in_one_query_for_the_page(
    logged, finance, finance_browser, django_assert_max_num_queries
) -> None:
    source = Account.objects.create(code="walk:source", name="Source", kind=AccountKind.SOURCE)
    for n in range(30):
        box = Account.objects.create(code=f"walk:box:{n:02d}", name=f"Box {n}", kind=AccountKind.JACKPOT_BOX)
        transfer_post_atomic(
            debit=box,
            credit=source,
            amount_cents=100 + n,
            kind=TransferKind.DROP,
            idempotency_key=f"walk-{n}",
            actor=finance,
        )
    with django_assert_max_num_queries(10):  # the same whatever the number of accounts: no query per row
        page = finance_browser.get(reverse("admin:ledger_account_changelist"), {"q": "walk"}).content.decode()
    text = _text(page)
    assert "Box 0 Jackpot box $1.00" in text and "Box 29 Jackpot box $1.29" in text
    assert "Source Players' money at the table (pots) -$34.35" in text
    assert "Totals of the 31 rows selected by the filters: Balance $0.00" in text


def test_staff_read_as_names_and_roles_in_words(make_staff, administrator) -> None:
    supervisor = make_staff(Role.SHIFT_SUPERVISOR)
    supervisor.first_name, supervisor.last_name = "Sam", "Stone"
    supervisor.save(update_fields=["first_name", "last_name"])
    browser = Client()
    browser.force_login(administrator)
    text = _text(browser.get(reverse("admin:staff_user_changelist")).content.decode())
    assert f"Sam Stone {supervisor.credential_number} Poker shift supervisor" in text
    assert "By role All Dealer Floorperson Poker shift supervisor" in text and "cage_cashier" not in text
    assert "Get full name" not in text


def test_a_pdf_is_rendered_from_html() -> None:
    pdf = pdf_bytes("<html><body><p>Credential PA-TEST-0001</p></body></html>")
    assert pdf.startswith(b"%PDF")
