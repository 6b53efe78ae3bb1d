"""Signing in with a password: each attempt recorded, and a person locked out for a while after too many
wrong passwords in a row (OWASP ASVS 2.2.1, the Nevada MICS' logical access controls).

The lockout is per person, not per terminal: after ``SIGNIN_MAX_FAILURES`` wrong passwords for one
username since their last success (and within ``SIGNIN_LOCKOUT``), that username's next attempts are
refused, the password unchecked, until ``SIGNIN_LOCKOUT`` after the last failure; another person at the
same terminal still signs in. Every attempt is a ``SignInAttempt`` row compliance reads in the admin.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone

from .models import SignInAttempt


def signin_locked_until(*, username: str, now: datetime | None = None) -> datetime | None:
    """When a locked-out username may try again; None when it is not locked out."""
    now = now or timezone.now()
    window_start = now - settings.SIGNIN_LOCKOUT
    last_success = (
        SignInAttempt.objects.filter(username__iexact=username, succeeded=True)
        .order_by("-at")
        .values_list("at", flat=True)
        .first()
    )
    failures = SignInAttempt.objects.filter(
        username__iexact=username, succeeded=False, refused_locked=False, at__gte=window_start
    )
    if last_success is not None:
        failures = failures.filter(at__gt=last_success)
    recent = list(failures.order_by("-at").values_list("at", flat=True)[: settings.SIGNIN_MAX_FAILURES])
    if len(recent) < settings.SIGNIN_MAX_FAILURES:
        return None
    return recent[0] + settings.SIGNIN_LOCKOUT


def signin_record(*, username: str, succeeded: bool, request: HttpRequest | None, refused_locked: bool = False) -> None:
    """Record one attempt (insert only)."""
    meta = request.META if request is not None else {}
    SignInAttempt.objects.create(
        username=username[:150],
        succeeded=succeeded,
        refused_locked=refused_locked,
        at=timezone.now(),
        address=meta.get("REMOTE_ADDR") or None,
        user_agent=str(meta.get("HTTP_USER_AGENT", ""))[:300],
    )
