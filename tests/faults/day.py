"""A room's day played through the money-moving services, step by step, for the fault tests; a count
of every table's rows; and a way to terminate the PostgreSQL backend of the running step.

The day: the schedule, rounds of play, a progressive round, its four aces validated and paid at the
cage, a High Hand on the Tracking Slip, the table closed, the notice to compliance, the drop and Bad
Beat boxes counted and witnessed, carried to the cage and verified, the Bad Beat's display adjusted
and witnessed, a Bad Beat claimed, verified, distributed and its six shares paid.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import psycopg
from django.db import connection

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
from jackpots.bad_beat.models import BadBeatClaim, BadBeatDistribution, DisplayAdjustment
from jackpots.bad_beat.services.claims import claim_open, claim_verify
from jackpots.bad_beat.services.display import display_adjust, display_witness
from jackpots.bad_beat.services.payouts import distribution_prepare, share_pay
from jackpots.funds.models import Jackpot
from jackpots.high_hand.services.slip import entry_record
from jackpots.progressive.models import ProgressiveHand
from jackpots.progressive.services.hands import progressive_hand_record, progressive_pay, progressive_validate
from jackpots.progressive.services.rounds import SeatWager, progressive_round_record
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


def tables_counted() -> list[str]:
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

    def __init__(
        self, *, code: str, staff: dict[str, Any], drop_counted: int = 1_500, cage_counted: int = 1_800
    ) -> None:
        """``drop_counted``: what the dealer counts in the drop box (it holds $15.00); ``cage_counted``: what
        the cashier counts in the container of the drop and Bad Beat counts (their table counts)."""
        self.code = code
        self.drop_counted, self.cage_counted = drop_counted, cage_counted
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
            a_count("drop", self.drop_counted),
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
                    counted=self.cage_counted,
                    actor=s["cashier"],
                    pin=PIN,
                    idempotency_key=key("verify"),
                    confirm_variance=True,  # the cashier confirms a difference beyond the threshold (issue 24)
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
