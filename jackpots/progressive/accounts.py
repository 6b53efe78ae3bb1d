"""Ledger accounts of a progressive meter, each code and name built once: the meter, the wagers
collected, the house's share, the house's funding, what was won and what was paid."""

from __future__ import annotations

from casino_backoffice.ledger.models import AccountKind, account_code
from casino_backoffice.ledger.services import AccountSpec
from jackpots.progressive.models import ProgressiveMeter

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
