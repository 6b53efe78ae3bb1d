"""Reads for the display board and reports of jackpots."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.utils import timezone

from casino_backoffice.ledger.models import Account
from casino_backoffice.ledger.selectors import account_balances
from casino_backoffice.money import display_cents
from tables.models import PokerRoom
from tables.selectors import gaming_day

from .accounts import jackpot_fund_account
from .models import Jackpot


def jackpot_ids_by_code(*, room: PokerRoom) -> dict[str, int]:
    """The id of each fund of the room by its code (the code the rules files name it by)."""
    return dict(Jackpot.objects.filter(room=room).values_list("code", "pk"))


@dataclass(frozen=True)
class DisplayedJackpot:
    name: str
    kind: str
    amount_cents: int
    pending: bool = False

    @property
    def amount(self) -> str:
        return display_cents(self.amount_cents)


def displayed_jackpots(*, room: PokerRoom) -> tuple[DisplayedJackpot, ...]:
    """Each fund of the room at its official amount: the balance cage verifications posted to the
    fund (§637a.15(b) and (h)(2): the amount displayed is the one the finance department keeps; §637a.16(g)), never
    the expected money still in the boxes."""
    jackpots = list(Jackpot.objects.filter(room=room).select_related("room").order_by("kind", "code"))
    codes = {jackpot.pk: jackpot_fund_account(jackpot=jackpot).code for jackpot in jackpots}
    accounts = {account.code: account for account in Account.objects.filter(code__in=codes.values())}
    balances = account_balances(accounts=accounts.values())
    return tuple(
        DisplayedJackpot(
            name=jackpot.name,
            kind=jackpot.get_kind_display(),
            amount_cents=balances[accounts[codes[jackpot.pk]].pk] if codes[jackpot.pk] in accounts else 0,
        )
        for jackpot in jackpots
    )


@dataclass(frozen=True)
class DisplayState:
    """What the display board of a room shows."""

    room: PokerRoom
    now_local: datetime
    gaming_day_on: date
    open_tables: int
    total_tables: int
    jackpots: tuple[DisplayedJackpot, ...] = ()
    notices: tuple[str, ...] = ()


def display_state(*, room: PokerRoom) -> DisplayState:
    now = timezone.now()
    tables = list(room.tables.values_list("is_open", flat=True))
    return DisplayState(
        room=room,
        now_local=now.astimezone(ZoneInfo(room.timezone)),
        gaming_day_on=gaming_day(room=room, at=now),
        open_tables=sum(tables),
        total_tables=len(tables),
        jackpots=displayed_jackpots(room=room),
    )
