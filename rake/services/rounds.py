"""Recording rounds of play, one at a time or in batches, with the rake and the jackpot drops their rules take.

Each round goes through three steps: validate (every field error at once, and the rules in effect),
rate (the rake and the drops those rules take) and post (the round, its drops and its transfers).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from datetime import date, datetime

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from casino_backoffice.core.clock import local
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.idempotency import document_replay, document_replay_unscoped, request_fingerprint
from casino_backoffice.ledger.models import TransferKind
from casino_backoffice.ledger.services import Posting, transfers_post_within
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.services import VerifiedSigner
from jackpots.board.hand_rounds import round_link_hands
from jackpots.funds.accounts import jackpot_box_account
from jackpots.funds.models import RoundDrop
from jackpots.high_hand.rules import HighHandRule
from jackpots.high_hand.services.periods import period_box_content
from tables.locks import gaming_day_hold_open
from tables.models import PokerRoom, Round, Table
from tables.selectors import gaming_day

from ..compute import PotOutcome, compute_rake_and_drops, refund_problem, uncalled_bet_problem
from ..exceptions import InvalidRound, RulesNotInEffect
from ..locks import lock_room_rules
from ..models import LateRoundEntry
from ..selectors import RoomVersions, TableRulesInEffect, table_rules_in_effect
from .accounts import _account_id, _jackpot_ids_of, drop_box_account, pots_account
from .late_entries import (
    late_entry_record,
    late_entry_require,
    late_entry_signer,
    late_entry_signers,
    minutes_late,
    signer_key,
)

# --- Rounds of play -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundRecorded:
    round: Round
    drops: tuple[RoundDrop, ...]
    replayed: bool
    # Recorded with the round when it was logged late (``late_entries``); not read for a replay.
    late_entry: LateRoundEntry | None = None


# The fields of a request that are not what it asks: its key, and who signs for it and how. The
# fingerprint is every other field (``RoundRequest.fingerprint``).
_NOT_FINGERPRINTED = {"fingerprint": False}


@dataclass(frozen=True)
class RoundRequest:
    """One round of play as a table system sends it: what the API reads from its input, what the
    services record, and (its fields but the key and the signature) what its fingerprint hashes."""

    table: Table
    ended_at: datetime
    players_dealt_in: int
    pot_cents: int
    uncalled_bet_cents: int
    flop_dealt: bool
    voided: bool
    idempotency_key: str = field(metadata=_NOT_FINGERPRINTED)
    # The poker shift supervisor who signs for a round logged late, and their PIN (``late_entries``).
    late_entry_by: User | None = field(default=None, compare=False, metadata=_NOT_FINGERPRINTED)
    late_entry_pin: str = field(default="", compare=False, repr=False, metadata=_NOT_FINGERPRINTED)
    # A refund from the pot to a player whose protected hand the dealer killed (§637a.18(k)(3)).
    refund_cents: int = 0

    def fingerprint(self) -> str:
        """The SHA-256 a round stores as ``request_sha256``: a retry with the same key is a replay
        when its fingerprint is equal. The table by its id, the end in UTC (``request_fingerprint``);
        a test pins the hash of one request, so rounds recorded before still replay. A round without a
        refund hashes as before refunds existed (the field is left out when it is zero)."""
        values = {f.name: getattr(self, f.name) for f in fields(self) if f.metadata.get("fingerprint", True)}
        if not self.refund_cents:
            del values["refund_cents"]
        return request_fingerprint(values)


@dataclass
class _Recording:
    """What a call holds while it records rounds: the gaming days held open (``tables.locks``) and the
    late-entry signers already checked."""

    days: set[tuple[int, date]] = field(default_factory=set)
    signer: VerifiedSigner | DomainError | None = None


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
    late_entry_by: User | None = None,
    pin: str = "",
    refund_cents: int = 0,
) -> RoundRecorded:
    """``round_request_record`` of the round these arguments describe, for callers in Python (the
    demo, the progressive rounds, tests); the API builds the ``RoundRequest`` from its input."""
    request = RoundRequest(
        table=table,
        ended_at=ended_at,
        players_dealt_in=players_dealt_in,
        pot_cents=pot_cents,
        uncalled_bet_cents=uncalled_bet_cents,
        flop_dealt=flop_dealt,
        voided=voided,
        idempotency_key=idempotency_key,
        late_entry_by=late_entry_by,
        late_entry_pin=pin,
        refund_cents=refund_cents,
    )
    return round_request_record(request=request, actor=actor)


def round_request_record(*, request: RoundRequest, actor: User) -> RoundRecorded:
    """Record one round of play (see ``_round_record``) in its own transaction, under the room's
    rules lock (``rake.locks``). ``request.late_entry_by`` and ``late_entry_pin``: the poker shift
    supervisor who signs for a round logged late (``rake.services.late_entries``)."""
    table = request.table
    action_require(actor=actor, action=Action.ROUND_RECORD, of=table)
    signer = late_entry_signer(by=request.late_entry_by, pin=request.late_entry_pin, table=table)
    with transaction.atomic():
        lock_room_rules(room=table.room, exclusive=False)
        return _round_record(request, actor=actor, versions=None, held=_Recording(signer=signer))


def rounds_record_batch(*, rounds: list[RoundRequest], actor: User) -> list[RoundRecorded | DomainError]:
    """Record many rounds, each as ``round_record`` would and independently of the others: a refused
    round (its ``DomainError`` is in its place in the answer) records nothing and stops nothing.

    One transaction and one commit for the batch; each round in its own savepoint. The rules lock of
    each room is taken once, so the room's versions are read once and stay current until commit.

    The rounds are recorded table by table, in the order of the tables' ids (a table's rounds in the
    order sent), and answered in the order sent: each round takes its table's locks (its box contents,
    its hand lock) until the batch commits, so two batches naming the same tables in another order
    would each wait for the other (a deadlock, seen with two table systems posting batches of ten).
    """
    action_require(actor=actor, action=Action.ROUND_RECORD)
    answers: dict[int, RoundRecorded | DomainError] = {}
    rooms: dict[int, RoomVersions | DomainError] = {}  # each room asked and locked once
    days: set[tuple[int, date]] = set()  # each gaming day held open once
    # PINs are checked before the batch's transaction, so that a wrong one is counted (``pin_check``).
    signers = late_entry_signers(
        wanted=[(r.late_entry_by, r.late_entry_pin, r.table) for r in rounds if r.late_entry_by is not None]
    )
    in_table_order = sorted(range(len(rounds)), key=lambda n: (rounds[n].table.pk, n))
    with transaction.atomic():
        for n in in_table_order:
            request = rounds[n]
            room = request.table.room
            if room.pk not in rooms:
                rooms[room.pk] = _batch_room(room, actor=actor)
            versions = rooms[room.pk]
            if isinstance(versions, DomainError):  # a room the dealer does not work in
                answers[n] = versions
                continue
            signer = (
                signers[signer_key(by=request.late_entry_by, pin=request.late_entry_pin, table=request.table)]
                if request.late_entry_by is not None
                else None
            )
            try:
                with transaction.atomic():
                    held = _Recording(days=days, signer=signer)
                    answers[n] = _round_record(request, actor=actor, versions=versions, held=held)
            except DomainError as error:
                answers[n] = error
    return [answers[n] for n in range(len(rounds))]


def _batch_room(room: PokerRoom, *, actor: User) -> RoomVersions | DomainError:
    """The room's versions under its rules lock, or why the dealer may not record rounds there."""
    try:
        action_require(actor=actor, action=Action.ROUND_RECORD, of=room)
    except DomainError as refused:
        return refused
    lock_room_rules(room=room, exclusive=False)
    return RoomVersions.of(room=room)


def _round_record(
    request: RoundRequest, *, actor: User, versions: RoomVersions | None, held: _Recording
) -> RoundRecorded:
    """Record a round of play with the rake and the jackpot drops its rules take, once.

    The rules are the version in effect at ``ended_at`` (rounds arrive late from table systems). The
    amounts are ``rake.compute.compute_rake_and_drops``: the rake on the pot without the uncalled
    final bet (§637a.17(d)) and without a refund to a player (§637a.18(k)(3)), then each jackpot of the table in order (§637a.15(c), §637a.16(c)); a
    voided round takes nothing (§637a.18(i)). Each amount above zero is posted to the ledger as
    expected money: the rake to the table's drop box, each drop to the table's box of that jackpot.

    The same ``idempotency_key`` with the same request returns the round first recorded
    (``replayed``); with another request it is refused (``IdempotencyKeyReused``). Parallel posts of
    one key meet at the unique key: the loser reads the winner's round.

    A closed gaming day stays closed (§637a.17, the revenue of the day): a round of a day finance
    closed is refused (409 ``gaming_day_closed``), and a round logged more than the room's
    ``late_entry_minutes`` after it ended needs a poker shift supervisor's signature (400
    ``late_entry_unsigned``) and is marked late. A retry of a round recorded before either answers the
    first result.
    """
    fingerprint = request.fingerprint()
    now = timezone.now()
    try:
        in_effect = _round_validate(request, now=now, versions=versions)
    except InvalidRound:
        # A retry of a round recorded before the table closed still answers the first result.
        existing = document_replay(model=Round, idempotency_key=request.idempotency_key, fingerprint=fingerprint)
        if existing is None:
            raise
        return RoundRecorded(round=existing, drops=tuple(existing.drops.all()), replayed=True)
    table = request.table
    late = minutes_late(ended_at=request.ended_at, now=now, rules=in_effect.rules)
    try:
        if isinstance(held.signer, DomainError):  # the supervisor's PIN or role, refused before the batch
            raise held.signer
        gaming_day_hold_open(
            room=table.room,
            day=gaming_day(room=table.room, at=request.ended_at),
            what=f"Round at table {table.number}",
            held=held.days,
        )
        if late is not None:
            late_entry_require(
                table=table,
                ended_at=request.ended_at,
                late=late,
                rules=in_effect.rules,
                signer=held.signer,
                actor=actor,
            )
    except DomainError:  # a closed day, a late round unsigned, the supervisor refused
        existing = document_replay(model=Round, idempotency_key=request.idempotency_key, fingerprint=fingerprint)
        if existing is None:
            raise
        return RoundRecorded(round=existing, drops=tuple(existing.drops.all()), replayed=True)
    outcome = _round_rate(request, in_effect=in_effect)
    recorded = _round_post(request, in_effect=in_effect, outcome=outcome, actor=actor, fingerprint=fingerprint, now=now)
    if late is not None and not recorded.replayed:
        assert isinstance(held.signer, VerifiedSigner)
        entry = late_entry_record(
            round_=recorded.round, late=late, rules=in_effect.rules, signer=held.signer, actor=actor
        )
        return replace(recorded, late_entry=entry)
    return recorded


def _round_validate(request: RoundRequest, *, now: datetime, versions: RoomVersions | None) -> TableRulesInEffect:
    """Every field error of the request at once (``InvalidRound``), else the rules that rate it."""
    table, ended_at = request.table, request.ended_at
    errors: dict[str, list[str]] = {}
    in_effect = None
    if not table.is_open:
        errors.setdefault("table", []).append(
            f"Table {table.number} is closed; a floorperson opens it before rounds are logged."
        )
    if ended_at > now:
        errors.setdefault("ended_at", []).append(
            f"The round cannot end in the future ({ended_at.isoformat()} is after now)."
        )
    if problem := table.dealt_in_problem(request.players_dealt_in):
        errors.setdefault("players_dealt_in", []).append(problem)
    if problem := uncalled_bet_problem(pot_cents=request.pot_cents, uncalled_cents=request.uncalled_bet_cents):
        errors.setdefault("uncalled_bet", []).append(problem)
    elif problem := refund_problem(
        pot_cents=request.pot_cents,
        uncalled_cents=request.uncalled_bet_cents,
        refund_cents=request.refund_cents,
        voided=request.voided,
    ):
        errors.setdefault("refund", []).append(problem)
    if "table" not in errors and "ended_at" not in errors:
        try:
            in_effect = table_rules_in_effect(table=table, at=ended_at, versions=versions)
        except RulesNotInEffect as refused:
            errors.setdefault("table", []).append(refused.message)
    if errors:
        raise InvalidRound(errors)
    assert in_effect is not None
    return in_effect


def _round_rate(request: RoundRequest, *, in_effect: TableRulesInEffect) -> PotOutcome:
    """The rake, then each jackpot's drop, that the rules in effect take from the pot."""
    return compute_rake_and_drops(
        policy=in_effect.policy,
        jackpots=in_effect.jackpots,
        pot_cents=request.pot_cents,
        uncalled_cents=request.uncalled_bet_cents,
        flop_dealt=request.flop_dealt,
        voided=request.voided,
        players=request.players_dealt_in,
        refund_cents=request.refund_cents,
    )


def _round_post(
    request: RoundRequest,
    *,
    in_effect: TableRulesInEffect,
    outcome: PotOutcome,
    actor: User,
    fingerprint: str,
    now: datetime,
) -> RoundRecorded:
    """Write the round and its drops (``rake``'s rows), then post its transfers (the ledger's), in the
    caller's transaction. A key already recorded writes nothing and answers the first round (one
    recorded before keys were scoped too, ``document_replay_unscoped``)."""
    table, room, version_id = request.table, request.table.room, in_effect.version_id
    before_scoping = document_replay_unscoped(
        model=Round, idempotency_key=request.idempotency_key, fingerprint=fingerprint
    )
    if before_scoping is not None:
        return RoundRecorded(round=before_scoping, drops=tuple(before_scoping.drops.all()), replayed=True)
    round_ = Round(
        table=table,
        ended_at=request.ended_at,
        gaming_day=gaming_day(room=room, at=request.ended_at),
        shift=in_effect.rules.shift_at(local(request.ended_at, room).time()),
        game=table.game,
        players_dealt_in=request.players_dealt_in,
        pot_cents=request.pot_cents,
        uncalled_bet_cents=request.uncalled_bet_cents,
        refund_cents=request.refund_cents,
        flop_dealt=request.flop_dealt,
        voided=request.voided,
        rules_version_id=version_id,
        rake_cents=outcome.rake_cents,
        rake_rule=outcome.rake_rule[:300],
        idempotency_key=request.idempotency_key,
        request_sha256=fingerprint,
        created_by=actor,
        created_at=now,
    )
    jackpot_ids = _jackpot_ids_of(room=room, version_id=version_id)
    drops = [
        RoundDrop(
            round=round_,
            jackpot_id=jackpot_ids[drop.code],
            jackpot_code=drop.code,
            position=n,
            amount_cents=drop.amount_cents,
            rule=drop.rule[:300],
        )
        for n, drop in enumerate(outcome.drops)
    ]
    one_statement = connection.vendor == "postgresql" and ONE_STATEMENT_WRITES
    recorded = _insert_in_one_statement(round_, drops) if one_statement else _insert_with_orm(round_, drops)
    if not recorded:
        existing = document_replay(model=Round, idempotency_key=request.idempotency_key, fingerprint=fingerprint)
        assert existing is not None  # the key was there, and rounds are never deleted
        return RoundRecorded(round=existing, drops=tuple(existing.drops.all()), replayed=True)
    postings = _round_postings(request, in_effect=in_effect, outcome=outcome, jackpot_ids=jackpot_ids, now=now)
    transfers_post_within(postings=postings, actor=actor, reference=round_, posted_at=now)
    # A jackpot hand recorded before its round was logged belongs to it: linked now, in this transaction.
    round_link_hands(round=round_)
    return RoundRecorded(round=round_, drops=tuple(drops), replayed=False)


def _round_postings(
    request: RoundRequest,
    *,
    in_effect: TableRulesInEffect,
    outcome: PotOutcome,
    jackpot_ids: dict[str, int],
    now: datetime,
) -> list[Posting]:
    """The transfers of a round: each amount above zero moves from the room's pots into a box, expected
    money (docs/architecture.md, Official versus expected). The round's unique key makes their keys new."""
    table, room, version_id = request.table, request.table.room, in_effect.version_id
    source_id = _account_id(pots_account(room=room), version_id=version_id)
    postings: list[Posting] = []
    key = request.idempotency_key
    if outcome.rake_cents:
        postings.append(
            Posting(
                debit_id=_account_id(drop_box_account(table=table), version_id=version_id),
                credit_id=source_id,
                amount_cents=outcome.rake_cents,
                kind=TransferKind.RAKE,
                idempotency_key=f"round:{key}:rake",
                memo=outcome.rake_rule[:300],
            )
        )
    jackpots = {jackpot.code: jackpot for jackpot in in_effect.jackpots}
    for drop in outcome.drops:
        if drop.amount_cents:
            rule = jackpots[drop.code]
            # A High Hand box is exchanged at each period's end: the drop goes to the period's box content.
            box_id = (
                period_box_content(
                    table=table,
                    jackpot_id=jackpot_ids[drop.code],
                    rule=rule,
                    version_id=version_id,
                    ended_at=request.ended_at,
                    now=now,
                )
                if isinstance(rule, HighHandRule)
                else _account_id(jackpot_box_account(table=table, jackpot=rule), version_id=version_id)
            )
            postings.append(
                Posting(
                    debit_id=box_id,
                    credit_id=source_id,
                    amount_cents=drop.amount_cents,
                    kind=TransferKind.DROP,
                    idempotency_key=f"round:{key}:drop:{drop.code}",
                    memo=drop.rule[:300],
                )
            )
    return postings


# On PostgreSQL a round and its drops are written by one statement (one round trip), and its
# transfers by the ledger's one statement; elsewhere (SQLite) by the ORM. Both paths are tested.
ONE_STATEMENT_WRITES = True


def _insert_with_orm(round_: Round, drops: list[RoundDrop]) -> bool:
    """INSERT the round and its drops in a savepoint; False when the key was already recorded."""
    try:
        with transaction.atomic():
            round_.save(force_insert=True)
            for drop in drops:
                drop.round = round_
            RoundDrop.objects.bulk_create(drops)
    except IntegrityError:
        if not Round.objects.filter(idempotency_key=round_.idempotency_key).exists():
            raise
        return False
    return True


def _insert_in_one_statement(round_: Round, drops: list[RoundDrop]) -> bool:
    """INSERT the round and its drops with a data-modifying CTE: one round trip. A key already
    recorded (or being recorded by a parallel post, which is waited for) inserts nothing, raises
    nothing and answers False; so no savepoint is needed."""
    round_fields = [f for f in Round._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in round_fields)
    values = [f.get_db_prep_save(getattr(round_, f.attname), connection) for f in round_fields]
    placeholders = ", ".join(["%s"] * len(values))
    # Table and column names come from the models; every value is a parameter.
    sql = f"""
        WITH new_round AS (
            INSERT INTO {Round._meta.db_table} ({columns}) VALUES ({placeholders})
            ON CONFLICT (idempotency_key) DO NOTHING
            RETURNING id
        ), new_drops AS (
            INSERT INTO {RoundDrop._meta.db_table} (round_id, jackpot_id, jackpot_code, position, amount_cents, rule)
            SELECT new_round.id, d.jackpot, d.code, d.position, d.amount, d.rule
            FROM new_round, unnest(%s::bigint[], %s::text[], %s::int[], %s::bigint[], %s::text[]) AS d(jackpot, code, position, amount, rule)
        )
        SELECT id FROM new_round
    """  # noqa: S608
    params = [
        *values,
        [d.jackpot_id for d in drops],
        [d.jackpot_code for d in drops],
        [d.position for d in drops],
        [d.amount_cents for d in drops],
        [d.rule for d in drops],
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return False
    round_.pk = row[0]
    round_._state.adding = False
    round_._state.db = connection.alias
    for drop in drops:
        drop.round = round_
    return True
