"""Tablet pages of the Bad Beat funds (§637a.15(h)): finance's page of the funds, their display and the
distributions, and the witness of a display adjustment by a floorperson or above."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.pages import pin_typo, refused_page
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action
from jackpots.bad_beat.floor.forms import AdjustForm, DistributeForm, WitnessForm
from jackpots.bad_beat.floor.views.common import claim_or_back
from jackpots.bad_beat.models import BadBeatClaim, ClaimStatus, DisplayAdjustment
from jackpots.bad_beat.selectors import adjustments_to_witness, fund_positions
from jackpots.bad_beat.services.display import display_adjust, display_witness
from jackpots.bad_beat.services.payouts import distribution_prepare
from jackpots.funds.floor import floor_rooms
from jackpots.funds.models import Jackpot, JackpotKind
from tables.selectors import visible_to

WITNESS_TEMPLATE = "jackpots/floor/witness.html"
FUNDS_TEMPLATE = "jackpots/floor/funds.html"


# --- The witness of a display adjustment ----------------------------------------------------------


def _witness_rows(
    user: Any, bound: tuple[int, WitnessForm] | None = None
) -> list[tuple[DisplayAdjustment, WitnessForm]]:
    rows = []
    for room in floor_rooms(user):
        for adjustment in adjustments_to_witness(room=room):
            if bound is not None and bound[0] == adjustment.pk:
                rows.append((adjustment, bound[1]))
            else:
                rows.append((adjustment, WitnessForm(auto_id=f"id_adjustment{adjustment.pk}_%s")))
    return rows


@login_required
def witness_page(request: HttpRequest) -> HttpResponse:
    """The display adjustments no floorperson or above has witnessed yet (§637a.15(h)(1): 'in the
    presence of a floorperson or above'): the one present signs each; never the one who adjusted."""
    if (refusal := refused_page(request, WITNESS_TEMPLATE, Action.DISPLAY_WITNESS)) is not None:
        return refusal
    return render(request, WITNESS_TEMPLATE, {"rows": _witness_rows(request.user)})


@login_required
@require_POST
def witness_sign(request: HttpRequest, adjustment_id: int) -> HttpResponse:
    if (refusal := refused_page(request, WITNESS_TEMPLATE, Action.DISPLAY_WITNESS)) is not None:
        return refusal
    adjustment = (
        visible_to(request.user, DisplayAdjustment.objects.select_related("jackpot", "witnessed_by"))
        .filter(pk=adjustment_id)
        .first()
    )
    if adjustment is None:
        messages.error(request, f"There is no display adjustment {adjustment_id}.")
        return redirect("floor:bad-beat-witness")
    form = WitnessForm(request.POST, auto_id=f"id_adjustment{adjustment.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"The adjustment was not witnessed: correct what is marked below.{pin_typo(form)}")
        return render(request, WITNESS_TEMPLATE, {"rows": _witness_rows(request.user, (adjustment.pk, form))})
    try:
        display_witness(adjustment=adjustment, actor=acting_user(request), pin=form.cleaned_data["pin"])
    except DomainError as refused:
        messages.error(request, f"The adjustment was not witnessed. {refused.message}")
        return render(request, WITNESS_TEMPLATE, {"rows": _witness_rows(request.user, (adjustment.pk, form))})
    messages.success(
        request,
        f"You witnessed the {adjustment.jackpot.name} display set to {display_cents(adjustment.amount_cents)}.",
    )
    return redirect("floor:bad-beat-witness")


# --- Finance: the funds, their display and the distributions --------------------------------------


@dataclass
class FundRow:
    position: Any  # jackpots.bad_beat.selectors.FundPosition
    form: AdjustForm


@dataclass
class DistributionRow:
    claim: BadBeatClaim
    form: DistributeForm


def _funds_page(
    request: HttpRequest,
    *,
    adjust: tuple[int, AdjustForm] | None = None,
    distribute: tuple[int, DistributeForm] | None = None,
) -> HttpResponse:
    rooms = floor_rooms(request.user)
    funds = list(
        Jackpot.objects.filter(room__in=rooms, kind=JackpotKind.BAD_BEAT)
        .select_related("room")
        .order_by("room__code", "code")
    )
    positions = fund_positions(jackpots=funds)
    fund_rows = [
        FundRow(
            positions[fund.pk],
            adjust[1] if adjust and adjust[0] == fund.pk else AdjustForm(auto_id=f"id_fund{fund.pk}_%s"),
        )
        for fund in funds
    ]
    verified = (
        BadBeatClaim.objects.filter(room__in=rooms, status=ClaimStatus.VERIFIED)
        .select_related("room", "jackpot", "table", "decision")
        .order_by("opened_at", "pk")
    )
    distribution_rows = [
        DistributionRow(
            claim,
            distribute[1]
            if distribute and distribute[0] == claim.pk
            else DistributeForm(auto_id=f"id_claim{claim.pk}_%s"),
        )
        for claim in verified
    ]
    unwitnessed = [adjustment for room in rooms for adjustment in adjustments_to_witness(room=room)]
    return render(
        request,
        FUNDS_TEMPLATE,
        {"funds": fund_rows, "to_distribute": distribution_rows, "unwitnessed": unwitnessed},
    )


@login_required
def funds_page(request: HttpRequest) -> HttpResponse:
    """Finance on the tablet: each Bad Beat fund's official record, what verified claims owe from it,
    what is available, what the display shows and whether they match (§637a.15(h)(2)); adjust a
    display (§637a.15(h)(1)) and prepare the distribution of each verified claim (§637a.15(g))."""
    if (refusal := refused_page(request, FUNDS_TEMPLATE, Action.DISPLAY_ADJUST)) is not None:
        return refusal
    return _funds_page(request)


@login_required
@require_POST
def display_adjust_page(request: HttpRequest, jackpot_id: int) -> HttpResponse:
    if (refusal := refused_page(request, FUNDS_TEMPLATE, Action.DISPLAY_ADJUST)) is not None:
        return refusal
    jackpot = visible_to(request.user, Jackpot.objects.select_related("room")).filter(pk=jackpot_id).first()
    if jackpot is None:
        messages.error(request, f"There is no jackpot fund {jackpot_id}.")
        return redirect("floor:bad-beat-funds")
    form = AdjustForm(request.POST, auto_id=f"id_fund{jackpot.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"The display was not adjusted: correct what is marked below.{pin_typo(form)}")
        return _funds_page(request, adjust=(jackpot.pk, form))
    try:
        adjustment = display_adjust(
            jackpot=jackpot,
            actor=acting_user(request),
            pin=form.cleaned_data["pin"],
            idempotency_key=form.cleaned_data["idempotency_key"],
        )
    except DomainError as refused:
        messages.error(request, f"The display was not adjusted. {refused.message}")
        return _funds_page(request, adjust=(jackpot.pk, form))
    messages.success(
        request,
        f"The {jackpot.name} display shows {display_cents(adjustment.amount_cents)} once the floorperson or above "
        "present signs as witness on their tablet (§637a.15(h)(1)); until then it shows what it showed.",
    )
    return redirect("floor:bad-beat-funds")


@login_required
@require_POST
def distribution_prepare_page(request: HttpRequest, claim_id: int) -> HttpResponse:
    if (refusal := refused_page(request, FUNDS_TEMPLATE, Action.BAD_BEAT_DISTRIBUTE)) is not None:
        return refusal
    if (claim := claim_or_back(request, claim_id)) is None:
        return redirect("floor:bad-beat-funds")
    form = DistributeForm(request.POST, auto_id=f"id_claim{claim.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"Nothing was distributed: correct what is marked below.{pin_typo(form)}")
        return _funds_page(request, distribute=(claim.pk, form))
    try:
        distribution = distribution_prepare(
            claim=claim,
            actor=acting_user(request),
            pin=form.cleaned_data["pin"],
            idempotency_key=form.cleaned_data["idempotency_key"],
            method=form.cleaned_data["method"],
        )
    except DomainError as refused:
        messages.error(request, f"Claim {claim.pk} was not distributed. {refused.message}")
        return _funds_page(request, distribute=(claim.pk, form))
    messages.success(
        request,
        f"Distribution of claim {claim.pk} prepared: {display_cents(distribution.total_cents)} in "
        f"{distribution.shares.count()} shares, {distribution.get_method_display().lower()}. Its shares are in "
        "the payouts to deliver.",
    )
    return redirect(reverse("floor:bad-beat-funds"))
