"""The High Hand's section of *Today* (``casino_backoffice.core.today``): the awards of announced
periods still to collect, in the rooms the person works in (§637a.16(g): the pool is paid to the
winners; §637a.16(i): an award not collected in the time the rules give goes where they say, so each
line shows the time left to collect it)."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from casino_backoffice.core.clock import local
from casino_backoffice.core.today import ITEMS_SHOWN, TodayItem, TodaySection, today_section
from casino_backoffice.money import display_cents
from casino_backoffice.staff.permissions import Action, may
from tables.selectors import rooms_of

from .models import HighHandAward


@today_section("high_hand_awards", order=21)
def awards_to_pay(request: HttpRequest) -> TodaySection | None:
    user = request.user
    if not (may(user, Action.HIGH_HAND_PAY) or may(user, Action.HIGH_HAND_RECORDS_READ)):
        return None
    now = timezone.now()
    waiting = HighHandAward.objects.filter(
        payment__isnull=True,
        unclaimed__isnull=True,
        collect_by__gt=now,
        period__jackpot__room__in=rooms_of(user),
    ).select_related("period__jackpot__room", "entry__table")
    items = tuple(
        TodayItem(
            text=f"{award.period.jackpot.name} · table {award.entry.table.number}, seat {award.entry.seat}"
            + (f", {award.entry.player_name}" if award.entry.player_name else ""),
            url=reverse("admin:jackpots_highhandaward_pay", args=[award.pk]),
            detail=f"{display_cents(award.amount_cents)} · collect by "
            f"{local(award.collect_by, award.period.jackpot.room):%b %-d %-I:%M %p %Z}",
        )
        for award in waiting.order_by("collect_by", "pk")[:ITEMS_SHOWN]
    )
    return TodaySection(
        title="High Hand awards to pay",
        count=waiting.count(),
        items=items,
        all_url=reverse("admin:jackpots_highhandaward_changelist"),
        action="Pay" if may(user, Action.HIGH_HAND_PAY) else "Open",
        done="No High Hand award waits to be collected.",
    )
