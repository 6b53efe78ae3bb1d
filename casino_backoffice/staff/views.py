"""Tablet pages of the kernel: sign-in, the home page of each role, the signing PIN, tables."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models.functions import Length
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from casino_backoffice.core.exceptions import DomainError
from tables.models import Table
from tables.services import table_set_open

from . import permissions
from .auth import acting_user
from .forms import PinChangeForm
from .models import User
from .roles import ADMIN_ROLES, Role
from .services import pin_set


@dataclass(frozen=True)
class Action:
    title: str
    description: str
    url: str


# What each role does on the floor (DESIGN.md, Who uses it). Pages arrive with their issues; the
# home page lists only those that exist.
DUTIES: dict[Role, str] = {
    Role.DEALER: "Log rounds of play and count jackpot boxes at a closed table.",
    Role.FLOORPERSON: "Verify hands, write High Hand Tracking Slip entries, witness counts and display adjustments.",
    Role.SHIFT_SUPERVISOR: "Verify Bad Beat hands, raise 'pending adjustment' notices, rule on disputes.",
    Role.POKER_ROOM_MANAGER: "Run the room: tables, rules, staff on the floor.",
    Role.SECURITY: "Carry locked boxes and containers to the cage; deliver payouts to the table.",
    Role.SURVEILLANCE: "Record table counts and note the recording reference.",
    Role.CAGE_CASHIER: "Count boxes and verify table counts at the cage; pay jackpots.",
    Role.FINANCE: "Keep the official record, prepare payouts, adjust displays, reconcile and export.",
    Role.COMPLIANCE: "Read and export everything; change nothing.",
    Role.ADMINISTRATOR: "Manage staff, roles and signing locks.",
}


def _actions(user: User) -> list[Action]:
    roles = user.roles
    actions = [Action("Tables", "See every table; floorpersons open and close them.", reverse("floor:tables"))]
    if permissions.may(user, permissions.Action.RAKE_CALCULATE):
        actions.append(
            Action("Rake calculator", "Enter a pot: see the rake and each jackpot drop, and the rule behind each.",
                   reverse("floor:rake-calculator"))
        )
    if permissions.may(user, permissions.Action.TIME_CHARGE_VERIFY):
        actions.append(
            Action("Time charges", "Verify time charges with your PIN (§637a.17(b)(3)).", reverse("floor:time-charges"))
        )
    actions += [
        Action("Display board", "What the players see: jackpot amounts and notices.", reverse("display:index")),
        Action("My signing PIN", "Set or change the PIN you sign with.", reverse("floor:pin")),
    ]
    if roles & ADMIN_ROLES:
        actions.append(Action("Back office", "Counts, verifications, payouts, reports (admin).", reverse("admin:index")))
    return actions


@login_required
def home(request: HttpRequest) -> HttpResponse:
    user = acting_user(request)
    roles = user.roles
    return render(
        request,
        "floor/home.html",
        {
            "roles": sorted(roles, key=list(Role).index),
            "duties": [DUTIES[role] for role in Role if role in roles],
            "actions": _actions(user),
        },
    )


@login_required
def pin_change(request: HttpRequest) -> HttpResponse:
    user = acting_user(request)
    form = PinChangeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not user.check_password(form.cleaned_data["current_password"]):
            form.add_error("current_password", "That is not your sign-in password.")
        else:
            try:
                pin_set(user=user, pin=form.cleaned_data["pin"], actor=user)
            except DomainError as error:
                form.add_error("pin", error.message)
            else:
                messages.success(request, "Your signing PIN is set.")
                return redirect("floor:home")
    return render(request, "floor/pin.html", {"form": form})


@login_required
def tables(request: HttpRequest) -> HttpResponse:
    can_open = permissions.may(acting_user(request), permissions.Action.TABLE_OPEN_CLOSE)
    rows = Table.objects.select_related("room").order_by("room__code", Length("number"), "number")
    return render(request, "floor/tables.html", {"tables": rows, "can_open": can_open})


@login_required
@require_POST
def table_open_close(request: HttpRequest, table_id: int) -> HttpResponse:
    user = acting_user(request)
    table = get_object_or_404(Table, pk=table_id)
    is_open = request.POST.get("is_open") == "1"
    try:
        table_set_open(table=table, is_open=is_open, actor=user)
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"{table} is {'open' if is_open else 'closed'}.")
    return redirect("floor:tables")
