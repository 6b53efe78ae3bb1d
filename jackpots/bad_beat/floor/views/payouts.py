"""The tablet page of the Bad Beat payouts to deliver: security, finance or a cage cashier pays each share
(§637a.15(g))."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.pages import pin_typo, refused_page
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, may
from jackpots.bad_beat.floor.forms import PayForm
from jackpots.bad_beat.floor.views.common import ClaimView, claim_view, rounds_of_claims
from jackpots.bad_beat.models import BadBeatDistribution, BadBeatPayment, BadBeatShare
from jackpots.bad_beat.selectors import payouts_to_deliver
from jackpots.bad_beat.services.payouts import payment_places, share_pay
from jackpots.funds.floor import floor_rooms
from jackpots.funds.reports import id_number_masked
from tables.selectors import visible_to

PAYOUTS_TEMPLATE = "jackpots/floor/payouts.html"


# --- The payouts to deliver -----------------------------------------------------------------------


@dataclass
class ShareRow:
    share: BadBeatShare
    payment: BadBeatPayment | None
    paid_by: User | None
    form: PayForm | None


@dataclass
class PayoutRow:
    view: ClaimView
    distribution: BadBeatDistribution | None
    shares: list[ShareRow]
    unpaid_cents: int


def _payout_rows(user: User, bound: dict[int, PayForm] | None = None) -> list[PayoutRow]:
    claims = [claim for room in floor_rooms(user) for claim in payouts_to_deliver(room=room)]
    rounds = rounds_of_claims(claims)
    places = sorted(payment_places(user))
    can_pay = may(user, Action.BAD_BEAT_PAY) and bool(places)
    distributions = {claim.pk: claim.distribution for claim in claims if hasattr(claim, "distribution")}
    shares_of = {claim_id: list(d.shares.all()) for claim_id, d in distributions.items()}
    payments = [share.payment for shares in shares_of.values() for share in shares if hasattr(share, "payment")]
    payers = User.objects.in_bulk({payment.paid_by_id for payment in payments})
    rows = []
    for claim in claims:
        share_rows = []
        for share in shares_of.get(claim.pk, []):
            payment = share.payment if hasattr(share, "payment") else None
            form = None
            if payment is None and can_pay:
                form = (bound or {}).get(share.pk) or PayForm(places=places, auto_id=f"id_share{share.pk}_%s")
            share_rows.append(ShareRow(share, payment, payers.get(payment.paid_by_id) if payment else None, form))
        rows.append(
            PayoutRow(
                view=claim_view(claim, rounds),
                distribution=distributions.get(claim.pk),
                shares=share_rows,
                unpaid_cents=sum(row.share.amount_cents for row in share_rows if row.payment is None),
            )
        )
    return rows


def _payouts_page(request: HttpRequest, bound: dict[int, PayForm] | None = None) -> HttpResponse:
    user = acting_user(request)
    return render(
        request,
        PAYOUTS_TEMPLATE,
        {
            "rows": _payout_rows(user, bound),
            "may_distribute": may(user, Action.BAD_BEAT_DISTRIBUTE),
        },
    )


@login_required
def payouts_page(request: HttpRequest) -> HttpResponse:
    """The verified Bad Beats not yet paid in full, oldest first (§637a.15(f)(2), (g)): each share,
    paid or to pay. Security delivers at the table, a cage cashier pays at the cage, finance either;
    each payment records the patron's identification and is signed with the PIN. A share at or above
    the tax reporting threshold is marked."""
    if (refusal := refused_page(request, PAYOUTS_TEMPLATE, Action.BAD_BEAT_PAY)) is not None:
        return refusal
    return _payouts_page(request)


@login_required
@require_POST
def share_pay_page(request: HttpRequest, share_id: int) -> HttpResponse:
    if (refusal := refused_page(request, PAYOUTS_TEMPLATE, Action.BAD_BEAT_PAY)) is not None:
        return refusal
    share = visible_to(request.user, BadBeatShare.objects.select_related("distribution")).filter(pk=share_id).first()
    if share is None:
        messages.error(request, f"There is no Bad Beat share {share_id}.")
        return redirect("floor:bad-beat-payouts")
    user = acting_user(request)
    form = PayForm(request.POST, places=sorted(payment_places(user)), auto_id=f"id_share{share.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"{share.name}'s share was not paid: correct what is marked below.{pin_typo(form)}")
        return _payouts_page(request, {share.pk: form})
    data = form.cleaned_data
    try:
        payment = share_pay(
            share=share,
            id_type=data["id_type"],
            id_number=data["id_number"],
            place=data["place"],
            actor=user,
            pin=data["pin"],
            idempotency_key=data["idempotency_key"],
        )
    except DomainError as refused:
        messages.error(request, f"{share.name}'s share was not paid. {refused.message}")
        return _payouts_page(request, {share.pk: form})
    reportable = " It is tax-reportable: complete the tax form with the patron." if payment.tax_reportable else ""
    messages.success(
        request,
        f"{display_cents(share.amount_cents)} paid to {payment.patron_name} (seat {share.seat}), "
        f"{payment.get_place_display().lower()}, {payment.id_type} {id_number_masked(payment.id_number)}.{reportable}",
    )
    return redirect("floor:bad-beat-payouts")
