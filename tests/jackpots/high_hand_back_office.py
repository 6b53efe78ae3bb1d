"""Helpers of the back-office tests of the High Hand: a qualifying period played by the services from
its first hand to its payment at the cage, and a period without a qualifying hand.

The schedule (``periods_run``) opens the fund's periods on the room's clock; its first run opens the
period of the moment and records the week before as periods it missed, closed. Periods are announced
in order, so the missed ones are announced first (no contributions, no hand: they roll over nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from casino_backoffice.staff.models import User
from jackpots.funds.models import Jackpot
from jackpots.high_hand.models import HighHandAward, HighHandEntry, HighHandPeriod, PeriodStatus
from jackpots.high_hand.services.awards import award_pay, unclaimed_prepare
from jackpots.high_hand.services.periods import period_announce, periods_run
from jackpots.high_hand.services.slip import entry_record, entry_void
from tables.models import PokerRoom, Table
from tests.conftest import PIN

# The winner's identification as recorded with the hand; a page shows only its last four characters.
WINNER_ID = ("Driver's license", "PA-DL-12345678")
TIED_ID = ("Passport", "X9876543")
VOID_REASON = "Misread: the queen of clubs was on the board, not in the player's hand."


def hours_ago(hours: int) -> datetime:
    """The start of the room's hour ``hours`` before now (hourly periods start on the hour)."""
    return (timezone.now() - timedelta(hours=hours)).replace(minute=0, second=0, microsecond=0)


def high_hand_of(room: PokerRoom) -> Jackpot:
    return Jackpot.objects.get(room=room, code="hh")


def period_open(*, room: PokerRoom, start: datetime) -> HighHandPeriod:
    """The fund's period starting at ``start``, opened by the schedule a minute into it."""
    periods_run(room=room, at=start + timedelta(minutes=1))
    return HighHandPeriod.objects.get(jackpot=high_hand_of(room), starts_at=start)


def announce_in_order(period: HighHandPeriod, contributions_cents: int, at: datetime) -> HighHandPeriod:
    """Close ``period`` (the schedule runs after its end), announce every earlier period of its fund
    still waiting with no contributions, then ``period`` with ``contributions_cents``."""
    periods_run(room=period.room, at=period.ends_at + timedelta(minutes=1))
    if contributions_cents:
        # The money is official in the fund before its pool is announced, as the cage's verification makes it.
        from casino_backoffice.staff.models import User
        from tests.jackpots.bad_beat import fund_official

        fund_official(period.jackpot, contributions_cents, User.objects.order_by("pk").first())
    for earlier in HighHandPeriod.objects.filter(
        jackpot=period.jackpot, status=PeriodStatus.CLOSED, starts_at__lt=period.starts_at
    ).order_by("starts_at"):
        period_announce(period=earlier, contributions_cents=0, at=at)
    return period_announce(period=period, contributions_cents=contributions_cents, at=at)


@dataclass
class Played:
    """A period played from its first hand to the cage: its entries in the order recorded (kings full,
    aces full, the voided quads, aces full again: a tie), its two awards (the winner's paid at the
    cage, the tied hand's still to collect or gone uncollected)."""

    period: HighHandPeriod
    kings: HighHandEntry
    winner: HighHandEntry
    voided: HighHandEntry
    tied: HighHandEntry

    @property
    def paid(self) -> HighHandAward:
        return HighHandAward.objects.get(entry=self.winner)

    @property
    def unpaid(self) -> HighHandAward:
        return HighHandAward.objects.get(entry=self.tied)


def period_played(
    *,
    room: PokerRoom,
    table: Table,
    start: datetime,
    dealer: User,
    floorperson: User,
    supervisor: User,
    cashier: User,
    contributions_cents: int = 12_345,
    uncollected: bool = False,
    names: tuple[str, str, str, str] = ("Kim Early", "Pat Winner", "Vic Void", "Tia Tie"),
) -> Played:
    """The period from ``start``: four hands recorded by ``floorperson`` (``dealer`` dealt), the quads
    voided by ``supervisor``, then its pool ``contributions_cents`` announced: the two aces full share
    it (the odd cent to the first recorded); ``cashier`` pays the first. With ``uncollected``, the
    schedule then finds the second not collected in time and prepares where it goes (§637a.16(i))."""
    period = period_open(room=room, start=start)
    jackpot = period.jackpot
    tag = f"{start:%Y%m%d%H}"

    def record(minutes: int, cards: str, name: str, seat: int, identification: tuple[str, str]) -> HighHandEntry:
        return entry_record(
            jackpot=jackpot,
            table=table,
            seat=seat,
            player_name=name,
            player_phone=f"215-555-01{seat:02d}",
            id_type=identification[0],
            id_number=identification[1],
            dealer=dealer,
            players_dealt_in=7,
            pot_cents=4_500 + minutes,
            cards=cards,
            made_at=start + timedelta(minutes=minutes),
            actor=floorperson,
            pin=PIN,
            idempotency_key=f"hh-{tag}-{minutes}",
        )

    kings = record(5, "Kh Kd Kc 2s 2h", names[0], 2, ("State ID", "PA-ID-0001111"))
    winner = record(10, "Ah Ad Ac Kh Ks", names[1], 3, WINNER_ID)
    voided = record(15, "Qs Qh Qd Qc 3s", names[2], 5, ("Passport", "Q5555555"))
    entry_void(entry=voided, reason=VOID_REASON, actor=supervisor, pin=PIN)
    tied = record(20, "As Ah Ad Kc Kd", names[3], 8, TIED_ID)
    announce_in_order(period, contributions_cents, at=period.ends_at + timedelta(minutes=2))
    award = HighHandAward.objects.get(entry=winner)
    award_pay(
        award=award,
        id_type=WINNER_ID[0],
        id_number=WINNER_ID[1],
        actor=cashier,
        pin=PIN,
        idempotency_key=f"hh-pay-{tag}",
    )
    if uncollected:
        unclaimed_prepare(room=room, at=HighHandAward.objects.get(entry=tied).collect_by + timedelta(minutes=1))
    period.refresh_from_db()
    return Played(period=period, kings=kings, winner=winner, voided=voided, tied=tied)
