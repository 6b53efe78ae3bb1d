"""The ledger: immutable transfers, idempotency keys, derived balances, signed reversals."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from casino_backoffice.ledger.exceptions import AlreadyReversed, IdempotencyConflict, InvalidTransfer
from casino_backoffice.ledger.models import Account, AccountKind, Correction, Transfer, TransferKind
from casino_backoffice.ledger.selectors import account_balance, account_balances, ledger_total
from casino_backoffice.ledger.services import account_open, correction_approve, correction_prepare, transfer_post_atomic
from casino_backoffice.staff.roles import Role
from tests.conftest import PIN


@pytest.fixture
def pots(db) -> Account:
    return account_open(code="source:main", name="Pots, main room", kind=AccountKind.SOURCE)


@pytest.fixture
def box(db) -> Account:
    return account_open(code="table:main:T1:bb_box", name="T1 Bad Beat box", kind=AccountKind.JACKPOT_BOX)


def post(pots: Account, box: Account, actor, cents: int = 100, key: str = "k-1", **extra) -> Transfer:
    return transfer_post_atomic(
        debit=box, credit=pots, amount_cents=cents, kind=TransferKind.DROP, idempotency_key=key, actor=actor, **extra
    )


def test_a_transfer_moves_money_and_balances_are_derived(pots, box, finance) -> None:
    post(pots, box, finance, 100, "k-1")
    post(pots, box, finance, 250, "k-2")

    assert account_balance(account=box) == 350
    assert account_balance(account=pots) == -350
    assert account_balances(accounts=[box, pots]) == {box.pk: 350, pots.pk: -350}
    assert ledger_total() == 0


def test_the_same_key_posts_once(pots, box, finance) -> None:
    first = post(pots, box, finance, 100, "k-1")
    again = post(pots, box, finance, 100, "k-1")

    assert again.pk == first.pk
    assert Transfer.objects.count() == 1
    assert account_balance(account=box) == 100


def test_the_same_key_for_another_movement_is_refused(pots, box, finance) -> None:
    post(pots, box, finance, 100, "k-1")

    with pytest.raises(IdempotencyConflict, match="k-1"):
        post(pots, box, finance, 101, "k-1")
    assert Transfer.objects.count() == 1
    assert account_balance(account=box) == 100


@pytest.mark.parametrize("cents", [0, -100, 1.5, "1.00", True])
def test_amounts_are_positive_whole_cents(pots, box, finance, cents) -> None:
    with pytest.raises(InvalidTransfer):
        post(pots, box, finance, cents)
    assert not Transfer.objects.exists()


def test_a_transfer_needs_two_accounts(pots, finance) -> None:
    with pytest.raises(InvalidTransfer, match="between two accounts"):
        post(pots, pots, finance)
    assert not Transfer.objects.exists()


def test_the_database_refuses_a_non_positive_amount(pots, box, finance) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Transfer.objects.create(
            debit=box,
            credit=pots,
            amount_cents=-5,
            kind=TransferKind.DROP,
            idempotency_key="raw",
            posted_at="2026-11-30T12:00:00Z",
            posted_by=finance,
        )
    assert not Transfer.objects.exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger is PostgreSQL's")
def test_postgresql_refuses_update_and_delete_of_transfers(pots, box, finance) -> None:
    transfer = post(pots, box, finance, 100)

    with pytest.raises(IntegrityError, match="UPDATE of ledger_transfer is refused"), transaction.atomic():
        Transfer.objects.filter(pk=transfer.pk).update(amount_cents=1)
    with pytest.raises(IntegrityError, match="DELETE of ledger_transfer is refused"), transaction.atomic():
        Transfer.objects.filter(pk=transfer.pk).delete()
    with pytest.raises(IntegrityError, match="refused"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE ledger_transfer SET amount_cents = 1")
    transfer.refresh_from_db()
    assert transfer.amount_cents == 100


def test_a_reversal_is_a_new_transfer_signed_by_two_people(pots, box, finance, make_staff) -> None:
    original = post(pots, box, finance, 100)
    approver = make_staff(Role.FINANCE)

    correction = correction_prepare(transfer=original, reason="wrong table", actor=finance, pin=PIN)
    assert account_balance(account=box) == 100  # nothing moves until approved
    reversal = correction_approve(correction=correction, actor=approver, pin=PIN)

    assert reversal.reverses == original
    assert (reversal.debit, reversal.credit, reversal.amount_cents) == (pots, box, 100)
    assert reversal.kind == TransferKind.REVERSAL
    assert account_balance(account=box) == 0
    assert Transfer.objects.count() == 2
    assert {s.purpose: s.signer for s in Correction.objects.get().signatures()} == {
        "preparer": finance,
        "approver": approver,
    }


def test_a_transfer_is_reversed_once(pots, box, finance, make_staff) -> None:
    original = post(pots, box, finance, 100)
    correction = correction_prepare(transfer=original, reason="wrong table", actor=finance, pin=PIN)
    correction_approve(correction=correction, actor=make_staff(Role.FINANCE), pin=PIN)

    with pytest.raises(AlreadyReversed):
        correction_prepare(transfer=original, reason="again", actor=finance, pin=PIN)
    assert account_balance(account=box) == 0


def test_opening_an_account_twice_returns_it(db) -> None:
    first = account_open(code="cage:main", name="Main cage", kind=AccountKind.CAGE)
    assert account_open(code="cage:main", name="Main cage", kind=AccountKind.CAGE) == first
    assert Account.objects.count() == 1
