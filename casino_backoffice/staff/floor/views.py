"""Tablet pages of the kernel: the home page of each role and the signing PIN."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.tiles import Tile, tiles_shown

from ..auth import acting_user
from ..forms import PinChangeForm
from ..roles import Role
from ..services import pin_set

# What each role does on the floor (docs/architecture.md, Who uses it). Pages arrive with their issues; the
# home page shows the tiles of those that exist.
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


@login_required
def home(request: HttpRequest, *, tiles: Sequence[Tile]) -> HttpResponse:
    """The tiles of every app (handed in by the tablet site's root, ``floor_urls``) that the person's roles see."""
    user = acting_user(request)
    roles = user.roles
    return render(
        request,
        "staff/floor/home.html",
        {
            "roles": sorted(roles, key=list(Role).index),
            "duties": [DUTIES[role] for role in Role if role in roles],
            "tiles": tiles_shown(tiles, user=user),
        },
    )


@login_required
def pin_change(request: HttpRequest) -> HttpResponse:
    user = acting_user(request)
    if user.signing_locked:
        # The service refuses too; the page says so before anyone types a password.
        return render(
            request, "staff/floor/pin.html", {"locked": True}, status=403 if request.method == "POST" else 200
        )
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
    return render(request, "staff/floor/pin.html", {"form": form})
