"""The progressive meters' section of *Today* (``casino_backoffice.core.today``): the winning hands paid
through the cage, validated and not paid yet, in the rooms the person works in (§655a.12(c),
§657a.12(d): a progressive payout is validated before it is paid; one paid at the table is paid there)."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from casino_backoffice.core.today import ITEMS_SHOWN, TodayItem, TodaySection, today_section
from casino_backoffice.money import display_cents
from casino_backoffice.staff.permissions import Action, may
from tables.selectors import rooms_of

from .models import PayoutPlace, ProgressiveHand


@today_section("progressive_payouts", order=22)
def payouts_to_pay(request: HttpRequest) -> TodaySection | None:
    user = request.user
    if not (may(user, Action.PROGRESSIVE_PAY) or may(user, Action.PROGRESSIVE_READ)):
        return None
    waiting = ProgressiveHand.objects.filter(
        amount_cents__gt=0,
        place=PayoutPlace.CAGE,
        validation__isnull=False,
        payment__isnull=True,
        round__meter__room__in=rooms_of(user),
    ).select_related("round__meter", "round__table")
    items = tuple(
        TodayItem(
            text=f"{hand.round.meter.name} · table {hand.round.table.number}, seat {hand.seat} · {hand.words}",
            url=reverse("admin:jackpots_progressivehand_pay", args=[hand.pk]),
            detail=display_cents(hand.amount_cents),
        )
        for hand in waiting.order_by("round_id", "pk")[:ITEMS_SHOWN]
    )
    return TodaySection(
        title="Progressive payouts to pay at the cage",
        count=waiting.count(),
        items=items,
        all_url=reverse("admin:jackpots_progressivehand_changelist") + "?paid=cage",
        action="Pay" if may(user, Action.PROGRESSIVE_PAY) else "Open",
        done="No progressive payout waits at the cage.",
    )
