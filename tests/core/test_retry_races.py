"""A retry that races its own first attempt answers what the first attempt recorded.

A table or cage system that times out resends the same request with the same Idempotency-Key while
the first attempt is still running. The retry finds no document yet, waits for the first attempt's
locks, and then meets the state the first attempt left (the box counted, the transport verified, the
claim distributed): it must answer the first attempt's document, as any retry does, and record
nothing more (``casino_backoffice.core.idempotency.document_replay_after``). Found by
``benchmarks/bench_load.py --races``, where these retries were refused with a 409.
"""

from __future__ import annotations

import pytest

from cage.models import Box, CageVerification, Count, Transport
from cage.services import boxes_sync, cage_verify, count_record, transport_create
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.ledger.selectors import ledger_total
from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.models import BadBeatDistribution, BadBeatPayment
from jackpots.bad_beat.services.claims import claim_verify
from jackpots.bad_beat.services.payouts import distribution_prepare, share_pay
from tests.conftest import PIN
from tests.jackpots.bad_beat import fund_official
from tests.lock_race import retry_racing_its_first_attempt

pytestmark = pytest.mark.django_db(transaction=True)


def _both_answer_one(answers: dict, model) -> None:
    first, retry = answers["first"], answers["retry"]
    assert isinstance(first, model), answers
    assert isinstance(retry, model), answers
    assert retry.pk == first.pk
    assert ledger_total() == 0


def test_a_count_retried_while_its_first_attempt_runs_answers_the_first_count(
    closed_table, dealer, floorperson, key
) -> None:
    boxes_sync(room=closed_table.room)
    box = Box.objects.get(code="T1-hh")
    transfers, signatures = Transfer.objects.count(), Signature.objects.count()

    answers = retry_racing_its_first_attempt(
        lambda: count_record(box=box, counted_cents=600, actor=dealer, pin=PIN, idempotency_key="count-T1-hh"),
        pause_at="cage.services.counts.signature_add",
    )

    _both_answer_one(answers, Count)
    assert Count.objects.filter(box=box).count() == 1
    assert Transfer.objects.count() == transfers + 1  # the box into custody, once
    assert Signature.objects.count() == signatures + 1


def test_a_transport_retried_while_its_first_attempt_runs_answers_the_first_transport(
    closed_table, witnessed_counts, security
) -> None:
    counts = witnessed_counts

    answers = retry_racing_its_first_attempt(
        lambda: transport_create(
            room=closed_table.room, seal="C-7", counts=counts, actor=security, pin=PIN, idempotency_key="carry-C-7"
        ),
        pause_at="cage.services.transports.signature_add",
    )

    _both_answer_one(answers, Transport)
    assert Transport.objects.count() == 1
    assert answers["retry"].items.count() == 3


def test_a_verification_retried_while_its_first_attempt_runs_answers_the_first_verification(
    closed_table, witnessed_counts, security, make_staff, key
) -> None:
    transport = transport_create(
        room=closed_table.room, seal="C-1", counts=witnessed_counts, actor=security, pin=PIN, idempotency_key=key()
    )
    cashier = make_staff(Role.CAGE_CASHIER)
    transfers = Transfer.objects.count()

    answers = retry_racing_its_first_attempt(
        lambda: cage_verify(transport=transport, counted=2400, actor=cashier, pin=PIN, idempotency_key="verify-C-1"),
        pause_at="cage.services.verification.signature_add",
    )

    _both_answer_one(answers, CageVerification)
    assert CageVerification.objects.count() == 1
    assert Transfer.objects.count() == transfers + 3  # each box's money made official, once


def test_a_distribution_retried_while_its_first_attempt_runs_answers_the_first_distribution(
    make_claim, bad_beat, supervisor, finance
) -> None:
    fund_official(bad_beat, 10_000, finance)
    claim = make_claim()
    claim_verify(claim=claim, actor=supervisor, pin=PIN)

    answers = retry_racing_its_first_attempt(
        lambda: distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key="distribute"),
        pause_at="jackpots.bad_beat.services.payouts.signature_add",
    )

    _both_answer_one(answers, BadBeatDistribution)
    assert BadBeatDistribution.objects.count() == 1


def test_a_payment_retried_while_its_first_attempt_runs_answers_the_first_payment(
    make_claim, bad_beat, supervisor, finance, make_staff
) -> None:
    fund_official(bad_beat, 10_000, finance)
    claim = make_claim()
    claim_verify(claim=claim, actor=supervisor, pin=PIN)
    share = distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key="d").shares.get(position=1)
    cashier = make_staff(Role.CAGE_CASHIER)
    transfers = Transfer.objects.count()

    answers = retry_racing_its_first_attempt(
        lambda: share_pay(
            share=share, id_type="License", id_number="PA-1", actor=cashier, pin=PIN, idempotency_key="pay-1"
        ),
        pause_at="jackpots.bad_beat.services.payouts.signature_add",
    )

    _both_answer_one(answers, BadBeatPayment)
    assert BadBeatPayment.objects.count() == 1
    assert Transfer.objects.count() == transfers + 1
