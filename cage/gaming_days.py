"""Reads of the close of a gaming day: whether a day is closed, what still blocks its close, and the
open gaming days of a person's rooms (finance's tablet home and *Cage → Gaming day closes → Close a
gaming day* in the admin).

§637a.17: a room's poker revenue of a gaming day is the rake of its rounds and its verified time
charges; §637a.15(e), §637a.16(e): the finance department keeps the official record of what the cage
made official. Finance closes a day once that record is complete: every count due that day made, every
transport carried to the cage verified, every variance over the threshold explained, every time
charge verified, every irregularity of the day ruled and every round logged voided or with a refund
reported (§637a.18(i), (k)(3)), and the day over. A closed day stays closed (``tables.locks``): nothing more is
recorded for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse

from casino_backoffice.core.clock import ZONED, local_text
from casino_backoffice.money import display_cents
from jackpots.high_hand.models import HighHandPeriod, PeriodStatus
from rake.models import LateRoundEntry, TimeCharge
from tables.irregularities.kinds import IrregularityKind
from tables.models import Irregularity, PokerRoom, Round
from tables.selectors import gaming_day, gaming_day_bounds

from .exceptions import CageErrorCode
from .models import Count, CountSheet, CountStatus, GamingDayClose, Transport, TransportStatus, Variance
from .selectors import unresolved_filter


def gaming_day_closed(*, room: PokerRoom, day: date) -> tuple[str, datetime] | None:
    """Who closed ``day`` of ``room`` and when, or None: the reader the setting ``GAMING_DAY_CLOSED``
    names for the layers below the cage (``tables.selectors.gaming_day_close_of``)."""
    row = (
        GamingDayClose.objects.filter(room=room, gaming_day=day).values_list("closed_by__username", "closed_at").first()
    )
    return None if row is None else (row[0], row[1])


class BlockerKind(models.TextChoices):
    """What still blocks the close of a gaming day, in the order a close is refused by (the refusal's
    code is the first kind found): each kind's value is its ``CageErrorCode``'s, written once there."""

    NOT_OVER = CageErrorCode.GAMING_DAY_NOT_OVER.value, "The gaming day is not over"
    COUNT_DUE = CageErrorCode.COUNTS_DUE.value, "Counts due"
    TRANSPORT = CageErrorCode.TRANSPORTS_NOT_VERIFIED.value, "Transports not verified"
    TIME_CHARGE = CageErrorCode.TIME_CHARGES_NOT_VERIFIED.value, "Time charges not verified"
    VARIANCE = CageErrorCode.UNRESOLVED_VARIANCE.value, "Variances unexplained"
    IRREGULARITY = CageErrorCode.IRREGULARITIES_OPEN.value, "Irregularities not on the record"

    @property
    def code(self) -> CageErrorCode:
        """The code a close refused for this kind answers."""
        return CageErrorCode(self.value)


@dataclass(frozen=True)
class Blocker:
    """One thing that blocks a close, with the document that resolves it (``document``: a count sheet,
    count, High Hand period, transport, time charge or variance; None for the day not being over)."""

    kind: BlockerKind
    text: str
    document: models.Model | None = None


@dataclass(frozen=True)
class OpenDay:
    room: PokerRoom
    day: date
    ends_at: datetime
    blockers: tuple[Blocker, ...] = field(default=())

    @property
    def ready(self) -> bool:
        return not self.blockers

    def of_kind(self, kind: BlockerKind) -> list[Blocker]:
        return [blocker for blocker in self.blockers if blocker.kind == kind]


def gaming_day_blockers(*, room: PokerRoom, day: date, now: datetime) -> tuple[Blocker, ...]:
    """What still blocks closing ``day`` of ``room`` at ``now``, in ``BlockerKind`` order; () when it may close."""
    return _blockers(room=room, days=[day], now=now)[day]


def open_gaming_days(*, rooms: Iterable[PokerRoom], now: datetime) -> list[OpenDay]:
    """Each gaming day of ``rooms`` not closed that has something recorded for it (a count sheet, a
    count, a transport, a variance, a time charge, a round logged late, or a round of the last two
    days), and each room's current day, oldest first, each with what still blocks its close. A fixed
    number of queries per room."""
    open_days = []
    for room in rooms:
        days = sorted(_days_with_records(room=room, now=now))
        blockers = _blockers(room=room, days=days, now=now)
        for day in days:
            open_days.append(
                OpenDay(room=room, day=day, ends_at=gaming_day_bounds(room=room, day=day)[1], blockers=blockers[day])
            )
    return sorted(open_days, key=lambda open_day: (open_day.day, open_day.room.code))


def _days_with_records(*, room: PokerRoom, now: datetime) -> set[date]:
    today = gaming_day(room=room, at=now)
    days = {today}
    # Rounds are many: those of the last two days (every round logged in time is one of them, since no
    # room posts a late_entry_minutes over a day), and those logged late, which are few.
    recent = Round.objects.filter(table__room=room, gaming_day__gte=today - timedelta(days=1))
    for rows in (
        CountSheet.objects.filter(room=room).values_list("gaming_day", flat=True),
        Count.objects.filter(box__room=room).values_list("gaming_day", flat=True),
        Transport.objects.filter(room=room).values_list("gaming_day", flat=True),
        Variance.objects.filter(room=room).values_list("gaming_day", flat=True),
        TimeCharge.objects.filter(table__room=room).values_list("gaming_day", flat=True),
        LateRoundEntry.objects.filter(round__table__room=room).values_list("round__gaming_day", flat=True),
        recent.values_list("gaming_day", flat=True),
    ):
        days.update(rows.distinct())
    closed = set(GamingDayClose.objects.filter(room=room, gaming_day__in=days).values_list("gaming_day", flat=True))
    return {day for day in days if day <= today and day not in closed}


def _local(at: datetime, room: PokerRoom) -> str:
    """On the room's clock with its zone ('2026-12-07 06:00 EST'), as every page shows a moment."""
    return local_text(at, room, ZONED)


def _blockers(*, room: PokerRoom, days: list[date], now: datetime) -> dict[date, tuple[Blocker, ...]]:
    """What blocks each of ``days``, in a fixed number of queries whatever the number of days."""
    found: dict[date, list[Blocker]] = {day: [] for day in days}
    if not days:
        return {}
    bounds = {day: gaming_day_bounds(room=room, day=day) for day in days}
    for day, (_, ends_at) in bounds.items():
        if now < ends_at:
            found[day].append(Blocker(BlockerKind.NOT_OVER, f"it ends at {_local(ends_at, room)}; close it after."))
    _counts_due(found, room=room, days=days, bounds=bounds)
    transports = (
        Transport.objects.filter(room=room)
        .exclude(status=TransportStatus.VERIFIED)
        .filter(Q(gaming_day__in=days) | Q(items__count__gaming_day__in=days) | Q(items__sheet__gaming_day__in=days))
        .prefetch_related("items__count", "items__sheet")
        .distinct()
        .order_by("carried_at", "pk")
    )
    for transport in transports:
        state = transport.get_status_display().lower()
        covered = {transport.gaming_day} | {
            day
            for item in transport.items.all()
            for day in (item.count.gaming_day if item.count else None, item.sheet.gaming_day if item.sheet else None)
            if day is not None
        }
        for day in sorted(covered & set(days)):
            found[day].append(
                Blocker(BlockerKind.TRANSPORT, f"Seal {transport.seal}: {state}, not verified by the cage.", transport)
            )
    charges = (
        TimeCharge.objects.filter(table__room=room, gaming_day__in=days, verified_at__isnull=True)
        .select_related("table")
        .order_by("interval_starts_at")
    )
    for charge in charges:
        found[charge.gaming_day].append(
            Blocker(
                BlockerKind.TIME_CHARGE,
                f"Time charge {charge.pk} at table {charge.table.number} from "
                f"{_local(charge.interval_starts_at, room)} awaits a floorperson's verification (§637a.17(b)(3)(v)).",
                charge,
            )
        )
    variances = (
        Variance.objects.filter(unresolved_filter(), room=room, gaming_day__in=days)
        .select_related("box")
        .order_by("pk")
    )
    for variance in variances:
        where = variance.box.code if variance.box else variance.get_kind_display().lower()
        found[variance.gaming_day].append(
            Blocker(
                BlockerKind.VARIANCE,
                f"Variance {variance.pk} ({where}, {display_cents(variance.amount_cents)}) awaits its explanation.",
                variance,
            )
        )
    _irregularities_open(found, room=room, days=days)
    order = list(BlockerKind)
    return {day: tuple(sorted(blockers, key=lambda b: order.index(b.kind))) for day, blockers in found.items()}


def _counts_due(
    found: dict[date, list[Blocker]],
    *,
    room: PokerRoom,
    days: list[date],
    bounds: dict[date, tuple[datetime, datetime]],
) -> None:
    """Count sheets of the days not yet counted nor carried (§637a.15(d), §637a.16(d)), counts not yet
    in a transport, and High Hand periods begun on the days that are still open (their boxes are
    counted when they end, for the day they began)."""
    sheets = (
        CountSheet.objects.filter(room=room, gaming_day__in=days, transport_item__isnull=True)
        .exclude(Exists(Count.objects.filter(sheet=OuterRef("pk"))))
        .select_related("box")
        .order_by("due_by", "box__code")
    )
    for sheet in sheets:
        found[sheet.gaming_day].append(
            Blocker(
                BlockerKind.COUNT_DUE,
                f"Box {sheet.box.code}: its count is due by {_local(sheet.due_by, room)} (sheet {sheet.key}).",
                sheet,
            )
        )
    counts = (
        Count.objects.filter(
            box__room=room, gaming_day__in=days, status__in=[CountStatus.COUNTED, CountStatus.WITNESSED]
        )
        .select_related("box")
        .order_by("counted_at")
    )
    for count in counts:
        step = "awaits its witness" if count.status == CountStatus.COUNTED else "awaits its transport to the cage"
        found[count.gaming_day].append(
            Blocker(BlockerKind.COUNT_DUE, f"Count {count.pk} of box {count.box.code} {step}.", count)
        )
    first, last = min(bounds.values())[0], max(bounds.values())[1]
    periods = (
        HighHandPeriod.objects.filter(room=room, status=PeriodStatus.OPEN, starts_at__gte=first, starts_at__lt=last)
        .select_related("jackpot")
        .order_by("starts_at")
    )
    for period in periods:
        day = gaming_day(room=room, at=period.starts_at)
        if day in found:
            found[day].append(
                Blocker(
                    BlockerKind.COUNT_DUE,
                    f"{period.jackpot.name}: the qualifying period from {_local(period.starts_at, room)} to "
                    f"{_local(period.ends_at, room)} is still open; its boxes are counted when it ends (§637a.16(d)).",
                    period,
                )
            )


def _irregularities_open(found: dict[date, list[Blocker]], *, room: PokerRoom, days: list[date]) -> None:
    """Irregularities of the days awaiting their ruling, and rounds whose irregularity is owed: a round
    logged voided (§637a.18(i): the pot returned for missing or extra cards) without its
    ``missing_or_extra_cards`` report, a round that refunded a player from its pot (§637a.18(k)(3))
    without its ``dealer_error_refund`` report. A round voided after it was logged has its report
    with its void, which the floorperson's signed void decides. Two queries."""
    unruled = (
        Irregularity.objects.filter(room=room, gaming_day__in=days, ruling__isnull=True, round_void__isnull=True)
        .select_related("table")
        .order_by("occurred_at", "pk")
    )
    for irregularity in unruled:
        found[irregularity.gaming_day].append(
            Blocker(
                BlockerKind.IRREGULARITY,
                f"Irregularity {irregularity.pk} ({irregularity.kind}, table {irregularity.table.number}, "
                f"{_local(irregularity.occurred_at, room)}) awaits its ruling.",
                irregularity,
            )
        )
    owed = (
        Round.objects.filter(table__room=room, gaming_day__in=days)
        .filter(
            Q(voided=True, void__isnull=True)
            & ~Exists(Irregularity.objects.filter(round=OuterRef("pk"), kind=IrregularityKind.MISSING_OR_EXTRA_CARDS))
            | Q(refund_cents__gt=0)
            & ~Exists(Irregularity.objects.filter(round=OuterRef("pk"), kind=IrregularityKind.DEALER_ERROR_REFUND))
        )
        .select_related("table")
        .order_by("ended_at", "pk")
    )
    for round_ in owed:
        what = (
            "logged voided: its missing or extra cards are to be reported (§637a.18(i))"
            if round_.voided
            else f"refunded {display_cents(round_.refund_cents)} from its pot: the refund is to be reported "
            "(§637a.18(k)(3))"
        )
        found[round_.gaming_day].append(
            Blocker(BlockerKind.IRREGULARITY, f"Round {round_.pk} at table {round_.table.number} was {what}.", round_)
        )


_ADMIN_PAGES: dict[type[models.Model], str] = {
    CountSheet: "admin:cage_countsheet_change",
    Count: "admin:cage_count_change",
    HighHandPeriod: "admin:jackpots_highhandperiod_change",
    Transport: "admin:cage_transport_verify",
    TimeCharge: "admin:rake_timecharge_change",
    Variance: "admin:cage_variance_explain",
    Irregularity: "admin:tables_irregularity_change",
    Round: "admin:tables_round_change",
}


def blocker_url(blocker: Blocker) -> str | None:
    """Where a blocker is resolved in the back office: the count sheet, the count, the period, the
    transport's verification, the time charge, the variance's explanation; None for the day not over."""
    if blocker.document is None:
        return None
    name = _ADMIN_PAGES.get(type(blocker.document))
    return None if name is None else reverse(name, args=[blocker.document.pk])
