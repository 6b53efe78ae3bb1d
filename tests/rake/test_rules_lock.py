"""Rating a round and loading a backdated rules version never interleave (rake.locks).

Real parallel connections on PostgreSQL: a round being rated holds the room's rules lock shared; a
rules file that would take effect before that round waits for it, then sees it and is refused.
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from rake.exceptions import RulesFileInvalid
from rake.locks import lock_room_rules
from rake.services import round_record, rules_load
from tables.models import Round, RulesVersion
from tests.rake import factories
from tests.rake.factories import rules_loader, rules_text

rules = factories.rules
rated_table = factories.rated_table


@pytest.mark.django_db(transaction=True)
def test_a_backdated_rules_file_waits_for_the_round_being_rated_and_is_refused(rated_table, dealer) -> None:
    assert connection.vendor == "postgresql"
    ended_at = timezone.now() - timedelta(minutes=5)
    locked, go = threading.Event(), threading.Event()
    outcome: dict[str, object] = {}

    def rate_a_round() -> None:
        try:
            with transaction.atomic():
                lock_room_rules(room=rated_table.room, exclusive=False)  # rating has begun
                locked.set()
                go.wait(timeout=30)
                round_record(table=rated_table, ended_at=ended_at, players_dealt_in=9, pot_cents=12000,
                             uncalled_bet_cents=0, flop_dealt=True, voided=False, actor=dealer, idempotency_key="r-1")
        finally:
            connections.close_all()

    def load_backdated_rules() -> None:
        locked.wait(timeout=30)
        started = time.monotonic()
        try:
            rules_load(text=rules_text(effective_from=(ended_at - timedelta(minutes=1)).isoformat(),
                                       name="Renamed room"), actor=rules_loader())
            outcome["result"] = "loaded"
        except RulesFileInvalid as error:
            outcome["result"] = str(error)
        finally:
            outcome["waited"] = time.monotonic() - started
            connections.close_all()

    rater, loader = threading.Thread(target=rate_a_round), threading.Thread(target=load_backdated_rules)
    rater.start()
    loader.start()
    time.sleep(0.8)
    assert loader.is_alive(), "the rules load did not wait for the round being rated"
    go.set()
    rater.join(timeout=30)
    loader.join(timeout=30)

    assert outcome["waited"] >= 0.7
    assert "before round" in str(outcome["result"])
    assert Round.objects.count() == 1
    assert RulesVersion.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_rounds_being_rated_do_not_wait_for_each_other(rated_table) -> None:
    with transaction.atomic():
        lock_room_rules(room=rated_table.room, exclusive=False)
        waited: list[float] = []

        def other() -> None:
            started = time.monotonic()
            with transaction.atomic():
                lock_room_rules(room=rated_table.room, exclusive=False)
            waited.append(time.monotonic() - started)
            connections.close_all()

        thread = threading.Thread(target=other)
        thread.start()
        thread.join(timeout=10)
    assert waited and waited[0] < 0.5


def test_the_lock_is_held_until_commit_so_it_needs_a_transaction(rated_table) -> None:
    with pytest.raises(RuntimeError, match="inside a transaction"):
        # pytest-django wraps each test in a transaction; step out of it to prove the point.
        atomic = connection.in_atomic_block
        connection.in_atomic_block = False
        try:
            lock_room_rules(room=rated_table.room, exclusive=False)
        finally:
            connection.in_atomic_block = atomic
