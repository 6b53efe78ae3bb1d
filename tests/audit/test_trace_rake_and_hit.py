"""A rake dollar followed to the poker revenue of its gaming day, a variance shown with its signed
explanation, and a progressive payout from its round to its patron (issue 29)."""

from __future__ import annotations

import pytest

from audit.trace.build import trace_of
from cage.models import Box, Variance
from cage.services import cage_verify, count_record, transport_create, variance_explain
from casino_backoffice.ledger.models import Transfer, TransferKind
from jackpots.funds.reports import id_number_masked
from jackpots.progressive.services.hands import progressive_pay, progressive_validate
from tables.models import Round
from tests.conftest import PIN
from tests.jackpots.progressive_helpers import hand, play


@pytest.fixture
def rake_verified(witnessed_counts, closed_table, security, cashier, key):
    """T1's rake drop box counted at the table ($15.00: three $5.00 rakes), carried and verified at the cage."""
    rake_count = next(count for count in witnessed_counts if count.box.code == "T1-drop")
    transport = transport_create(
        room=closed_table.room, seal="S-9", counts=[rake_count], actor=security, pin=PIN, idempotency_key=key()
    )
    return cage_verify(transport=transport, counted=1500, actor=cashier, pin=PIN, idempotency_key=key())


def test_a_rake_dollar_traced_from_its_round_to_the_revenue_of_its_gaming_day(rake_verified, compliance) -> None:
    round_ = Round.objects.filter(table__number="T1").order_by("pk").first()

    trace = trace_of(start="round", pk=round_.pk, actor=compliance)

    played = trace.of("round")[0]
    assert played.amount_cents == 12000
    assert sorted((t.kind, t.amount_cents) for t in played.transfers) == [("drop", 100), ("drop", 200), ("rake", 500)]
    # The rake went into the table's rake drop box, on its way to the room's revenue
    assert [t.debit for t in played.transfers if t.kind == "rake"] == ["table:main:T1:drop_box"]
    counts = {link.label.split(" of box ")[1].split(",")[0]: link.amount_cents for link in trace.of("count")}
    assert counts == {"T1-bb": 300, "T1-hh": 600, "T1-drop": 1500}
    (verification,) = trace.of("verification")
    revenue = [t for t in verification.transfers if t.kind == TransferKind.VERIFICATION]
    assert [(t.debit, t.credit, t.amount_cents) for t in revenue] == [("room:main:revenue", "room:main:custody", 1500)]
    assert f"gaming day {round_.gaming_day}" in trace.of("count")[-1].label
    checks = {c.what: (c.expected_cents, c.actual_cents) for c in trace.checks}
    assert checks["the rake and drops taken, against what the round posted to its boxes"] == (800, 800)
    (rake_count,) = [c for what, c in checks.items() if what.startswith("the 3 rounds' money into box T1-drop for")]
    assert rake_count == (1500, 1500)
    assert trace.reconciles


def test_the_revenue_transfer_leads_back_to_the_counts_the_cage_verified(rake_verified, finance) -> None:
    revenue = Transfer.objects.get(kind=TransferKind.VERIFICATION, debit__code="room:main:revenue")

    trace = trace_of(start="transfer", pk=revenue.pk, actor=finance)

    assert [link.amount_cents for link in trace.of("verification")] == [1500]
    assert [link.amount_cents for link in trace.of("count")] == [1500]
    assert [link.amount_cents for link in trace.of("transport")] == [1500]
    assert revenue.pk in [t.id for t in trace.of("verification")[0].transfers]


def test_a_variance_shows_its_difference_until_explained_then_the_explanation(
    closed_table, dealer, supervisor, compliance, floorperson, key
) -> None:
    from cage.services import boxes_sync, notice_record

    room = closed_table.room
    boxes_sync(room=room)
    notice_record(room=room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key())
    count = count_record(
        box=Box.objects.get(code="T1-bb"), counted_cents=290, actor=dealer, pin=PIN, idempotency_key=key()
    )

    before = trace_of(start="count", pk=count.pk, actor=compliance)
    variance = Variance.objects.get(count=count)
    variance_explain(variance=variance, reason="A dime stuck under the lid.", actor=supervisor, pin=PIN)
    after = trace_of(start="count", pk=count.pk, actor=compliance)

    check = next(c for c in before.checks if c.what.startswith(f"count {count.pk}: counted"))
    assert (check.expected_cents, check.actual_cents, check.difference_cents, check.reconciles) == (
        300,
        290,
        -10,
        False,
    )
    assert check.explanation == "" and not before.reconciles
    assert [(link.amount_cents, dict(link.details)["explanation"]) for link in before.of("variance")] == [
        (-10, "awaiting an explanation")
    ]
    explained = next(c for c in after.checks if c.what.startswith(f"count {count.pk}: counted"))
    assert explained.difference_cents == -10
    assert explained.explanation == "variance of -$0.10: A dime stuck under the lid."
    assert after.reconciles
    (shown,) = after.of("variance")
    assert dict(shown.details)["explanation"] == "A dime stuck under the lid."
    assert dict(shown.details)["explained by"] == supervisor.get_full_name()


def test_a_progressive_payout_traced_from_its_round_to_its_patron(stud, dealer, floorperson, cashier) -> None:
    round_ = play(stud, dealer, {2: "5.00", 5: "1.00"}, community="Qs Js Ts")
    royal = hand(round_, dealer, 5, "As Ks")
    progressive_validate(hand=royal, actor=floorperson, pin=PIN)
    payment = progressive_pay(
        hand=royal,
        patron_name="Rae Royal",
        id_type="Passport",
        id_number="X1234567",
        actor=cashier,
        pin=PIN,
        idempotency_key="pay-royal",
    )

    # The cashier who paid reads its trace
    trace = trace_of(start="hit_payment", pk=payment.pk, actor=cashier)

    assert [link.amount_cents for link in trace.of("round")] == [600]
    assert trace.of("hit")[0].amount_cents == royal.amount_cents
    assert trace.of("hit")[1].label == f"Validated by {floorperson.get_full_name()}"
    (paid,) = trace.of("payment")
    assert paid.amount_cents == royal.amount_cents
    assert dict(paid.details) == {"patron": "Rae Royal", "ID": f"Passport {id_number_masked('X1234567')}"}
    assert [(t.kind, t.amount_cents) for t in paid.transfers] == [("payout", royal.amount_cents)]
    assert [s.role for s in paid.signatures] == ["Cage cashier"]
    # The admin pages of the hit and of its payment link to their trace
    from django.test import Client
    from django.urls import reverse

    cage = Client()
    cage.force_login(cashier)
    paid_page = cage.get(reverse("admin:jackpots_progressivepayment_change", args=[payment.pk])).content.decode()
    assert f'href="/audit/trace/?hit_payment={payment.pk}" class="trace-link"' in paid_page
