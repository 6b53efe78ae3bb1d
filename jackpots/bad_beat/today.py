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

from .models import BadBeatClaim, BadBeatShare, ClaimStatus


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
    count = waiting.count()
    return TodaySection(
        title="Bad Beat shares to pay",
        count=count,
        items=items,
        all_url=reverse("admin:jackpots_badbeatshare_changelist") + "?paid=no",
        action="Pay" if may(user, Action.BAD_BEAT_PAY) else "Open",
        done=_nothing_to_pay(request) if not count else "",
    )


def _nothing_to_pay(request: HttpRequest) -> str:
    """No share waits: said so, unless a verified claim's distribution is still to prepare (its payout is
    owed, its shares not made yet): "Every share is paid" read as nothing owed."""
    verified = BadBeatClaim.objects.filter(status=ClaimStatus.VERIFIED, room__in=rooms_of(request.user)).count()
    if not verified:
        return "Every Bad Beat share is paid."
    claims = "1 verified claim awaits its" if verified == 1 else f"{verified} verified claims await their"
    return f"No share to pay yet: {claims} distribution, which finance prepares (Bad Beat funds and display)."
