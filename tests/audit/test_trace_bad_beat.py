"""A Bad Beat dollar followed from its rounds to the patron (issue 29): the rounds dropped $1.00 each into
the table's Bad Beat box, the box was counted, witnessed, carried under seal and verified at the cage, the
fund's official $3.00 paid out as the claim's shares, each share to its patron."""

from __future__ import annotations

import pytest

from audit.exceptions import NotYourPayment, TraceAskedWrongly, TraceNotFound
from audit.trace.build import trace_asked, trace_of
from casino_backoffice.staff.exceptions import ActionNotPermitted
from jackpots.bad_beat.models import BadBeatPayment
from tables.models import Round


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
