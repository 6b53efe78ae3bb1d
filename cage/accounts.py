"""The ledger accounts the cage moves money through, each named once.

A box's own account is named where the box's money comes from (``rake.services.accounts`` for rake
drop boxes, ``jackpots.funds.accounts`` for jackpot boxes and funds); these are the cage's:

- ``room:{room}:custody``: counted or carried, in custody, not yet verified at the cage;
- ``room:{room}:variance``: count variances (counted less expected), so the ledger still balances;
- ``room:{room}:cage_over_short``: the cage's count of a container against its table counts;
- ``room:{room}:revenue``: poker revenue made official by the cage (rake drop boxes).
"""

from __future__ import annotations

from casino_backoffice.ledger.models import Account, AccountKind, account_code
from casino_backoffice.ledger.services import AccountSpec, account_open_as
from jackpots.funds.accounts import jackpot_fund_account
from jackpots.funds.models import Jackpot
from tables.models import PokerRoom


def custody_spec(*, room: PokerRoom) -> AccountSpec:
    return AccountSpec(
        code=account_code("room", room.code, "custody"),
        name=f"{room.name}: in custody, not yet verified",
        kind=AccountKind.CONTAINER,
    )


def variance_spec(*, room: PokerRoom) -> AccountSpec:
    return AccountSpec(
        code=account_code("room", room.code, "variance"),
        name=f"{room.name}: count variances",
        kind=AccountKind.VARIANCE,
    )


def cage_over_short_spec(*, room: PokerRoom) -> AccountSpec:
    return AccountSpec(
        code=account_code("room", room.code, "cage_over_short"),
        name=f"{room.name}: cage over/short",
        kind=AccountKind.CAGE,
    )


def revenue_spec(*, room: PokerRoom) -> AccountSpec:
    return AccountSpec(
        code=account_code("room", room.code, "revenue"),
        name=f"{room.name}: poker revenue (official)",
        kind=AccountKind.REVENUE,
    )


def custody_account(*, room: PokerRoom) -> Account:
    return account_open_as(custody_spec(room=room))


def variance_account(*, room: PokerRoom) -> Account:
    return account_open_as(variance_spec(room=room))


def cage_over_short_account(*, room: PokerRoom) -> Account:
    return account_open_as(cage_over_short_spec(room=room))


def revenue_account(*, room: PokerRoom) -> Account:
    return account_open_as(revenue_spec(room=room))


def fund_account(*, jackpot: Jackpot) -> Account:
    return account_open_as(jackpot_fund_account(jackpot=jackpot))
