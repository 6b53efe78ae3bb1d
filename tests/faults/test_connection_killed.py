"""PostgreSQL connections terminated in the middle of the money-moving services, again and again: no
operation is ever left half done, a retry does it once, and the records hold after each.

A day of a room is played through the services: the schedule, rounds of play, a progressive round,
its four aces validated and paid at the cage, a High Hand on the Tracking Slip, the table closed, the
notice to compliance, its boxes counted and witnessed, carried to the cage and verified, the Bad
Beat's display adjusted and witnessed, a Bad Beat claimed, verified, distributed and its six shares
paid. Every step runs twice, in two rooms set up alike:

- in the *reference* room once, cleanly: what it changed (the rows of every table) is the step's whole
  operation, and the SQL statements it ran are where a termination can land;
- in the *faulted* room, with PostgreSQL terminating the step's backend (``pg_terminate_backend`` from
  a second connection) before one of its statements (chosen at random), or at its commit, up to three
  times; then once more with no fault. Keyed steps are also terminated right after they committed
  (the caller never hears the answer) and retried with the same idempotency key.

After each termination before the commit, not one row anywhere has changed; once the step succeeds it
has changed exactly what the reference step changed (every document, signature, history row and
transfer); a retry with the same key answers the first result and changes nothing; and
``invariants_check()`` is ``[]``. What is counted is each backend terminated during a step.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import psycopg
import pytest
from django.db import Error, connection
from django.utils import timezone

from cage.models import Box, Count, Transport
from cage.services import (
    boxes_sync,
    cage_verify,
    count_record,
    count_witness,
    notice_record,
    schedule_run,
    transport_create,
)
from casino_backoffice.ledger.invariants import invariants_check
from jackpots.models import BadBeatClaim, BadBeatDistribution, DisplayAdjustment, Jackpot, ProgressiveHand
from jackpots.services import (
    SeatWager,
    claim_open,
    claim_verify,
    display_adjust,
    display_witness,
    distribution_prepare,
    entry_record,
    progressive_hand_record,
    progressive_pay,
    progressive_round_record,
    progressive_validate,
    share_pay,
)
from rake.services import round_record, rules_load
from tables.models import PokerRoom, Table
from tables.services import table_set_open
from tests.conftest import PIN
from tests.jackpots.bad_beat import QUALIFYING
from tests.jackpots.progressive_helpers import progressive_rules_text
from tests.rake.factories import rules_loader

# Tables whose rows change without any step asking: Django's own bookkeeping.
UNCOUNTED = {"django_content_type", "auth_permission", "django_migrations", "django_session"}


@dataclass(frozen=True)
class Step:
    name: str
    run: Callable[[], Any]
    keyed: bool  # retried with the same idempotency key: the first result again, nothing changed
    compare: bool = True  # changes the same rows as in the reference room (not the schedule: it runs for every room)


def _tables() -> list[str]:
    return sorted(set(connection.introspection.table_names()) - UNCOUNTED)


def snapshot(tables: list[str]) -> dict[str, int]:
    """The number of rows of every table, in one statement."""
    quoted = [connection.ops.quote_name(table) for table in tables]
    sql = "SELECT " + ", ".join(f"(SELECT count(*) FROM {table})" for table in quoted)  # noqa: S608 (table names)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return dict(zip(tables, cursor.fetchone(), strict=True))


def delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {table: after[table] - before[table] for table in before if after[table] != before[table]}


class Terminator:
    """A second connection that terminates the service's backend, and waits until it is gone."""

    def __init__(self) -> None:
        db = connection.settings_dict
        self.connection = psycopg.connect(
            dbname=db["NAME"], user=db["USER"], host=db["HOST"], port=db["PORT"] or 5432, autocommit=True
        )
        self.count = 0

    def terminate(self) -> None:
        pid = connection.connection.info.backend_pid
        (terminated,) = self.connection.execute("SELECT pg_terminate_backend(%s, 10000)", [pid]).fetchone()
        assert terminated, f"backend {pid} was not terminated"
        self.count += 1


@contextmanager
def fault(point: str, terminator: Terminator) -> Iterator[Callable[[], int]]:
    """Terminate the backend before the step's Nth statement (``statement:N``) or at its commit;
    yields a function giving the statements run so far."""
    statements = 0

    def counted(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal statements
        statements += 1
        if point == f"statement:{statements}":
            terminator.terminate()
        return execute(sql, params, many, context)

    commit = connection._commit

    def terminated_commit() -> None:
        terminator.terminate()
        commit()

    if point == "commit":
        connection._commit = terminated_commit  # type: ignore[method-assign]
    try:
        with connection.execute_wrapper(counted):
            yield lambda: statements
    finally:
        connection._commit = commit  # type: ignore[method-assign]


class Day:
    """The steps of a room's day, each given what the earlier steps made (``made``)."""

    def __init__(self, *, code: str, staff: dict[str, Any]) -> None:
        self.code = code
        self.staff = staff
        self.made: dict[str, Any] = {}
        rules_load(text=progressive_rules_text(room=code, name=f"Room {code}"), actor=rules_loader())
        self.room = PokerRoom.objects.get(code=code)
        for number in ("T1", "T12"):
            table_set_open(table=self.table(number), is_open=True, actor=staff["floorperson"])
        boxes_sync(room=self.room)

    def table(self, number: str) -> Table:
        return Table.objects.select_related("room").get(room=self.room, number=number)

    def key(self, name: str) -> str:
        return f"{self.code}-{name}"

    def steps(self, *, at: datetime, schedule_at: datetime) -> list[Step]:
        s, made, key = self.staff, self.made, self.key
        t1, t12 = self.table("T1"), self.table("T12")
        bb = Jackpot.objects.get(room=self.room, code="bb")
        hh = Jackpot.objects.get(room=self.room, code="hh")
        boxes = {box.code: box for box in Box.objects.filter(room=self.room, table=t1)}

        def remember(name: str, value: Any) -> Any:
            made[name] = value
            return value

        def a_round(n: int) -> Step:
            return Step(
                f"round_record {n}",
                lambda: round_record(
                    table=t1,
                    ended_at=at - timedelta(minutes=10 - n),
                    players_dealt_in=9,
                    pot_cents=12_000,
                    uncalled_bet_cents=0,
                    flop_dealt=True,
                    voided=False,
                    actor=s["dealer"],
                    idempotency_key=key(f"round-{n}"),
                ),
                keyed=True,
            )

        def a_count(code: str, counted: int) -> Step:
            return Step(
                f"count_record {code}",
                lambda: remember(
                    code,
                    count_record(
                        box=boxes[f"T1-{code}"],
                        counted_cents=counted,
                        notice=made.get("notice") if code == "bb" else None,
                        actor=s["dealer"],
                        pin=PIN,
                        idempotency_key=key(f"count-{code}"),
                    ),
                ),
                keyed=True,
            )

        def a_witness(code: str) -> Step:
            return Step(
                f"count_witness {code}",
                lambda: count_witness(
                    count=Count.objects.get(pk=made[code].pk),
                    actor=s["floorperson"],
                    pin=PIN,
                    surveillance_reference=f"CAM-{code}",
                ),
                keyed=False,
            )

        def a_share(n: int) -> Step:
            payer = s["security"] if n < 2 else s["cashier"]
            return Step(
                f"share_pay {n}",
                lambda: share_pay(
                    share=BadBeatDistribution.objects.get(pk=made["distribution"].pk).shares.order_by("position")[n],
                    id_type="License",
                    id_number=f"PA-{n}",
                    actor=payer,
                    pin=PIN,
                    idempotency_key=key(f"share-{n}"),
                ),
                keyed=True,
            )

        return [
            Step("schedule_run", lambda: schedule_run(at=schedule_at), keyed=True, compare=False),
            *(a_round(n) for n in range(3)),
            Step(
                "progressive_round_record",
                lambda: remember(
                    "progressive_round",
                    progressive_round_record(
                        table=t12,
                        ended_at=at - timedelta(minutes=2),
                        wagers=[SeatWager(6, 100), SeatWager(3, 500), SeatWager(1, 100)],
                        chips_collected=3,
                        actor=s["dealer"],
                        idempotency_key=key("progressive-round"),
                    ),
                ),
                keyed=True,
            ),
            Step(
                "progressive_hand_record",
                lambda: remember(
                    "aces",
                    progressive_hand_record(
                        round=made["progressive_round"],
                        seat=6,
                        cards="As Ah Ad Ac 2d",
                        light_confirmed=True,
                        actor=s["dealer"],
                        idempotency_key=key("aces"),
                    ),
                ),
                keyed=True,
            ),
            Step(
                "progressive_validate",
                lambda: progressive_validate(
                    hand=ProgressiveHand.objects.get(pk=made["aces"].pk), actor=s["floorperson"], pin=PIN
                ),
                keyed=False,
            ),
            Step(
                "progressive_pay",
                lambda: progressive_pay(
                    hand=ProgressiveHand.objects.get(pk=made["aces"].pk),
                    patron_name="Ada Aces",
                    id_type="Passport",
                    id_number="X1234567",
                    actor=s["cashier"],
                    pin=PIN,
                    idempotency_key=key("progressive-pay"),
                ),
                keyed=True,
            ),
            Step(
                "entry_record",
                lambda: entry_record(
                    jackpot=hh,
                    table=t1,
                    seat=5,
                    player_name="Hal Hand",
                    player_phone="215-555-0100",
                    id_type="License",
                    id_number="PA-0005",
                    dealer=s["dealer"],
                    players_dealt_in=8,
                    pot_cents=9_000,
                    cards="Ts Td Th 4s 4h",
                    made_at=at,
                    actor=s["floorperson"],
                    pin=PIN,
                    idempotency_key=key("high-hand"),
                ),
                keyed=True,
            ),
            Step("table_set_open", lambda: table_set_open(table=t1, is_open=False, actor=s["floorperson"]), False),
            Step(
                "notice_record",
                lambda: remember(
                    "notice",
                    notice_record(
                        room=self.room,
                        notified="J. Smith",
                        method="phone",
                        actor=s["floorperson"],
                        pin=PIN,
                        idempotency_key=key("notice"),
                    ),
                ),
                keyed=True,
            ),
            a_count("drop", 1_500),
            a_count("bb", 300),
            a_witness("drop"),
            a_witness("bb"),
            Step(
                "transport_create",
                lambda: remember(
                    "transport",
                    transport_create(
                        room=self.room,
                        seal=key("seal"),
                        counts=list(Count.objects.filter(pk__in=[made["drop"].pk, made["bb"].pk])),
                        actor=s["security"],
                        pin=PIN,
                        idempotency_key=key("transport"),
                    ),
                ),
                keyed=True,
            ),
            Step(
                "cage_verify",
                lambda: cage_verify(
                    transport=Transport.objects.get(pk=made["transport"].pk),
                    counted=1_800,
                    actor=s["cashier"],
                    pin=PIN,
                    idempotency_key=key("verify"),
                ),
                keyed=True,
            ),
            Step(
                "display_adjust",
                lambda: remember(
                    "adjustment",
                    display_adjust(jackpot=bb, actor=s["finance"], pin=PIN, idempotency_key=key("display")),
                ),
                keyed=True,
            ),
            Step(
                "display_witness",
                lambda: display_witness(
                    adjustment=DisplayAdjustment.objects.get(pk=made["adjustment"].pk),
                    actor=s["floorperson"],
                    pin=PIN,
                ),
                keyed=False,
            ),
            Step(
                "claim_open",
                lambda: remember(
                    "claim",
                    claim_open(
                        jackpot=bb,
                        table=t1,
                        actor=s["floorperson"],
                        pin=PIN,
                        idempotency_key=key("claim"),
                        **QUALIFYING,
                    ),
                ),
                keyed=True,
            ),
            Step(
                "claim_verify",
                lambda: claim_verify(
                    claim=BadBeatClaim.objects.get(pk=made["claim"].pk), actor=s["supervisor"], pin=PIN
                ),
                keyed=False,
            ),
            Step(
                "distribution_prepare",
                lambda: remember(
                    "distribution",
                    distribution_prepare(
                        claim=BadBeatClaim.objects.get(pk=made["claim"].pk),
                        actor=s["finance"],
                        pin=PIN,
                        idempotency_key=key("distribution"),
                    ),
                ),
                keyed=True,
            ),
            *(a_share(n) for n in range(6)),
        ]


def _terminations(*, staff: dict[str, Any], wanted: int, seed: int) -> None:
    rng = random.Random(seed)
    terminator = Terminator()
    tables = _tables()
    done: Counter[str] = Counter()
    points: Counter[str] = Counter()
    day = 0
    while terminator.count < wanted:
        at = timezone.now()
        reference, faulted = Day(code=f"r{day}", staff=staff), Day(code=f"f{day}", staff=staff)
        # The faulted room's schedule runs a second later (a moment runs once, for every room).
        steps = zip(
            reference.steps(at=at, schedule_at=at),
            faulted.steps(at=at, schedule_at=at + timedelta(seconds=1)),
            strict=True,
        )
        for ref_step, step in steps:
            # The reference: the step's whole operation, and how many statements it runs.
            before = snapshot(tables)
            with fault("", terminator) as statements:
                ref_step.run()
            expected, reach = delta(before, snapshot(tables)), statements()
            assert expected, f"{step.name} changed nothing"

            before = snapshot(tables)
            kills = rng.choices([0, 1, 2, 3], weights=[1, 4, 3, 2])[0] if terminator.count < wanted else 0
            completed = False
            for _ in range(kills):
                point = "commit" if rng.random() < 0.15 else f"statement:{rng.randint(1, reach)}"
                fired = terminator.count
                try:
                    with fault(point, terminator):
                        step.run()
                except Error:
                    connection.close()  # the service's connection is gone; the next call opens another
                else:
                    # Only a step that ran fewer statements than the reference's may finish.
                    assert terminator.count == fired, f"{step.name} went on past its terminated connection at {point}"
                    completed = True
                    break
                assert terminator.count == fired + 1
                points[point.split(":")[0]] += 1
                # Not one row changed: the operation is all or nothing.
                assert snapshot(tables) == before, f"{step.name} left rows behind when terminated at {point}"
                assert invariants_check() == []
            if not completed:
                step.run()
            after = snapshot(tables)
            if step.compare:
                assert delta(before, after) == expected, f"{step.name} did not do all of its operation"
            if step.keyed:
                if terminator.count < wanted and rng.random() < 0.3:
                    # Terminated right after the commit: the caller never heard; it retries with the same key.
                    terminator.terminate()
                    points["after_commit"] += 1
                    connection.close()
                step.run()
                assert snapshot(tables) == after, f"{step.name} did its operation twice on a retry with its key"
            assert invariants_check() == []
            done[step.name] += 1
        day += 1
    print(
        f"\n{terminator.count} backends terminated over {day} days of two rooms ({sum(done.values())} faulted steps): "
        f"{dict(points)}"
    )


@pytest.fixture
def staff(dealer, floorperson, supervisor, security, cashier, finance) -> dict[str, Any]:
    return {
        "dealer": dealer,
        "floorperson": floorperson,
        "supervisor": supervisor,
        "security": security,
        "cashier": cashier,
        "finance": finance,
    }


@pytest.mark.django_db(transaction=True)
def test_connections_terminated_200_times_leave_no_operation_half_done(staff) -> None:
    _terminations(staff=staff, wanted=200, seed=200)
