"""Pieces the cage's services share: role checks, ledger postings, the variance threshold."""

from __future__ import annotations

from datetime import datetime

from django.db import models

from casino_backoffice.ledger.models import Account, TransferKind
from casino_backoffice.ledger.services import transfer_post_within
from casino_backoffice.staff.models import User
from rake.selectors import RoomVersions
from tables.models import PokerRoom

from ..accounts import fund_account, revenue_account
from ..models import Box, BoxKind


def move(
    *,
    source: Account,
    destination: Account,
    amount_cents: int,
    kind: TransferKind,
    key: str,
    actor: User,
    reference: models.Model,
    memo: str,
) -> None:
    """Move a signed amount: from ``source`` to ``destination`` when positive, back when negative,
    nothing when zero. Inside the caller's transaction."""
    if amount_cents == 0:
        return
    debit, credit = (destination, source) if amount_cents > 0 else (source, destination)
    transfer_post_within(
        debit=debit,
        credit=credit,
        amount_cents=abs(amount_cents),
        kind=kind,
        idempotency_key=key,
        actor=actor,
        reference=reference,
        memo=memo[:300],
    )


def official_account(*, box: Box) -> Account:
    """Where a box's verified money becomes official: its jackpot's fund, or the room's poker revenue."""
    if box.kind == BoxKind.JACKPOT:
        assert box.jackpot is not None
        return fund_account(jackpot=box.jackpot)
    return revenue_account(room=box.room)


def verification_transfer_key(*, verification_id: int, part: str) -> str:
    """The idempotency key of a transfer a verification posted: ``part`` is the box code for the box's
    money made official, or names the variance it moved (``T1-hh:over``, ``over_short``)."""
    return f"verification:{verification_id}:{part}"


def variance_threshold_cents(*, room: PokerRoom, at: datetime) -> int:
    """The room's variance threshold (a house control in the rules file): a variance larger than
    this needs a signed explanation. No rules, or no threshold stated: every variance does."""
    in_effect = RoomVersions.of(room=room, at=at).in_effect(at=at)
    if in_effect is None:
        return 0
    return in_effect[1].variance_threshold_cents
