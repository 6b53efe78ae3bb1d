"""The tablet's void of a round already recorded (§637a.18(i)): 'If at any time during a round of play
missing cards are discovered or additional cards are found, the round of play shall be voided, all value
chips ... in the pot shall be returned to the appropriate player and the deck shall be replaced.'

A floorperson or above picks one of the gaming day's rounds of their rooms, sees what it took, says what
was found and signs (``round_void``): its ``missing_or_extra_cards`` irregularity is recorded with the
void and its rake and drops are returned. The service refuses what the rules refuse (a round voided
already, one whose hand stands as a jackpot's, one whose box was counted, a closed day), in its words.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.pages import pin_typo, refused_page
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action
from tables.models import Round
from tables.selectors import gaming_day, rooms_of, visible_to

from ..services import round_void, void_returned
from .forms import VoidForm
from .views import takes_of_round

LIST_TEMPLATE = "rake/floor/void_rounds.html"
TEMPLATE = "rake/floor/void_round.html"
# The rounds the list offers: the latest of the gaming day.
ROUNDS_LISTED = 50


def _rounds_of_the_day(user: Any) -> Any:
    """The rounds of each room's gaming day now that took their rake (neither logged void nor voided)."""
    now = timezone.now()
    today = Q(pk__in=[])
    for room in rooms_of(user):
        today |= Q(table__room=room, gaming_day=gaming_day(room=room, at=now))
    rounds = Round.objects.filter(today, voided=False, void__isnull=True).select_related("table__room")
    return rounds.order_by("-ended_at", "-pk")


@login_required
def void_rounds(request: HttpRequest) -> HttpResponse:
    """The gaming day's rounds of the person's rooms, newest first: pick the one to void."""
    if (refusal := refused_page(request, LIST_TEMPLATE, Action.ROUND_VOID)) is not None:
        return refusal
    rounds = [(round_, display_cents(round_.pot_cents)) for round_ in _rounds_of_the_day(request.user)[:ROUNDS_LISTED]]
    return render(request, LIST_TEMPLATE, {"rounds": rounds})


@login_required
def round_void_page(request: HttpRequest, round_id: int) -> HttpResponse:
    """One round, what it took, and the void signed by the floorperson; a refusal records nothing."""
    if (refusal := refused_page(request, TEMPLATE, Action.ROUND_VOID)) is not None:
        return refusal
    rounds = visible_to(request.user, Round.objects.select_related("table__room").prefetch_related("drops"))
    round_ = rounds.filter(pk=round_id).first()
    if round_ is None:
        messages.error(request, f"There is no round {round_id} in your rooms.")
        return redirect("floor:round-void-list")
    form = VoidForm(request.POST if request.method == "POST" else None)
    context = {"round": round_, "takes": takes_of_round(round_), "form": form}
    if request.method != "POST":
        return render(request, TEMPLATE, context)
    if not form.is_valid():
        messages.error(request, f"Round {round_.pk} was not voided: correct what is marked.{pin_typo(form)}")
        return render(request, TEMPLATE, context)
    try:
        void = round_void(
            round=round_,
            reason=form.cleaned_data["reason"],
            actor=acting_user(request),
            pin=form.cleaned_data["pin"],
            idempotency_key=form.cleaned_data["idempotency_key"],
        )
    except DomainError as refused:
        messages.error(request, f"Round {round_.pk} was not voided; nothing was recorded. {refused.message}")
        return render(request, TEMPLATE, context)
    returned = void_returned(void)
    drops = sum(returned.drops_cents.values())
    messages.success(
        request,
        f"Round {round_.pk} at table {round_.table.number} is void (§637a.18(i)): its rake of "
        f"{display_cents(returned.rake_cents)} and drops of {display_cents(drops)} are returned; the pot goes back "
        f"to the players. Irregularity {void.irregularity_id} is on the record, signed by you.",
    )
    return redirect("floor:round-void-list")
