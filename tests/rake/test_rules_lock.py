"""Rating a round and loading a backdated rules version never interleave (rake.locks).

Real parallel connections on PostgreSQL: a round being rated holds the room's rules lock shared; a
rules file that would take effect before that round waits for it, then sees it and is refused.
Waiting is observed where PostgreSQL records it, in ``pg_locks``, never inferred from elapsed time.
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from rake.exceptions import RulesFileInvalid
from rake.locks import RULES_LOCK_NAMESPACE, lock_room_rules
from rake.services import round_record, rules_load
from tables.models import Round, RulesVersion
from tests.rake.factories import rules_loader, rules_text


def _rules_lock_holders(room_id: int) -> dict[bool, int]:
    """How many backends hold (True) and wait for (False) the room's rules lock, from ``pg_locks``."""
    with connections["default"].cursor() as cursor:
        cursor.execute(
            "SELECT granted, count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s AND objid = %s"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) GROUP BY granted",
            [RULES_LOCK_NAMESPACE, room_id],
        )
        return {True: 0, False: 0} | dict(cursor.fetchall())


def _wait_until(condition, *, what: str, deadline_s: float = 30) -> None:
    """Poll ``condition`` until it holds; the deadline only stops a broken test from hanging."""
    end = time.monotonic() + deadline_s
    while not condition():
        assert time.monotonic() < end, f"gave up waiting: {what}"
        time.sleep(0.01)


@pytest.mark.django_db(transaction=True)
def test_a_backdated_rules_file_waits_for_the_round_being_rated_and_is_refused(rated_table, dealer) -> None:
    assert connection.vendor == "postgresql"
    ended_at = timezone.now() - timedelta(minutes=5)
    locked, go = threading.Event(), threading.Event()
    outcome: dict[str, object] = {}
    room_id = rated_table.room.pk

    def rate_a_round() -> None:
        try:
            with transaction.atomic():
                lock_room_rules(room=rated_table.room, exclusive=False)  # rating has begun
                locked.set()
                go.wait(timeout=30)
                round_record(
                    table=rated_table,
                    ended_at=ended_at,
                    players_dealt_in=9,
                    pot_cents=12000,
                    uncalled_bet_cents=0,
                    flop_dealt=True,
                    voided=False,
                    actor=dealer,
                    idempotency_key="r-1",
                )
        finally:
            connections.close_all()

    def load_backdated_rules() -> None:
        locked.wait(timeout=30)
        try:
            rules_load(
                text=rules_text(effective_from=(ended_at - timedelta(minutes=1)).isoformat(), name="Renamed room"),
                actor=rules_loader(),
            )
            outcome["result"] = "loaded"
        except RulesFileInvalid as error:
            outcome["result"] = str(error)
        finally:
            connections.close_all()

    rater, loader = threading.Thread(target=rate_a_round), threading.Thread(target=load_backdated_rules)
    rater.start()
    loader.start()
    # The loader asks for the lock exclusive and PostgreSQL makes it wait behind the rater's shared hold.
    _wait_until(lambda: _rules_lock_holders(room_id)[False] == 1, what="the rules load to wait for the lock")
    assert loader.is_alive() and "result" not in outcome
    assert _rules_lock_holders(room_id) == {True: 1, False: 1}
    go.set()
    rater.join(timeout=30)
    loader.join(timeout=30)

    # Refused under the lock: a later version takes effect no earlier than its loading (nor before a round).
    assert "is before now" in str(outcome["result"])
    assert Round.objects.count() == 1
    assert RulesVersion.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_rounds_being_rated_do_not_wait_for_each_other(rated_table) -> None:
    room_id = rated_table.room.pk
    with transaction.atomic():
        lock_room_rules(room=rated_table.room, exclusive=False)
        seen: list[dict[bool, int]] = []

        def other() -> None:
            try:
                with transaction.atomic():
                    lock_room_rules(room=rated_table.room, exclusive=False)
                    # Both holds are granted at once while this transaction is still open.
                    seen.append(_rules_lock_holders(room_id))
            finally:
                connections.close_all()

        thread = threading.Thread(target=other)
        thread.start()
        thread.join(timeout=30)
        assert not thread.is_alive(), "a second shared hold waited for the first"
    assert seen == [{True: 2, False: 0}]


def test_the_lock_is_held_until_commit_so_it_needs_a_transaction(rated_table) -> None:
    with pytest.raises(RuntimeError, match="inside a transaction"):
        # pytest-django wraps each test in a transaction; step out of it to prove the point.
        atomic = connection.in_atomic_block
        connection.in_atomic_block = False
        try:
            lock_room_rules(room=rated_table.room, exclusive=False)
        finally:
            connection.in_atomic_block = atomic
