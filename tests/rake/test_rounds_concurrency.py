"""Many clients posting rounds for one table at once, each with retries, record each round once.

Real parallel connections on PostgreSQL: every thread has its own database connection, and the
duplicates of one key race each other to the unique index.
"""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from casino_backoffice.ledger.models import Account, Transfer
from casino_backoffice.ledger.selectors import account_balance, ledger_total
from jackpots.funds.models import RoundDrop
from tables.models import Round

ROUNDS = 60
COPIES = 3  # each round is posted three times, by different clients, at once
THREADS = 12


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("one_statement", [True, False], ids=["one_statement", "orm"])
def test_parallel_posts_with_retries_record_each_round_once(rated_table, dealer, monkeypatch, one_statement):
    monkeypatch.setattr("rake.services.rounds.ONE_STATEMENT_WRITES", one_statement)
    monkeypatch.setattr("casino_backoffice.ledger.services.UNNEST_INSERTS", one_statement)
    assert connection.vendor == "postgresql"
    ended_at = (timezone.now() - timedelta(minutes=5)).isoformat()
    bodies = {
        f"round-{n}": {
            "table": "T1",
            "ended_at": ended_at,
            "players_dealt_in": 9,
            "pot": f"{100 + n}.00",
            "uncalled_bet": "20.00",
            "flop_dealt": True,
            "voided": False,
        }
        for n in range(ROUNDS)
    }
    jobs = [key for key in bodies for _ in range(COPIES)]
    random.Random(4).shuffle(jobs)
    # The same key with two bodies at once: one is recorded, the other is a 409.
    jobs += ["conflict-a", "conflict-b"]
    conflict = {**bodies["round-0"], "pot": "999.00"}
    start = threading.Barrier(THREADS)
    local = threading.local()

    def post(key: str) -> tuple[str, int, dict]:
        if not hasattr(local, "client"):
            local.client = APIClient()
            local.client.force_authenticate(dealer)
            start.wait(timeout=30)
        idem, body = (
            ("conflict", conflict if key.endswith("a") else {**conflict, "pot": "998.00"})
            if key.startswith("conflict")
            else (key, bodies[key])
        )
        response = local.client.post("/api/rounds/", body, format="json", HTTP_IDEMPOTENCY_KEY=idem)
        return idem, response.status_code, response.json()

    def run(keys: list[str]) -> list[tuple[str, int, dict]]:
        try:
            return [post(key) for key in keys]
        finally:
            connection.close()

    chunks = [jobs[i::THREADS] for i in range(THREADS)]
    with ThreadPoolExecutor(THREADS) as pool:
        results = [item for chunk in pool.map(run, chunks) for item in chunk]

    by_key: dict[str, list[tuple[int, dict]]] = {}
    for key, status, body in results:
        by_key.setdefault(key, []).append((status, body))
    for key in bodies:
        answers = by_key[key]
        assert [status for status, _ in answers] == [201] * COPIES, answers
        assert len({str(body) for _, body in answers}) == 1  # every retry answers the first result
    assert sorted(status for status, _ in by_key["conflict"]) == [201, 409]

    assert Round.objects.count() == ROUNDS + 1
    assert RoundDrop.objects.count() == 2 * (ROUNDS + 1)
    assert Transfer.objects.count() == 3 * (ROUNDS + 1)
    assert account_balance(account=Account.objects.get(code="table:main:T1:drop_box")) == 500 * (ROUNDS + 1)
    assert account_balance(account=Account.objects.get(code="table:main:T1:bb_box")) == 100 * (ROUNDS + 1)
    assert ledger_total() == 0
