"""A Bad Beat dollar followed from its rounds to the patron (issue 29): the rounds dropped $1.00 each into
the table's Bad Beat box, the box was counted, witnessed, carried under seal and verified at the cage, the
fund's official $3.00 paid out as the claim's shares, each share to its patron."""

from __future__ import annotations

import hashlib

import pytest

from audit.exceptions import NotYourPayment, TraceAskedWrongly, TraceNotFound
from audit.trace.build import trace_asked, trace_of
from audit.trace.render import canonical_bytes
from cage.models import Box
from cage.services import boxes_sync, cage_verify, count_record, count_witness, notice_record, transport_create
from casino_backoffice.staff.exceptions import ActionNotPermitted
from jackpots.bad_beat.models import BadBeatPayment
from jackpots.bad_beat.services.claims import claim_verify
from jackpots.bad_beat.services.payouts import distribution_prepare, share_pay
from tables.models import Round
from tests.cage.helpers import client_for
from tests.conftest import PIN
from tests.jackpots.back_office import pdf_text


@pytest.fixture
def paid_bad_beat(closed_table, make_claim, dealer, floorperson, security, cashier, supervisor, finance, key):
    """T1's 3 rounds dropped $3.00 into its Bad Beat box; counted, carried, verified; a claim paid in six
    shares, the first two at the table by security, the other four at the cage by the cashier."""
    room = closed_table.room
    boxes_sync(room=room)
    box = Box.objects.get(room=room, code="T1-bb")
    notice_record(room=room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key())
    count = count_record(box=box, counted_cents=300, actor=dealer, pin=PIN, idempotency_key=key())
    count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-12 14:02")
    transport = transport_create(room=room, seal="S-1", counts=[count], actor=security, pin=PIN, idempotency_key=key())
    cage_verify(transport=transport, counted=300, actor=cashier, pin=PIN, idempotency_key=key())
    claim = make_claim()
    claim_verify(claim=claim, actor=supervisor, pin=PIN)
    distribution = distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key=key())
    for share in distribution.shares.order_by("position"):
        payer = security if share.position <= 2 else cashier
        share_pay(share=share, id_type="License", id_number="PA-12345", actor=payer, pin=PIN, idempotency_key=key())
    return claim


def test_a_bad_beat_payment_traced_to_its_patron_and_back_to_the_box(paid_bad_beat, compliance) -> None:
    payment = BadBeatPayment.objects.filter(share__distribution__claim=paid_bad_beat).order_by("share__position")[2]

    trace = trace_of(start="payment", pk=payment.pk, actor=compliance)

    steps = {step: [link.amount_cents for link in links] for step, links in trace.steps()}
    assert steps["claim"] == [paid_bad_beat.pot_cents]
    assert steps["official"] == [300]  # the fund's official money: the cage's verification of the box
    assert steps["decision"] == [300] and steps["distribution"] == [300]
    # The payment's own share and its patron; the other shares' payments are other chains
    assert steps["share"] == [payment.share.amount_cents] and steps["payment"] == [payment.share.amount_cents]
    paid = trace.of("payment")[0]
    assert dict(paid.details)["ID"] == "License ••••2345"
    assert dict(paid.details)["patron"] == payment.share.name
    assert [(t.kind, t.amount_cents) for t in paid.transfers] == [("payout", payment.share.amount_cents)]
    assert [(s.purpose, s.role) for s in paid.signatures] == [("payer", "Cage cashier")]
    # Every check reconciles: the shares add up to the distribution, the distribution to the payout
    assert [(c.step, c.reconciles) for c in trace.checks] == [
        ("decision", True),
        ("distribution", True),
        ("share", True),
    ]


def test_a_round_traced_through_its_box_count_transport_and_verification(paid_bad_beat, compliance) -> None:
    round_ = Round.objects.filter(table__number="T1").order_by("pk").first()

    trace = trace_of(start="round", pk=round_.pk, actor=compliance)

    assert [link.amount_cents for link in trace.of("round")] == [12000]
    assert sorted(link.amount_cents for link in trace.of("drop")) == [100, 200]
    assert sorted(link.label.split(":")[0] for link in trace.of("box")) == ["Box T1-bb", "Box T1-drop", "Box T1-hh"]
    # Only the Bad Beat box was counted, carried and verified: $3.00, the three rounds' drops
    assert [link.amount_cents for link in trace.of("count")] == [300]
    assert [link.amount_cents for link in trace.of("transport")] == [300]
    assert [link.amount_cents for link in trace.of("verification")] == [300]
    round_link = trace.of("round")[0]
    assert sorted((t.kind, t.amount_cents) for t in round_link.transfers) == [
        ("drop", 100),
        ("drop", 200),
        ("rake", 500),
    ]
    count = trace.of("count")[0]
    assert {s.role for s in count.signatures} >= {"Dealer", "Floorperson"}
    assert all(check.reconciles for check in trace.checks), trace.checks


def test_who_reads_which_trace(paid_bad_beat, compliance, finance, cashier, security, floorperson) -> None:
    payments = list(BadBeatPayment.objects.order_by("share__position"))
    by_cashier, by_security = payments[2], payments[0]
    assert trace_of(start="payment", pk=by_security.pk, actor=finance).start == f"payment:{by_security.pk}"
    # A cashier reads the trace of a payment they made, and no other trace
    assert trace_of(start="payment", pk=by_cashier.pk, actor=cashier).of("payment")
    with pytest.raises(NotYourPayment):
        trace_of(start="payment", pk=by_security.pk, actor=cashier)
    with pytest.raises(NotYourPayment):
        trace_of(start="claim", pk=paid_bad_beat.pk, actor=cashier)
    for nobody in (security, floorperson):
        with pytest.raises(ActionNotPermitted):
            trace_of(start="payment", pk=by_security.pk, actor=nobody)
    with pytest.raises(TraceNotFound):
        trace_of(start="payment", pk=by_security.pk + 1000, actor=compliance)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({}, "Name exactly one document to trace from"),
        ({"round": "1", "box": "2"}, "This asks for 2."),
        ({"payment": "12a"}, "payment='12a': a document is named by its id"),
        ({"payment": "0"}, "a whole number"),
    ],
)
def test_a_trace_asked_wrongly_says_what_is_wrong(params, message) -> None:
    with pytest.raises(TraceAskedWrongly, match=message):
        trace_asked(params)


def test_the_json_and_the_pdf_of_a_trace_agree(paid_bad_beat, finance, client) -> None:
    payment = BadBeatPayment.objects.order_by("share__position")[3]
    api = client_for(finance)

    answered = api.get(f"/api/trace/?payment={payment.pk}")

    assert answered.status_code == 200, answered.json()
    body = answered.json()
    content = {key: value for key, value in body.items() if key != "sha256"}
    assert hashlib.sha256(canonical_bytes(content)).hexdigest() == body["sha256"]
    client.force_login(finance)
    pdf = client.get(f"/audit/trace/pdf/?payment={payment.pk}")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = pdf_text(pdf.content).replace("\n", " ")
    assert body["sha256"] in text.replace(" ", "")
    for step in body["steps"]:
        for link in step["links"]:
            if link["amount"]:
                assert link["amount"] in text, link
    page = client.get(f"/audit/trace/?payment={payment.pk}").content.decode()
    assert body["sha256"] in page and "Every step reconciles." in page


def test_the_api_refuses_what_it_must(paid_bad_beat, cashier, security, compliance) -> None:
    by_security = BadBeatPayment.objects.order_by("share__position")[0]
    assert client_for(security).get(f"/api/trace/?payment={by_security.pk}").status_code == 403
    refused = client_for(cashier).get(f"/api/trace/?payment={by_security.pk}")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_your_payment")
    asked = client_for(compliance).get("/api/trace/?payment=1&round=2")
    assert (asked.status_code, asked.json()["code"]) == (400, "trace_asked_wrongly")
    missing = client_for(compliance).get("/api/trace/?claim=99999")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")


def test_another_rooms_compliance_finds_no_trace_of_mains_payment(paid_bad_beat, make_staff) -> None:
    from casino_backoffice.staff.roles import Role
    from tables.models import PokerRoom

    other = PokerRoom.objects.create(code="b", name="Room B")
    outsider = make_staff(Role.COMPLIANCE, rooms=[other])
    payment = BadBeatPayment.objects.order_by("share__position")[0]

    answered = client_for(outsider).get(f"/api/trace/?payment={payment.pk}")

    assert (answered.status_code, answered.json()["code"]) == (404, "not_found")
    assert "main" not in answered.content.decode().lower().replace("domain", "")
