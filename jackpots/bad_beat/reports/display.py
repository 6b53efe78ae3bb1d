"""The display check of the Bad Beat (§637a.15(h)(2)): each fund's displayed amount against its
official balance, and the days without an adjustment."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import OuterRef, Subquery

from jackpots.bad_beat.models import DisplayAdjustment, DisplayOverdue
from jackpots.bad_beat.selectors import FundPosition, fund_positions
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.selectors import tables_listing
from tables.models import PokerRoom
from tables.selectors import gaming_day, rules_version_in_effect

# --- The display check (§637a.15(h)(2)) ----------------------------------------------------------

# How far back the display check lists the days flagged without an adjustment.
OVERDUE_SHOWN_DAYS = 31


@dataclass(frozen=True)
class DisplayCheckRow:
    """One Bad Beat fund: the finance record against what patrons see, the latest adjustment and the
    days flagged without one."""

    jackpot: Jackpot
    position: FundPosition
    latest: DisplayAdjustment | None
    overdue: tuple[date, ...]
    offered: bool

    @property
    def state(self) -> str:
        if self.position.displayed_cents is None:
            return "never displayed"
        if not self.position.display_matches:
            return "does not match"
        return "matches"


def display_check(*, rooms: Iterable[PokerRoom], at: datetime) -> dict[PokerRoom, list[DisplayCheckRow]]:
    """Every Bad Beat fund of each room (§637a.15(h)(2)): its official record, what verified claims
    owe, the finance record (available), the amount displayed, whether they match, the pending
    notice, the latest adjustment and the days of the last month flagged without one. A fixed number
    of queries per room."""
    rooms = list(rooms)
    funds = list(
        Jackpot.objects.filter(room__in=rooms, kind=JackpotKind.BAD_BEAT).select_related("room").order_by("code")
    )
    positions = fund_positions(jackpots=funds)
    newest = DisplayAdjustment.objects.filter(jackpot=OuterRef("pk")).order_by("-adjusted_at", "-id")
    latest_ids = Jackpot.objects.filter(pk__in=[fund.pk for fund in funds]).annotate(
        latest=Subquery(newest.values("pk")[:1])
    )
    latest = {
        adjustment.jackpot_id: adjustment
        for adjustment in DisplayAdjustment.objects.filter(
            pk__in=[pk for pk in latest_ids.values_list("latest", flat=True) if pk is not None]
        ).select_related("adjusted_by", "witnessed_by")
    }
    overdue: dict[int, list[date]] = defaultdict(list)
    since = {room.pk: gaming_day(room=room, at=at) - timedelta(days=OVERDUE_SHOWN_DAYS) for room in rooms}
    flags = DisplayOverdue.objects.filter(jackpot__in=funds, gaming_day__gte=min(since.values(), default=date.min))
    for flag in flags.select_related("jackpot").order_by("-gaming_day"):
        if flag.gaming_day >= since[flag.jackpot.room_id]:
            overdue[flag.jackpot_id].append(flag.gaming_day)
    versions = {room.pk: rules_version_in_effect(room=room, at=at) for room in rooms}
    checked: dict[PokerRoom, list[DisplayCheckRow]] = {room: [] for room in rooms}
    for jackpot in funds:
        version = versions[jackpot.room_id]
        checked[jackpot.room].append(
            DisplayCheckRow(
                jackpot=jackpot,
                position=positions[jackpot.pk],
                latest=latest.get(jackpot.pk),
                overdue=tuple(overdue[jackpot.pk]),
                offered=version is not None and bool(tables_listing(version=version, code=jackpot.code)),
            )
        )
    return checked
