"""The cage at scale: the boxes list, the official record, a fund's balance, the display board and the
official-record export of a room with 50 tables and 1,000,000 logged rounds (PostgreSQL only).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_cagebench_bench \\
        .venv/bin/python benchmarks/bench_cage.py [--rounds 1000000] [--tables 50] [--days 20] [--repeat 9] [--fresh]

What it does:
1. Creates (``--fresh``: drops first) and migrates the database named by ``DATABASE_URL``, unless a
   previous run already built it (then it only measures).
2. Room ``bench``: a rules file with 50 Hold'em tables, each with rake (nl10), a Bad Beat box (bb)
   and a High Hand box (hh, a daily qualifying period from 06:00). Room ``large``: the same rules at
   one table, whose funds get 1,000,000 official transfers each (step 5).
3. ``--days`` gaming days of history, each: the day's rounds of room ``bench``, written set-based
   (``INSERT ... SELECT generate_series``) exactly as ``rake.services.round_record`` writes them (the
   round, its drops, its transfers from the pots into the boxes, same keys, memos, fingerprints and
   gaming days; the amounts and rules come from ``rake.compute`` for each distinct pot); then, at
   06:02 the next morning, through the real services with the clock set to that moment: the notice to
   compliance, the count of every box of every table by a dealer, the witness, one sealed container per
   table carried by security, the cage verification of its aggregate, and the explanation of every
   variance (every 37th count is $1.00 short, every 11th container is $0.50 short at the cage). With
   50 tables and 20 days each fund gets 1,000 official transfers. Then 1% of the rounds, uncounted,
   on the current gaming day: what the boxes hold now. Balance checkpoints are taken after each day, as
   the beat would. Before the history, generated rounds are checked against ``round_record`` itself.
4. Room ``large``: the same counts and verifications (at one table, empty boxes), then 1,000,000
   official transfers per fund (custody -> fund, each referencing one of the room's verifications), the
   last ``CHECKPOINT_STRIDE - 1`` after the latest checkpoint (the longest tail a balance reads
   between two checkpoints, when the beat takes them every minute).
5. Measures, warm, the median of ``--repeat`` runs:
   (a) the boxes list (``cage.selectors.boxes_with_expected``) beside the same aggregate in raw SQL,
       and beside the whole-history sum (what a balance cost before checkpoints);
   (b) the official record (``cage.selectors.official_record``) beside the same aggregate in raw SQL;
   (c) a fund's balance and the display board's state with 1,000 official transfers (room bench)
       and with 1,000,000 (room large), beside the queries they ran before checkpoints;
   (d) the official-record CSV export streamed (``official_record_rows_iter`` through
       ``csv_chunks``): peak Python memory (tracemalloc) for 2 and for 20 gaming days, 10x the rows,
       beside the export built in memory (room bench), and for 100,000 and 1,000,000 rows (room large).

Building the data takes 10 to 20 minutes on 2 shared cores; measuring, a few. The tests run it with ``--quick`` only.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from datetime import date, datetime, timedelta
from datetime import time as clock_time
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
PIN = "2468"
MAIN, LARGE = "bench", "large"
SHORT_COUNT_EVERY, SHORT_CAGE_EVERY = 37, 11


# --- Database and Django ---------------------------------------------------------------------------


def _ensure_database(url: str, *, fresh: bool) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1].split("?")[0]
    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if exists and fresh:
            conn.execute(f'DROP DATABASE "{name}"')
            exists = None
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def _django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_backoffice.settings")
    import django
    from django.conf import settings

    django.setup()
    # Signing is measured elsewhere: the people of the benchmark sign with a fast hash.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.DEBUG = False


class Clock:
    """``django.utils.timezone.now`` at a chosen moment, a millisecond later at each call, so the
    services sign, count and post at the simulated time."""

    def __init__(self) -> None:
        self.at: datetime | None = None

    def now(self) -> datetime:
        assert self.at is not None
        self.at += timedelta(milliseconds=1)
        return self.at

    @contextlib.contextmanager
    def at_moment(self, moment: datetime) -> Iterator[None]:
        self.at = moment
        with mock.patch("django.utils.timezone.now", self.now):
            yield
        self.at = None


CLOCK = Clock()


def _median_ms(fn: Callable[[], Any], repeat: int) -> float:
    return _paired_ms(fn, repeat=repeat)[0]


def _paired_ms(*fns: Callable[[], Any], repeat: int) -> list[float]:
    """The median milliseconds of each function, warm, their runs taken in turn so that other work
    on the shared machine weighs on each alike."""
    for fn in fns:
        fn()  # warm: plans, caches
        fn()
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, runs in zip(fns, times, strict=True):
            started = time.perf_counter()
            fn()
            runs.append(time.perf_counter() - started)
    return [statistics.median(runs) * 1000 for runs in times]


# --- Rules, people, rooms --------------------------------------------------------------------------


def _rules_text(*, room: str, name: str, tables: list[str], effective_from: datetime) -> str:
    import yaml

    return yaml.safe_dump(
        {
            "room": room,
            "name": name,
            "effective_from": effective_from.isoformat(),
            "timezone": "America/New_York",
            "gaming_day_starts": "06:00",
            "shifts": [
                {"name": "day", "starts": "06:00"},
                {"name": "swing", "starts": "14:00"},
                {"name": "grave", "starts": "22:00"},
            ],
            "rake_policies": [
                {
                    "code": "nl10",
                    "kind": "percentage",
                    "rate_percent": 10,
                    "max_per_round": "5.00",
                    "increment": "1.00",
                    "min_pot": "10.00",
                    "no_flop_no_drop": True,
                }
            ],
            "jackpots": [
                {
                    "code": "bb",
                    "kind": "bad_beat",
                    "name": "Bad Beat",
                    "contribution": {"method": "fixed", "amount": "1.00", "min_pot": "20.00"},
                    "reserve_percent": 0,
                    "discontinuation": {"approved_on": "2025-12-01", "reference": "PGCB approval 2025-117"},
                    "hands": [
                        {
                            "code": "bad_beat",
                            "name": "Bad Beat",
                            "games": ["holdem"],
                            "payout_percent": 100,
                            "qualifier": {
                                "losing_hand_at_least": "AAATT",
                                "both_hole_cards_play": True,
                                "min_players": 4,
                            },
                            "shares": {"losing_hand": 50, "winning_hand": 25, "table_share": 25},
                        }
                    ],
                    "seed": "0.00",
                },
                {
                    "code": "hh",
                    "kind": "high_hand",
                    "name": "High Hand",
                    "contribution": {"method": "percent", "rate_percent": 5, "max": "2.00", "min_pot": "30.00"},
                    "period": {"every_minutes": 1440, "first_starts": "06:00"},
                    "min_players": 6,
                    "min_hand": "full_house",
                    "ties": "split",
                    "claim_within_days": 7,
                    "id_required": True,
                    "unclaimed": "next_period",
                },
            ],
            "tables": [
                {"number": number, "game": "holdem", "seats": 10, "rake_policy": "nl10", "jackpots": ["bb", "hh"]}
                for number in tables
            ],
        },
        sort_keys=False,
    )


def _people() -> dict[str, Any]:
    from casino_backoffice.staff.models import User
    from casino_backoffice.staff.roles import Role
    from casino_backoffice.staff.services import staff_create

    roles = {
        "manager": Role.POKER_ROOM_MANAGER,
        "dealer": Role.DEALER,
        "floorperson": Role.FLOORPERSON,
        "security": Role.SECURITY,
        "cashier": Role.CAGE_CASHIER,
        "supervisor": Role.SHIFT_SUPERVISOR,
    }
    people = {}
    for n, (who, role) in enumerate(roles.items(), start=1):
        username = f"bench-{who}"
        people[who] = User.objects.filter(username=username).first() or staff_create(
            username=username,
            role=role,
            credential_number=f"PA-BENCH-{n:04d}",
            password=f"{username}-password",
            pin=PIN,
            first_name="Bench",
            last_name=who.title(),
            all_rooms=True,
            # The manager opens the bench's rooms by loading their first rules: an all-rooms administrator too.
            extra_roles=[Role.ADMINISTRATOR] if role == Role.POKER_ROOM_MANAGER else [],
        )
    return people


# --- Rounds, set-based ---------------------------------------------------------------------------


def _outcomes(room: Any) -> list[dict[str, Any]]:
    """Distinct rounds (pot, players, uncalled bet, flop, voided) with what ``rake.compute`` takes
    from each: the generator picks one of them for each round."""
    from django.utils import timezone

    from rake.compute import compute_rake_and_drops
    from rake.selectors import RoomVersions

    now = timezone.now()
    in_effect = RoomVersions.of(room=room, at=now).in_effect(at=now)
    assert in_effect is not None
    rules = in_effect[1]
    table_rule = next(iter(rules.tables.values()))
    assert table_rule.rake_policy is not None
    outcomes = []
    for n in range(400):
        pot = 200 + (n * 7919) % 60000  # $2.00 .. $601.99
        players = 2 + n % 9
        uncalled = (pot // 4) if n % 13 == 0 else 0
        flop = n % 9 != 0
        voided = n % 97 == 0
        outcome = compute_rake_and_drops(
            policy=rules.rake_policies[table_rule.rake_policy],
            jackpots=[rules.jackpots[code] for code in table_rule.jackpots],
            pot_cents=pot,
            uncalled_cents=uncalled,
            flop_dealt=flop,
            voided=voided,
            players=players,
        )
        drops = {drop.code: drop for drop in outcome.drops}
        outcomes.append(
            {
                "pot": pot,
                "players": players,
                "uncalled": uncalled,
                "flop": flop,
                "voided": voided,
                "rake": outcome.rake_cents,
                "rake_rule": outcome.rake_rule[:300],
                "bb": drops["bb"].amount_cents,
                "bb_rule": drops["bb"].rule[:300],
                "hh": drops["hh"].amount_cents,
                "hh_rule": drops["hh"].rule[:300],
            }
        )
    return outcomes


def _shift_names(room: Any) -> list[str]:
    """The shift of each minute of the local day (index 0 is 00:00), as the rules name it."""
    from django.utils import timezone

    from rake.selectors import RoomVersions

    now = timezone.now()
    in_effect = RoomVersions.of(room=room, at=now).in_effect(at=now)
    assert in_effect is not None
    return [in_effect[1].shift_at(clock_time(minute // 60, minute % 60)) for minute in range(1440)]


def rounds_insert(
    *, room: Any, day: date, first: datetime, last: datetime, count: int, outcomes: list[dict[str, Any]], dealer: Any
) -> int:
    """Insert ``count`` rounds of gaming day ``day`` ending from ``first`` to ``last``, spread over
    the room's tables, with their drops and transfers, in one statement: the rows ``round_record``
    writes (checked by ``_check_generator``)."""
    from django.contrib.contenttypes.models import ContentType
    from django.db import connection

    from casino_backoffice.ledger.models import Account, Transfer
    from casino_backoffice.ledger.services import account_open_as
    from jackpots.funds.models import Jackpot, RoundDrop
    from jackpots.high_hand.accounts import high_hand_box_content_account
    from jackpots.high_hand.models import HighHandPeriod
    from rake.selectors import RoomVersions
    from rake.services.accounts import drop_box_account, pots_account
    from tables.models import Round, Table

    if count <= 0:
        return 0
    in_effect = RoomVersions.of(room=room, at=first).in_effect(at=first)
    assert in_effect is not None
    version_id = in_effect[0]
    tables = list(Table.objects.filter(room=room).order_by("pk"))
    accounts = dict(Account.objects.filter(code__startswith=f"table:{room.code}:").values_list("code", "pk"))
    jackpots = dict(Jackpot.objects.filter(room=room).values_list("code", "pk"))
    pots = Account.objects.get(code=pots_account(room=room).code).pk
    # The High Hand box is exchanged at each period's end (§637a.16(d)): the day's drops go to the box
    # content of the day's qualifying period (a daily period from the gaming day's start), opened by
    # the schedule before the rounds are inserted, as round_record requires.
    high_hand = Jackpot.objects.get(room=room, code="hh")
    period = HighHandPeriod.objects.get(jackpot=high_hand, starts_at__lte=first, ends_at__gt=last)
    hh_contents = [
        account_open_as(high_hand_box_content_account(table=t, jackpot=high_hand, starts_at=period.starts_at)).pk
        for t in tables
    ]
    window = max((last - first).total_seconds(), 1.0)
    key_prefix = f"bench:{room.code}:{day.isoformat()}:"
    o = outcomes
    sql = f"""
        WITH outcome AS (
            SELECT * FROM unnest(%s::bigint[], %s::int[], %s::bigint[], %s::bool[], %s::bool[], %s::bigint[], %s::text[],
                                 %s::bigint[], %s::text[], %s::bigint[], %s::text[])
                WITH ORDINALITY AS o(pot, players, uncalled, flop, voided, rake, rake_rule, bb, bb_rule, hh, hh_rule, n)
        ), tab AS (
            SELECT * FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[], %s::bigint[]) WITH ORDINALITY AS t(table_id, drop_box, bb_box, hh_box, n)
        ), generated AS MATERIALIZED (
            SELECT g.i, %s || g.i AS key,
                   %s::timestamptz + make_interval(secs => floor(g.i::float8 * %s / %s)) AS ended_at,
                   1 + mod(g.i, %s) AS tab_n, 1 + mod(g.i * 7919 + g.i / 400, %s) AS outcome_n
            FROM generate_series(0, %s - 1) AS g(i)
        ), src AS MATERIALIZED (
            SELECT g.key, g.ended_at, g.ended_at + interval '2 seconds' AS created_at, t.*, o.*,
                   (%s::text[])[1 + extract(hour FROM g.ended_at AT TIME ZONE %s)::int * 60 + extract(minute FROM g.ended_at AT TIME ZONE %s)::int] AS shift,
                   encode(sha256(convert_to(
                       '{{"ended_at":"' || to_char(g.ended_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '+00:00"'
                       || ',"flop_dealt":' || CASE WHEN o.flop THEN 'true' ELSE 'false' END
                       || ',"players_dealt_in":' || o.players || ',"pot_cents":' || o.pot || ',"table":' || t.table_id
                       || ',"uncalled_bet_cents":' || o.uncalled || ',"voided":' || CASE WHEN o.voided THEN 'true' ELSE 'false' END || '}}',
                       'UTF8')), 'hex') AS sha
            FROM generated g JOIN tab t ON t.n = g.tab_n JOIN outcome o ON o.n = g.outcome_n
        ), new_round AS (
            INSERT INTO {Round._meta.db_table} (table_id, ended_at, gaming_day, shift, game, players_dealt_in, pot_cents,
                uncalled_bet_cents, flop_dealt, voided, rules_version_id, rake_cents, rake_rule, idempotency_key,
                request_sha256, created_by_id, created_at)
            SELECT table_id, ended_at, %s, shift, 'holdem', players, pot, uncalled, flop, voided, %s, rake, rake_rule, key,
                   sha, %s, created_at
            FROM src
            RETURNING id, idempotency_key
        ), rounds AS (
            SELECT r.id, s.* FROM new_round r JOIN src s ON s.key = r.idempotency_key
        ), new_drop AS (
            INSERT INTO {RoundDrop._meta.db_table} (round_id, jackpot_id, jackpot_code, position, amount_cents, rule)
            SELECT id, %s, 'bb', 0, bb, bb_rule FROM rounds
            UNION ALL SELECT id, %s, 'hh', 1, hh, hh_rule FROM rounds
        ), new_transfer AS (
            INSERT INTO {Transfer._meta.db_table} (debit_id, credit_id, amount_cents, kind, reference_type_id, reference_id,
                idempotency_key, memo, posted_at, posted_by_id)
            SELECT debit, %s, amount, kind, %s, id::text, 'round:' || key || suffix, memo, created_at, %s
            FROM (
                SELECT id, key, created_at, drop_box AS debit, rake AS amount, 'rake' AS kind, ':rake' AS suffix, rake_rule AS memo FROM rounds
                UNION ALL SELECT id, key, created_at, bb_box, bb, 'drop', ':drop:bb', bb_rule FROM rounds
                UNION ALL SELECT id, key, created_at, hh_box, hh, 'drop', ':drop:hh', hh_rule FROM rounds
            ) posting
            WHERE amount > 0
        )
        SELECT count(*) FROM new_round
    """
    params = [
        [x["pot"] for x in o],
        [x["players"] for x in o],
        [x["uncalled"] for x in o],
        [x["flop"] for x in o],
        [x["voided"] for x in o],
        [x["rake"] for x in o],
        [x["rake_rule"] for x in o],
        [x["bb"] for x in o],
        [x["bb_rule"] for x in o],
        [x["hh"] for x in o],
        [x["hh_rule"] for x in o],
        [t.pk for t in tables],
        [accounts[drop_box_account(table=t).code] for t in tables],
        [accounts[f"table:{room.code}:{t.number}:bb_box"] for t in tables],
        hh_contents,
        key_prefix,
        first,
        window,
        count,
        len(tables),
        len(o),
        count,
        _shift_names(room),
        room.timezone,
        room.timezone,
        day,
        version_id,
        dealer.pk,
        jackpots["bb"],
        jackpots["hh"],
        pots,
        ContentType.objects.get_for_model(Round).pk,
        dealer.pk,
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.fetchone()[0])


def _check_generator(*, room: Any, dealer: Any, samples: int = 25) -> int:
    """Record ``samples`` generated rounds again through ``round_record`` (at an open table, in a
    transaction rolled back) and compare every row it writes with the generated ones."""
    from django.contrib.contenttypes.models import ContentType
    from django.db import transaction

    from casino_backoffice.ledger.models import Transfer
    from jackpots.funds.models import RoundDrop
    from rake.services import round_record
    from tables.models import Round, Table

    class Rollback(Exception):
        pass

    def drops(round_: Round) -> list[tuple[Any, ...]]:
        return list(
            RoundDrop.objects.filter(round=round_)
            .order_by("position")
            .values_list("jackpot_id", "jackpot_code", "position", "amount_cents", "rule")
        )

    def transfers(round_: Round) -> list[tuple[Any, ...]]:
        rows = Transfer.objects.filter(reference_type=round_type, reference_id=str(round_.pk)).order_by(
            "idempotency_key"
        )
        return [
            (
                t.debit_id,
                t.credit_id,
                t.amount_cents,
                t.kind,
                t.reference_type_id,
                t.idempotency_key.split(":")[-1],
                t.memo,
                t.posted_at == round_.created_at,
                t.posted_by_id,
            )
            for t in rows
        ]

    fields = [
        "table_id",
        "ended_at",
        "gaming_day",
        "shift",
        "game",
        "players_dealt_in",
        "pot_cents",
        "uncalled_bet_cents",
        "flop_dealt",
        "voided",
        "rules_version_id",
        "rake_cents",
        "rake_rule",
        "request_sha256",
        "created_by_id",
    ]
    generated = list(Round.objects.filter(table__room=room).order_by("?")[:samples])
    round_type = ContentType.objects.get_for_model(Round)
    try:
        with transaction.atomic():
            Table.objects.filter(room=room).update(is_open=True)
            for n, made in enumerate(generated):
                # Logged a minute after it ended, as the dealer logs it (a round of a past day logged
                # today would need a supervisor's signature as a late entry).
                with CLOCK.at_moment(made.ended_at + timedelta(minutes=1)):
                    again = round_record(
                        table=made.table,
                        ended_at=made.ended_at,
                        players_dealt_in=made.players_dealt_in,
                        pot_cents=made.pot_cents,
                        uncalled_bet_cents=made.uncalled_bet_cents,
                        flop_dealt=made.flop_dealt,
                        voided=made.voided,
                        actor=dealer,
                        idempotency_key=f"check-{n}",
                    ).round
                again.refresh_from_db()
                for field in fields:
                    if getattr(again, field) != getattr(made, field):
                        raise SystemExit(
                            f"generated round {made.pk}: {field} is {getattr(made, field)!r}, round_record writes {getattr(again, field)!r}"
                        )
                if [d[:5] for d in drops(again)] != drops(made):
                    raise SystemExit(f"generated round {made.pk}: drops {drops(made)} != {drops(again)}")
                if transfers(again) != transfers(made):
                    raise SystemExit(f"generated round {made.pk}: transfers {transfers(made)} != {transfers(again)}")
            raise Rollback
    except Rollback:
        pass
    return len(generated)


# --- Counts and verifications through the services ----------------------------------------------


_keys = itertools.count(1)


def _key(prefix: str) -> str:
    return f"bench:{prefix}:{next(_keys)}:{time.monotonic_ns()}"


def counts_day(
    *, room: Any, boxes_by_table: dict[Any, list[Any]], at: datetime, people: dict[str, Any], ordinal: int
) -> int:
    """At ``at`` (06:02 after gaming day ``ordinal``): notice, count, witness, carry and verify every
    box of every table of ``room``; explain every variance. Returns the verifications made."""
    from cage.models import Variance, VerificationStatus
    from cage.services import (
        cage_verify,
        count_record,
        count_witness,
        notice_record,
        transport_create,
        variance_explain,
        verification_explain,
    )
    from casino_backoffice.ledger.selectors import account_balance
    from jackpots.funds.models import JackpotKind

    verified = 0
    with CLOCK.at_moment(at):
        notice = notice_record(
            room=room,
            notified="Compliance desk",
            method="phone",
            actor=people["floorperson"],
            pin=PIN,
            idempotency_key=_key("notice"),
        )
        for table_n, (table, boxes) in enumerate(boxes_by_table.items()):
            counts = []
            for box_n, box in enumerate(boxes):
                expected = account_balance(account=box.account)
                short = (table_n * 3 + box_n + ordinal) % SHORT_COUNT_EVERY == 0 and expected >= 100
                # The notice was given this morning, for the Bad Beat boxes of the day that just ended.
                bad_beat = box.jackpot is not None and box.jackpot.kind == JackpotKind.BAD_BEAT
                count = count_record(
                    box=box,
                    counted_cents=expected - 100 if short else expected,
                    actor=people["dealer"],
                    pin=PIN,
                    idempotency_key=_key("count"),
                    notice=notice if bad_beat else None,
                )
                counts.append(
                    count_witness(
                        count=count,
                        actor=people["floorperson"],
                        pin=PIN,
                        surveillance_reference=f"CAM-{table.number}-{ordinal}",
                    )
                )
            transport = transport_create(
                room=room,
                seal=f"S-{ordinal}-{table.number}",
                counts=counts,
                actor=people["security"],
                pin=PIN,
                idempotency_key=_key("transport"),
            )
            declared = transport.declared_cents or 0
            short = (table_n + ordinal) % SHORT_CAGE_EVERY == 0 and declared >= 50
            verification = cage_verify(
                transport=transport,
                counted=declared - 50 if short else declared,
                confirm_variance=short,
                actor=people["cashier"],
                pin=PIN,
                idempotency_key=_key("verify"),
            )
            if verification.status == VerificationStatus.VARIANCE_UNRESOLVED:
                verification_explain(
                    verification=verification,
                    reason="Chips found at the table after the count.",
                    actor=people["supervisor"],
                    pin=PIN,
                )
            verified += 1
        for variance in Variance.objects.filter(room=room, needs_explanation=True, explained_at__isnull=True):
            variance_explain(
                variance=variance,
                reason="Miscount at the table, recounted on camera.",
                actor=people["supervisor"],
                pin=PIN,
            )
    return verified


# --- Building the data ------------------------------------------------------------------------------


def build(*, rounds: int, tables: int, days: int, large_transfers: int) -> None:
    from django.utils import timezone

    from cage.models import Box
    from cage.services import boxes_sync, schedule_run
    from casino_backoffice.ledger.checkpoints import checkpoints_take
    from rake.services import rules_load
    from tables.models import PokerRoom
    from tables.selectors import gaming_day, gaming_day_bounds

    people = _people()
    now = timezone.now()
    zone_room = PokerRoom(code=MAIN, timezone="America/New_York")
    zone_room.gaming_day_starts = clock_time(6)
    today = gaming_day(room=zone_room, at=now)
    # The last counted day ends an hour before now at least (its count is at 06:02 the next morning).
    last_counted = (
        today - timedelta(days=1)
        if now >= gaming_day_bounds(room=zone_room, day=today)[0] + timedelta(hours=1)
        else today - timedelta(days=2)
    )
    history = [last_counted - timedelta(days=days - 1 - n) for n in range(days)]
    since = gaming_day_bounds(room=zone_room, day=history[0])[0] - timedelta(days=1)
    with CLOCK.at_moment(since):
        main_rules = _rules_text(
            room=MAIN, name="Benchmark Poker Room", tables=[f"T{n}" for n in range(1, tables + 1)], effective_from=since
        )
        rules_load(text=main_rules, actor=people["manager"], source_name="benchmarks/bench_cage.py")
        rules_load(
            text=_rules_text(room=LARGE, name="Large History Room", tables=["L1"], effective_from=since),
            actor=people["manager"],
            source_name="benchmarks/bench_cage.py",
        )
        rooms = {code: PokerRoom.objects.get(code=code) for code in (MAIN, LARGE)}
        for room in rooms.values():
            boxes_sync(room=room)
    boxes = {
        code: {
            table: sorted(
                [b for b in Box.objects.filter(table=table).select_related("account", "table", "room", "jackpot")],
                key=lambda b: b.code,
            )
            for table in room.tables.order_by("pk")
        }
        for code, room in rooms.items()
    }
    main = rooms[MAIN]
    outcomes = _outcomes(main)
    uncounted = rounds // 100
    per_day = [(rounds - uncounted) // days + (1 if n < (rounds - uncounted) % days else 0) for n in range(days)]
    with CLOCK.at_moment(gaming_day_bounds(room=main, day=history[0])[0] + timedelta(minutes=1)):
        schedule_run()
    started = time.perf_counter()
    for ordinal, (day, count) in enumerate(zip(history, per_day, strict=True), start=1):
        opens, closes = gaming_day_bounds(room=main, day=day)
        with CLOCK.at_moment(opens + timedelta(minutes=1)):
            schedule_run()  # opens the day's High Hand period (and its count sheets)
        inserted = rounds_insert(
            room=main,
            day=day,
            first=opens + timedelta(minutes=10),
            last=closes - timedelta(minutes=5),
            count=count,
            outcomes=outcomes,
            dealer=people["dealer"],
        )
        if ordinal == 1:
            print(
                f"  generator checked against round_record: {_check_generator(room=main, dealer=people['dealer'])} rounds identical",
                flush=True,
            )
        count_at = closes + timedelta(minutes=2)
        with CLOCK.at_moment(closes + timedelta(minutes=1)):
            schedule_run()  # closes the day's High Hand period: its box contents are counted next
        verified = sum(
            counts_day(room=room, boxes_by_table=boxes[code], at=count_at, people=people, ordinal=ordinal)
            for code, room in rooms.items()
        )
        checkpoints = checkpoints_take()
        print(
            f"  gaming day {day} ({ordinal}/{days}): {inserted:,} rounds, {verified} verifications, {checkpoints} checkpoints "
            f"[{time.perf_counter() - started:.0f}s]",
            flush=True,
        )
    # What the boxes hold now: rounds of the current gaming day, not yet counted.
    current = history[-1] + timedelta(days=1)
    opens, closes = gaming_day_bounds(room=main, day=current)
    last = min(now - timedelta(minutes=1), closes - timedelta(minutes=5)).replace(microsecond=0)
    with CLOCK.at_moment(opens + timedelta(minutes=1)):
        schedule_run()
    inserted = rounds_insert(
        room=main,
        day=current,
        first=min(opens + timedelta(minutes=10), last),
        last=last,
        count=uncounted,
        outcomes=outcomes,
        dealer=people["dealer"],
    )
    print(
        f"  gaming day {current} (current): {inserted:,} rounds not yet counted; {checkpoints_take()} checkpoints",
        flush=True,
    )
    large_funds(room=rooms[LARGE], cashier=people["cashier"], per_fund=large_transfers)


def large_funds(*, room: Any, cashier: Any, per_fund: int = 1_000_000) -> None:
    """``per_fund`` official transfers into each fund of ``room`` (custody -> fund, each referencing
    one of the room's verifications, the last ``CHECKPOINT_STRIDE - 1`` after the latest checkpoint)."""
    from django.contrib.contenttypes.models import ContentType
    from django.db import connection, transaction

    from cage.accounts import custody_account, fund_account
    from cage.models import CageVerification
    from casino_backoffice.ledger.checkpoints import CHECKPOINT_STRIDE, checkpoints_take
    from casino_backoffice.ledger.models import Transfer, TransferKind
    from casino_backoffice.ledger.services import Posting, account_open_as, transfers_post_within
    from jackpots.funds.models import Jackpot
    from rake.services.accounts import pots_account

    verifications = list(CageVerification.objects.filter(room=room).order_by("pk").values_list("pk", "verified_at"))
    custody = custody_account(room=room)
    verification_type = ContentType.objects.get_for_model(CageVerification).pk
    tail = CHECKPOINT_STRIDE - 1
    sql = f"""
        INSERT INTO {Transfer._meta.db_table} (debit_id, credit_id, amount_cents, kind, reference_type_id, reference_id,
            idempotency_key, memo, posted_at, posted_by_id)
        SELECT %s, %s, 100 + mod(g.n, 200), 'verification', %s, v.id::text, %s || g.n, %s, v.verified_at, %s
        FROM generate_series(%s, %s) AS g(n)
        JOIN unnest(%s::bigint[], %s::timestamptz[]) WITH ORDINALITY AS v(id, verified_at, k) ON v.k = 1 + mod(g.n * %s / %s, %s)
    """
    started = time.perf_counter()
    jackpots = list(Jackpot.objects.filter(room=room).order_by("code"))
    # Custody never goes below zero (a database trigger): it first receives, from the room's pots, what
    # the boxes would have carried to the cage for those verifications, in one transfer of its own.
    carried = len(jackpots) * sum(100 + n % 200 for n in range(1, per_fund + 1))
    with transaction.atomic():
        transfers_post_within(
            postings=[
                Posting(
                    debit_id=custody.pk,
                    credit_id=account_open_as(pots_account(room=room)).pk,
                    amount_cents=carried,
                    kind=TransferKind.ADJUSTMENT,
                    idempotency_key=f"bench:carried:{room.code}",
                    memo="What the boxes carried to the cage for the benchmark's verifications",
                )
            ],
            actor=cashier,
        )
    for jackpot in jackpots:
        fund = fund_account(jackpot=jackpot)
        for first, last in ((1, per_fund - tail), (per_fund - tail + 1, per_fund)):
            with connection.cursor() as cursor:
                cursor.execute(
                    sql,
                    [
                        fund.pk,
                        custody.pk,
                        verification_type,
                        f"bench:official:{room.code}:{jackpot.code}:",
                        f"L1-{jackpot.code} made official (benchmark volume)",
                        cashier.pk,
                        first,
                        last,
                        [v[0] for v in verifications],
                        [v[1] for v in verifications],
                        len(verifications),
                        per_fund + 1,
                        len(verifications),
                    ],
                )
            if first == 1:
                checkpoints_take()
        print(
            f"  room {room.code}: {per_fund:,} official transfers into {fund.code} [{time.perf_counter() - started:.0f}s]",
            flush=True,
        )
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


# --- Measurements -----------------------------------------------------------------------------------


def _fetch(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


BALANCE_SQL = """
    COALESCE(last.balance_cents, 0)
    + COALESCE((SELECT SUM(t.amount_cents) FROM ledger_transfer t WHERE t.debit_id = a.id AND t.id > COALESCE(last.through_transfer_id, 0)), 0)
    - COALESCE((SELECT SUM(t.amount_cents) FROM ledger_transfer t WHERE t.credit_id = a.id AND t.id > COALESCE(last.through_transfer_id, 0)), 0)
"""
LATEST_CHECKPOINT_SQL = """
    LEFT JOIN ledger_balancecheckpoint last ON last.account_id = a.id AND last.through_transfer_id = (
        SELECT MAX(c.through_transfer_id) FROM ledger_balancecheckpoint c WHERE c.account_id = a.id)
"""


def measure_boxes(room: Any, repeat: int) -> None:
    from cage.models import Box
    from cage.selectors import boxes_expected_queryset, boxes_with_expected

    def selector() -> list[tuple[str, int]]:
        return [(c.box.code, c.expected_cents) for c in boxes_with_expected(boxes=Box.objects.filter(room=room))]

    def fields() -> list[tuple[Any, ...]]:
        # The fields of GET /api/boxes/ read from the same queryset, without model instances.
        return list(
            boxes_expected_queryset(boxes=Box.objects.filter(room=room)).values_list(
                "code", "room__code", "table__number", "kind", "jackpot__code", "expected_cents"
            )
        )

    same_sql = f"""
        SELECT b.code, r.code, tb.number, b.kind, j.code, {BALANCE_SQL}
        FROM cage_box b JOIN tables_pokerroom r ON r.id = b.room_id JOIN tables_table tb ON tb.id = b.table_id
        LEFT JOIN jackpots_jackpot j ON j.id = b.jackpot_id JOIN ledger_account a ON a.id = b.account_id {LATEST_CHECKPOINT_SQL}
        WHERE b.room_id = %s ORDER BY b.room_id, b.code
    """
    history_sql = """
        SELECT b.code, COALESCE(d.total, 0) - COALESCE(c.total, 0) FROM cage_box b
        LEFT JOIN (SELECT debit_id, SUM(amount_cents) AS total FROM ledger_transfer GROUP BY debit_id) d ON d.debit_id = b.account_id
        LEFT JOIN (SELECT credit_id, SUM(amount_cents) AS total FROM ledger_transfer GROUP BY credit_id) c ON c.credit_id = b.account_id
        WHERE b.room_id = %s ORDER BY b.code
    """
    got = selector()
    raw = _fetch(same_sql, [room.pk])
    whole = _fetch(history_sql, [room.pk])
    # A High Hand box's next count is its oldest uncounted period's box content (§637a.16(d)), an
    # account of its own that the box's account SQL does not read: those are compared by the ledger.
    assert [(row[0], int(row[5])) for row in raw] == [(code, int(total)) for code, total in whole], "the boxes disagree"
    assert [g for g in got if not g[0].endswith("-hh")] == [
        (row[0], int(row[5])) for row in raw if not row[0].endswith("-hh")
    ], "the selector and the ledger disagree"
    assert fields() == [(*row[:5], int(row[5])) for row in raw]
    selector_ms, fields_ms, raw_ms = _paired_ms(selector, fields, lambda: _fetch(same_sql, [room.pk]), repeat=repeat)
    history_ms = _median_ms(lambda: _fetch(history_sql, [room.pk]), max(3, repeat // 3))
    tails = [
        int(n)
        for (n,) in _fetch(
            f"""
        SELECT (SELECT COUNT(*) FROM ledger_transfer t WHERE (t.debit_id = a.id OR t.credit_id = a.id)
                AND t.id > COALESCE(last.through_transfer_id, 0))
        FROM cage_box b JOIN ledger_account a ON a.id = b.account_id {LATEST_CHECKPOINT_SQL} WHERE b.room_id = %s
    """,
            [room.pk],
        )
    ]
    print(
        f"(a) boxes list, {len(got)} boxes, {sum(e for _, e in got) / 100:,.2f} expected in all; transfers after each "
        f"box's latest checkpoint: {statistics.mean(tails):.0f} on average, {max(tails)} at most"
    )
    print(
        f"    cage.selectors.boxes_with_expected     {selector_ms:9.2f} ms   ratio {selector_ms / raw_ms:.2f} (target <= 2; Box, room, table, jackpot models)"
    )
    print(
        f"    boxes_expected_queryset, values_list   {fields_ms:9.2f} ms   ratio {fields_ms / raw_ms:.2f} (the API's fields, no models)"
    )
    print(f"    same aggregate, raw SQL                {raw_ms:9.2f} ms")
    print(
        f"    whole history summed, raw SQL          {history_ms:9.2f} ms   (what every balance cost before checkpoints)"
    )


def measure_official(room: Any, repeat: int) -> None:
    from django.contrib.contenttypes.models import ContentType

    from cage.models import CageVerification
    from cage.selectors import official_record, official_record_lines

    def selector() -> list[tuple[str, date, int]]:
        return [(r.account.code, r.gaming_day, r.official_cents) for r in official_record(room=room)]

    sql = """
        SELECT a.code, v.gaming_day, SUM(t.amount_cents)
        FROM ledger_transfer t
        JOIN cage_cageverification v ON t.reference_type_id = %s AND t.reference_id = v.id::varchar
        JOIN ledger_account a ON a.id = t.debit_id
        WHERE v.room_id = %s AND t.kind = 'verification'
        GROUP BY a.id, a.code, v.gaming_day ORDER BY v.gaming_day, a.id
    """
    params = [ContentType.objects.get_for_model(CageVerification).pk, room.pk]
    got = selector()
    raw = [(code, day, int(total)) for code, day, total in _fetch(sql, params)]
    assert got == raw, "the official records disagree"
    selector_ms, raw_ms = _paired_ms(selector, lambda: _fetch(sql, params), repeat=repeat)
    lines = official_record_lines(room=room).count()
    print(
        f"(b) official record of room {room.code}: {len(got)} rows (fund x gaming day) from {lines:,} official transfers"
    )
    print(f"    cage.selectors.official_record         {selector_ms:9.2f} ms")
    print(
        f"    same aggregate, raw SQL                {raw_ms:9.2f} ms   ratio {selector_ms / raw_ms:.2f} (target <= 2)"
    )


def measure_funds(rooms: dict[str, Any], repeat: int) -> None:
    from django.db import connection
    from django.db.models import Q, Sum
    from django.test.utils import CaptureQueriesContext

    from casino_backoffice.ledger.checkpoints import balance_from_history
    from casino_backoffice.ledger.models import Account, BalanceCheckpoint, Transfer
    from casino_backoffice.ledger.selectors import account_balance
    from jackpots.board.selectors import display_state
    from jackpots.funds.accounts import jackpot_fund_account
    from jackpots.funds.models import Jackpot

    def before_balance(account: Account) -> int:
        # account_balance before checkpoints: one pass over every transfer of the ledger.
        totals = Transfer.objects.aggregate(
            into=Sum("amount_cents", filter=Q(debit=account), default=0),
            out=Sum("amount_cents", filter=Q(credit=account), default=0),
        )
        return int(totals["into"]) - int(totals["out"])

    def before_balances(*, accounts: Any) -> dict[int, int]:
        # account_balances before checkpoints (what each display poll ran): every transfer of the funds.
        ids = [account.pk for account in accounts]
        balances = dict.fromkeys(ids, 0)
        for row in Transfer.objects.filter(debit_id__in=ids).values("debit_id").annotate(total=Sum("amount_cents")):
            balances[row["debit_id"]] += int(row["total"])
        for row in Transfer.objects.filter(credit_id__in=ids).values("credit_id").annotate(total=Sum("amount_cents")):
            balances[row["credit_id"]] -= int(row["total"])
        return balances

    def before_display(room: Any) -> Any:
        with mock.patch("jackpots.bad_beat.selectors.account_balances", before_balances):
            return display_state(room=room)

    ledger_size = Transfer.objects.count()
    print(f"(c) a fund's balance and the display board (the ledger holds {ledger_size:,} transfers)")
    print(f"    {'':44}{'transfers':>11}{'tail':>6}{'now ms':>9}{'before ms':>11}")
    for code, room in rooms.items():
        jackpots = list(Jackpot.objects.filter(room=room).order_by("code"))
        funds = [Account.objects.get(code=jackpot_fund_account(jackpot=j).code) for j in jackpots]
        fund = funds[0]
        transfers = Transfer.objects.filter(Q(debit=fund) | Q(credit=fund)).count()
        latest = BalanceCheckpoint.objects.filter(account=fund).order_by("-through_transfer_id").first()
        tail = transfers - (latest.transfer_count if latest else 0)
        assert account_balance(account=fund) == balance_from_history(account=fund) == before_balance(fund), fund.code
        now_ms = _median_ms(lambda fund=fund: account_balance(account=fund), repeat)
        before_ms = _median_ms(lambda fund=fund: before_balance(fund), max(3, repeat // 3))
        print(f"    {'balance of ' + fund.code:44}{transfers:>11,}{tail:>6}{now_ms:>9.2f}{before_ms:>11.2f}")
        with CaptureQueriesContext(connection) as queries:
            state = display_state(room=room)
        assert state.jackpots == before_display(room).jackpots
        now_ms = _median_ms(lambda room=room: display_state(room=room), repeat)
        before_ms = _median_ms(lambda room=room: before_display(room), max(3, repeat // 3))
        total = sum(Transfer.objects.filter(Q(debit=f) | Q(credit=f)).count() for f in funds)
        print(
            f"    {f'display board of room {code} ({len(funds)} funds, {len(queries)} queries)':44}{total:>11,}{'':>6}{now_ms:>9.2f}{before_ms:>11.2f}"
        )
    print("    'before': the same with the ledger's reads before checkpoints (a balance read every transfer of the")
    print("    ledger; the display read every transfer of its funds). 'tail': transfers after the latest checkpoint.")


class _Sink:
    """Where a streamed export goes: it counts bytes and lines, and keeps nothing."""

    def __init__(self) -> None:
        self.bytes = self.lines = 0

    def consume(self, chunks: Iterator[bytes]) -> None:
        for chunk in chunks:
            self.bytes += len(chunk)
            self.lines += chunk.count(b"\n")


def _peak(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """(peak MiB of Python allocations, seconds under tracemalloc, result)."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    started = time.perf_counter()
    result = fn()
    elapsed = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20, elapsed, result


def measure_export(rooms: dict[str, Any], days: int) -> None:
    from cage.models import CageVerification
    from cage.selectors import OFFICIAL_RECORD_COLUMNS, official_record_rows_iter
    from casino_backoffice.core.exports import Report, csv_bytes, csv_chunks

    print("(d) official-record export (CSV), peak Python memory (tracemalloc) while writing it")
    print(f"    {'':34}{'rows':>11}{'MiB out':>9}{'streamed':>10}{'in memory':>11}{'rows/s':>9}")
    for code, room in rooms.items():
        last = (
            CageVerification.objects.filter(room=room)
            .order_by("-gaming_day")
            .values_list("gaming_day", flat=True)
            .first()
        )
        assert last is not None
        # Room bench: one verification per table and day; room large: 100,000 lines a day.
        # Two spans of days, once each (a short history makes both spans one).
        spans = sorted({max(1, days // 10), days} if code == MAIN else {max(1, days // 20), max(1, days // 2)})
        for span in spans:
            start = last - timedelta(days=span - 1)

            def streamed(start: date = start, room: Any = room, last: date = last) -> _Sink:
                sink = _Sink()
                sink.consume(
                    csv_chunks(OFFICIAL_RECORD_COLUMNS, official_record_rows_iter(room=room, start=start, end=last))
                )
                return sink

            def in_memory(start: date = start, room: Any = room, last: date = last) -> int:
                rows = list(official_record_rows_iter(room=room, start=start, end=last))
                return len(csv_bytes(Report(columns=OFFICIAL_RECORD_COLUMNS, rows=rows)))

            peak, _, sink = _peak(streamed)
            rows = sink.lines - 1
            built = f"{_peak(in_memory)[0]:>11.1f}" if rows <= 200_000 else f"{'-':>11}"
            started = time.perf_counter()
            streamed()  # again, untraced: how fast
            rate = rows / (time.perf_counter() - started)
            print(
                f"    {f'room {code}, {span} gaming days':34}{rows:>11,}{sink.bytes / 2**20:>9.1f}{peak:>10.1f}{built}{rate:>9,.0f}"
            )
    print("    'streamed': official_record_rows_iter (server-side cursor, 2,000 rows a fetch) through csv_chunks;")
    print(
        "    'in memory': the same rows in a list and csv_bytes (as the admin's exports build a report). Peaks in MiB;"
    )
    print("    rows/s: the streamed export again, without tracemalloc.")


def checks(rooms: dict[str, Any]) -> None:
    from cage.models import Box
    from casino_backoffice.ledger.checkpoints import balance_from_history
    from casino_backoffice.ledger.models import Account, Transfer
    from casino_backoffice.ledger.selectors import account_balance, ledger_total
    from tables.models import Round

    assert ledger_total() == 0, "the ledger does not balance"
    sample = [box.account for box in Box.objects.filter(room=rooms[MAIN]).select_related("account").order_by("?")[:10]]
    sample += list(
        Account.objects.filter(code__in=[f"room:{MAIN}:pots", f"room:{MAIN}:custody", f"room:{LARGE}:custody"])
    )
    for account in sample:
        assert account_balance(account=account) == balance_from_history(account=account), account.code
    print(
        f"checks: ledger total 0; {len(sample)} balances from checkpoints equal to their whole history; "
        f"{Round.objects.filter(table__room=rooms[MAIN]).count():,} rounds, {Transfer.objects.count():,} transfers"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--days", type=int, default=20, help="gaming days of counts and verifications")
    parser.add_argument("--repeat", type=int, default=9, help="timed runs of each measurement (the median is printed)")
    parser.add_argument("--fresh", action="store_true", help="drop the database first and build everything again")
    parser.add_argument(
        "--large-transfers", type=int, default=1_000_000, help="official transfers per fund of room large"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="the same code path in seconds: a fresh 2-table, 2-day room (make test runs it)",
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.tables, args.days, args.repeat, args.large_transfers, args.fresh = 2_000, 2, 2, 1, 2_000, True

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        raise SystemExit("Set DATABASE_URL to a PostgreSQL database of its own (it is created when missing).")
    _ensure_database(url, fresh=args.fresh)
    _django()
    from django.core.management import call_command

    from tables.models import PokerRoom

    call_command("migrate", verbosity=0, interactive=False)
    if not PokerRoom.objects.filter(code=LARGE).exists():
        print(
            f"building: room {MAIN} ({args.tables} tables, {args.rounds:,} rounds, {args.days} gaming days of counts), room {LARGE}"
        )
        started = time.perf_counter()
        build(rounds=args.rounds, tables=args.tables, days=args.days, large_transfers=args.large_transfers)
        print(f"built in {time.perf_counter() - started:.0f}s")
    rooms = {code: PokerRoom.objects.get(code=code) for code in (MAIN, LARGE)}
    print(
        f"machine: {os.cpu_count()} cores (shared), PostgreSQL {_fetch('SHOW server_version', [])[0][0]}; "
        f"median of {args.repeat} warm runs"
    )
    checks(rooms)
    measure_boxes(rooms[MAIN], args.repeat)
    measure_official(rooms[MAIN], args.repeat)
    measure_official(rooms[LARGE], max(3, args.repeat // 3))
    measure_funds(rooms, args.repeat)
    measure_export(rooms, args.days)


if __name__ == "__main__":
    main()
