"""What the close of a gaming day and the counts of a day share: the room's gaming-day lock
(``tables.locks``) and the checks made under it.

§637a.17 (the revenue of the day), §637a.15(e), §637a.16(e) (the official record): finance closes a
gaming day once everything recorded for it is counted, verified and explained; a closed day stays
closed. The close takes the room's gaming-day lock exclusive, so no round, time charge or count of the
day is being written while it checks; each of those takes it shared and refuses a closed day.
"""

from __future__ import annotations

from datetime import date, datetime

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from casino_backoffice.core.idempotency import replay_note
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.services import pin_check, signature_add
from tables.locks import gaming_day_hold_open, gaming_days_lock
from tables.models import PokerRoom
from tables.selectors import gaming_day

from ..exceptions import DayHasUnresolvedVariance, GamingDayNotReady
from ..gaming_days import gaming_day_blockers
from ..models import Box, Count, CountSheet, GamingDayClose, Variance, display_variance
from ..selectors import unresolved_filter


def gaming_day_close_ready(*, room: PokerRoom, day: date) -> None:
    """At the start of the close's transaction: hold the room's gaming days (the lock exclusive), then
    refuse the close while something still blocks ``day`` (``cage.gaming_days.gaming_day_blockers``),
    naming each thing and what to do. A day already closed passes: the first close answers again."""
    gaming_days_lock(room=room, exclusive=True)
    if GamingDayClose.objects.filter(room=room, gaming_day=day).exists():
        return
    blockers = gaming_day_blockers(room=room, day=day, now=timezone.now())
    if blockers:
        lines = "\n".join(f"- {blocker.kind.label}: {blocker.text}" for blocker in blockers)
        raise GamingDayNotReady(
            f"Gaming day {day.isoformat()} of room {room.code} cannot close yet; nothing was closed. "
            f"{len(blockers)} thing{'s' if len(blockers) != 1 else ''} to finish first:\n{lines}",
            code=blockers[0].kind.code,
        )


def count_day_hold_open(*, box: Box, now: datetime) -> None:
    """At the start of a count's transaction: refuse a count for a gaming day finance closed (409
    ``gaming_day_closed``), and hold the day open until the count commits. The day is that of the box's
    oldest count sheet due (the one the count fills), else the current gaming day."""
    sheet_day = (
        CountSheet.objects.filter(box=box, transport_item__isnull=True, opens_at__lte=now)
        .exclude(Exists(Count.objects.filter(sheet=OuterRef("pk"))))
        .order_by("opens_at")
        .values_list("gaming_day", flat=True)
        .first()
    )
    day = sheet_day or gaming_day(room=box.room, at=now)
    gaming_day_hold_open(room=box.room, day=day, what=f"Count of box {box.code}")


def gaming_day_close(*, room: PokerRoom, day: date, actor: User, pin: str) -> GamingDayClose:
    """Finance closes a gaming day; refused while any variance of that day awaits its explanation."""
    action_require(actor=actor, action=Action.GAMING_DAY_CLOSE, of=room)
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        gaming_day_close_ready(room=room, day=day)  # what still blocks the day (cage.gaming_days)
        existing = GamingDayClose.objects.filter(room=room, gaming_day=day).first()
        if existing is not None:
            replay_note(existing)  # a day is closed once: closing it again answers the first close
            return existing
        unresolved = list(
            Variance.objects.filter(unresolved_filter(), room=room, gaming_day=day).select_related("box").order_by("pk")
        )
        if unresolved:
            names = ", ".join(
                f"{v.pk} ({v.box.code if v.box else v.get_kind_display().lower()}, {display_variance(v.amount_cents)})"
                for v in unresolved
            )
            raise DayHasUnresolvedVariance(f"Gaming day {day} has variances awaiting an explanation: {names}.")
        close = GamingDayClose.objects.create(room=room, gaming_day=day, closed_by=actor, closed_at=signer.verified_at)
        signature_add(document=close, rule=GamingDayClose.CLOSER, signer=signer)
    return close
