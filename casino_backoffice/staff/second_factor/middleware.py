"""A person whose role requires a second factor (``STAFF_SECOND_FACTOR_REQUIRED_ROLES``) and who signed
in without one may only set it up (or sign out) until they have: every other page leads there, and the
API refuses the session. Reads nothing for anyone else: the sign-in marks the session."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse

from .views import ENROL_REQUIRED

_ENROL_URL = "floor:second-factor"


class SecondFactorEnrolmentMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        user = getattr(request, "user", None)
        if session is None or user is None or not user.is_authenticated or not session.get(ENROL_REQUIRED):
            return self.get_response(request)
        from .services import second_factor_device

        if second_factor_device(user=user) is not None:
            session.pop(ENROL_REQUIRED, None)
            return self.get_response(request)
        allowed = {reverse(_ENROL_URL), reverse("floor:logout")}
        if request.path in allowed or request.path.startswith("/static/"):
            return self.get_response(request)
        refusal = "Your role requires a second factor: set it up before anything else."
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": refusal, "code": "second_factor_required"}, status=403)
        messages.warning(request, refusal)
        return redirect(_ENROL_URL)
