"""The Bad Beat's section of *Today* (``casino_backoffice.core.today``): the shares of a distributed
payout not paid yet, in the rooms the person works in (§637a.15(g): finance prepares the distribution;
each share is paid to its player, who signs, with the identification recorded)."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from casino_backoffice.core.today import ITEMS_SHOWN, TodayItem, TodaySection, today_section
from casino_backoffice.money import display_cents
from casino_backoffice.staff.permissions import Action, may
from tables.selectors import rooms_of

from .models import BadBeatShare


@today_section("bad_beat_shares", order=20)
def shares_to_pay(request: HttpRequest) -> TodaySection | None:
    user = request.user
    if not (may(user, Action.BAD_BEAT_PAY) or may(user, Action.BAD_BEAT_RECORDS_READ)):
        return None
    waiting = BadBeatShare.objects.filter(
        payment__isnull=True, distribution__claim__room__in=rooms_of(user)
    ).select_related("distribution__claim__jackpot", "distribution__claim__table")
    items = tuple(
        TodayItem(
            text=f"{share.distribution.claim.jackpot.name} · claim {share.distribution.claim_id} · "
            f"{share.get_share_display()}, seat {share.seat}, {share.name}",
            url=reverse("admin:jackpots_badbeatshare_pay", args=[share.pk]),
            detail=display_cents(share.amount_cents),
        )
        for share in waiting.order_by("distribution__claim_id", "position")[:ITEMS_SHOWN]
    )
    return TodaySection(
        title="Bad Beat shares to pay",
        count=waiting.count(),
        items=items,
        all_url=reverse("admin:jackpots_badbeatshare_changelist") + "?paid=no",
        action="Pay" if may(user, Action.BAD_BEAT_PAY) else "Open",
        done="Every Bad Beat share is paid.",
    )
