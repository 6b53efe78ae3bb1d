"""Posting a batch of transfers: the checks and the idempotency of one transfer, in one statement."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest
from django.db import connection, connections, transaction

from casino_backoffice.ledger.exceptions import IdempotencyConflict, InvalidTransfer
from casino_backoffice.ledger.models import Account, AccountKind, Transfer, TransferKind
from casino_backoffice.ledger.selectors import account_balance, ledger_total
from casino_backoffice.ledger.services import Posting, account_open, transfer_post_within, transfers_post_within


@pytest.fixture(autouse=True, params=["unnest", "orm"])
def insert_path(request, monkeypatch) -> str:
    """Every test runs on both paths: one INSERT of arrays (PostgreSQL) and bulk_create (SQLite's)."""
    monkeypatch.setattr("casino_backoffice.ledger.services.UNNEST_INSERTS", request.param == "unnest")
    return request.param


@pytest.fixture
def pots(db) -> Account:
    return account_open(code="source:main", name="Pots, main room", kind=AccountKind.SOURCE)


@pytest.fixture
def boxes(db) -> list[Account]:
    return [
        account_open(code=f"table:main:T1:box{n}", name=f"T1 box {n}", kind=AccountKind.JACKPOT_BOX) for n in range(3)
    ]


def postings(
    pots: Account, boxes: list[Account], *, cents: tuple[int, ...] = (100, 200, 300), prefix: str = "k"
) -> list[Posting]:
    return [
        Posting(
            debit_id=box.pk,
            credit_id=pots.pk,
            amount_cents=amount,
            kind=TransferKind.DROP,
            idempotency_key=f"{prefix}-{n}",
            memo=f"drop {n}",
        )
        for n, (box, amount) in enumerate(zip(boxes, cents, strict=True))
    ]


def test_a_batch_posts_every_transfer_in_order(pots, boxes, finance) -> None:
    posted = transfers_post_within(postings=postings(pots, boxes), actor=finance, reference=boxes[0])

    assert [(t.debit_id, t.amount_cents, t.idempotency_key) for t in posted] == [
        (boxes[0].pk, 100, "k-0"),
        (boxes[1].pk, 200, "k-1"),
        (boxes[2].pk, 300, "k-2"),
    ]
    assert all(t.pk for t in posted)
    stored = Transfer.objects.get(idempotency_key="k-1")
    assert (stored.pk, stored.credit, stored.memo, stored.posted_by, stored.reference) == (
        posted[1].pk,
        pots,
        "drop 1",
        finance,
        boxes[0],
    )
    assert account_balance(account=pots) == -600
    assert ledger_total() == 0


def test_a_batch_is_one_statement_on_postgresql(pots, boxes, finance, insert_path, django_assert_num_queries) -> None:
    if insert_path != "unnest":
        pytest.skip("the ORM path reads the keys first")
    with django_assert_num_queries(1):
        transfers_post_within(postings=postings(pots, boxes), actor=finance)


def test_the_same_batch_again_posts_nothing_and_answers_the_first_transfers(pots, boxes, finance) -> None:
    first = transfers_post_within(postings=postings(pots, boxes), actor=finance)
    again = transfers_post_within(postings=postings(pots, boxes), actor=finance)

    assert [t.pk for t in again] == [t.pk for t in first]
    assert Transfer.objects.count() == 3
    assert account_balance(account=pots) == -600


def test_a_key_posted_by_one_transfer_is_the_same_in_a_batch(pots, boxes, finance) -> None:
    single = transfer_post_within(
        debit=boxes[1], credit=pots, amount_cents=200, kind=TransferKind.DROP, idempotency_key="k-1", actor=finance
    )

    posted = transfers_post_within(postings=postings(pots, boxes), actor=finance)

    assert posted[1].pk == single.pk
    assert Transfer.objects.count() == 3


def test_a_key_used_for_another_movement_refuses_the_whole_batch(pots, boxes, finance) -> None:
    transfers_post_within(postings=postings(pots, boxes)[:1], actor=finance)

    with pytest.raises(IdempotencyConflict, match="k-0"), transaction.atomic():
        transfers_post_within(postings=postings(pots, boxes, cents=(101, 200, 300)), actor=finance)
    assert list(Transfer.objects.values_list("idempotency_key", "amount_cents")) == [("k-0", 100)]


def test_a_key_twice_in_one_batch(pots, boxes, finance) -> None:
    twice = postings(pots, boxes)[:1] * 2
    posted = transfers_post_within(postings=twice, actor=finance)
    assert posted[0].pk == posted[1].pk and Transfer.objects.count() == 1

    other = [*postings(pots, boxes, prefix="x")[:1], *postings(pots, boxes, cents=(5, 200, 300), prefix="x")[:1]]
    with pytest.raises(IdempotencyConflict, match="two movements in one batch"):
        transfers_post_within(postings=other, actor=finance)
    assert Transfer.objects.count() == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"amount_cents": 0}, "more than zero cents"),
        ({"amount_cents": -5}, "more than zero cents"),
        ({"amount_cents": 1.5}, "whole number of cents"),
        ({"amount_cents": True}, "whole number of cents"),
        ({"debit_id": "pots"}, "between two accounts"),
        ({"idempotency_key": ""}, "needs an idempotency key"),
    ],
)
def test_every_posting_is_checked_before_anything_is_posted(pots, boxes, finance, change, message) -> None:
    batch = postings(pots, boxes)
    batch[2] = replace(batch[2], **(change if change.get("debit_id") != "pots" else {"debit_id": pots.pk}))

    with pytest.raises(InvalidTransfer, match=message):
        transfers_post_within(postings=batch, actor=finance)
    assert not Transfer.objects.exists()


def test_an_empty_batch_posts_nothing(finance, django_assert_num_queries) -> None:
    with django_assert_num_queries(0):
        assert transfers_post_within(postings=[], actor=finance) == []


@pytest.mark.django_db(transaction=True)
def test_a_batch_runs_inside_the_callers_transaction(pots, boxes, finance) -> None:
    with pytest.raises(RuntimeError, match="inside the transaction"):
        transfers_post_within(postings=postings(pots, boxes), actor=finance)
    with transaction.atomic():
        transfers_post_within(postings=postings(pots, boxes), actor=finance)
    assert Transfer.objects.count() == 3


def _waiting_for_a_transaction() -> int:
    """Backends waiting for another transaction to end (as an INSERT waits on a uncommitted key)."""
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_parallel_batches_of_the_same_keys_post_once(pots, boxes, finance, insert_path) -> None:
    """The second batch waits at the unique keys for the first to commit, then answers its transfers.
    Waiting is observed in ``pg_locks``, not inferred from time."""
    if insert_path != "unnest":
        pytest.skip("the ORM path relies on SQLite running one write transaction at a time")
    assert connection.vendor == "postgresql"
    inserted, commit = threading.Event(), threading.Event()
    answers: dict[str, list[int]] = {}

    def first() -> None:
        try:
            with transaction.atomic():
                answers["first"] = [t.pk for t in transfers_post_within(postings=postings(pots, boxes), actor=finance)]
                inserted.set()
                commit.wait(timeout=30)
        finally:
            connections.close_all()

    def second() -> None:
        inserted.wait(timeout=30)
        try:
            with transaction.atomic():
                answers["second"] = [t.pk for t in transfers_post_within(postings=postings(pots, boxes), actor=finance)]
        finally:
            connections.close_all()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    inserted.wait(timeout=30)
    deadline = time.monotonic() + 30
    while _waiting_for_a_transaction() == 0:
        assert time.monotonic() < deadline, "the second batch never waited for the first"
        time.sleep(0.01)
    commit.set()
    for thread in threads:
        thread.join(timeout=30)

    assert answers["second"] == answers["first"]
    assert Transfer.objects.count() == 3
    assert ledger_total() == 0
