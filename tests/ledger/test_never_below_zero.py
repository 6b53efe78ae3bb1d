"""No box, container in custody, fund, revenue or payout account goes below zero: the database refuses
the transfer, whatever path posts it (the ledger's services, a batch, raw SQL), and two transfers out
of one account at once cannot both spend the same money (migration ledger 0010)."""

from __future__ import annotations

import importlib
import itertools
import threading

import pytest
from django.db import IntegrityError, connection, connections, transaction

from casino_backoffice.ledger.checkpoints import checkpoints_take
from casino_backoffice.ledger.exceptions import BelowZero
from casino_backoffice.ledger.invariants import NON_NEGATIVE_KINDS, invariants_check
from casino_backoffice.ledger.models import Account, AccountKind, Transfer, TransferKind
from casino_backoffice.ledger.selectors import account_balance
from casino_backoffice.ledger.services import Posting, account_open, transfer_post_atomic, transfers_post_within

_keys = itertools.count(1)


@pytest.fixture
def pots(db) -> Account:
    return account_open(code="room:main:pots", name="Pots", kind=AccountKind.SOURCE)


def _account(kind: AccountKind) -> Account:
    return account_open(code=f"test:{kind.value}:{next(_keys)}", name=f"A {kind.label}", kind=kind)


def _move(debit: Account, credit: Account, cents: int, actor, key: str | None = None) -> Transfer:
    return transfer_post_atomic(
        debit=debit,
        credit=credit,
        amount_cents=cents,
        kind=TransferKind.ADJUSTMENT,
        idempotency_key=key or f"nbz-{next(_keys)}",
        actor=actor,
    )


def test_the_migration_guards_exactly_the_kinds_the_checker_does() -> None:
    migration = importlib.import_module("casino_backoffice.ledger.migrations.0012_banked_revenue_never_below_zero")
    guarded = {kind.strip(" '") for kind in migration.KINDS.strip("()").split(",")}
    assert guarded == {kind.value for kind in NON_NEGATIVE_KINDS}


@pytest.mark.parametrize("kind", sorted(NON_NEGATIVE_KINDS))
def test_taking_more_than_an_account_holds_is_refused_and_posts_nothing(pots, finance, kind) -> None:
    account = _account(AccountKind(kind))
    _move(account, pots, 500, finance)
    before = Transfer.objects.count()
    with pytest.raises(BelowZero, match=r"would hold -1 cents"):
        _move(pots, account, 501, finance)
    assert Transfer.objects.count() == before
    assert account_balance(account=account) == 500
    _move(pots, account, 500, finance)
    assert account_balance(account=account) == 0


@pytest.mark.parametrize("kind", [AccountKind.SOURCE, AccountKind.VARIANCE, AccountKind.CAGE])
def test_where_money_comes_from_and_signed_accounts_may_go_below_zero(pots, finance, kind) -> None:
    account = _account(kind)
    _move(pots, account, 700, finance)
    assert account_balance(account=account) == -700


def test_raw_sql_is_refused_too(pots, finance) -> None:
    fund = _account(AccountKind.FUND)
    with pytest.raises(IntegrityError, match="ledger_below_zero"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO ledger_transfer (debit_id, credit_id, amount_cents, kind, reference_id, idempotency_key, memo,"
            " posted_at, posted_by_id) VALUES (%s, %s, 1, 'adjustment', '', 'raw-1', '', now(), %s)",
            [pots.pk, fund.pk, finance.pk],
        )


def test_a_batch_is_judged_on_its_whole_result(pots, finance) -> None:
    """Money into an account and out of it in one INSERT: the trigger runs at the end of the statement."""
    box = _account(AccountKind.JACKPOT_BOX)
    fund = _account(AccountKind.FUND)

    def batch(into: int, out: int) -> list[Posting]:
        return [
            Posting(
                debit_id=box.pk,
                credit_id=pots.pk,
                amount_cents=into,
                kind=TransferKind.DROP,
                idempotency_key=f"b-{next(_keys)}",
            ),
            Posting(
                debit_id=fund.pk,
                credit_id=box.pk,
                amount_cents=out,
                kind=TransferKind.COUNT,
                idempotency_key=f"b-{next(_keys)}",
            ),
        ]

    with transaction.atomic():
        transfers_post_within(postings=batch(300, 300), actor=finance)
    assert (account_balance(account=box), account_balance(account=fund)) == (0, 300)
    with pytest.raises(BelowZero), transaction.atomic():
        transfers_post_within(postings=batch(300, 301), actor=finance)
    assert (account_balance(account=box), account_balance(account=fund)) == (0, 300)


def test_the_balance_is_read_through_its_checkpoints(pots, finance) -> None:
    fund = _account(AccountKind.FUND)
    for _ in range(5):
        _move(fund, pots, 100, finance)
    assert checkpoints_take(stride=2) >= 1
    _move(fund, pots, 100, finance)
    with pytest.raises(BelowZero):
        _move(pots, fund, 601, finance)
    _move(pots, fund, 600, finance)
    assert account_balance(account=fund) == 0
    assert invariants_check() == []


@pytest.mark.django_db(transaction=True)
def test_two_transfers_at_once_never_both_spend_the_same_money(finance) -> None:
    """Without any lock of the services: each of 8 threads takes the whole fund at once; exactly one is posted."""
    pots = account_open(code="room:main:pots", name="Pots", kind=AccountKind.SOURCE)
    fund = _account(AccountKind.FUND)
    _move(fund, pots, 1_000, finance)
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def take(n: int) -> None:
        try:
            barrier.wait()
            _move(pots, fund, 1_000, finance, key=f"race-{n}")
            outcomes.append("posted")
        except BelowZero:
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=take, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["posted"] + ["refused"] * 7
    assert account_balance(account=fund) == 0
