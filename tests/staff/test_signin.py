"""Signing in with a password: after ten wrong passwords for one person, that person's next attempts are
refused for a while with a clear message, the password unchecked, while another person at the same
terminal still signs in; every attempt is recorded for compliance; a person disabled is signed out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from casino_backoffice.staff.models import SignInAttempt
from casino_backoffice.staff.services import api_token_create
from casino_backoffice.staff.signin import signin_locked_until
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db
LOGIN = "/floor/login/"


def _sign_in(client: Client, username: str, password: str, url: str = LOGIN):
    return client.post(url, {"username": username, "password": password})


def test_ten_wrong_passwords_lock_that_person_out_and_nobody_else(floorperson, supervisor, settings) -> None:
    terminal = Client()
    for _ in range(settings.SIGNIN_MAX_FAILURES):
        response = _sign_in(terminal, floorperson.username, "wrong-password")
        assert response.status_code == 200 and "_auth_user_id" not in terminal.session

    response = _sign_in(terminal, floorperson.username, PASSWORD)  # the right password, refused
    page = response.content.decode()
    assert response.status_code == 200 and "_auth_user_id" not in terminal.session
    assert f"Too many wrong passwords for {floorperson.username}" in page and "15 more minutes" in page

    # Another person at the same terminal signs in at once.
    response = _sign_in(terminal, supervisor.username, PASSWORD)
    assert response.status_code == 302 and terminal.session["_auth_user_id"] == str(supervisor.pk)

    attempts = SignInAttempt.objects.filter(username=floorperson.username)
    assert attempts.filter(succeeded=False, refused_locked=False).count() == settings.SIGNIN_MAX_FAILURES
    assert attempts.filter(refused_locked=True).count() == 1 and not attempts.filter(succeeded=True).exists()

    until = signin_locked_until(username=floorperson.username)
    assert until is not None and timedelta(minutes=14) < until - timezone.now() <= settings.SIGNIN_LOCKOUT
    assert signin_locked_until(username=floorperson.username, now=until + timedelta(seconds=1)) is None


def test_a_success_before_the_tenth_wrong_password_starts_the_count_again(floorperson, settings) -> None:
    terminal = Client()
    for _ in range(settings.SIGNIN_MAX_FAILURES - 1):
        _sign_in(terminal, floorperson.username, "wrong-password")
    assert _sign_in(terminal, floorperson.username, PASSWORD).status_code == 302
    Client().post("/floor/logout/")
    other = Client()
    for _ in range(settings.SIGNIN_MAX_FAILURES - 1):
        _sign_in(other, floorperson.username, "wrong-password")
    assert signin_locked_until(username=floorperson.username) is None
    assert _sign_in(other, floorperson.username, PASSWORD).status_code == 302


def test_the_admin_sign_in_locks_out_the_same_way(finance, settings) -> None:
    terminal = Client()
    url = "/admin/login/?next=/admin/"
    for _ in range(settings.SIGNIN_MAX_FAILURES):
        _sign_in(terminal, finance.username, "wrong-password", url)
    response = _sign_in(terminal, finance.username, PASSWORD, url)
    assert response.status_code == 200 and "Too many wrong passwords" in response.content.decode()
    assert "_auth_user_id" not in terminal.session


def test_a_person_disabled_is_signed_out_of_the_tablet_and_the_api(floorperson) -> None:
    tablet = Client()
    assert _sign_in(tablet, floorperson.username, PASSWORD).status_code == 302
    assert tablet.get("/floor/").status_code == 200
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=floorperson)}")
    assert api.get("/api/progressive/meters/").status_code == 200

    floorperson.is_active = False
    floorperson.save(update_fields=["is_active"])

    response = tablet.get("/floor/")
    assert response.status_code == 302 and response["Location"].startswith(LOGIN)
    assert api.get("/api/progressive/meters/").status_code in (401, 403)


def _age(client: Client, key: str, by: timedelta) -> None:
    session = client.session
    session[key] = (timezone.now() - by).isoformat()
    session.save()


@pytest.mark.parametrize(
    ("key", "by", "words"),
    [
        ("seen_at", timedelta(minutes=31), "no activity for 30 minutes"),
        ("signed_in_at", timedelta(hours=13), "more than 12 hours since you signed in"),
    ],
)
def test_an_idle_or_old_session_is_signed_out(floorperson, key, by, words) -> None:
    tablet = Client()
    assert _sign_in(tablet, floorperson.username, PASSWORD).status_code == 302
    assert tablet.get("/floor/").status_code == 200  # the session notes when it signed in and was seen
    _age(tablet, key, by)

    response = tablet.get("/floor/", follow=True)
    assert response.redirect_chain[0][0].startswith(LOGIN) and "_auth_user_id" not in tablet.session
    assert f"You were signed out: {words}" in response.content.decode()


def test_an_active_session_stays_signed_in(floorperson) -> None:
    tablet = Client()
    _sign_in(tablet, floorperson.username, PASSWORD)
    tablet.get("/floor/")
    _age(tablet, "seen_at", timedelta(minutes=29))
    assert tablet.get("/floor/").status_code == 200


def test_a_refused_action_is_recorded_for_compliance(dealer, rules, rated_table) -> None:
    from rest_framework.test import APIClient

    from casino_backoffice.staff.models import RefusedAction

    api = APIClient()
    api.force_authenticate(dealer)
    assert api.get("/api/official-record/").status_code == 403
    refused = RefusedAction.objects.get()
    assert (refused.user, refused.username, refused.action, refused.roles) == (
        dealer,
        dealer.username,
        "cage_record_read",
        "dealer",
    )
