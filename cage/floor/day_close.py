"""Finance's tablet page of the gaming days to close (issue 24): each open gaming day of their rooms,
what still blocks its close, each a link to where it is resolved, and the close with the PIN.

§637a.17 (the revenue of the day), §637a.15(e), §637a.16(e) (the finance department's official
record): the close is ``cage.services.gaming_day_close``; what blocks a day is
``cage.gaming_days.open_gaming_days``, the one reading the admin's page of the same name shows too.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.forms import PinSignatureField
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.permissions import Action, action_require
from tables.selectors import rooms_of

from ..gaming_days import OpenDay, blocker_url, open_gaming_days
from ..services import gaming_day_close

TEMPLATE = "cage/floor/close_days.html"


class CloseDayForm(forms.Form):
    """The close of one gaming day: which room and day (hidden, from the page), and finance's PIN."""

    room = forms.SlugField(widget=forms.HiddenInput)
    gaming_day = forms.DateField(widget=forms.HiddenInput, input_formats=["%Y-%m-%d"])
    pin = PinSignatureField()


def day_rows(user: Any, *, failed: tuple[str, date, CloseDayForm] | None = None) -> list[dict[str, Any]]:
    """Each open gaming day of the person's rooms with its blockers (each with its link) and its form."""
    rows = []
    for open_day in open_gaming_days(rooms=rooms_of(user), now=timezone.now()):
        form = (
            failed[2]
            if failed is not None and (failed[0], failed[1]) == (open_day.room.code, open_day.day)
            else CloseDayForm(
                initial={"room": open_day.room.code, "gaming_day": open_day.day},
                auto_id=f"id_{open_day.room.code}_{open_day.day:%Y%m%d}_%s",
            )
        )
        rows.append({"day": open_day, "blockers": _linked(open_day), "form": form})
    return rows


def _linked(open_day: OpenDay) -> list[tuple[str, str, str | None]]:
    return [(blocker.kind.label, blocker.text, blocker_url(blocker)) for blocker in open_day.blockers]


def _refusal(request: HttpRequest) -> HttpResponse | None:
    try:
        action_require(actor=acting_user(request), action=Action.GAMING_DAY_CLOSE)
    except ActionNotPermitted as refused:
        return render(request, TEMPLATE, {"refused": refused.message}, status=403)
    return None


@login_required
def close_days_page(request: HttpRequest) -> HttpResponse:
    """The open gaming days of finance's rooms, what blocks each, and the close of those ready."""
    if (refusal := _refusal(request)) is not None:
        return refusal
    return render(request, TEMPLATE, {"rows": day_rows(request.user)})


@login_required
@require_POST
def close_day_sign(request: HttpRequest) -> HttpResponse:
    if (refusal := _refusal(request)) is not None:
        return refusal
    form = CloseDayForm(request.POST)
    room_code, day = request.POST.get("room", ""), request.POST.get("gaming_day", "")
    room = next((room for room in rooms_of(request.user) if room.code == room_code), None)
    if not form.is_valid() or room is None:
        problem = "there is no such room of yours" if room is None else "correct what is marked below"
        messages.error(request, f"Gaming day {day} of room {room_code} was not closed: {problem}.")
        parsed = form.cleaned_data.get("gaming_day") if hasattr(form, "cleaned_data") else None
        failed = (room_code, parsed, form) if parsed else None
        return render(request, TEMPLATE, {"rows": day_rows(request.user, failed=failed)}, status=400)
    closing = form.cleaned_data["gaming_day"]
    try:
        close = gaming_day_close(room=room, day=closing, actor=acting_user(request), pin=form.cleaned_data["pin"])
    except DomainError as refused:
        messages.error(request, f"Gaming day {closing} of room {room.code} was not closed. {refused.message}")
        rows = day_rows(request.user, failed=(room.code, closing, form))
        return render(request, TEMPLATE, {"rows": rows}, status=409 if refused.status == 409 else 400)
    messages.success(
        request,
        f"Gaming day {close.gaming_day} of {room.name} closed and signed. Nothing more is recorded for it; "
        "its revenue report and official record are final.",
    )
    return redirect("floor:cage-close-days")
