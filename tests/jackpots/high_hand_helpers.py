"""Helpers of the High Hand's API, tablet and board tests: the fund's open period opened by the schedule's
service, an entry as a table system sends it, the announcement of a period's pool, and a snapshot of
everything a refused request must leave as it was."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.models import Signature, User
from jackpots.funds.models import Jackpot
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandAwardPayment,
    HighHandEntry,
    HighHandPeriod,
    HighHandUnclaimed,
    HighHandVoid,
    PeriodStatus,
)
from jackpots.high_hand.services.periods import period_announce, periods_run
from rake.services import round_record
from tables.models import Table
from tests.conftest import PIN
from tests.jackpots.bad_beat import fund_official

ENTRIES = "/api/high-hand/entries/"
PERIODS = "/api/high-hand/periods/"

_keys = itertools.count(1)


def open_period(table: Table, *, at: datetime | None = None, code: str = "hh") -> HighHandPeriod:
    """The High Hand fund's period open at ``at`` (now by default; hourly from 10:00 under the tests'
    rules), as the schedule opens it."""
    periods_run(room=table.room, at=at or timezone.now())
    return HighHandPeriod.objects.select_related("jackpot__room", "room").get(
        jackpot__code=code, status=PeriodStatus.OPEN
    )


def at_start(period: HighHandPeriod) -> str:
    """The period's first moment, as the API takes it: a hand made then is in the period and never in
    the future, whenever the test runs."""
    return period.starts_at.isoformat()


def entry_body(dealt_by: User, period: HighHandPeriod, **changes: Any) -> dict[str, Any]:
    """Aces full of kings at T1, seat 3, six players dealt in, a $120.00 pot: a hand for the slip."""
    return {
        "jackpot": "hh",
        "table": "T1",
        "seat": 3,
        "player_name": "Ann Player",
        "player_phone": "215-555-0100",
        "id_type": "Driver's license",
        "id_number": "PA-12345678",
        "dealer": dealt_by.username,
        "players_dealt_in": 6,
        "pot": "120.00",
        "cards": "Ah Ad Ac Kh Ks",
        "made_at": at_start(period),
        **changes,
    }


def log_round(table: Table, ended_at: datetime, actor: User, pot_cents: int = 12_000) -> None:
    """A round of ``pot_cents`` at the open ``table``: a $120.00 pot at T1 drops $2.00 into hh. A round
    that ended more than half an hour ago is logged late, a shift supervisor signing for it (issue 24)."""
    late = timezone.now() - ended_at > timedelta(minutes=30)
    round_record(
        table=table,
        ended_at=ended_at,
        players_dealt_in=9,
        pot_cents=pot_cents,
        uncalled_bet_cents=0,
        flop_dealt=True,
        voided=False,
        actor=actor,
        idempotency_key=f"hh-round-{next(_keys)}",
        late_entry_by=_late_entry_signer() if late else None,
        pin=PIN if late else None,
    )


def _late_entry_signer() -> User:
    from casino_backoffice.staff.roles import Role
    from casino_backoffice.staff.services import staff_create

    return User.objects.filter(username="late-entry-supervisor").first() or staff_create(
        username="late-entry-supervisor",
        role=Role.SHIFT_SUPERVISOR,
        credential_number="PA-LATE-0001",
        password="late-entry-pw",
        pin=PIN,
        all_rooms=True,
    )


def close_and_announce(period: HighHandPeriod, *, pool_cents: int, at: datetime, actor: User) -> HighHandPeriod:
    """Close ``period`` as the schedule does at its end (opening the next), make ``pool_cents`` official
    in the fund as the cage's verification would, and announce the pool: the periods before it first
    (closed and empty, should there be any: they roll over nothing), as the cage does, in order."""
    periods_run(room=period.room, at=period.ends_at)
    fund_official(period.jackpot, pool_cents, actor)
    with transaction.atomic():
        for earlier in HighHandPeriod.objects.filter(
            jackpot=period.jackpot, status=PeriodStatus.CLOSED, starts_at__lt=period.starts_at
        ).order_by("starts_at"):
            period_announce(period=earlier, contributions_cents=0, at=at)
        return period_announce(period=period, contributions_cents=pool_cents, at=at)


def high_hand_fund(table: Table) -> Jackpot:
    return Jackpot.objects.get(room=table.room, code="hh")


def snapshot() -> tuple:
    """Every High Hand document and its state, the ledger, the signatures and everyone's PIN count."""
    return (
        list(HighHandPeriod.objects.order_by("pk").values_list("pk", "status", "pool_cents", "rolled_in_cents")),
        list(HighHandEntry.objects.order_by("pk").values_list("pk", "tie")),
        HighHandVoid.objects.count(),
        HighHandAward.objects.count(),
        HighHandAwardPayment.objects.count(),
        list(HighHandUnclaimed.objects.order_by("pk").values_list("pk", "approved_by")),
        Transfer.objects.count(),
        Signature.objects.count(),
        # Whoever counted a wrong PIN (people made meanwhile count nothing).
        list(User.objects.filter(failed_pin_attempts__gt=0).order_by("pk").values_list("pk", "failed_pin_attempts")),
    )
