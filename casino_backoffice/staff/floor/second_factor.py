"""The tablet's page of a person's second factor: set it up (the key as a QR code and as text, then a
first code to confirm), and remove it after re-entering a code."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache

from casino_backoffice.core.exceptions import DomainError

from ..auth import acting_user
from ..exceptions import ActionNotPermitted
from ..forms import SecondFactorCodeForm
from ..permissions import Action, action_require
from ..second_factor.services import (
    enrolment_of,
    second_factor_confirm,
    second_factor_device,
    second_factor_enrol_start,
    second_factor_pending_device,
    second_factor_remove,
    second_factor_required,
)
from ..second_factor.views import ENROL_REQUIRED

TEMPLATE = "staff/floor/second_factor.html"


@never_cache  # the key being set up is on the page
@login_required
def second_factor(request: HttpRequest) -> HttpResponse:
    user = acting_user(request)
    try:
        action_require(actor=user, action=Action.SECOND_FACTOR_USE)
    except ActionNotPermitted as refused:
        return render(request, TEMPLATE, {"refused": refused.message}, status=403)
    form = SecondFactorCodeForm()
    if request.method == "POST":
        step = request.POST.get("step")
        try:
            if step == "start":
                second_factor_enrol_start(actor=user)
                return redirect("floor:second-factor")
            form = SecondFactorCodeForm(request.POST)
            if step in ("confirm", "remove") and form.is_valid():
                if step == "confirm":
                    second_factor_confirm(actor=user, code=form.cleaned_data["code"])
                    request.session.pop(ENROL_REQUIRED, None)
                    messages.success(request, "Your second factor is on: from your next sign-in, you enter its code.")
                    return redirect("floor:home")
                second_factor_remove(actor=user, code=form.cleaned_data["code"], request=request)
                messages.success(request, "Your second factor is removed: you sign in with your password alone.")
                return redirect("floor:second-factor")
        except DomainError as error:
            form.add_error("code" if step in ("confirm", "remove") else None, error.message)
    device = second_factor_device(user=user)
    pending = None if device is not None else second_factor_pending_device(user=user)
    return render(
        request,
        TEMPLATE,
        {
            "form": form,
            "device": device,
            "enrolment": enrolment_of(pending) if pending is not None else None,
            "required": second_factor_required(user=user),
        },
    )
