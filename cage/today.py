"""The cage's sections of *Today* (``casino_backoffice.core.today``): transports arriving and to verify,
variances to explain, gaming days to close, in the rooms the person works in.

- Transports: a locked container on its way (§637a.15(e)(3), §637a.16(e)(3): transported to the cage)
  is accounted for and verified at the cage; each one not yet verified is waiting.
- Variances: one over the room's threshold waits for its explanation (``unresolved_filter``).
- Gaming days: each day whose end has passed and that finance has not closed (``open_gaming_days``),
  with what still blocks it.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from casino_backoffice.core.today import ITEMS_SHOWN, TodayItem, TodaySection, today_section
from casino_backoffice.money import display_cents
from casino_backoffice.staff.permissions import Action, may
from tables.models import PokerRoom
from tables.selectors import rooms_of

from .gaming_days import open_gaming_days
from .models import Transport, TransportStatus, Variance
from .selectors import unresolved_filter


def _signed(cents: int) -> str:
    """A variance with its sign: over is "+$5.00 over", short is "-$5.00 short"."""
    return f"+{display_cents(cents)} over" if cents > 0 else f"{display_cents(cents)} short"


def _room_words(rooms: list[PokerRoom], room_id: int) -> str:
    return next((room.name for room in rooms if room.pk == room_id), "")


@today_section("transports", order=10)
def transports_waiting(request: HttpRequest) -> TodaySection | None:
    user = request.user
    if not (may(user, Action.CAGE_VERIFY) or may(user, Action.CAGE_RECORD_READ)):
        return None
    rooms = list(rooms_of(user))
    waiting = Transport.objects.filter(room__in=rooms).exclude(status=TransportStatus.VERIFIED)
    items = tuple(
        TodayItem(
            text=f"{transport} · {_room_words(rooms, transport.room_id)} · gaming day {transport.gaming_day:%b %-d}",
            url=reverse("admin:cage_transport_verify", args=[transport.pk]),
            detail=transport.get_status_display()
            + (
                f" · {display_cents(transport.declared_cents)} declared" if transport.declared_cents is not None else ""
            ),
        )
        for transport in waiting.order_by("carried_at", "pk")[:ITEMS_SHOWN]
    )
    return TodaySection(
        title="Transports arriving and to verify",
        count=waiting.count(),
        items=items,
        all_url=reverse("admin:cage_transport_changelist") + "?status__exact=in_transit",
        action="Verify" if may(user, Action.CAGE_VERIFY) else "Open",
        done="No transport on its way.",
    )


@today_section("variances", order=30)
def variances_waiting(request: HttpRequest) -> TodaySection | None:
    user = request.user
    if not (may(user, Action.VARIANCE_EXPLAIN) or may(user, Action.VARIANCE_READ)):
        return None
    rooms = list(rooms_of(user))
    waiting = Variance.objects.filter(unresolved_filter(), room__in=rooms).select_related("box")
    items = tuple(
        TodayItem(
            text=f"{variance.get_kind_display()} · {variance.box or _room_words(rooms, variance.room_id)}",
            url=reverse("admin:cage_variance_explain", args=[variance.pk]),
            detail=f"{_signed(variance.amount_cents)} · gaming day {variance.gaming_day:%b %-d}",
        )
        for variance in waiting.order_by("found_at", "pk")[:ITEMS_SHOWN]
    )
    return TodaySection(
        title="Variances to explain",
        count=waiting.count(),
        items=items,
        all_url=reverse("admin:cage_variance_changelist"),
        action="Explain" if may(user, Action.VARIANCE_EXPLAIN) else "Open",
        done="No variance waits for an explanation.",
    )


@today_section("days", order=40)
def days_waiting(request: HttpRequest) -> TodaySection | None:
    user = request.user
    if not (may(user, Action.GAMING_DAY_CLOSE) or may(user, Action.CAGE_RECORD_READ)):
        return None
    now = timezone.now()
    days = [open_day for open_day in open_gaming_days(rooms=rooms_of(user), now=now) if open_day.ends_at <= now]
    close_url = reverse("admin:cage_gaming_day_close")
    items = tuple(
        TodayItem(
            text=f"{open_day.room.name} · gaming day {open_day.day:%a %b %-d}",
            url=close_url,
            detail="ready to close"
            if open_day.ready
            else f"{len(open_day.blockers)} thing{'s' if len(open_day.blockers) != 1 else ''} to resolve first",
        )
        for open_day in days[:ITEMS_SHOWN]
    )
    return TodaySection(
        title="Gaming days to close",
        count=len(days),
        items=items,
        all_url=close_url,
        action="Close" if may(user, Action.GAMING_DAY_CLOSE) else "Open",
        done="Every gaming day that ended is closed.",
    )
