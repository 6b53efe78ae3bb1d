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
from tests.conftest import PASSWORD

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


@pytest.mark.django_db(transaction=True)
def test_thirty_parallel_wrong_codes_after_the_password_check_exactly_the_allowed_number(
    finance, settings, monkeypatch
):
    """The second step counts the same way: each terminal gave the right password, then all send a
    wrong code at once; exactly ``SIGNIN_MAX_FAILURES`` codes are checked."""
    from types import SimpleNamespace

    from django_otp.plugins.otp_totp import models as totp_models

    from casino_backoffice.staff.second_factor import services as second_factor
    from tests.staff.test_second_factor import CODE, START, code_of, wrong_code_of

    assert connection.vendor == "postgresql"
    monkeypatch.setattr(totp_models, "time", SimpleNamespace(time=lambda: float(START) + 30))
    device = second_factor.second_factor_enrol_start(actor=finance)
    second_factor.second_factor_confirm(actor=finance, code=code_of(device, float(START) + 30))
    monkeypatch.setattr(totp_models, "time", SimpleNamespace(time=lambda: float(START) + 60))
    wrong = wrong_code_of(device, float(START) + 60)
    terminals = []
    for _ in range(ATTEMPTS):
        terminal = Client()
        assert terminal.post("/floor/login/", {"username": finance.username, "password": PASSWORD})["Location"] == CODE
        terminals.append(terminal)
    checked = []
    original = second_factor._code_check

    def counted(device, code):
        checked.append(code)
        return original(device, code)

    monkeypatch.setattr(second_factor, "_code_check", counted)
    start = threading.Barrier(ATTEMPTS)

    def attempt(terminal: Client) -> int:
        try:
            start.wait(timeout=30)
            return terminal.post(CODE, {"code": wrong}).status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(ATTEMPTS) as pool:
        statuses = list(pool.map(attempt, terminals))

    assert set(statuses) <= {200, 302}
    assert len(checked) == settings.SIGNIN_MAX_FAILURES
    attempts = SignInAttempt.objects.filter(username=finance.username)
    assert attempts.filter(reason=SignInReason.WRONG_CODE).count() == settings.SIGNIN_MAX_FAILURES
    assert attempts.filter(refused_locked=True).count() == ATTEMPTS - settings.SIGNIN_MAX_FAILURES
