"""Ledger accounts of the High Hand, each code and name built once: the box content of a period at a
table, exchanged at the period's end."""

from __future__ import annotations

from datetime import UTC, datetime

from casino_backoffice.core.clock import local_text
from casino_backoffice.ledger.models import AccountKind, account_code
from casino_backoffice.ledger.services import AccountSpec
from jackpots.funds.accounts import NamedJackpot
from jackpots.high_hand.models import HighHandPeriod
from tables.models import Table


def high_hand_box_content_account(*, table: Table, jackpot: NamedJackpot, starts_at: datetime) -> AccountSpec:
    """What a table's High Hand box holds of one qualifying period: §637a.16(d), 'the High Hand
    Jackpot payout box at each Poker table shall be counted at the end of each qualifying period'. The
    box is exchanged at the period's end, so each period's drops go to a box content of their own and
    its count covers exactly the drops of the rounds that ended in the period, whenever it is made:
    ``table:main:T1:hh_box:20261203T1500Z`` (the period's start in UTC), "Table T1 High Hand box,
    period of 2026-12-03 10:00"."""
    return AccountSpec(
        code=account_code("table", table.room.code, table.number, f"{jackpot.code}_box", _period_stamp(starts_at)),
        name=f"Table {table.number} {jackpot.name} box, period of {local_text(starts_at, table.room)}",
        kind=AccountKind.JACKPOT_BOX,
    )


def _period_stamp(starts_at: datetime) -> str:
    return f"{starts_at.astimezone(UTC):%Y%m%dT%H%MZ}"


def period_content_suffix(*, period: HighHandPeriod) -> str:
    """How the codes of a period's box contents at every table end: ``:hh_box:20261203T1500Z``."""
    return f":{period.jackpot.code}_box:{_period_stamp(period.starts_at)}"
