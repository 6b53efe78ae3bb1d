"""Assessing and verifying time charges (§637a.17(b)(3))."""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from casino_backoffice.core.clock import local
from casino_backoffice.core.idempotency import document_replay, request_fingerprint
from casino_backoffice.ledger.models import TransferKind
from casino_backoffice.ledger.services import account_open_as, transfer_post_within
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.services import pin_check, signature_add
from tables.exceptions import GamingDayClosed
from tables.locks import gaming_day_hold_open
from tables.models import Table
from tables.selectors import gaming_day

from ..exceptions import InvalidRound, RulesNotInEffect, TimeChargeAlreadyAssessed, TimeChargeAlreadyVerified
from ..locks import lock_room_rules
from ..models import TimeCharge, TimeChargeBasis
from ..rules import RakeKind, RakePolicy
from ..selectors import TableRulesInEffect, table_rules_in_effect
from .accounts import drop_box_account, pots_account

# --- Time charges ---------------------------------------------------------------------------------


@transaction.atomic  # one transaction, so the room's rules lock is held until commit
def time_charge_assess(
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

    A closed gaming day stays closed (§637a.17, the revenue of the day): an interval of a day finance
    closed is refused (409 ``gaming_day_closed``); a retry of a charge assessed before answers it.
    """
    action_require(actor=actor, action=Action.TIME_CHARGE_ASSESS, of=table)
    fingerprint = request_fingerprint(
        {
            "table": table.pk,
            "interval_starts_at": interval_starts_at.astimezone(UTC).isoformat(),
            "players_seated": players_seated,
        }
    )
    room = table.room
    errors: dict[str, list[str]] = {}
    now = timezone.now()
    in_effect = _time_charge_rules(table=table, interval_starts_at=interval_starts_at, now=now, errors=errors)
    policy = in_effect.policy if in_effect is not None else None
    if policy is not None:
        players_seated = _interval_checked(
            table=table,
            policy=policy,
            interval_starts_at=interval_starts_at,
            players_seated=players_seated,
            errors=errors,
        )
    if errors:
        existing = document_replay(model=TimeCharge, idempotency_key=idempotency_key, fingerprint=fingerprint)
        if existing is not None:
            return existing, True
        raise InvalidRound(errors)
    assert policy is not None and in_effect is not None
    assert policy.interval_minutes is not None and policy.basis is not None  # a time-charge policy has both
    day = gaming_day(room=room, at=interval_starts_at)
    try:
        gaming_day_hold_open(room=room, day=day, what=f"Time charge at table {table.number}")
    except GamingDayClosed:
        existing = document_replay(model=TimeCharge, idempotency_key=idempotency_key, fingerprint=fingerprint)
        if existing is not None:
            return existing, True
        raise
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
                rules_version_id=in_effect.version_id,
                policy_code=policy.code,
                gaming_day=day,
                shift=in_effect.rules.shift_at(local(interval_starts_at, room).time()),
                idempotency_key=idempotency_key,
                request_sha256=fingerprint,
                assessed_by=actor,
                assessed_at=now,
            )
    except IntegrityError:
        existing = document_replay(model=TimeCharge, idempotency_key=idempotency_key, fingerprint=fingerprint)
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


def _time_charge_rules(
    *, table: Table, interval_starts_at: datetime, now: datetime, errors: dict[str, list[str]]
) -> TableRulesInEffect | None:
    """The rules rating an interval at a time-charge table, taken under the room's rules lock; None,
    with why added to ``errors``, when the table is closed, the interval has not started, or the
    table takes no time charges then."""
    if not table.is_open:
        errors.setdefault("table", []).append(f"Table {table.number} is closed; time is charged at open tables.")
    if interval_starts_at > now:
        errors.setdefault("interval_starts_at", []).append("An interval is assessed once it has started, not before.")
        return None
    lock_room_rules(room=table.room, exclusive=False)
    try:
        in_effect = table_rules_in_effect(table=table, at=interval_starts_at)
    except RulesNotInEffect as refused:
        errors.setdefault("table", []).append(refused.message)
        return None
    if in_effect.policy.kind != RakeKind.TIME_CHARGE:
        errors.setdefault("table", []).append(
            f"Table {table.number} does not take its rake by time charges under the rules in effect at {interval_starts_at.isoformat()}."
        )
        return None
    return in_effect


def _interval_checked(
    *,
    table: Table,
    policy: RakePolicy,
    interval_starts_at: datetime,
    players_seated: int | None,
    errors: dict[str, list[str]],
) -> int | None:
    """The players an interval is charged for (None per table), with any error added to ``errors``:
    an interval starts on the policy's clock, and per player every seated player counts."""
    assert policy.interval_minutes is not None
    local_start = local(interval_starts_at, table.room)
    if local_start.second or local_start.microsecond or local_start.minute % policy.interval_minutes:
        errors.setdefault("interval_starts_at", []).append(
            f"Intervals of policy {policy.code} start every {policy.interval_minutes} minutes on the clock "
            f"({local_start:%H:%M:%S} is not a start)."
        )
    if policy.basis != TimeChargeBasis.PER_PLAYER:
        return None
    if players_seated is None or not 1 <= players_seated <= table.seats:
        errors.setdefault("players_seated", []).append(
            f"Count every seated player, inactive ones too (§637a.17(b)(3)(i)): 1 to {table.seats} at table {table.number}."
        )
    return players_seated


def time_charge_verify(*, time_charge: TimeCharge, actor: User, pin: str) -> TimeCharge:
    """A floorperson or above verifies a time charge with their PIN; it goes into the drop box.

    "Upon verification by a floorperson or above of the time charges collected shall be immediately
    placed by the dealer into the drop box" (§637a.17(b)(3)(v)). The verifier is not the person who
    assessed it. The charge's gaming day is open: a verification would add to the revenue of a day
    finance closed (§637a.17), and is refused (409 ``gaming_day_closed``).
    """
    action_require(actor=actor, action=Action.TIME_CHARGE_VERIFY, of=time_charge)
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic():
        charge = TimeCharge.objects.select_for_update(of=("self",)).select_related("table__room").get(pk=time_charge.pk)
        if charge.verified_at is not None:
            raise TimeChargeAlreadyVerified(
                f"Time charge {charge.pk} was already verified at {charge.verified_at:%H:%M}."
            )
        gaming_day_hold_open(
            room=charge.table.room, day=charge.gaming_day, what=f"Verification of time charge {charge.pk}"
        )
        signature_add(document=charge, rule=TimeCharge.VERIFIER, signer=signer)
        charge.verified_at = signer.verified_at
        charge.save(update_fields=["verified_at"])
        table = charge.table
        transfer_post_within(
            debit=account_open_as(drop_box_account(table=table)),
            credit=account_open_as(pots_account(room=table.room)),
            amount_cents=charge.amount_cents,
            kind=TransferKind.TIME_CHARGE,
            idempotency_key=f"time_charge:{charge.pk}",
            actor=actor,
            reference=charge,
            memo=f"Time charge {charge.policy_code}, {charge.interval_minutes} minutes from {charge.interval_starts_at:%H:%M}",
        )
    return charge
