"""The tablet page where a floorperson or above validates each progressive payout."""

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
from casino_backoffice.staff.permissions import Action
from jackpots.funds.floor import floor_rooms
from jackpots.progressive.floor.forms import ValidateForm
from jackpots.progressive.floor.views.common import HandView, hand_view, hands_shown
from jackpots.progressive.models import PayoutPlace
from jackpots.progressive.services.hands import progressive_validate
from tables.selectors import visible_to

VALIDATE_TEMPLATE = "jackpots/floor/progressive_validate.html"


# --- Validation -----------------------------------------------------------------------------------


@dataclass
class ToValidate:
    view: HandView
    form: ValidateForm | None  # None: the person recorded the hand


def _validate_page(request: HttpRequest, bound: tuple[int, ValidateForm] | None = None) -> HttpResponse:
    user = acting_user(request)
    hands = (
        hands_shown()
        .filter(validation__isnull=True, round__meter__room__in=floor_rooms(request.user))
        .order_by("recorded_at", "id")
    )
    rows = []
    for hand in hands:
        form = None
        if hand.recorded_by_id != user.pk:
            form = bound[1] if bound and bound[0] == hand.pk else ValidateForm(auto_id=f"id_hand{hand.pk}_%s")
        rows.append(ToValidate(hand_view(hand), form))
    return render(request, VALIDATE_TEMPLATE, {"rows": rows})


@login_required
def validate_page(request: HttpRequest) -> HttpResponse:
    """The progressive payouts no floorperson or above has validated yet, oldest first, each with its
    amount and Envy Bonuses (§655a.11(i)(4)(i)(C), §657a.11(e)(3)): validate with the PIN; never a hand
    you recorded."""
    if (refusal := refused_page(request, VALIDATE_TEMPLATE, Action.PROGRESSIVE_VALIDATE)) is not None:
        return refusal
    return _validate_page(request)


@login_required
@require_POST
def validate_sign(request: HttpRequest, hand_id: int) -> HttpResponse:
    if (refusal := refused_page(request, VALIDATE_TEMPLATE, Action.PROGRESSIVE_VALIDATE)) is not None:
        return refusal
    hand = visible_to(request.user, hands_shown()).filter(pk=hand_id).first()
    if hand is None:
        messages.error(request, f"There is no progressive hand {hand_id}.")
        return redirect("floor:progressive-validate")
    where = f"{hand.words} at table {hand.round.table.number}, seat {hand.seat}"
    form = ValidateForm(request.POST, auto_id=f"id_hand{hand.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"{where} was not validated: correct what is marked below.{pin_typo(form)}")
        return _validate_page(request, (hand.pk, form))
    try:
        progressive_validate(hand=hand, actor=acting_user(request), pin=form.cleaned_data["pin"])
    except DomainError as refused:
        messages.error(request, f"{where} was not validated. {refused.message}")
        return _validate_page(request, (hand.pk, form))
    view = hand_view(hand)
    said = [f"Validated and signed: {where}. Pay {display_cents(view.at_table_cents)} at the table now."]
    if hand.place == PayoutPlace.CAGE and hand.amount_cents:
        said.append(f"The {display_cents(hand.amount_cents)} payout is paid through the cage, against the patron's ID.")
    messages.success(request, " ".join(said))
    return redirect("floor:progressive-validate")
