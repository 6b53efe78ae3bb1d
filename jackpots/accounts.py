"""Ledger accounts of the jackpots app, each code and name built once: the table boxes a jackpot's
drops go into (expected money) and each fund's official money (docs/architecture.md, Official versus expected)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from casino_backoffice.ledger.models import AccountKind, account_code
from casino_backoffice.ledger.services import AccountSpec
from tables.models import Table

from .models import HighHandPeriod, Jackpot, ProgressiveMeter


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


def high_hand_box_content_account(*, table: Table, jackpot: NamedJackpot, starts_at: datetime) -> AccountSpec:
    """What a table's High Hand box holds of one qualifying period: §637a.16(d), 'the High Hand
    Jackpot payout box at each Poker table shall be counted at the end of each qualifying period'. The
    box is exchanged at the period's end, so each period's drops go to a box content of their own and
    its count covers exactly the drops of the rounds that ended in the period, whenever it is made:
    ``table:main:T1:hh_box:20261203T1500Z`` (the period's start in UTC), "Table T1 High Hand box,
    period of 2026-12-03 10:00"."""
    local = starts_at.astimezone(ZoneInfo(table.room.timezone))
    return AccountSpec(
        code=account_code("table", table.room.code, table.number, f"{jackpot.code}_box", _period_stamp(starts_at)),
        name=f"Table {table.number} {jackpot.name} box, period of {local:%Y-%m-%d %H:%M}",
        kind=AccountKind.JACKPOT_BOX,
    )


def _period_stamp(starts_at: datetime) -> str:
    return f"{starts_at.astimezone(UTC):%Y%m%dT%H%MZ}"


def period_content_suffix(*, period: HighHandPeriod) -> str:
    """How the codes of a period's box contents at every table end: ``:hh_box:20261203T1500Z``."""
    return f":{period.jackpot.code}_box:{_period_stamp(period.starts_at)}"


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


# --- Progressive meters (§655a.12, §657a.12) -------------------------------------------------------


def _meter_account(meter: ProgressiveMeter, part: str, name: str, kind: AccountKind) -> AccountSpec:
    return AccountSpec(
        code=account_code("progressive", meter.room.code, meter.code, part), name=f"{meter.name} {name}", kind=kind
    )


def meter_account(*, meter: ProgressiveMeter) -> AccountSpec:
    """The meter: what it shows and pays from (``progressive:main:msp:meter``)."""
    return _meter_account(meter, "meter", "meter", AccountKind.FUND)


def meter_wagers_account(*, meter: ProgressiveMeter) -> AccountSpec:
    """The Progressive Payout Wagers collected at the linked tables: where each round's increment and
    the house's share come from."""
    return _meter_account(meter, "wagers", "wagers collected", AccountKind.SOURCE)


def meter_house_account(*, meter: ProgressiveMeter) -> AccountSpec:
    """The house's share of the wagers: what the rate of progression leaves of each wager. A banked
    game's win, not poker revenue: poker revenue is the rake (§637a.17), so this account is of a kind
    of its own and the revenue report shows it on its own line."""
    return _meter_account(meter, "house", "house share of wagers", AccountKind.BANKED_REVENUE)


def meter_funding_account(*, meter: ProgressiveMeter) -> AccountSpec:
    """The house's money for the meter's initial and reset amounts (§655a.12(c)(3), §657a.12(d)(3)),
    the fixed 'for 1' lines and the Envy Bonuses (the table inventory): the house's, not players' money
    at the table, so of a kind of its own. It runs negative by design: it is where that money comes from."""
    return _meter_account(meter, "house_funding", "funded by the house", AccountKind.HOUSE_FUNDING)


def meter_won_account(*, meter: ProgressiveMeter) -> AccountSpec:
    """Payouts and Envy Bonuses won and not yet paid."""
    return _meter_account(meter, "won", "payouts to pay", AccountKind.PAYOUT)


def meter_paid_account(*, meter: ProgressiveMeter) -> AccountSpec:
    """Payouts and Envy Bonuses paid to patrons, at the table or the cage."""
    return _meter_account(meter, "paid", "paid to patrons", AccountKind.PAYOUT)
