"""Idle and absolute timeouts of a signed-in session (OWASP ASVS 3.3): a tablet left signed in is signed
out after ``SESSION_IDLE_TIMEOUT`` without a request, and every session after ``SESSION_ABSOLUTE_TIMEOUT``
from its sign-in, whatever its activity. API requests with a token are not sessions and are not timed
out (a table system's token is revoked by an administrator instead)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

SIGNED_IN_AT = "signed_in_at"
SEEN_AT = "seen_at"
# The last request's time is written at most this often, so that a busy page does not write its
# session on every poll.
_SEEN_RESOLUTION_SECONDS = 30


def _moment(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def session_start(sender: object, request: HttpRequest, **kwargs: object) -> None:
    """At sign-in: when the session started and was last seen (``user_logged_in``)."""
    if hasattr(request, "session"):
        now = timezone.now().isoformat()
        request.session[SIGNED_IN_AT] = now
        request.session[SEEN_AT] = now


class SessionTimeoutMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and hasattr(request, "session"):
            now = timezone.now()
            signed_in_at = _moment(request.session.get(SIGNED_IN_AT))
            seen_at = _moment(request.session.get(SEEN_AT))
            idle = seen_at is not None and now - seen_at > settings.SESSION_IDLE_TIMEOUT
            expired = signed_in_at is not None and now - signed_in_at > settings.SESSION_ABSOLUTE_TIMEOUT
            if idle or expired:
                logout(request)
                why = (
                    f"more than {settings.SESSION_ABSOLUTE_TIMEOUT.total_seconds() / 3600:g} hours since you signed in"
                    if expired
                    else f"no activity for {settings.SESSION_IDLE_TIMEOUT.total_seconds() / 60:g} minutes"
                )
                messages.info(request, f"You were signed out: {why}. Sign in again.")
            elif signed_in_at is None or seen_at is None:
                # A session from before these timeouts: its clock starts now.
                request.session[SIGNED_IN_AT] = (signed_in_at or now).isoformat()
                request.session[SEEN_AT] = now.isoformat()
            elif (now - seen_at).total_seconds() >= _SEEN_RESOLUTION_SECONDS:
                request.session[SEEN_AT] = now.isoformat()
        return self.get_response(request)
