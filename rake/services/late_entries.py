"""Rounds logged late: the shift supervisor's signature a round needs when it reaches the back office
longer after it ended than the room's ``late_entry_minutes`` (a house control of the rules file).

§637a.17: a room's poker revenue of a gaming day is the rake of its rounds. A round logged long after
it ended changes a day finance may already be reconciling, and a round back-dated by a table system
(or a person) moves revenue between days; so past the posted minutes a poker shift supervisor, who is
not the person logging it, signs for it (``late_entry_by`` and their ``pin``), and the revenue report
marks it late (``LateRoundEntry``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.services import VerifiedSigner, pin_check, signature_add
from tables.models import Round, Table

from ..exceptions import LateEntryUnsigned
from ..models import LateRoundEntry
from ..rules import Rules


def late_entry_signer(*, by: User | None, pin: str, table: Table) -> VerifiedSigner | None:
    """The shift supervisor signing for a late round, their PIN checked now (before the round's
    transaction, so that a wrong PIN is counted); None when nobody signs."""
    if by is None:
        return None
    action_require(actor=by, action=Action.LATE_ENTRY_SIGN, of=table)
    return pin_check(user=by, pin=pin)


def minutes_late(*, ended_at: datetime, now: datetime, rules: Rules) -> int | None:
    """How many whole minutes late a round ending at ``ended_at`` and logged at ``now`` is, or None when
    it is logged within the room's ``late_entry_minutes``."""
    late = now - ended_at
    if late <= timedelta(minutes=rules.late_entry_limit_minutes):
        return None
    return int(late.total_seconds() // 60)


def late_entry_require(
    *, table: Table, ended_at: datetime, late: int, rules: Rules, signer: VerifiedSigner | None, actor: User
) -> None:
    """Refuse a late round nobody signed for, or signed for by the person logging it."""
    limit = rules.late_entry_limit_minutes
    if signer is None:
        raise LateEntryUnsigned(
            f"The round at table {table.number} ended at {ended_at.isoformat()}, {late} minutes ago: a round logged "
            f"more than {limit} minutes after it ended (the room's late_entry_minutes) is recorded with a poker "
            "shift supervisor's signature. Send it again with late_entry_by (the supervisor's username) and pin "
            "(their PIN), or correct ended_at if it is wrong. Nothing was recorded."
        )
    if signer.user.pk == actor.pk:
        raise LateEntryUnsigned(
            f"{actor} logs this round and cannot also sign for it as late: another poker shift supervisor signs "
            "(late_entry_by). Nothing was recorded."
        )


def late_entry_record(*, round_: Round, late: int, rules: Rules, signer: VerifiedSigner, actor: User) -> LateRoundEntry:
    """Record the supervisor's signature for a late round, in the round's transaction."""
    entry = LateRoundEntry.objects.create(
        round=round_,
        minutes_late=late,
        limit_minutes=rules.late_entry_limit_minutes,
        recorded_by=actor,
        signed_by=signer.user,
        signed_at=signer.verified_at,
    )
    signature_add(document=entry, rule=LateRoundEntry.SUPERVISOR, signer=signer)
    return entry


SignerKey = tuple[int, str, int]  # (supervisor, PIN, room)


def signer_key(*, by: User, pin: str, table: Table) -> SignerKey:
    return (by.pk, pin, table.room_id)


def late_entry_signers(*, wanted: list[tuple[User, str, Table]]) -> dict[SignerKey, VerifiedSigner | DomainError]:
    """Each distinct (supervisor, PIN, room) of a batch checked once: a batch of rounds flushed after an
    outage often carries one supervisor's signature, and a wrong PIN counts once, not once a round."""
    checked: dict[SignerKey, VerifiedSigner | DomainError] = {}
    for by, pin, table in wanted:
        key = signer_key(by=by, pin=pin, table=table)
        if key in checked:
            continue
        try:
            signer = late_entry_signer(by=by, pin=pin, table=table)
        except DomainError as refused:
            checked[key] = refused
        else:
            assert signer is not None
            checked[key] = signer
    return checked
