"""The optional second factor: a person of a role it is offered to sets it up on the tablet (a QR code
and the otpauth:// link, then a first code), is asked for its code after the password on the tablet and
in the admin, may not use a code twice, counts a wrong code toward the sign-in lockout, removes it with
a code; an administrator resets it; a room may require it for roles.

The codes' clock is fixed: ``clock`` sets the time django-otp's TOTP device reads, and the tests compute
each code from the device's key for that time, so no test depends on when it runs."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.utils import timezone
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp import models as totp_models
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.test import APIClient

from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.models import SecondFactorEvent, SecondFactorEventKind, SignInAttempt, SignInReason, User
from casino_backoffice.staff.permissions import Action, who_may
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.second_factor.services import (
    second_factor_confirm,
    second_factor_enrol_start,
    second_factor_required,
    second_factor_reset,
)
from casino_backoffice.staff.second_factor.views import PENDING
from casino_backoffice.staff.services import api_token_create
from tests.conftest import PASSWORD
from tests.pages import assert_no_inline_script_or_style

pytestmark = pytest.mark.django_db
LOGIN = "/floor/login/"
CODE = "/floor/login/code/"
PAGE = "/floor/second-factor/"
# 2027-01-15 08:00:00 UTC, the start of a 30-second step.
START = 1_800_000_000


class Clock:
    def __init__(self) -> None:
        self.now = float(START)

    def step(self, steps: int = 1) -> None:
        self.now += 30 * steps


@pytest.fixture
def clock(monkeypatch) -> Clock:
    """The time the TOTP devices read (django-otp's ``verify_token`` reads ``time.time()`` of its module)."""
    fixed = Clock()
    monkeypatch.setattr(totp_models, "time", SimpleNamespace(time=lambda: fixed.now))
    return fixed


def code_of(device: TOTPDevice, at: float) -> str:
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, 0)
    totp.time = at
    return f"{totp.token():06d}"


def wrong_code_of(device: TOTPDevice, at: float) -> str:
    """A code no step within the device's tolerance of ``at`` shows."""
    near = {code_of(device, at + 30 * offset) for offset in (-2, -1, 0, 1, 2)}
    return next(code for code in (f"{d}" * 6 for d in range(10)) if code not in near)


def enrolled(person: User, clock: Clock) -> TOTPDevice:
    device = second_factor_enrol_start(actor=person)
    second_factor_confirm(actor=person, code=code_of(device, clock.now))
    clock.step()  # the confirming code is spent: sign-ins use later ones
    return TOTPDevice.objects.get(pk=device.pk)


def _password(client: Client, person: User, password: str = PASSWORD, url: str = LOGIN):
    return client.post(url, {"username": person.username, "password": password})


def _signed_in(client: Client) -> str | None:
    return client.session.get("_auth_user_id")


# --- Enrolment ------------------------------------------------------------------------------------------


def test_a_supervisor_sets_it_up_with_the_qr_code_or_the_link_and_a_first_code(supervisor, clock) -> None:
    tablet = Client()
    tablet.force_login(supervisor)
    assert "Set up a second factor" in tablet.get(PAGE).content.decode()

    assert tablet.post(PAGE, {"step": "start"}).status_code == 302
    device = TOTPDevice.objects.get(user=supervisor)
    assert not device.confirmed
    response = tablet.get(PAGE)
    page = response.content.decode()
    assert f"otpauth://totp/Poker%20room%20back%20office%3A{supervisor.username}?secret=" in page
    assert '<svg class="qr"' in page and "<path" in page
    assert_no_inline_script_or_style(page)
    assert (
        "script-src 'self';" in response["Content-Security-Policy"]
        and "unsafe-inline" not in response["Content-Security-Policy"]
    )
    assert "no-store" in response["Cache-Control"]  # the key is on the page

    response = tablet.post(PAGE, {"step": "confirm", "code": wrong_code_of(device, clock.now)})
    assert "not the code your app shows now" in response.content.decode()
    assert not TOTPDevice.objects.get(pk=device.pk).confirmed and not SecondFactorEvent.objects.exists()

    response = tablet.post(PAGE, {"step": "confirm", "code": code_of(device, clock.now)}, follow=True)
    assert "Your second factor is on" in response.content.decode()
    assert TOTPDevice.objects.get(pk=device.pk).confirmed
    event = SecondFactorEvent.objects.get()
    assert (event.user, event.kind, event.actor) == (supervisor, SecondFactorEventKind.CONFIRMED, supervisor)
    page = tablet.get(PAGE).content.decode()
    assert "otpauth://" not in page and "Remove my second factor" in page  # the key is shown only while setting up


def test_it_is_offered_to_supervisors_managers_finance_and_administrators_only(make_staff) -> None:
    for role in Role:
        tablet = Client()
        tablet.force_login(make_staff(role))
        offered = role in {Role.SHIFT_SUPERVISOR, Role.POKER_ROOM_MANAGER, Role.FINANCE, Role.ADMINISTRATOR}
        assert (f'href="{PAGE}"' in tablet.get("/floor/").content.decode()) == offered, role
        response = tablet.get(PAGE)
        assert (response.status_code == 200) == offered, role
        if not offered:
            assert who_may(Action.SECOND_FACTOR_USE) in response.content.decode()
    with pytest.raises(ActionNotPermitted):
        second_factor_enrol_start(actor=make_staff(Role.DEALER))
    assert not TOTPDevice.objects.exists()


# --- Signing in --------------------------------------------------------------------------------------------


def test_without_a_second_factor_the_password_signs_in(supervisor) -> None:
    tablet = Client()
    response = _password(tablet, supervisor)
    assert response.status_code == 302 and response["Location"] == "/floor/"
    assert _signed_in(tablet) == str(supervisor.pk)


def test_with_one_the_password_leads_to_the_code_and_the_code_signs_in(finance, clock) -> None:
    device = enrolled(finance, clock)
    tablet = Client()

    response = _password(tablet, finance)
    assert response.status_code == 302 and response["Location"] == CODE
    assert _signed_in(tablet) is None and not SignInAttempt.objects.exists()  # not signed in, not yet a success
    prompt = tablet.get(CODE)
    page = prompt.content.decode()
    assert prompt.status_code == 200 and 'autocomplete="one-time-code"' in page and "6-digit code" in page
    assert_no_inline_script_or_style(page)
    assert tablet.get("/floor/").status_code == 302  # nothing opens between the password and the code

    response = tablet.post(CODE, {"code": code_of(device, clock.now)})
    assert response.status_code == 302 and response["Location"] == "/floor/"
    assert _signed_in(tablet) == str(finance.pk) and PENDING not in tablet.session
    attempt = SignInAttempt.objects.get()
    assert (attempt.username, attempt.succeeded, attempt.reason) == (finance.username, True, SignInReason.SIGNED_IN)


def test_a_code_without_the_password_first_signs_nobody_in(finance, clock) -> None:
    device = enrolled(finance, clock)
    tablet = Client()
    response = tablet.post(CODE, {"code": code_of(device, clock.now)}, follow=True)
    assert response.redirect_chain[-1][0] == LOGIN and _signed_in(tablet) is None
    assert "Sign in with your username and password first" in response.content.decode()


def test_the_code_must_follow_the_password_within_minutes(finance, clock, settings) -> None:
    device = enrolled(finance, clock)
    tablet = Client()
    _password(tablet, finance)
    session = tablet.session
    session[PENDING] = {
        **session[PENDING],
        "at": (timezone.now() - settings.STAFF_SECOND_FACTOR_CODE_WINDOW - timedelta(seconds=1)).isoformat(),
    }
    session.save()
    response = tablet.post(CODE, {"code": code_of(device, clock.now)})
    assert response.status_code == 302 and response["Location"] == LOGIN and _signed_in(tablet) is None


def test_wrong_codes_count_toward_the_lockout_with_wrong_passwords(finance, clock, settings) -> None:
    """Four wrong passwords, the right one, six wrong codes: ten failures, and the right code is refused."""
    device = enrolled(finance, clock)
    tablet = Client()
    for _ in range(4):
        _password(tablet, finance, "wrong-password")
    assert _password(tablet, finance)["Location"] == CODE
    for _ in range(settings.SIGNIN_MAX_FAILURES - 4):
        response = tablet.post(CODE, {"code": wrong_code_of(device, clock.now)})
        assert response.status_code == 200 and "not the code your app shows now" in response.content.decode()

    response = tablet.post(CODE, {"code": code_of(device, clock.now)}, follow=True)
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == LOGIN and _signed_in(tablet) is None
    assert f"Too many wrong passwords or codes for {finance.username}" in page and "15 more minutes" in page
    response = _password(tablet, finance)  # the password is not even checked now
    assert response.status_code == 200 and "Too many wrong passwords or codes" in response.content.decode()

    attempts = SignInAttempt.objects.filter(username=finance.username)
    assert attempts.filter(reason=SignInReason.WRONG_PASSWORD).count() == 4
    assert attempts.filter(reason=SignInReason.WRONG_CODE).count() == 6
    assert attempts.filter(reason=SignInReason.LOCKED_OUT).count() == 2 and not attempts.filter(succeeded=True).exists()
    assert TOTPDevice.objects.get(pk=device.pk).last_t == (START // 30)  # the refused right code was not spent


def test_a_malformed_code_is_refused_before_it_is_checked_and_does_not_count(finance, clock) -> None:
    enrolled(finance, clock)
    tablet = Client()
    _password(tablet, finance)
    response = tablet.post(CODE, {"code": "12 34"})
    assert "The code is 6 digits" in response.content.decode() and not SignInAttempt.objects.exists()


def test_a_code_used_once_is_refused_within_its_step(finance, clock) -> None:
    device = enrolled(finance, clock)
    code = code_of(device, clock.now)
    first = Client()
    _password(first, finance)
    assert first.post(CODE, {"code": code}).status_code == 302

    second = Client()  # someone who saw the code over the shoulder, within the same 30 seconds
    _password(second, finance)
    response = second.post(CODE, {"code": code})
    assert response.status_code == 200 and "That code was used already" in response.content.decode()
    assert _signed_in(second) is None
    assert SignInAttempt.objects.filter(reason=SignInReason.REPLAYED_CODE, succeeded=False).count() == 1

    clock.step()
    assert second.post(CODE, {"code": code_of(device, clock.now)}).status_code == 302
    assert _signed_in(second) == str(finance.pk)


def test_the_api_token_of_a_table_system_is_unchanged(finance, clock) -> None:
    enrolled(finance, clock)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=finance)}")
    assert api.get("/api/progressive/meters/").status_code == 200


# --- The admin -----------------------------------------------------------------------------------------------


def test_the_admin_sign_in_asks_for_the_code_too(finance, clock, settings) -> None:
    device = enrolled(finance, clock)
    browser = Client()
    response = browser.post("/admin/login/?next=/admin/", {"username": finance.username, "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/admin/login/code/"
    assert _signed_in(browser) is None and browser.get("/admin/").status_code == 302
    prompt = browser.get("/admin/login/code/")
    assert prompt.status_code == 200 and "6-digit code" in prompt.content.decode()

    wrong = browser.post("/admin/login/code/", {"code": wrong_code_of(device, clock.now)})
    assert wrong.status_code == 200 and "not the code your app shows now" in wrong.content.decode()
    response = browser.post("/admin/login/code/", {"code": code_of(device, clock.now)})
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert browser.get("/admin/").status_code == 200
    assert list(SignInAttempt.objects.values_list("reason", flat=True).order_by("at", "id")) == [
        SignInReason.WRONG_CODE,
        SignInReason.SIGNED_IN,
    ]


def test_an_administrator_resets_a_lost_second_factor_in_the_admin_recorded(finance, administrator, clock) -> None:
    enrolled(finance, clock)
    admin = Client()
    admin.force_login(administrator)
    response = admin.post(
        "/admin/staff/user/", {"action": "reset_second_factor", "_selected_action": [finance.pk]}, follow=True
    )
    assert f"Second factor reset for {finance.username} (recorded)" in response.content.decode()
    assert not TOTPDevice.objects.filter(user=finance).exists()
    event = SecondFactorEvent.objects.get(kind=SecondFactorEventKind.RESET)
    assert (event.user, event.actor) == (finance, administrator)
    assert "Reset by an administrator" in admin.get("/admin/staff/secondfactorevent/").content.decode()

    tablet = Client()
    assert _password(tablet, finance)["Location"] == "/floor/"  # the password alone, until they set up another


def test_only_an_administrator_resets_and_not_their_own(finance, manager, administrator, clock) -> None:
    device = enrolled(finance, clock)
    for person in (finance, manager):
        with pytest.raises(ActionNotPermitted):
            second_factor_reset(user=finance, actor=person)
    assert (
        TOTPDevice.objects.filter(pk=device.pk).exists()
        and not SecondFactorEvent.objects.filter(kind=SecondFactorEventKind.RESET).exists()
    )
    manager_admin = Client()
    manager_admin.force_login(manager)
    actions = manager_admin.get("/admin/staff/user/").content.decode()
    assert "reset_second_factor" not in actions


# --- Removing it ------------------------------------------------------------------------------------------------


def test_a_person_removes_their_own_after_re_entering_a_code(supervisor, clock) -> None:
    device = enrolled(supervisor, clock)
    tablet = Client()
    tablet.force_login(supervisor)

    response = tablet.post(PAGE, {"step": "remove", "code": wrong_code_of(device, clock.now)})
    assert "not the code your app shows now" in response.content.decode()
    assert TOTPDevice.objects.filter(pk=device.pk).exists()
    assert SignInAttempt.objects.get().reason == SignInReason.WRONG_CODE  # a wrong code counts here too

    response = tablet.post(PAGE, {"step": "remove", "code": code_of(device, clock.now)}, follow=True)
    assert "Your second factor is removed" in response.content.decode()
    assert not TOTPDevice.objects.filter(user=supervisor).exists()
    assert SecondFactorEvent.objects.filter(kind=SecondFactorEventKind.REMOVED, user=supervisor).count() == 1
    assert _password(Client(), supervisor)["Location"] == "/floor/"


# --- Required for roles ------------------------------------------------------------------------------------------


def test_a_room_requires_it_for_roles_and_such_a_person_sets_it_up_first(finance, supervisor, clock, settings) -> None:
    settings.STAFF_SECOND_FACTOR_REQUIRED_ROLES = ("finance",)
    assert second_factor_required(user=finance) and not second_factor_required(user=supervisor)
    tablet = Client()
    assert _password(tablet, finance).status_code == 302
    response = tablet.get("/floor/", follow=True)
    assert response.redirect_chain[-1][0] == PAGE
    assert "Your role requires a second factor" in response.content.decode()
    assert tablet.get("/admin/").status_code == 302
    assert tablet.get("/api/progressive/meters/").status_code == 403

    tablet.post(PAGE, {"step": "start"})
    device = TOTPDevice.objects.get(user=finance)
    tablet.post(PAGE, {"step": "confirm", "code": code_of(device, clock.now)})
    assert tablet.get("/floor/").status_code == 200

    other = Client()  # the supervisor's role does not require it
    _password(other, supervisor)
    assert other.get("/floor/").status_code == 200


@pytest.mark.parametrize("roles", [("dealer",), ("nobody",)])
def test_the_setting_names_only_roles_it_is_offered_to(finance, settings, roles) -> None:
    settings.STAFF_SECOND_FACTOR_REQUIRED_ROLES = roles
    with pytest.raises(ImproperlyConfigured, match=roles[0]):
        second_factor_required(user=finance)


def test_by_default_nobody_is_required_to_have_one(make_staff, settings) -> None:
    assert settings.STAFF_SECOND_FACTOR_REQUIRED_ROLES == ()
    assert not any(second_factor_required(user=make_staff(role)) for role in Role)
