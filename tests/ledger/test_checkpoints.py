"""Balance checkpoints: a balance read from the latest checkpoint and the transfers after it is the
balance summed over every transfer, reversals included, and no checkpoint passes a transfer that a
transaction still open may commit."""

from __future__ import annotations

import itertools
import threading

import pytest
from django.db import DatabaseError, connection, connections, transaction

from casino_backoffice.ledger import checkpoints
from casino_backoffice.ledger.checkpoints import (
    CHECKPOINT_STRIDE,
    balance_annotation,
    balance_from_history,
    checkpoints_take,
    transfer_horizon,
)
from casino_backoffice.ledger.models import Account, AccountKind, BalanceCheckpoint, Transfer, TransferKind
from casino_backoffice.ledger.selectors import account_balance, account_balances, ledger_total
from casino_backoffice.ledger.services import account_open, correction_approve, correction_prepare, transfer_post_atomic
from casino_backoffice.staff.roles import Role
from tests.conftest import PIN

_keys = itertools.count(1)


@pytest.fixture
def accounts(db) -> tuple[Account, Account, Account]:
    pots = account_open(code="room:main:pots", name="Pots", kind=AccountKind.SOURCE)
    box = account_open(code="table:main:T1:bb_box", name="T1 Bad Beat box", kind=AccountKind.JACKPOT_BOX)
    fund = account_open(code="jackpot:main:bb:fund", name="Bad Beat fund", kind=AccountKind.FUND)
    return pots, box, fund


def post(debit: Account, credit: Account, cents: int, actor) -> Transfer:
    return transfer_post_atomic(
        debit=debit,
        credit=credit,
        amount_cents=cents,
        kind=TransferKind.DROP,
        idempotency_key=f"cp-{next(_keys)}",
        actor=actor,
    )


def assert_balances_match_history(*accounts: Account) -> None:
    history = {a.pk: balance_from_history(account=a) for a in accounts}
    for account in accounts:
        assert account_balance(account=account) == history[account.pk], account.code
    assert account_balances(accounts=accounts) == history
    annotated = (
        Account.objects.filter(pk__in=history)
        .annotate(balance=balance_annotation(Account, "id"))
        .values_list("pk", "balance")
    )
    assert dict(annotated) == history


def test_a_checkpoint_is_taken_after_stride_transfers_and_balances_stay_those_of_the_history(accounts, finance) -> None:
    pots, box, fund = accounts
    post(box, pots, 100, finance)
    post(box, pots, 250, finance)

    assert checkpoints_take(stride=3) == 0
    post(fund, box, 300, finance)
    # box: 3 transfers, pots: 2, fund: 1.
    assert checkpoints_take(stride=3) == 1
    checkpoint = BalanceCheckpoint.objects.get()
    assert (checkpoint.account, checkpoint.balance_cents, checkpoint.transfer_count) == (box, 50, 3)
    assert checkpoint.through_transfer_id == Transfer.objects.order_by("-id").first().pk
    assert checkpoints_take(stride=3) == 0

    post(box, pots, 7, finance)
    assert_balances_match_history(pots, box, fund)
    assert account_balance(account=box) == 57
    assert ledger_total() == 0


def test_balances_with_checkpoints_equal_the_history_through_reversals(accounts, make_staff) -> None:
    pots, box, fund = accounts
    preparer, approver = make_staff(Role.FINANCE), make_staff(Role.FINANCE)
    posted = []
    for n in range(1, 31):
        posted.append(post(box, pots, 100 + n, preparer))
        if n % 3 == 0:
            posted.append(post(fund, box, 150, preparer))
        if n % 7 == 0:
            checkpoints_take(stride=2)
            assert_balances_match_history(pots, box, fund)
    # Reverse a transfer already inside a checkpoint, and one after every checkpoint.
    checkpoints_take(stride=2)
    covered = BalanceCheckpoint.objects.filter(account=box).order_by("-through_transfer_id").first()
    assert covered is not None
    inside = next(t for t in posted if t.pk <= covered.through_transfer_id and t.debit == fund)
    after = post(box, pots, 999, preparer)
    for transfer in (inside, after):
        correction = correction_prepare(transfer=transfer, reason="posted in error", actor=preparer, pin=PIN)
        correction_approve(correction=correction, actor=approver, pin=PIN)
    assert_balances_match_history(pots, box, fund)
    checkpoints_take(stride=1)
    assert_balances_match_history(pots, box, fund)
    expected_box = sum(100 + n for n in range(1, 31)) - 10 * 150 + 150
    assert account_balance(account=box) == expected_box
    assert account_balance(account=fund) == 9 * 150
    assert ledger_total() == 0
    # Each checkpoint counts the transfers it covers.
    latest = BalanceCheckpoint.objects.filter(account=box).order_by("-through_transfer_id").first()
    assert (
        latest.transfer_count
        == Transfer.objects.filter(debit=box).count() + Transfer.objects.filter(credit=box).count()
    )


def test_an_account_without_transfers_or_unknown_has_a_zero_balance(accounts) -> None:
    pots, _, _ = accounts
    assert account_balance(account=pots) == 0
    assert account_balances(accounts=[pots, Account(pk=10**9)]) == {pots.pk: 0, 10**9: 0}


def test_a_stride_below_one_is_refused(db) -> None:
    with pytest.raises(ValueError, match="at least one"):
        checkpoints_take(stride=0)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger is PostgreSQL's")
def test_a_checkpoint_is_never_updated_nor_deleted(accounts, finance) -> None:
    pots, box, _ = accounts
    post(box, pots, 100, finance)
    checkpoints_take(stride=1)
    checkpoint = BalanceCheckpoint.objects.filter(account=box).get()
    with pytest.raises(DatabaseError, match="refused"), transaction.atomic():
        BalanceCheckpoint.objects.filter(pk=checkpoint.pk).update(balance_cents=1)
    with pytest.raises(DatabaseError, match="refused"), transaction.atomic():
        BalanceCheckpoint.objects.filter(pk=checkpoint.pk).delete()
    assert BalanceCheckpoint.objects.get(pk=checkpoint.pk).balance_cents == 100


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_no_checkpoint_passes_a_transfer_of_a_transaction_still_open(finance, monkeypatch) -> None:
    """A transfer posted with a lower id by a transaction that commits later is never left out: the
    horizon waits for every transaction that was posting transfers (and gives up after a while),
    and it blocks no one meanwhile."""
    pots = account_open(code="room:main:pots", name="Pots", kind=AccountKind.SOURCE)
    box = account_open(code="table:main:T1:bb_box", name="T1 Bad Beat box", kind=AccountKind.JACKPOT_BOX)
    post(box, pots, 100, finance)
    posted, release, done = threading.Event(), threading.Event(), threading.Event()

    def open_writer() -> None:
        try:
            with transaction.atomic():
                post(box, pots, 40, finance)
                posted.set()
                release.wait(timeout=30)
        finally:
            connections.close_all()
            done.set()

    writer = threading.Thread(target=open_writer)
    writer.start()
    assert posted.wait(timeout=30)
    # The writer's transfer holds an id; a later one commits first, with a higher id.
    post(box, pots, 5, finance)
    assert transfer_horizon(wait_seconds=0.2) is None
    assert checkpoints_take(stride=1, wait_seconds=0.2) == 0
    # The horizon waits for the writer it saw open (here its wait lets the writer commit), then
    # covers the writer's transfer.
    waited, posted_meanwhile = [], threading.Event()

    def post_meanwhile() -> None:
        try:
            post(box, pots, 1, finance)
            posted_meanwhile.set()
        finally:
            connections.close_all()

    def wait_for_the_writer(seconds: float) -> None:
        waited.append(seconds)
        # Posting goes on while the horizon waits: it holds no lock.
        other = threading.Thread(target=post_meanwhile)
        other.start()
        other.join(timeout=30)
        assert posted_meanwhile.is_set()
        release.set()
        assert done.wait(timeout=30)

    monkeypatch.setattr(checkpoints.time, "sleep", wait_for_the_writer)
    assert checkpoints_take(stride=1) == 2
    assert waited
    writer.join(timeout=30)

    assert account_balance(account=box) == balance_from_history(account=box) == 146
    assert BalanceCheckpoint.objects.get(account=box).transfer_count == 3  # the one posted meanwhile is after it


def test_the_beat_takes_checkpoints_every_minute(accounts, finance, settings) -> None:
    from casino_backoffice.ledger.tasks import checkpoints_tick

    pots, box, _ = accounts
    for _ in range(CHECKPOINT_STRIDE):
        post(box, pots, 1, finance)
    entry = settings.CELERY_BEAT_SCHEDULE["balance-checkpoints"]
    assert (entry["task"], entry["schedule"]) == (checkpoints_tick.name, 60.0)

    checkpoints_tick()
    checkpoints_tick()  # a second run finds nothing new

    assert {(c.account, c.balance_cents) for c in BalanceCheckpoint.objects.all()} == {
        (box, CHECKPOINT_STRIDE),
        (pots, -CHECKPOINT_STRIDE),
    }
