"""Every write of the rake app: loading rules, recording rounds, assessing and verifying time charges."""

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
from casino_backoffice.ledger.services import account_open, post_transfer
from casino_backoffice.money import format_cents
from casino_backoffice.staff.models import User
from casino_backoffice.staff.services import pin_check, signature_add
from jackpots.models import JackpotKind
from jackpots.services import jackpot_box_code, jackpot_register
from tables.models import PokerRoom, Round, RoundDrop, RulesVersion, Table
from tables.selectors import gaming_day
from tables.services import room_upsert, table_upsert

from .compute import PotOutcome, compute_rake_and_drops
from .exceptions import (
    IdempotencyKeyReused,
    InvalidRound,
    RakeError,
    RulesFileInvalid,
    TimeChargeAlreadyAssessed,
    TimeChargeAlreadyVerified,
)
from .locks import lock_room_rules
from .models import TimeCharge, TimeChargeBasis
from .rules import RakeKind, Rules, RulesInvalid, parse_text, validate_rules
from .selectors import RoomVersions, rules_of_version, rules_version_in_effect

# --- Ledger accounts ------------------------------------------------------------------------------


def pots_account_code(*, room: PokerRoom) -> str:
    """Players' money at the tables of a room: where rake and drops come from."""
    return f"room:{room.code}:pots"


def drop_box_code(*, table: Table) -> str:
    return f"table:{table.room.code}:{table.number}:drop_box"


# Account ids cached in-process: accounts are never deleted and their codes never change. The key
# carries the rules version that opened them, so a database rolled back (tests) is never trusted.
_account_ids: dict[tuple[int, str], int] = {}


def _account_id(code: str, *, name: str, kind: AccountKind, version_id: int) -> int:
    account_id = _account_ids.get((version_id, code))
    if account_id is None:
        account_id = account_open(code=code, name=name, kind=kind).pk
        _account_ids[(version_id, code)] = account_id
    return account_id


def _open_table_accounts(*, room: PokerRoom, table: Table, rules: Rules) -> None:
    account_open(code=drop_box_code(table=table), name=f"Table {table.number} drop box", kind=AccountKind.DROP_BOX)
    for code in rules.tables[table.number].jackpots:
        jackpot = rules.jackpots[code]
        account_open(
            code=jackpot_box_code(table=table, jackpot_code=code),
            name=f"Table {table.number} {jackpot.name} box",
            kind=AccountKind.JACKPOT_BOX,
        )


# --- Rules ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RulesLoaded:
    version: RulesVersion
    created: bool


def rules_load(*, text: str, actor: User | None, source_name: str = "") -> RulesLoaded:
    """Apply a Rules Submission file (§601a.2) as a new version of its room's rules.

    Every rule of the file is checked first and every error reported at once (``RulesFileInvalid``);
    an invalid file changes nothing. A file whose canonical content is that of the room's latest
    version changes nothing either. Otherwise, in one transaction: the room's name, time zone and
    gaming-day start, the tables' games and seats, the jackpot funds and the ledger boxes are brought
    up to date, and a new immutable ``RulesVersion`` records the file, who loaded it and when.

    ``effective_from`` defaults to the moment of loading. A version may not take effect before a
    round already recorded in the room: that round was rated by the rules then in effect
    (§637a.17(e): once extracted, no additional rake may be taken).
    """
    try:
        rules = validate_rules(parse_text(text))
    except RulesInvalid as error:
        raise RulesFileInvalid(error.errors) from None
    sha = hashlib.sha256(rules.canonical_json().encode()).hexdigest()
    now = timezone.now()
    with transaction.atomic():
        room = PokerRoom.objects.select_for_update().filter(code=rules.room).first()
        if room is not None:
            lock_room_rules(room=room, exclusive=True)
        latest = room.rules_versions.order_by("-number").first() if room else None
        if latest is not None and latest.content_sha256 == sha:
            return RulesLoaded(version=latest, created=False)
        effective_from = rules.effective_from or now
        if room is not None:
            late = Round.objects.filter(table__room=room, ended_at__gte=effective_from).order_by("-ended_at").first()
            if late is not None:
                raise RulesFileInvalid(
                    [
                        f"effective_from: {effective_from.isoformat()} is before round {late.pk} at table "
                        f"{late.table.number} that ended {late.ended_at.isoformat()} and was rated by the rules then "
                        "in effect; choose a later effective_from (§637a.17(e))"
                    ]
                )
        try:
            room = room_upsert(
                code=rules.room, name=rules.room_name, timezone_name=rules.timezone, gaming_day_starts=rules.gaming_day_starts
            )
            room = PokerRoom.objects.select_for_update().get(pk=room.pk)
            for jackpot in rules.jackpots.values():
                jackpot_register(room=room, code=jackpot.code, kind=JackpotKind(jackpot.kind), name=jackpot.name)
            account_open(code=pots_account_code(room=room), name=f"{room.name}: pots", kind=AccountKind.SOURCE)
            for table_rule in rules.tables.values():
                table = table_upsert(room=room, number=table_rule.number, game=table_rule.game, seats=table_rule.seats)
                _open_table_accounts(room=room, table=table, rules=rules)
        except RakeError:
            raise
        except DomainError as error:
            raise RulesFileInvalid([error.message]) from None
        version = RulesVersion.objects.create(
            room=room,
            number=(latest.number + 1) if latest else 1,
            effective_from=effective_from,
            loaded_at=now,
            loaded_by=actor,
            source_name=source_name[:255],
            source_text=text,
            content=rules.canonical(),
            content_sha256=sha,
        )
    return RulesLoaded(version=version, created=True)


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
            INSERT INTO {RoundDrop._meta.db_table} (round_id, jackpot_code, position, amount_cents, rule)
            SELECT new_round.id, d.code, d.position, d.amount, d.rule
            FROM new_round, unnest(%s::text[], %s::int[], %s::bigint[], %s::text[]) AS d(code, position, amount, rule)
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
        [d.jackpot_code for d in drops], [d.position for d in drops], [d.amount_cents for d in drops], [d.rule for d in drops],
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
    drops = [
        RoundDrop(round=round_, jackpot_code=drop.code, position=n, amount_cents=drop.amount_cents, rule=drop.rule[:300])
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


# --- Time charges ---------------------------------------------------------------------------------


def time_charge_assess(
    *,
    table: Table,
    interval_starts_at: datetime,
    players_seated: int | None,
    actor: User,
    idempotency_key: str,
) -> tuple[TimeCharge, bool]:
    """Assess a time charge (see ``_time_charge_assess``) in one transaction, under the room's rules lock."""
    with transaction.atomic():
        return _time_charge_assess(
            table=table, interval_starts_at=interval_starts_at, players_seated=players_seated, actor=actor,
            idempotency_key=idempotency_key,
        )


def _time_charge_assess(
    *,
    table: Table,
    interval_starts_at: datetime,
    players_seated: int | None,
    actor: User,
    idempotency_key: str,
) -> tuple[TimeCharge, bool]:
    """Assess the time charge of one interval at a time-charge table (§637a.17(b)(3)).

    Per player, "inactive players seated at the table shall also be assessed" (§637a.17(b)(3)(i)):
    ``players_seated`` counts every seated player. Per table, the fee is taken once. The interval is
    the policy's 20 or 30 minutes, starting on the clock (:00, :20, :40 or :00, :30) in the room's
    time zone; it is assessed once. The money reaches the drop box when a floorperson or above
    verifies it (``time_charge_verify``). Returns the charge and whether it was a replay.
    """
    fingerprint = _fingerprint(
        {
            "table": table.pk,
            "interval_starts_at": interval_starts_at.astimezone(ZoneInfo("UTC")).isoformat(),
            "players_seated": players_seated,
        }
    )
    room = table.room
    errors: dict[str, list[str]] = {}
    policy = None
    in_effect = None
    now = timezone.now()
    if not table.is_open:
        errors.setdefault("table", []).append(f"Table {table.number} is closed; time is charged at open tables.")
    if interval_starts_at > now:
        errors.setdefault("interval_starts_at", []).append("An interval is assessed once it has started, not before.")
    else:
        lock_room_rules(room=room, exclusive=False)
        in_effect = rules_version_in_effect(room=room, at=interval_starts_at)
        table_rule = in_effect[1].tables.get(table.number) if in_effect is not None else None
        if in_effect is not None and table_rule is not None:
            policy = in_effect[1].rake_policies.get(table_rule.rake_policy or "")
        if policy is None or policy.kind != RakeKind.TIME_CHARGE:
            errors.setdefault("table", []).append(
                f"Table {table.number} does not take its rake by time charges under the rules in effect at {interval_starts_at.isoformat()}."
            )
            policy = None
    if policy is not None:
        assert policy.interval_minutes is not None
        local = interval_starts_at.astimezone(ZoneInfo(room.timezone))
        if local.second or local.microsecond or local.minute % policy.interval_minutes:
            errors.setdefault("interval_starts_at", []).append(
                f"Intervals of policy {policy.code} start every {policy.interval_minutes} minutes on the clock "
                f"({local:%H:%M:%S} is not a start)."
            )
        if policy.basis == TimeChargeBasis.PER_PLAYER:
            if players_seated is None or not 1 <= players_seated <= table.seats:
                errors.setdefault("players_seated", []).append(
                    f"Count every seated player, inactive ones too (§637a.17(b)(3)(i)): 1 to {table.seats} at table {table.number}."
                )
        else:
            players_seated = None
    if errors:
        existing = _replay(model=TimeCharge, idempotency_key=idempotency_key, fingerprint=fingerprint)
        if existing is not None:
            return existing, True
        raise InvalidRound(errors)
    assert policy is not None and in_effect is not None
    assert policy.interval_minutes is not None and policy.basis is not None  # a time-charge policy has both
    fee = policy.fee_per_interval_cents
    amount = fee * (players_seated or 1)
    try:
        with transaction.atomic():
            charge = TimeCharge.objects.create(
                table=table,
                interval_starts_at=interval_starts_at,
                interval_minutes=policy.interval_minutes,
                basis=policy.basis,
                players_seated=players_seated,
                fee_per_interval_cents=fee,
                amount_cents=amount,
                rules_version_id=in_effect[0],
                policy_code=policy.code,
                gaming_day=gaming_day(room=room, at=interval_starts_at),
                shift=in_effect[1].shift_at(interval_starts_at.astimezone(ZoneInfo(room.timezone)).time()),
                idempotency_key=idempotency_key,
                request_sha256=fingerprint,
                assessed_by=actor,
                assessed_at=now,
            )
    except IntegrityError:
        existing = _replay(model=TimeCharge, idempotency_key=idempotency_key, fingerprint=fingerprint)
        if existing is not None:
            return existing, True
        other = TimeCharge.objects.filter(table=table, interval_starts_at=interval_starts_at).first()
        if other is None:
            raise
        raise TimeChargeAlreadyAssessed(
            f"The interval from {interval_starts_at.isoformat()} at table {table.number} was already assessed "
            f"(time charge {other.pk}); nothing was recorded."
        ) from None
    return charge, False


def time_charge_verify(*, time_charge: TimeCharge, actor: User, pin: str) -> TimeCharge:
    """A floorperson or above verifies a time charge with their PIN; it goes into the drop box.

    "Upon verification by a floorperson or above of the time charges collected shall be immediately
    placed by the dealer into the drop box" (§637a.17(b)(3)(v)). The verifier is not the person who
    assessed it.
    """
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic():
        charge = TimeCharge.objects.select_for_update().select_related("table__room").get(pk=time_charge.pk)
        if charge.verified_at is not None:
            raise TimeChargeAlreadyVerified(f"Time charge {charge.pk} was already verified at {charge.verified_at:%H:%M}.")
        signature_add(document=charge, rule=TimeCharge.VERIFIER, signer=signer)
        charge.verified_at = signer.verified_at
        charge.save(update_fields=["verified_at"])
        table = charge.table
        post_transfer(
            debit=account_open(code=drop_box_code(table=table), name=f"Table {table.number} drop box", kind=AccountKind.DROP_BOX),
            credit=account_open(code=pots_account_code(room=table.room), name=f"{table.room.name}: pots", kind=AccountKind.SOURCE),
            amount_cents=charge.amount_cents,
            kind=TransferKind.TIME_CHARGE,
            idempotency_key=f"time_charge:{charge.pk}",
            actor=actor,
            reference=charge,
            memo=f"Time charge {charge.policy_code}, {charge.interval_minutes} minutes from {charge.interval_starts_at:%H:%M}",
        )
    return charge


def rules_of(version: RulesVersion) -> Rules:
    return rules_of_version(version_id=version.pk, content=version.content)
