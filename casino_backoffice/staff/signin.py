"""Signing in with a password: each attempt recorded, and a person locked out for a while after too many
wrong passwords in a row (OWASP ASVS 2.2.1, the Nevada MICS' logical access controls).

The lockout is per person, not per terminal: after ``SIGNIN_MAX_FAILURES`` wrong passwords for one
username since their last success (and within ``SIGNIN_LOCKOUT``), that username's next attempts are
refused, the password unchecked, until ``SIGNIN_LOCKOUT`` after the last failure; another person at the
same terminal still signs in. Every attempt is a ``SignInAttempt`` row compliance reads in the admin.

The count holds under concurrency: an attempt reads the lock, checks the password or code and records
the outcome in one ``signin_turn`` of its username, so parallel attempts for one person take turns and at
most ``SIGNIN_MAX_FAILURES`` passwords are ever checked for one locked window.

A person with a second factor (``staff.second_factor``) signs in in two steps: a right password is not
a success (it is not recorded: the code's attempt is), so wrong codes count toward the same lockout as
wrong passwords, and a right password between them does not start the count again.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from django.conf import settings
from django.db import connection, transaction
from django.http import HttpRequest
from django.utils import timezone

from .models import SignInAttempt, SignInReason

# Advisory locks are keyed by two integers: this namespace (ASVS 2.2.1, the lockout) and the username's hash.
SIGNIN_LOCK_NAMESPACE = 2210


@contextmanager
def signin_turn(*, username: str) -> Iterator[None]:
    """One attempt of ``username`` at a time, in its own transaction: whoever reads the lock
    (``signin_locked_until``), checks a password or code and records it (``signin_record``) inside
    the turn does so after the attempts before it were recorded, so "after ``SIGNIN_MAX_FAILURES``
    wrong passwords ... that username's next attempts are refused, the password unchecked" holds for
    parallel attempts too. On PostgreSQL the turn is an advisory lock of the lower-cased username (the
    lockout compares usernames case-insensitively) held until the transaction ends, so other people
    sign in meanwhile; SQLite begins every transaction ``IMMEDIATE``, one writer at a time, which
    gives the turns already. A refusal raised inside the turn would undo what it recorded: raise it
    after."""
    with transaction.atomic(durable=True):
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [SIGNIN_LOCK_NAMESPACE, username.lower()]
                )
        yield


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


def signin_locked_message(*, username: str, until: datetime, now: datetime | None = None) -> str:
    """What a locked-out person reads: for how long, and that another person may sign in."""
    now = now or timezone.now()
    minutes = max(1, round((until - now).total_seconds() / 60))
    codes = SignInAttempt.objects.filter(
        username__iexact=username,
        succeeded=False,
        reason__in=[SignInReason.WRONG_CODE, SignInReason.REPLAYED_CODE],
        at__gte=until - 2 * settings.SIGNIN_LOCKOUT,
    ).exists()
    what = "wrong passwords or codes" if codes else "wrong passwords"
    return (
        f"Too many {what} for {username}: signing in as {username} is refused for "
        f"{minutes} more minute{'s' if minutes != 1 else ''}. Another person may sign in at this "
        "terminal; an administrator can help if you have forgotten your password or lost your phone."
    )


def signin_record(
    *,
    username: str,
    succeeded: bool,
    request: HttpRequest | None,
    refused_locked: bool = False,
    reason: SignInReason | str = "",
) -> None:
    """Record one attempt (insert only), with why it ended as it did."""
    meta = request.META if request is not None else {}
    if not reason:
        reason = (
            SignInReason.SIGNED_IN
            if succeeded
            else SignInReason.LOCKED_OUT
            if refused_locked
            else SignInReason.WRONG_PASSWORD
        )
    SignInAttempt.objects.create(
        username=username[:150],
        succeeded=succeeded,
        refused_locked=refused_locked,
        reason=reason,
        at=timezone.now(),
        address=meta.get("REMOTE_ADDR") or None,
        user_agent=str(meta.get("HTTP_USER_AGENT", ""))[:300],
    )
