"""The sign-in lockout counts under concurrency: thirty wrong passwords for one person at once check
exactly ``SIGNIN_MAX_FAILURES`` passwords, the rest refused unchecked, on real parallel PostgreSQL
connections; another person is not held up by the lock."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.db import connection
from django.test import Client

from casino_backoffice.staff.models import SignInAttempt, SignInReason
from casino_backoffice.staff.signin import signin_locked_until

ATTEMPTS = 30


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("url", ["/floor/login/", "/admin/login/?next=/admin/"], ids=["tablet", "admin"])
def test_thirty_parallel_wrong_passwords_check_exactly_the_allowed_number(floorperson, finance, settings, url):
    assert connection.vendor == "postgresql"
    person = finance if url.startswith("/admin/") else floorperson
    checked = []
    original = MD5PasswordHasher.verify

    def counted(self, password, encoded):
        checked.append(password)
        return original(self, password, encoded)

    start = threading.Barrier(ATTEMPTS)

    def attempt(n: int) -> int:
        try:
            client = Client()
            start.wait(timeout=30)
            return client.post(url, {"username": person.username.upper(), "password": f"wrong-{n}"}).status_code
        finally:
            connection.close()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(MD5PasswordHasher, "verify", counted)
        with ThreadPoolExecutor(ATTEMPTS) as pool:
            statuses = list(pool.map(attempt, range(ATTEMPTS)))

    assert statuses == [200] * ATTEMPTS
    assert len(checked) == settings.SIGNIN_MAX_FAILURES
    attempts = SignInAttempt.objects.filter(username__iexact=person.username)
    assert attempts.filter(reason=SignInReason.WRONG_PASSWORD).count() == settings.SIGNIN_MAX_FAILURES
    assert attempts.filter(refused_locked=True).count() == ATTEMPTS - settings.SIGNIN_MAX_FAILURES
    assert signin_locked_until(username=person.username) is not None
