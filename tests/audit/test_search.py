"""``audit.search.chain_search`` and ``/audit/search/`` (issue 29, item 3): a chain found by gaming day
and table, seal, patron, the last four of an ID number, amount or ledger transfer, in the actor's
rooms; a cashier finds only the payments they made; nobody else searches."""

from __future__ import annotations

import pytest
from django.test import Client

from audit.search.selectors import SEARCH_LIMIT, chain_search, trace_url
from cage.models import CageVerification, Count, CountStatus, Transport
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.money import display_cents
from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.models import BadBeatClaim, BadBeatPayment
from jackpots.progressive.models import ProgressivePayment
from tests.audit.demo_day import DemoDay, demo_day_load


@pytest.fixture
def demo(db, administrator) -> DemoDay:
    return demo_day_load(administrator)


def _found(rows) -> set[tuple[str, int]]:
    return {(row.kind, row.id) for row in rows}


def test_by_seal_finds_the_transport_and_its_verification_with_their_traces(demo) -> None:
    # Given the demo's transport under seal DEMO-SEAL-1, verified at the cage
    transport = Transport.objects.get(seal="DEMO-SEAL-1")
    verification = CageVerification.objects.get(transport=transport)

    # When finance searches the seal as typed in lower case
    rows = chain_search(actor=demo.person("finance"), seal="demo-seal-1")

    # Then both documents, with the room, day, amount and the trace's URL
    assert [(r.kind, r.id, r.room, r.gaming_day, r.amount_cents, r.trace_url) for r in rows] == [
        (
            "transport",
            transport.pk,
            "main",
            demo.day,
            transport.declared_cents,
            f"/audit/trace/?transport={transport.pk}",
        ),
        (
            "verification",
            verification.pk,
            "main",
            demo.day,
            verification.counted_cents,
            f"/audit/trace/?verification={verification.pk}",
        ),
    ]


def test_by_gaming_day_and_table_finds_the_counts_that_stand_and_the_claims(demo) -> None:
    standing = Count.objects.filter(box__table__number="T1").exclude(status=CountStatus.SUPERSEDED)
    claims = BadBeatClaim.objects.filter(table__number="T2")
    compliance = demo.person("compliance")

    at_t1 = chain_search(actor=compliance, gaming_day=demo.day, table="T1")
    at_t2 = chain_search(actor=compliance, gaming_day=demo.day, table="t2")

    assert _found(at_t1) == {("count", count.pk) for count in standing} and len(at_t1) == 3
    assert {("claim", claim.pk) for claim in claims} <= _found(at_t2)
    assert {kind for kind, _ in _found(at_t2)} == {"claim", "payment"}  # the shares paid at T2
    assert chain_search(actor=compliance, gaming_day=demo.day.replace(year=demo.day.year - 1), table="T1") == []


def test_by_patron_and_by_the_last_four_of_their_id(demo) -> None:
    walt = BadBeatPayment.objects.get(patron_name="Walt Chen")
    finance = demo.person("finance")

    by_name = chain_search(actor=finance, patron="walt")
    by_id = chain_search(actor=finance, id_last4="0666")
    both = chain_search(actor=finance, patron="Walt", id_last4="0003")  # Ann Rivera's last four

    assert [(r.kind, r.id, r.amount_cents) for r in by_name] == [("payment", walt.pk, 382)]
    assert "Walt Chen (ID …-007)" in by_name[0].label
    ace = ProgressivePayment.objects.get(patron_name="Ace Winner")
    assert [(r.kind, r.id, r.amount_cents) for r in by_id] == [("hit_payment", ace.pk, 501480)]
    assert both == []


def test_by_amount_finds_every_kind_that_carries_it(demo) -> None:
    ann = BadBeatPayment.objects.get(patron_name="Ann Rivera")

    rows = chain_search(actor=demo.person("finance"), amount_cents=766)

    assert ("payment", ann.pk) in _found(rows)
    assert all(row.amount_cents == 766 for row in rows)


def test_by_transfer_id(demo) -> None:
    transfer = Transfer.objects.filter(debit__code__contains=":main:").order_by("pk").first()
    assert transfer is not None

    rows = chain_search(actor=demo.person("compliance"), transfer=transfer.pk)

    assert [(r.kind, r.id, r.amount_cents, r.trace_url) for r in rows] == [
        ("transfer", transfer.pk, transfer.amount_cents, trace_url("transfer", transfer.pk))
    ]


def test_another_rooms_people_find_nothing_of_this_room(demo, make_staff) -> None:
    # Given compliance and finance of room a only
    theirs = [make_staff(role, rooms=[demo.other]) for role in (Role.COMPLIANCE, Role.FINANCE)]
    transfer = Transfer.objects.filter(debit__code__contains=":main:").order_by("pk").first()
    assert transfer is not None

    for person in theirs:
        # Then the main room's seal, patrons, amounts, day and transfer are not there for them
        assert chain_search(actor=person, seal="DEMO-SEAL-1") == []
        assert chain_search(actor=person, patron="a") == []
        assert chain_search(actor=person, amount_cents=766) == []
        assert chain_search(actor=person, gaming_day=demo.day, table="T1") == []
        assert chain_search(actor=person, transfer=transfer.pk) == []
        assert chain_search(actor=person, room=demo.main, seal="DEMO-SEAL-1") == []
    # And a search of room a by whoever works everywhere finds none of main's
    assert chain_search(actor=demo.person("finance"), room=demo.other, seal="DEMO-SEAL-1") == []


def test_a_cashier_finds_only_the_payments_they_made(demo, make_staff) -> None:
    cashier = demo.person("cashier")
    ace = ProgressivePayment.objects.get(patron_name="Ace Winner")

    # The progressive payout they paid; the Bad Beat shares security paid, the seal's transport: not theirs
    assert [(r.kind, r.id) for r in chain_search(actor=cashier, id_last4="0666")] == [("hit_payment", ace.pk)]
    assert chain_search(actor=cashier, patron="Walt") == []
    assert chain_search(actor=cashier, seal="DEMO-SEAL-1") == []
    assert chain_search(actor=cashier, gaming_day=demo.day, table="T1") == []
    # Another cashier finds not even that one
    assert chain_search(actor=make_staff(Role.CAGE_CASHIER), id_last4="0666") == []


def test_nobody_else_searches(demo, make_staff) -> None:
    for role in (Role.FLOORPERSON, Role.DEALER, Role.SECURITY, Role.SURVEILLANCE, Role.ADMINISTRATOR):
        with pytest.raises(ActionNotPermitted, match=r"^Only finance or compliance may search the chains"):
            chain_search(actor=make_staff(role), seal="DEMO-SEAL-1")


def test_no_criterion_finds_nothing_and_a_search_is_bounded(demo) -> None:
    finance = demo.person("finance")
    assert chain_search(actor=finance) == []
    assert chain_search(actor=finance, room=demo.main) == []
    assert len(chain_search(actor=finance, patron="")) == 0
    assert SEARCH_LIMIT == 50


# --- The page ------------------------------------------------------------------------------------


def _page(person, query: dict[str, str]):
    browser = Client()
    browser.force_login(person)
    return browser.get("/audit/search/", query)


def test_the_page_shows_the_results_with_links_to_their_traces(demo) -> None:
    transport = Transport.objects.get(seal="DEMO-SEAL-1")

    assert transport.declared_cents is not None
    typed = display_cents(transport.declared_cents)  # "$127.60", as a cashier types it

    response = _page(demo.person("compliance"), {"seal": "DEMO-SEAL-1", "amount_cents": typed})

    page = response.content.decode()
    assert response.status_code == 200
    assert f'href="/audit/trace/?transport={transport.pk}"' in page and typed in page


def test_a_day_asked_offers_its_package_to_finance_and_compliance_only(demo) -> None:
    query = {"gaming_day": demo.day.isoformat(), "table": "T1", "room": "main"}
    link = f'href="/audit/days/{demo.main.pk}/{demo.day}/package.zip"'

    assert link in _page(demo.person("compliance"), query).content.decode()
    assert link not in _page(demo.person("cashier"), query).content.decode()


def test_the_page_takes_amounts_as_the_money_inputs_do(demo) -> None:
    response = _page(demo.person("finance"), {"amount_cents": "$5,014.80"})

    assert response.status_code == 200
    assert "Ace Winner" in response.content.decode()


BAD_INPUTS = [
    ({"amount_cents": "12.345"}, "has a fraction of a cent"),
    ({"amount_cents": "twelve"}, "amount"),
    ({"gaming_day": "2026-13-40"}, "Give the gaming day as YYYY-MM-DD."),
    ({"id_last4": "12"}, "Give the last four characters of the ID number."),
    ({"transfer": "x"}, "Enter a whole number."),
    ({"table": ""}, "Give at least one thing to look for"),
]


def test_a_bad_input_is_a_form_error(demo) -> None:
    finance = demo.person("finance")
    for query, error in BAD_INPUTS:
        response = _page(finance, query)

        page = response.content.decode()
        assert response.status_code == 400, query
        assert error in page and 'id="search-results"' not in page, query


def test_the_page_answers_each_role(demo, make_staff) -> None:
    answers = {
        Role.FINANCE: 200,
        Role.COMPLIANCE: 200,
        Role.CAGE_CASHIER: 200,
        Role.FLOORPERSON: 403,
        Role.DEALER: 403,
        Role.SECURITY: 403,
        Role.ADMINISTRATOR: 403,
    }
    for role, status in answers.items():
        assert _page(make_staff(role), {"seal": "DEMO-SEAL-1"}).status_code == status, role


def test_the_page_asks_a_visitor_to_sign_in(db) -> None:
    response = Client().get("/audit/search/")
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_a_search_of_every_kind_reads_a_fixed_number_of_queries(demo, django_assert_max_num_queries) -> None:
    # An amount is carried by seven kinds: one query each (its rows, their room and documents joined),
    # whatever the number of rows found, and the person's rooms and roles.
    finance = demo.person("finance")
    with django_assert_max_num_queries(12):
        rows = chain_search(actor=finance, amount_cents=766)
    assert rows
