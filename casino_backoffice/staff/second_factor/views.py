"""Signing in, for the tablet and the admin alike: the password, then, for a person with a second
factor, the code. Nobody is signed in between the two steps: the session only remembers, for
``STAFF_SECOND_FACTOR_CODE_WINDOW``, who gave a right password."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters

from ..forms import SECOND_FACTOR_NEEDED, SecondFactorCodeForm
from ..models import User
from ..signin import signin_locked_message, signin_locked_until
from .services import CodeCheck, second_factor_device, second_factor_required, second_factor_sign_in_check

PENDING = "second_factor_pending"
# Set at sign-in for a person whose role requires a second factor and who has none yet: the
# middleware (``middleware``) lets them only set it up or sign out.
ENROL_REQUIRED = "second_factor_enrol_required"


def _pending_start(request: HttpRequest, *, user: User, next_url: str) -> None:
    request.session[PENDING] = {
        "user": user.pk,
        "backend": getattr(user, "backend", settings.AUTHENTICATION_BACKENDS[0]),
        "at": timezone.now().isoformat(),
        "next": next_url,
    }


def _pending(request: HttpRequest) -> tuple[User, str, str] | None:
    """The person who gave a right password within the window, their backend and where they go next."""
    state = request.session.get(PENDING)
    if not isinstance(state, dict):
        return None
    try:
        at = datetime.fromisoformat(state["at"])
        user = User.objects.get(pk=state["user"], is_active=True)
    except (KeyError, TypeError, ValueError, User.DoesNotExist):
        return None
    if timezone.now() - at > settings.STAFF_SECOND_FACTOR_CODE_WINDOW:
        return None
    return user, str(state["backend"]), str(state.get("next") or "")


def _pending_clear(request: HttpRequest) -> None:
    request.session.pop(PENDING, None)


class SignInView(LoginView):
    """Django's sign-in with the lockout form; a right password of a person with a second factor leads
    to the code (``code_url``) instead of signing in."""

    code_url = "floor:login-code"

    def form_invalid(self, form: Form) -> HttpResponse:
        if form.has_error("__all__", SECOND_FACTOR_NEEDED):
            _pending_start(self.request, user=form.get_user(), next_url=self.get_redirect_url())  # type: ignore[attr-defined]
            return redirect(self.code_url)
        return super().form_invalid(form)  # type: ignore[arg-type]

    def form_valid(self, form: Any) -> HttpResponse:
        _pending_clear(self.request)
        response = super().form_valid(form)
        if second_factor_required(user=form.get_user()):
            # No device (else the form would have asked for the code): set one up first.
            self.request.session[ENROL_REQUIRED] = True
        return response


def _safe_next(request: HttpRequest, next_url: str, default: str) -> str:
    if next_url and url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return next_url
    return resolve_url(default)


@sensitive_post_parameters("code")
@csrf_protect
@never_cache
def sign_in_code(
    request: HttpRequest,
    *,
    template_name: str,
    sign_in_url: str,
    default_next: str,
    extra_context: dict[str, Any] | None = None,
) -> HttpResponse:
    """The second step: the code of the person who just gave their right password. A wrong or replayed
    code counts toward the lockout; once locked out, the person starts again at the password."""
    pending = _pending(request)
    if pending is None:
        _pending_clear(request)
        messages.info(request, "Sign in with your username and password first.")
        return redirect(sign_in_url)
    user, backend, next_url = pending
    username = user.get_username()
    form = SecondFactorCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        result = second_factor_sign_in_check(user=user, code=form.cleaned_data["code"], request=request)
        if result is CodeCheck.LOCKED_OUT:
            _pending_clear(request)
            # The lock's end as it is now (it was there a moment ago, inside the check).
            until = signin_locked_until(username=username) or timezone.now()
            messages.error(request, signin_locked_message(username=username, until=until))
            return redirect(sign_in_url)
        if result is CodeCheck.ACCEPTED:
            _pending_clear(request)
            login(request, user, backend=backend)
            return redirect(_safe_next(request, next_url, default_next))
        form.add_error(
            "code",
            "That code was used already: wait for the next one your app shows."
            if result is CodeCheck.REPLAYED
            else "That is not the code your app shows now. Type the code it shows.",
        )
    context = {
        **(extra_context or {}),
        "form": form,
        "person": user,
        "sign_in_url": resolve_url(sign_in_url),
        "has_device": second_factor_device(user=user) is not None,
    }
    return render(request, template_name, context)
