"""Ledger accounts of the jackpots app, each code and name built once: the table boxes a jackpot's
drops go into (expected money) and each fund's official money (docs/architecture.md, Official versus expected)."""

from __future__ import annotations

from typing import Protocol

from casino_backoffice.ledger.models import AccountKind, account_code
from casino_backoffice.ledger.services import AccountSpec
from jackpots.funds.models import Jackpot
from tables.models import Table


class NamedJackpot(Protocol):
    """A jackpot as a rules file names it or as a fund (``Jackpot``): a code and a name."""

    @property
    def code(self) -> str: ...

    @property
    def name(self) -> str: ...


def jackpot_box_account(*, table: Table, jackpot: NamedJackpot) -> AccountSpec:
    """A table's box for one jackpot, where each round's drop goes: ``table:main:T1:bb_box``,
    "Table T1 Bad Beat box"."""
    return AccountSpec(
        code=account_code("table", table.room.code, table.number, f"{jackpot.code}_box"),
        name=f"Table {table.number} {jackpot.name} box",
        kind=AccountKind.JACKPOT_BOX,
    )


def jackpot_fund_account(*, jackpot: Jackpot) -> AccountSpec:
    """A fund's official money: what cage verifications posted. The display shows its balance:
    ``jackpot:main:bb:fund``, "Bad Beat fund"."""
    return AccountSpec(
        code=account_code("jackpot", jackpot.room.code, jackpot.code, "fund"),
        name=f"{jackpot.name} fund",
        kind=AccountKind.FUND,
    )


def jackpot_paid_account(*, jackpot: Jackpot) -> AccountSpec:
    """What a fund paid to patrons, share by share (§637a.15(g)): ``jackpot:main:bb:paid``, "Bad Beat paid to patrons"."""
    return AccountSpec(
        code=account_code("jackpot", jackpot.room.code, jackpot.code, "paid"),
        name=f"{jackpot.name} paid to patrons",
        kind=AccountKind.PAYOUT,
    )


def jackpot_awards_account(*, jackpot: Jackpot) -> AccountSpec:
    """High Hand awards announced and not yet collected (§637a.16(h)): ``jackpot:main:hh:awards``."""
    return AccountSpec(
        code=account_code("jackpot", jackpot.room.code, jackpot.code, "awards"),
        name=f"{jackpot.name} awards to collect",
        kind=AccountKind.PAYOUT,
    )
