"""Cage actions at once on real PostgreSQL connections: two cashiers verifying one transport post it
once; a count made while the schedule runs waits for it."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from cage.exceptions import WrongStatus
from cage.models import Box, CageVerification, Count, CountSheet, ScheduleRun, SheetKind
from cage.services import (
    boxes_sync,
    cage_verify,
    count_record,
    schedule_run,
    transport_create,
)
from casino_backoffice.ledger.models import Transfer, TransferKind
from casino_backoffice.ledger.selectors import ledger_total
from casino_backoffice.staff.roles import Role
from tests.conftest import PIN
from tests.lock_race import second_waits_for_first


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_verifications_of_one_transport_post_once(
    closed_table, witnessed_counts, security, make_staff, key
) -> None:
    transport = transport_create(
        room=closed_table.room, seal="C-1", counts=witnessed_counts, actor=security, pin=PIN, idempotency_key=key()
    )
    cashiers = [make_staff(Role.CAGE_CASHIER), make_staff(Role.CAGE_CASHIER)]
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def verify(cashier) -> None:
        try:
            start.wait(timeout=30)
            cage_verify(transport=transport, counted=2400, actor=cashier, pin=PIN, idempotency_key=f"v-{cashier.pk}")
            outcomes.append("verified")
        except WrongStatus:
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=verify, args=(cashier,)) for cashier in cashiers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["refused", "verified"]
    assert CageVerification.objects.count() == 1
    assert Transfer.objects.filter(kind=TransferKind.VERIFICATION).count() == 3
    assert ledger_total() == 0


@pytest.mark.django_db(transaction=True)
def test_a_count_made_while_the_schedule_runs_waits_for_it_and_fills_the_sheet_it_created(closed_table, dealer) -> None:
    """The schedule creates every room's sheets in one transaction, and a count creates its box's
    sheets and fills one: they took their locks in opposite orders and deadlocked (a 500 on
    ``POST /api/counts/``, found by ``benchmarks/bench_load.py``). Now a count waits for a run that is
    under way, then fills the sheet the run created."""
    boxes_sync(room=closed_table.room)
    box = Box.objects.get(code="T1-drop")

    answers = second_waits_for_first(
        lambda: schedule_run(),
        lambda: count_record(box=box, counted_cents=1500, actor=dealer, pin=PIN, idempotency_key="count-during-run"),
        pause_at="cage.services.schedule.display_overdue_flag",
    )

    run, count = answers["first"], answers["second"]
    assert isinstance(run, ScheduleRun), answers
    assert isinstance(count, Count), answers
    assert run.sheets_created > 0
    daily = CountSheet.objects.get(box=box, kind=SheetKind.DAILY, gaming_day=count.gaming_day)
    assert count.sheet_id == daily.pk  # the run's sheet, not a second one
    assert CountSheet.objects.filter(box=box).count() == 1
    assert ledger_total() == 0
