"""The value chips collected are a number of chips, and the page says so (§655a.8(b), §657a.8(b):
"verify that the number of value chips wagered equals the number of Progressive Payout Wagers
accepted"). Beside dollar wagers and a number pad, an amount typed into it ("7.00", "$7") was read as
chips; it is refused with what to type instead, and the pad of that field has no point key."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from jackpots.progressive.models import ProgressiveRound
from tables.models import Table

pytestmark = pytest.mark.django_db


def _browser(person) -> Client:
    browser = Client()
    browser.force_login(person)
    return browser


def _form_url(table: Table) -> str:
    return f"{reverse('floor:progressive-round')}?table={table.pk}"


def _body(page: str, table: Table, chips: str) -> dict[str, str]:
    key = re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)
    return {
        "table": str(table.pk),
        "idempotency_key": key,
        "seat_1": "100",
        "seat_2": "500",
        "seat_4": "100",
        "chips_collected": chips,
    }


@pytest.mark.parametrize("typed", ["7.00", "$7", "3.", "1,000", "\u0663"])
def test_an_amount_typed_as_chips_is_refused_with_what_to_type(stud, dealer, typed) -> None:
    browser = _browser(dealer)
    page = browser.get(_form_url(stud)).content.decode()
    refused = browser.post(reverse("floor:progressive-round"), _body(page, stud, typed)).content.decode()
    assert "is not a number of chips: type how many value chips you collected, such as 3, not dollars." in refused
    assert not ProgressiveRound.objects.exists()


def test_the_page_asks_for_a_number_of_chips_on_a_pad_without_a_point(stud, dealer) -> None:
    page = _browser(dealer).get(_form_url(stud)).content.decode()
    assert "Number of value chips collected" in page and "a number of chips, such as 3, not dollars" in page
    pad = page[page.index("Number of value chips collected") :]
    pad = pad[pad.index("data-number-pad-keys") : pad.index("</div>", pad.index("data-number-pad-keys"))]
    assert 'data-key="."' not in pad and 'data-key="0"' in pad


def test_a_count_of_chips_is_recorded_as_typed(stud, dealer) -> None:
    browser = _browser(dealer)
    page = browser.get(_form_url(stud)).content.decode()
    browser.post(reverse("floor:progressive-round"), _body(page, stud, "3"))
    assert ProgressiveRound.objects.get().chips_collected == 3
