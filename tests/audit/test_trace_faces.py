"""The trace's faces (issue 29, item 2): ``GET /api/trace/`` answers the trace as JSON with the SHA-256
of its content, the PDF prints the same hash and the same amounts, the page shows it to those who may
read it; asked wrongly, of nothing, of another room or by someone who may not, each is refused and
changes nothing."""

from __future__ import annotations

import io
import re
from datetime import time

import pytest
from django.test import Client
from pypdf import PdfReader
from rest_framework.test import APIClient

from audit.trace.build import trace_of
from audit.trace.render import trace_json, trace_pdf, trace_sha256
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.money import display_cents, format_cents
from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.models import BadBeatPayment
from tables.services import room_staff_set, room_upsert


def _api(person) -> APIClient:
    client = APIClient()
    client.force_authenticate(person)
    return client


def _by(payer_position: int) -> BadBeatPayment:
    return BadBeatPayment.objects.order_by("share__position")[payer_position]


def _snapshot() -> tuple[int, int]:
    return Transfer.objects.count(), Signature.objects.count()


def test_the_json_is_the_trace_with_the_hash_of_its_content(paid_bad_beat, compliance) -> None:
    payment = _by(2)

    response = _api(compliance).get("/api/trace/", {"payment": payment.pk})

    assert response.status_code == 200, response.content
    body = response.json()
    trace = trace_of(start="payment", pk=payment.pk, actor=compliance)
    assert body["sha256"] == trace_sha256(trace) and re.fullmatch(r"[0-9a-f]{64}", body["sha256"])
    assert {key: value for key, value in body.items() if key != "sha256"} == trace_json(trace)
    assert body["start"] == f"payment:{payment.pk}" and body["room"] == "main" and body["reconciles"] is True
    (paid,) = [link for link in body["links"] if link["step"] == "payment"]
    assert paid["amount"] == format_cents(payment.share.amount_cents)
    assert {"name": "ID", "value": "License ••••2345"} in paid["details"]
    assert [(t["kind"], t["amount"]) for t in paid["transfers"]] == [
        ("payout", format_cents(payment.share.amount_cents))
    ]


def test_the_pdf_prints_the_hash_and_the_amounts_of_the_json(paid_bad_beat, finance) -> None:
    payment = _by(2)
    trace = trace_of(start="payment", pk=payment.pk, actor=finance)
    browser = Client()
    browser.force_login(finance)

    response = browser.get("/audit/trace/pdf/", {"payment": payment.pk})

    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    flat = re.sub(r"\s+", "", text)
    assert trace_sha256(trace) in flat  # the hash printed is the JSON's
    body = _api(finance).get("/api/trace/", {"payment": payment.pk}).json()
    assert body["sha256"] in flat
    for link in body["links"]:
        if link["amount"] is not None:
            cents = int(link["amount"].replace(".", "").replace("-", ""))
            assert display_cents(cents).replace(",", "") in flat.replace(",", ""), link["label"]
        for transfer in link["transfers"]:
            assert transfer["debit"] in flat and transfer["credit"] in flat
    assert trace_pdf(trace).startswith(b"%PDF")


def test_the_page_shows_the_chain_its_checks_and_its_hash(paid_bad_beat, compliance) -> None:
    payment = _by(2)
    browser = Client()
    browser.force_login(compliance)

    page = browser.get("/audit/trace/", {"payment": payment.pk})
    form = browser.get("/audit/trace/", {"start": "payment", "id": payment.pk})

    assert page.status_code == 200 and form.status_code == 200
    text = page.content.decode()
    trace = trace_of(start="payment", pk=payment.pk, actor=compliance)
    assert trace_sha256(trace) in text and trace_sha256(trace) in form.content.decode()
    assert "The amounts reconcile at every step." in text
    assert payment.share.name in text and "License ••••2345" in text
    assert "PA-12345" not in text  # only the last four of the ID number


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ({}, 400, "trace_asked_wrongly"),
        ({"payment": "1", "claim": "1"}, 400, "trace_asked_wrongly"),
        ({"payment": "one"}, 400, "trace_asked_wrongly"),
        ({"payment": "999999"}, 404, "not_found"),
        ({"round": "999999"}, 404, "not_found"),
    ],
)
def test_a_trace_asked_wrongly_or_of_nothing_is_refused(paid_bad_beat, compliance, query, status, code) -> None:
    before = _snapshot()

    response = _api(compliance).get("/api/trace/", query)

    assert response.status_code == status, response.content
    assert response.json()["code"] == code and response.json()["detail"]
    assert _snapshot() == before


def test_a_cashier_reads_only_the_payments_they_made_and_others_nothing(
    paid_bad_beat, cashier, security, dealer, floorperson
) -> None:
    by_cashier, by_security = _by(2), _by(0)
    before = _snapshot()

    assert _api(cashier).get("/api/trace/", {"payment": by_cashier.pk}).status_code == 200
    theirs = _api(cashier).get("/api/trace/", {"payment": by_security.pk})
    claim = _api(cashier).get("/api/trace/", {"claim": paid_bad_beat.pk})
    refused = {
        person.username: _api(person).get("/api/trace/", {"payment": by_cashier.pk})
        for person in (security, dealer, floorperson)
    }

    assert (theirs.status_code, theirs.json()["code"]) == (403, "not_your_payment")
    assert (claim.status_code, claim.json()["code"]) == (403, "not_your_payment")
    assert "compliance" in theirs.json()["detail"].lower() or "Compliance" in theirs.json()["detail"]
    for name, response in refused.items():
        assert (response.status_code, response.json()["code"]) == (403, "not_permitted"), name
    page = Client()
    page.force_login(dealer)
    answered = page.get("/audit/trace/", {"payment": by_cashier.pk})
    assert by_cashier.share.name not in answered.content.decode()
    assert _snapshot() == before


def test_another_rooms_trace_is_not_there_for_them(paid_bad_beat, make_staff, administrator) -> None:
    room_a = room_upsert(
        code="a", name="Room A", timezone_name="America/New_York", gaming_day_starts=time(6), actor=administrator
    )
    of_a = make_staff(Role.COMPLIANCE, rooms=[room_a])
    room_staff_set(room=room_a, staff=[of_a], actor=administrator)
    before = _snapshot()

    response = _api(of_a).get("/api/trace/", {"payment": _by(2).pk})
    page = Client()
    page.force_login(of_a)
    shown = page.get("/audit/trace/", {"payment": _by(2).pk})

    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    assert shown.status_code == 404 and _by(2).share.name not in shown.content.decode()
    assert _snapshot() == before


def test_a_trace_costs_a_bounded_number_of_queries(paid_bad_beat, compliance, django_assert_max_num_queries) -> None:
    payment = _by(2)
    round_ = paid_bad_beat.round

    with django_assert_max_num_queries(40):
        trace_of(start="payment", pk=payment.pk, actor=compliance)
    with django_assert_max_num_queries(60):
        trace_of(start="claim", pk=paid_bad_beat.pk, actor=compliance)
    if round_ is not None:
        with django_assert_max_num_queries(60):
            trace_of(start="round", pk=round_.pk, actor=compliance)


def test_the_admin_pages_of_payments_and_counts_link_to_their_trace(paid_bad_beat, compliance, cashier) -> None:
    from django.urls import reverse

    from cage.models import Count

    by_cashier, by_security = _by(2), _by(0)
    count = Count.objects.get()
    officer, cage = Client(), Client()
    officer.force_login(compliance)
    cage.force_login(cashier)

    def page(client: Client, name: str, pk: int) -> str:
        response = client.get(reverse(name, args=[pk]))
        assert response.status_code == 200, (name, response.status_code)
        return response.content.decode()

    assert f"/audit/trace/?payment={by_security.pk}" in page(
        officer, "admin:jackpots_badbeatpayment_change", by_security.pk
    )
    assert f"/audit/trace/?count={count.pk}" in page(officer, "admin:cage_count_change", count.pk)
    # A cashier is shown the link of a payment they made, not of another's, nor of a count
    assert f"/audit/trace/?payment={by_cashier.pk}" in page(cage, "admin:jackpots_badbeatpayment_change", by_cashier.pk)
    assert "/audit/trace/" not in page(cage, "admin:jackpots_badbeatpayment_change", by_security.pk)
    assert "/audit/trace/" not in page(cage, "admin:cage_count_change", count.pk)


def test_every_admin_page_of_the_chain_links_to_its_trace(paid_bad_beat, compliance) -> None:
    from django.urls import reverse

    from cage.models import Box, CageVerification, Count, Transport
    from tables.models import Round

    payment = _by(0)
    transfer = Transfer.objects.order_by("-pk").first()
    documents = {
        "round": ("admin:tables_round_change", Round.objects.order_by("pk").first()),
        "box": ("admin:cage_box_change", Box.objects.get(code="T1-bb")),
        "count": ("admin:cage_count_change", Count.objects.get()),
        "transport": ("admin:cage_transport_change", Transport.objects.get()),
        "verification": ("admin:cage_cageverification_change", CageVerification.objects.get()),
        "claim": ("admin:jackpots_badbeatclaim_change", paid_bad_beat),
        "payment": ("admin:jackpots_badbeatpayment_change", payment),
        "transfer": ("admin:ledger_transfer_change", transfer),
    }
    officer = Client()
    officer.force_login(compliance)

    for start, (name, document) in documents.items():
        response = officer.get(reverse(name, args=[document.pk]))
        assert response.status_code == 200, (name, response.status_code)
        page = response.content.decode()
        assert f'href="/audit/trace/?{start}={document.pk}" class="trace-link"' in page, start
        # The admin's own tools stay beside it
        assert "historylink" in page, start


def test_a_cashier_opens_the_page_of_their_payment_and_not_of_another(paid_bad_beat, cashier) -> None:
    browser = Client()
    browser.force_login(cashier)

    theirs = browser.get("/audit/trace/", {"payment": _by(2).pk})
    other = browser.get("/audit/trace/", {"payment": _by(0).pk})

    assert theirs.status_code == 200 and "License ••••2345" in theirs.content.decode()
    assert other.status_code == 403 and _by(0).share.name not in other.content.decode().split("errornote")[0]
    assert "A cage cashier reads the trace of a payment they made" in other.content.decode()
