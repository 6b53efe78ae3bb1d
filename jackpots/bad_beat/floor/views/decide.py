"""The poker shift supervisor's tablet page to verify or deny a Bad Beat claim (§637a.15(g))."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
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
from casino_backoffice.staff.permissions import Action
from jackpots.bad_beat.floor.forms import DenyForm, VerifyForm
from jackpots.bad_beat.floor.views.common import ClaimView, claim_or_back, claim_view, rounds_of_claims
from jackpots.bad_beat.selectors import PayoutFigures, claim_payout_figures, claims_to_decide, fund_positions
from jackpots.bad_beat.services.claims import claim_deny, claim_verify
from jackpots.funds.floor import floor_rooms

DECIDE_TEMPLATE = "jackpots/floor/decide.html"


# --- The shift supervisor's decision --------------------------------------------------------------


@dataclass
class ToDecide:
    view: ClaimView
    verify: VerifyForm | None
    deny: DenyForm
    opened_by_me: bool
    # What verifying it now would pay, shown before the supervisor signs (None: it cannot be verified).
    payout: PayoutFigures | None = None


def _decide_rows(user: User, bound: dict[int, forms.Form] | None = None) -> list[ToDecide]:
    claims = [claim for room in floor_rooms(user) for claim in claims_to_decide(room=room)]
    rounds = rounds_of_claims(claims)
    positions = fund_positions(jackpots={claim.jackpot_id: claim.jackpot for claim in claims}.values())
    rows = []
    for claim in claims:
        posted = (bound or {}).get(claim.pk)
        verify = VerifyForm(auto_id=f"id_verify{claim.pk}_%s")
        deny = DenyForm(auto_id=f"id_deny{claim.pk}_%s")
        if isinstance(posted, VerifyForm):
            verify = posted
        elif isinstance(posted, DenyForm):
            deny = posted
        opened_by_me = claim.opened_by_id == user.pk
        rows.append(
            ToDecide(
                view=claim_view(claim, rounds),
                verify=verify if claim.qualifies else None,  # a claim that does not qualify can only be denied
                deny=deny,
                opened_by_me=opened_by_me,
                payout=(
                    claim_payout_figures(claim=claim, position=positions[claim.jackpot_id])
                    if claim.qualifies and not opened_by_me
                    else None
                ),
            )
        )
    return rows


def _decide_page(request: HttpRequest, bound: dict[int, forms.Form] | None = None) -> HttpResponse:
    return render(request, DECIDE_TEMPLATE, {"rows": _decide_rows(acting_user(request), bound)})


@login_required
def decide_page(request: HttpRequest) -> HttpResponse:
    """The claims awaiting the poker shift supervisor (§637a.15(f)), oldest first, each with its
    evidence and the evaluator's verdict: verify with the PIN, or deny with a reason and the PIN. A
    claim that does not qualify says why and can only be denied."""
    if (refusal := refused_page(request, DECIDE_TEMPLATE, Action.BAD_BEAT_VERIFY)) is not None:
        return refusal
    return _decide_page(request)


@login_required
@require_POST
def claim_verify_page(request: HttpRequest, claim_id: int) -> HttpResponse:
    if (refusal := refused_page(request, DECIDE_TEMPLATE, Action.BAD_BEAT_VERIFY)) is not None:
        return refusal
    if (claim := claim_or_back(request, claim_id)) is None:
        return redirect("floor:bad-beat-decide")
    form = VerifyForm(request.POST, auto_id=f"id_verify{claim.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"Claim {claim.pk} was not verified: correct what is marked below.{pin_typo(form)}")
        return _decide_page(request, {claim.pk: form})
    try:
        decision = claim_verify(claim=claim, actor=acting_user(request), pin=form.cleaned_data["pin"])
    except DomainError as refused:
        messages.error(request, f"Claim {claim.pk} was not verified. {refused.message}")
        return _decide_page(request, {claim.pk: form})
    messages.success(
        request,
        f"Claim {claim.pk} at table {claim.table.number} verified: the payout is {display_cents(decision.payout_cents)} "
        f"(official {display_cents(decision.official_cents)}, owed before {display_cents(decision.owed_cents)}, "
        f"reserve {display_cents(decision.reserve_cents)}). The display board shows 'Pending adjustment' until finance "
        "adjusts it (§637a.15(f)(1)); security or finance delivers the payout (§637a.15(f)(2)).",
    )
    return redirect("floor:bad-beat-decide")


@login_required
@require_POST
def claim_deny_page(request: HttpRequest, claim_id: int) -> HttpResponse:
    if (refusal := refused_page(request, DECIDE_TEMPLATE, Action.BAD_BEAT_VERIFY)) is not None:
        return refusal
    if (claim := claim_or_back(request, claim_id)) is None:
        return redirect("floor:bad-beat-decide")
    form = DenyForm(request.POST, auto_id=f"id_deny{claim.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"Claim {claim.pk} was not denied: correct what is marked below.{pin_typo(form)}")
        return _decide_page(request, {claim.pk: form})
    try:
        claim_deny(
            claim=claim, reason=form.cleaned_data["reason"], actor=acting_user(request), pin=form.cleaned_data["pin"]
        )
    except DomainError as refused:
        messages.error(request, f"Claim {claim.pk} was not denied. {refused.message}")
        return _decide_page(request, {claim.pk: form})
    messages.success(
        request, f"Claim {claim.pk} at table {claim.table.number} denied; it is kept with its evidence and the reason."
    )
    return redirect("floor:bad-beat-decide")
