"""Counts at the cage: uncounted boxes carried by security, accounted for, counted by the cashier."""

from __future__ import annotations

import pytest

from cage.accounts import custody_account, revenue_account
from cage.exceptions import BoxMissing, CountMismatch, NoticeRequired, WrongStatus
from cage.models import Box, CageVerification, Count, CountPlace, TransportStatus, Variance
from cage.services import (
    boxes_sync,
    cage_verify,
    missing_box_record,
    notice_record,
    transport_account,
    transport_create,
)
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.ledger.selectors import account_balance, ledger_total
from casino_backoffice.staff.exceptions import ActionNotPermitted
from tests.conftest import PIN


def _boxes(table, *codes):
    boxes_sync(room=table.room)
    return [Box.objects.select_related("account").get(room=table.room, code=code) for code in codes]


def test_uncounted_boxes_are_accounted_for_and_counted_at_the_cage(
    closed_table, security, floorperson, cashier, key
) -> None:
    drop, hh = _boxes(closed_table, "T1-drop", "T1-hh")
    transport = transport_create(
        room=closed_table.room, seal="B-1", boxes=[drop, hh], actor=security, pin=PIN, idempotency_key=key()
    )
    assert transport.declared_cents is None
    assert account_balance(account=drop.account) == 0
    assert account_balance(account=custody_account(room=closed_table.room)) == 1500 + 600

    with pytest.raises(WrongStatus, match="accounts for"):
        cage_verify(
            transport=transport, counted={"T1-drop": 1500, "T1-hh": 600}, actor=cashier, pin=PIN, idempotency_key=key()
        )

    transport_account(transport=transport, box_codes=["T1-drop", "T1-hh"], actor=floorperson, pin=PIN)
    verification = cage_verify(
        transport=transport, counted={"T1-drop": 1500, "T1-hh": 600}, actor=cashier, pin=PIN, idempotency_key=key()
    )
    assert (verification.official_cents, verification.variance_cents) == (2100, 0)
    assert account_balance(account=revenue_account(room=closed_table.room)) == 1500
    assert Count.objects.filter(place=CountPlace.CAGE).count() == 2
    assert ledger_total() == 0


def test_a_box_missing_at_the_cage_is_refused_until_a_supervisor_signs_an_exception(
    closed_table, security, floorperson, supervisor, cashier, key
) -> None:
    drop, hh = _boxes(closed_table, "T1-drop", "T1-hh")
    transport = transport_create(
        room=closed_table.room, seal="B-2", boxes=[drop, hh], actor=security, pin=PIN, idempotency_key=key()
    )
    with pytest.raises(BoxMissing, match="T1-hh"):
        transport_account(transport=transport, box_codes=["T1-drop"], actor=floorperson, pin=PIN)
    transport.refresh_from_db()
    assert transport.status == TransportStatus.IN_TRANSIT

    with pytest.raises(ActionNotPermitted):
        missing_box_record(transport=transport, box=hh, reason="Not in the cart", actor=floorperson, pin=PIN)
    missing_box_record(
        transport=transport, box=hh, reason="Not in the cart at the cage door", actor=supervisor, pin=PIN
    )
    transport_account(transport=transport, box_codes=["T1-drop"], actor=floorperson, pin=PIN)

    with pytest.raises(CountMismatch, match="T1-drop"):
        cage_verify(transport=transport, counted={}, actor=cashier, pin=PIN, idempotency_key=key())
    verification = cage_verify(
        transport=transport, counted={"T1-drop": 1500}, actor=cashier, pin=PIN, idempotency_key=key()
    )
    # The missing box counts nothing: its expected $6.00 is a variance to explain.
    assert (verification.official_cents, verification.variance_cents) == (1500, -600)
    variance = Variance.objects.get(verification=verification)
    assert (variance.box.code, variance.amount_cents, variance.unresolved) == ("T1-hh", -600, True)
    assert ledger_total() == 0


def test_a_retried_verification_answers_the_first_and_another_body_is_refused(
    closed_table, security, floorperson, cashier, key
) -> None:
    (drop,) = _boxes(closed_table, "T1-drop")
    transport = transport_create(
        room=closed_table.room, seal="B-3", boxes=[drop], actor=security, pin=PIN, idempotency_key=key()
    )
    transport_account(transport=transport, box_codes=["T1-drop"], actor=floorperson, pin=PIN)
    first = cage_verify(transport=transport, counted={"T1-drop": 1500}, actor=cashier, pin=PIN, idempotency_key="v-1")
    transfers = Transfer.objects.count()
    again = cage_verify(transport=transport, counted={"T1-drop": 1500}, actor=cashier, pin=PIN, idempotency_key="v-1")
    assert again.pk == first.pk and Transfer.objects.count() == transfers
    from casino_backoffice.core.idempotency import IdempotencyKeyReused

    with pytest.raises(IdempotencyKeyReused):
        cage_verify(transport=transport, counted={"T1-drop": 1400}, actor=cashier, pin=PIN, idempotency_key="v-1")
    assert CageVerification.objects.count() == 1 and Transfer.objects.count() == transfers


def test_a_bad_beat_box_counted_at_the_cage_needs_the_notice_to_compliance(
    closed_table, security, floorperson, cashier, key
) -> None:
    """§637a.15(d): the Bad Beat box is counted 'upon notice to a casino compliance representative', at
    the cage as at a closed table."""
    (bad_beat,) = _boxes(closed_table, "T1-bb")
    transport = transport_create(
        room=closed_table.room, seal="BB-1", boxes=[bad_beat], actor=security, pin=PIN, idempotency_key=key()
    )
    transport_account(transport=transport, box_codes=["T1-bb"], actor=floorperson, pin=PIN)
    before = (Count.objects.count(), CageVerification.objects.count(), Transfer.objects.count())

    with pytest.raises(NoticeRequired, match="compliance representative"):
        cage_verify(transport=transport, counted={"T1-bb": 300}, actor=cashier, pin=PIN, idempotency_key=key())
    assert (Count.objects.count(), CageVerification.objects.count(), Transfer.objects.count()) == before

    notice = notice_record(
        room=closed_table.room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key()
    )
    cage_verify(transport=transport, counted={"T1-bb": 300}, actor=cashier, pin=PIN, idempotency_key=key())
    assert Count.objects.get(box=bad_beat).notice == notice
