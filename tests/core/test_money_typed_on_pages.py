"""A slip of the finger at a money field is refused on the page, with what to type instead, and
changes nothing: the cage's verify screen, the dealer's count, the rake calculator and the round log,
each driven the way a person does (a form posted), with the table of tests/money_inputs.py."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from cage.models import Box, CageVerification, Count
from cage.services import boxes_sync, count_record, count_witness, notice_record, transport_create
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.models import Signature
from tables.models import Round
from tests.conftest import PIN
from tests.money_inputs import REFUSED


def _browser(person) -> Client:
    browser = Client()
    browser.force_login(person)
    return browser


def _key(page: str) -> str:
    return re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)


def _text(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", page).replace("&quot;", '"').replace("&#x27;", "'").split())


def _box(table, code: str) -> Box:
    boxes_sync(room=table.room)
    return Box.objects.select_related("account", "table", "room", "jackpot").get(room=table.room, code=code)


def _before() -> tuple[int, int, int, int]:
    return CageVerification.objects.count(), Count.objects.count(), Transfer.objects.count(), Signature.objects.count()


@pytest.fixture
def container(closed_table, dealer, floorperson, security, key):
    """T1-drop counted $15.00 and T1-bb $3.00, witnessed and sealed in S-1: $18.00 declared."""
    notice_record(
        room=closed_table.room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key()
    )
    counts = []
    for code, cents in (("T1-drop", 1500), ("T1-bb", 300)):
        count = count_record(
            box=_box(closed_table, code), counted_cents=cents, actor=dealer, pin=PIN, idempotency_key=key()
        )
        counts.append(count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference=f"CAM-{code}"))
    return transport_create(
        room=closed_table.room, seal="S-1", counts=counts, actor=security, pin=PIN, idempotency_key=key()
    )


def test_the_cage_refuses_23_90_and_makes_nothing_official(container, cashier) -> None:
    """The finding: "23,90" at the cage was read as $2,390.00 and made official at once."""
    browser = _browser(cashier)
    url = reverse("admin:cage_transport_verify", args=[container.pk])
    for typed, says in REFUSED:
        before = _before()
        page = browser.get(url).content.decode()
        refused = browser.post(url, {"aggregate": typed, "pin": PIN, "idempotency_key": _key(page)})
        assert refused.status_code == 200
        assert says in _text(refused.content.decode()), typed
        assert _before() == before, typed
    page = browser.get(url).content.decode()
    browser.post(url, {"aggregate": "$18.00", "pin": PIN, "idempotency_key": _key(page)})
    assert CageVerification.objects.get().counted_cents == 1800


def test_a_dealers_count_refuses_a_comma_for_a_point(closed_table, dealer) -> None:
    drop = _box(closed_table, "T1-drop")
    browser = _browser(dealer)
    form = browser.get(reverse("floor:cage-count"), {"box": drop.pk}).content.decode()
    before = _before()
    refused = browser.post(
        reverse("floor:cage-count"), {"box": drop.pk, "counted": "15,00", "pin": PIN, "idempotency_key": _key(form)}
    )
    assert "write 15.00 or 1,500.00" in _text(refused.content.decode())
    assert _before() == before


@pytest.mark.parametrize(("typed", "shown"), [("$40", "$40.00"), ("1,250", "$1,250.00"), ("1,250.00", "$1,250.00")])
def test_the_rake_calculator_reads_what_every_other_field_reads(rated_table, dealer, typed, shown) -> None:
    """The finding: the calculator took "1,250" and refused "$40"; both are amounts everywhere now."""
    page = _browser(dealer).get("/floor/rake-calculator/", {"table": rated_table.pk, "pot": typed, "flop_dealt": "yes"})
    html = page.content.decode()
    assert shown in html and "not an amount" not in html


def test_the_rake_calculator_refuses_other_digits_with_what_to_type(rated_table, dealer) -> None:
    html = (
        _browser(dealer)
        .get("/floor/rake-calculator/", {"table": rated_table.pk, "pot": "\u0661\u0662\u0663", "flop_dealt": "yes"})
        .content.decode()
    )
    assert "digits other than 0-9" in _text(html) and "$123.00" not in html


def test_the_round_log_refuses_23_90_and_records_no_round(rated_table, dealer) -> None:
    browser = _browser(dealer)
    form = browser.get(reverse("floor:round-log"), {"table": rated_table.pk}).content.decode()
    fields = dict(re.findall(r'name="([a-z_]+)" value="([^"]*)"', form))
    refused = browser.post(
        reverse("floor:round-log"),
        {**fields, "table": rated_table.pk, "pot": "23,90", "players_dealt_in": "6", "flop_dealt": "yes", "pin": PIN},
    )
    assert "write 23.90 or 2,390.00" in _text(refused.content.decode())
    assert not Round.objects.exists()
