"""Recording rounds of play, one at a time or in batches, with the rake and the jackpot drops their rules take."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.ledger.models import AccountKind, Transfer, TransferKind
from casino_backoffice.money import format_cents
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from jackpots.models import RoundDrop
from jackpots.services import jackpot_box_code
from tables.models import Round, Table
from tables.selectors import gaming_day

from ..compute import PotOutcome, compute_rake_and_drops
from ..exceptions import IdempotencyKeyReused, InvalidRound
from ..locks import lock_room_rules
from ..models import TimeCharge
from ..selectors import RoomVersions, rules_version_in_effect
from .accounts import _account_id, _jackpot_ids_of, drop_box_code, pots_account_code

# --- Rounds of play -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundRecorded:
    round: Round
    drops: tuple[RoundDrop, ...]
    replayed: bool


def _fingerprint(values: dict[str, Any]) -> str:
    canonical = json.dumps(values, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _replay(*, model: type[Round] | type[TimeCharge], idempotency_key: str, fingerprint: str) -> Any | None:
    """The row first recorded under this key, when the body is the same; 409 when it is not."""
    existing = model.objects.filter(idempotency_key=idempotency_key).first()
    if existing is None:
        return None
    if existing.request_sha256 != fingerprint:
        raise IdempotencyKeyReused(
            f"The Idempotency-Key {idempotency_key!r} was used for another request "
            f"({model._meta.verbose_name} {existing.pk}); nothing was recorded. Use a new key for a new {model._meta.verbose_name}."
        )
    return existing


@dataclass(frozen=True)
class _Posting:
    debit_id: int
    amount_cents: int
    kind: str
    idempotency_key: str
    memo: str


# On PostgreSQL a round, its drops and its transfers are written by one statement (one round trip,
# atomic by itself); elsewhere (SQLite) by the ORM in one transaction. Both paths are tested.
ONE_STATEMENT_WRITES = True


def _insert_with_orm(round_: Round, drops: list[RoundDrop], postings: list[_Posting], source_id: int) -> None:
    round_.save(force_insert=True)
    for drop in drops:
        drop.round = round_
    RoundDrop.objects.bulk_create(drops)
    round_type = ContentType.objects.get_for_model(Round)
    Transfer.objects.bulk_create(
        [
            Transfer(
                debit_id=p.debit_id, credit_id=source_id, amount_cents=p.amount_cents, kind=p.kind, reference_type=round_type,
                reference_id=str(round_.pk), idempotency_key=p.idempotency_key, memo=p.memo,
                posted_at=round_.created_at, posted_by=round_.created_by,
            )
            for p in postings
        ]
    )


def _insert_in_one_statement(round_: Round, drops: list[RoundDrop], postings: list[_Posting], source_id: int) -> None:
    """INSERT the round, its drops and its transfers with data-modifying CTEs: one round trip, one
    implicit transaction. A duplicate idempotency key raises IntegrityError and writes nothing."""
    round_fields = [f for f in Round._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in round_fields)
    values = [f.get_db_prep_save(getattr(round_, f.attname), connection) for f in round_fields]
    placeholders = ", ".join(["%s"] * len(values))
    # Table and column names come from the models; every value is a parameter.
    sql = f"""
        WITH new_round AS (
            INSERT INTO {Round._meta.db_table} ({columns}) VALUES ({placeholders}) RETURNING id
        ), new_drops AS (
            INSERT INTO {RoundDrop._meta.db_table} (round_id, jackpot_id, jackpot_code, position, amount_cents, rule)
            SELECT new_round.id, d.jackpot, d.code, d.position, d.amount, d.rule
            FROM new_round, unnest(%s::bigint[], %s::text[], %s::int[], %s::bigint[], %s::text[]) AS d(jackpot, code, position, amount, rule)
        ), new_transfers AS (
            INSERT INTO {Transfer._meta.db_table}
                (debit_id, credit_id, amount_cents, kind, reference_type_id, reference_id, idempotency_key, memo, posted_at, posted_by_id)
            SELECT t.debit, %s, t.amount, t.kind, %s, new_round.id::text, t.key, t.memo, %s, %s
            FROM new_round, unnest(%s::bigint[], %s::bigint[], %s::text[], %s::text[], %s::text[]) AS t(debit, amount, kind, key, memo)
        )
        SELECT id FROM new_round
    """  # noqa: S608
    params = [
        *values,
        [d.jackpot_id for d in drops], [d.jackpot_code for d in drops], [d.position for d in drops], [d.amount_cents for d in drops], [d.rule for d in drops],
        source_id, ContentType.objects.get_for_model(Round).pk, round_.created_at, round_.created_by_id,
        [p.debit_id for p in postings], [p.amount_cents for p in postings], [str(p.kind) for p in postings],
        [p.idempotency_key for p in postings], [p.memo for p in postings],
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        round_.pk = cursor.fetchone()[0]
    round_._state.adding = False
    for drop in drops:
        drop.round = round_


@dataclass(frozen=True)
class RoundRequest:
    """One round of play as a table system sends it."""

    table: Table
    ended_at: datetime
    players_dealt_in: int
    pot_cents: int
    uncalled_bet_cents: int
    flop_dealt: bool
    voided: bool
    idempotency_key: str


def round_record(
    *,
    table: Table,
    ended_at: datetime,
    players_dealt_in: int,
    pot_cents: int,
    uncalled_bet_cents: int,
    flop_dealt: bool,
    voided: bool,
    actor: User,
    idempotency_key: str,
) -> RoundRecorded:
    """Record one round of play (see ``_round_record``) in its own transaction, under the room's
    rules lock (``rake.locks``)."""
    action_require(actor=actor, action=Action.ROUND_RECORD)
    request = RoundRequest(
        table=table, ended_at=ended_at, players_dealt_in=players_dealt_in, pot_cents=pot_cents,
        uncalled_bet_cents=uncalled_bet_cents, flop_dealt=flop_dealt, voided=voided, idempotency_key=idempotency_key,
    )
    with transaction.atomic():
        lock_room_rules(room=table.room, exclusive=False)
        return _round_record(request, actor=actor, versions=None)


def rounds_record_batch(*, rounds: list[RoundRequest], actor: User) -> list[RoundRecorded | DomainError]:
    """Record many rounds, each as ``round_record`` would and independently of the others: a refused
    round (its ``DomainError`` is in its place in the answer) records nothing and stops nothing.

    One transaction and one commit for the batch; each round in its own savepoint. The rules lock of
    each room is taken once, so the room's versions are read once and stay current until commit.
    """
    action_require(actor=actor, action=Action.ROUND_RECORD)
    results: list[RoundRecorded | DomainError] = []
    versions: dict[int, RoomVersions] = {}
    with transaction.atomic():
        for request in rounds:
            room = request.table.room
            if room.pk not in versions:
                lock_room_rules(room=room, exclusive=False)
                versions[room.pk] = RoomVersions.of(room=room)
            try:
                with transaction.atomic():
                    results.append(_round_record(request, actor=actor, versions=versions[room.pk]))
            except DomainError as error:
                results.append(error)
    return results


def _round_record(request: RoundRequest, *, actor: User, versions: RoomVersions | None) -> RoundRecorded:
    """Record a round of play with the rake and the jackpot drops its rules take, once.

    The rules are the version in effect at ``ended_at`` (rounds arrive late from table systems). The
    amounts are ``rake.compute.compute_rake_and_drops``: the rake on the pot without the uncalled
    final bet (§637a.17(d)), then each jackpot of the table in order (§637a.15(c), §637a.16(c)); a
    voided round takes nothing (§637a.18(i)). Each amount above zero is posted to the ledger as
    expected money: the rake to the table's drop box, each drop to the table's box of that jackpot.

    The same ``idempotency_key`` with the same request returns the round first recorded
    (``replayed``); with another request it is refused (``IdempotencyKeyReused``). Parallel posts of
    one key meet at the unique key: the loser reads the winner's round.
    """
    table, ended_at, idempotency_key = request.table, request.ended_at, request.idempotency_key
    players_dealt_in, pot_cents, uncalled_bet_cents = request.players_dealt_in, request.pot_cents, request.uncalled_bet_cents
    flop_dealt, voided = request.flop_dealt, request.voided
    fingerprint = _fingerprint(
        {
            "table": table.pk,
            "ended_at": ended_at.astimezone(ZoneInfo("UTC")).isoformat(),
            "players_dealt_in": players_dealt_in,
            "pot_cents": pot_cents,
            "uncalled_bet_cents": uncalled_bet_cents,
            "flop_dealt": flop_dealt,
            "voided": voided,
        }
    )
    room = table.room
    now = timezone.now()
    errors: dict[str, list[str]] = {}
    in_effect = None
    if not table.is_open:
        errors.setdefault("table", []).append(f"Table {table.number} is closed; a floorperson opens it before rounds are logged.")
    if ended_at > now:
        errors.setdefault("ended_at", []).append(f"The round cannot end in the future ({ended_at.isoformat()} is after now).")
    if players_dealt_in < 2:
        errors.setdefault("players_dealt_in", []).append("A round of poker deals in at least 2 players.")
    elif players_dealt_in > table.seats:
        errors.setdefault("players_dealt_in", []).append(
            f"Table {table.number} seats {table.seats}; {players_dealt_in} players cannot be dealt in."
        )
    if uncalled_bet_cents > pot_cents:
        errors.setdefault("uncalled_bet", []).append(
            f"The uncalled bet {format_cents(uncalled_bet_cents)} is larger than the pot {format_cents(pot_cents)}."
        )
    if "table" not in errors and "ended_at" not in errors:
        in_effect = versions.in_effect(at=ended_at) if versions else rules_version_in_effect(room=room, at=ended_at)
        if in_effect is None:
            errors.setdefault("table", []).append(
                f"No rules of room {room.code} were in effect at {ended_at.isoformat()}; load a rules file first."
            )
        elif table.number not in in_effect[1].tables:
            errors.setdefault("table", []).append(
                f"Table {table.number} is not in the rules in effect at {ended_at.isoformat()}; its rounds cannot be rated."
            )
        elif in_effect[1].tables[table.number].rake_policy is None:
            errors.setdefault("table", []).append(
                f"Table {table.number} deals {table.get_game_display()}, a game banked by the house: it takes no rake and logs no rounds."
            )
    if errors:
        # A retry of a round recorded before the table closed still answers the first result.
        existing = _replay(model=Round, idempotency_key=idempotency_key, fingerprint=fingerprint)
        if existing is not None:
            return RoundRecorded(round=existing, drops=tuple(existing.drops.all()), replayed=True)
        raise InvalidRound(errors)
    assert in_effect is not None
    version_id, rules = in_effect
    table_rule = rules.tables[table.number]
    outcome: PotOutcome = compute_rake_and_drops(
        policy=rules.rake_policies[table_rule.rake_policy] if table_rule.rake_policy else None,
        jackpots=[rules.jackpots[code] for code in table_rule.jackpots],
        pot_cents=pot_cents,
        uncalled_cents=uncalled_bet_cents,
        flop_dealt=flop_dealt,
        voided=voided,
        players=players_dealt_in,
    )
    local = ended_at.astimezone(ZoneInfo(room.timezone))
    round_ = Round(
        table=table,
        ended_at=ended_at,
        gaming_day=gaming_day(room=room, at=ended_at),
        shift=rules.shift_at(local.time()),
        game=table.game,
        players_dealt_in=players_dealt_in,
        pot_cents=pot_cents,
        uncalled_bet_cents=uncalled_bet_cents,
        flop_dealt=flop_dealt,
        voided=voided,
        rules_version_id=version_id,
        rake_cents=outcome.rake_cents,
        rake_rule=outcome.rake_rule[:300],
        idempotency_key=idempotency_key,
        request_sha256=fingerprint,
        created_by=actor,
        created_at=now,
    )
    source_id = _account_id(pots_account_code(room=room), name=f"{room.name}: pots", kind=AccountKind.SOURCE, version_id=version_id)
    jackpot_ids = _jackpot_ids_of(room=room, version_id=version_id)
    drops = [
        RoundDrop(round=round_, jackpot_id=jackpot_ids[drop.code], jackpot_code=drop.code, position=n, amount_cents=drop.amount_cents, rule=drop.rule[:300])
        for n, drop in enumerate(outcome.drops)
    ]
    # Each amount above zero moves from the room's pots into a box: expected money (DESIGN.md, Official
    # versus expected). The round's unique key makes these transfer keys new.
    postings: list[_Posting] = []
    if outcome.rake_cents:
        box_id = _account_id(drop_box_code(table=table), name=f"Table {table.number} drop box", kind=AccountKind.DROP_BOX, version_id=version_id)
        postings.append(_Posting(box_id, outcome.rake_cents, TransferKind.RAKE, f"round:{idempotency_key}:rake", outcome.rake_rule[:300]))
    for drop in outcome.drops:
        if drop.amount_cents:
            box = jackpot_box_code(table=table, jackpot_code=drop.code)
            box_id = _account_id(box, name=f"Table {table.number} {drop.code} box", kind=AccountKind.JACKPOT_BOX, version_id=version_id)
            postings.append(_Posting(box_id, drop.amount_cents, TransferKind.DROP, f"round:{idempotency_key}:drop:{drop.code}", drop.rule[:300]))
    try:
        if connection.vendor == "postgresql" and ONE_STATEMENT_WRITES:
            if connection.in_atomic_block:
                with transaction.atomic():
                    _insert_in_one_statement(round_, drops, postings, source_id)
            else:
                _insert_in_one_statement(round_, drops, postings, source_id)
        else:
            with transaction.atomic():
                _insert_with_orm(round_, drops, postings, source_id)
    except IntegrityError:
        existing = _replay(model=Round, idempotency_key=idempotency_key, fingerprint=fingerprint)
        if existing is None:
            raise
        return RoundRecorded(round=existing, drops=tuple(existing.drops.all()), replayed=True)
    return RoundRecorded(round=round_, drops=tuple(drops), replayed=False)
