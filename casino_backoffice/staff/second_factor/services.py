"""Every write and read of the second factor: enrol, confirm, check a code, remove, reset."""

from __future__ import annotations

import base64
import enum
from dataclasses import dataclass

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp import models as totp_models
from django_otp.plugins.otp_totp.models import TOTPDevice

from ..exceptions import ActionNotPermitted, StaffError, StaffErrorCode
from ..models import SecondFactorEvent, SecondFactorEventKind, SignInReason, User
from ..permissions import ACTION_ROLES, Action, action_require
from ..roles import Role
from ..selectors import manages
from ..signin import signin_locked_until, signin_record, signin_turn

DEVICE_NAME = "Authenticator app"
CODE_DIGITS = 6


class WrongCode(StaffError):
    code = StaffErrorCode.WRONG_CODE


class CodeCheck(enum.Enum):
    """What a code said: right, wrong, or right but used already (its time step is not after the last
    accepted one); or nothing, the person being locked out of signing in (the code unchecked)."""

    ACCEPTED = "accepted"
    WRONG = "wrong"
    REPLAYED = "replayed"
    LOCKED_OUT = "locked_out"


# --- Reads ------------------------------------------------------------------------------------------


def second_factor_device(*, user: User) -> TOTPDevice | None:
    """The person's confirmed device: asked for its code at every sign-in."""
    return TOTPDevice.objects.filter(user=user, confirmed=True).order_by("pk").first()


def second_factor_pending_device(*, user: User) -> TOTPDevice | None:
    """The device a person started to enrol and has not confirmed with a first code."""
    return TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()


def second_factor_required_roles() -> frozenset[Role]:
    """The roles ``STAFF_SECOND_FACTOR_REQUIRED_ROLES`` names: each must be one the second factor is
    offered to, else the setting is a mistake worth stopping for."""
    offered = ACTION_ROLES[Action.SECOND_FACTOR_USE]
    roles = set()
    for code in settings.STAFF_SECOND_FACTOR_REQUIRED_ROLES:
        try:
            role = Role(code)
        except ValueError:
            raise ImproperlyConfigured(
                f"STAFF_SECOND_FACTOR_REQUIRED_ROLES names {code!r}, which is no role."
            ) from None
        if role not in offered:
            raise ImproperlyConfigured(
                f"STAFF_SECOND_FACTOR_REQUIRED_ROLES names {code!r}, to whom the second factor is not offered "
                f"({', '.join(sorted(r.value for r in offered))})."
            )
        roles.add(role)
    return frozenset(roles)


def second_factor_required(*, user: User) -> bool:
    """Whether the person holds a role for which the room requires a second factor."""
    return bool(user.roles & second_factor_required_roles())


def otpauth_uri(device: TOTPDevice) -> str:
    """The ``otpauth://totp/...`` URI an authenticator app reads (its QR code holds the same text)."""
    return str(device.config_url)


def manual_key(device: TOTPDevice) -> str:
    """The key as an app asks it when typed in: base32, in groups of four."""
    text = base64.b32encode(device.bin_key).decode().rstrip("=")
    return " ".join(text[i : i + 4] for i in range(0, len(text), 4))


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as an inline SVG element (a path, no style attribute: it passes the
    tablet's Content-Security-Policy)."""
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    svg = image.to_string(encoding="unicode")
    return svg.replace("<svg ", '<svg class="qr" role="img" aria-label="QR code of the set-up link" ', 1)


# --- Checking a code ----------------------------------------------------------------------------------


def _library_clock() -> float:
    """The clock ``TOTPDevice.verify_token`` reads: a code is classified at the same moment it was checked."""
    return float(totp_models.time.time())


def _code_check(device: TOTPDevice, code: str) -> CodeCheck:
    """Check ``code`` against ``device`` (locked by the caller), which records the step accepted."""
    if device.verify_token(code):
        return CodeCheck.ACCEPTED
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = _library_clock()
    if code.isdigit() and totp.verify(int(code), device.tolerance):
        return CodeCheck.REPLAYED  # the right code of a step already used
    return CodeCheck.WRONG


def second_factor_sign_in_check(*, user: User, code: str, request: HttpRequest | None) -> CodeCheck:
    """The second step of signing in: the code of the person's confirmed device, after their right
    password. The attempt is recorded (a wrong or replayed code counts toward the sign-in lockout, as
    a wrong password does), in the username's turn (``signin_turn``), so parallel codes are checked
    one at a time and none once the person is locked out (``LOCKED_OUT``); the device row is locked,
    so two requests cannot both spend one code."""
    username = user.get_username()
    with signin_turn(username=username):
        if signin_locked_until(username=username) is not None:
            signin_record(username=username, succeeded=False, request=request, refused_locked=True)
            return CodeCheck.LOCKED_OUT
        device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=True).order_by("pk").first()
        result = CodeCheck.WRONG if device is None else _code_check(device, code)
        reason = {
            CodeCheck.ACCEPTED: SignInReason.SIGNED_IN,
            CodeCheck.WRONG: SignInReason.WRONG_CODE,
            CodeCheck.REPLAYED: SignInReason.REPLAYED_CODE,
        }[result]
        signin_record(username=username, succeeded=result is CodeCheck.ACCEPTED, request=request, reason=reason)
    return result


# --- Writes -------------------------------------------------------------------------------------------


def _event(*, user: User, kind: SecondFactorEventKind, actor: User) -> None:
    SecondFactorEvent.objects.create(user=user, kind=kind, actor=actor, at=timezone.now())


def second_factor_enrol_start(*, actor: User) -> TOTPDevice:
    """A person starts to set up their second factor: a new key (20 random bytes), not asked at sign-in
    until a first code confirms the app holds it. Starting again replaces an unconfirmed key."""
    action_require(actor=actor, action=Action.SECOND_FACTOR_USE)
    with transaction.atomic(durable=True):
        User.objects.select_for_update().get(pk=actor.pk)
        if TOTPDevice.objects.filter(user=actor, confirmed=True).exists():
            raise StaffError(f"{actor} has a second factor already; remove it first to set up another.")
        TOTPDevice.objects.filter(user=actor, confirmed=False).delete()
        return TOTPDevice.objects.create(user=actor, name=DEVICE_NAME, confirmed=False)


def second_factor_confirm(*, actor: User, code: str) -> TOTPDevice:
    """The first code from the app turns the second factor on: from the next sign-in, the code is asked."""
    action_require(actor=actor, action=Action.SECOND_FACTOR_USE)
    with transaction.atomic(durable=True):
        User.objects.select_for_update().get(pk=actor.pk)
        device = TOTPDevice.objects.select_for_update().filter(user=actor, confirmed=False).order_by("-pk").first()
        if device is None:
            raise StaffError("There is no second factor being set up: start again.")
        if _code_check(device, code) is not CodeCheck.ACCEPTED:
            raise WrongCode("That is not the code your app shows now. Check the app's clock, and type the code again.")
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        _event(user=actor, kind=SecondFactorEventKind.CONFIRMED, actor=actor)
    return device


def second_factor_remove(*, actor: User, code: str, request: HttpRequest | None) -> None:
    """A person removes their own second factor after re-entering a code from it. A wrong code is an
    attempt like one at sign-in: recorded, counted toward the lockout, and refused while locked out,
    in the username's turn (``signin_turn``) as at sign-in."""
    action_require(actor=actor, action=Action.SECOND_FACTOR_USE)
    username = actor.get_username()
    with signin_turn(username=username):
        if signin_locked_until(username=username) is not None:
            raise WrongCode(
                "Too many wrong passwords or codes: the second factor cannot be removed until the sign-in lock ends."
            )
        User.objects.select_for_update().get(pk=actor.pk)
        device = TOTPDevice.objects.select_for_update().filter(user=actor, confirmed=True).order_by("pk").first()
        if device is None:
            raise StaffError(f"{actor} has no second factor to remove.")
        result = _code_check(device, code)
        if result is CodeCheck.ACCEPTED:
            TOTPDevice.objects.filter(user=actor).delete()
            _event(user=actor, kind=SecondFactorEventKind.REMOVED, actor=actor)
        else:
            reason = SignInReason.REPLAYED_CODE if result is CodeCheck.REPLAYED else SignInReason.WRONG_CODE
            signin_record(username=username, succeeded=False, request=request, reason=reason)
    if result is not CodeCheck.ACCEPTED:
        raise WrongCode(
            "That code was used already: wait for the next one."
            if result is CodeCheck.REPLAYED
            else "That is not the code your app shows now."
        )


def second_factor_reset(*, user: User, actor: User) -> bool:
    """An administrator removes a person's second factor (a lost phone): they sign in with their
    password alone until they set up another (at once, when their role requires one). Recorded; False
    when the person had none. Only an administrator of the person's room (issue 25, item 2)."""
    action_require(actor=actor, action=Action.SECOND_FACTOR_RESET)
    if not manages(actor, user):
        raise ActionNotPermitted(
            f"{actor} does not work in a room of {user}: an administrator of their room resets their second "
            "factor. Nothing was changed.",
            action=Action.SECOND_FACTOR_RESET,
        )
    if actor.pk == user.pk:
        raise StaffError("An administrator resets another person's second factor; remove your own on the tablet.")
    with transaction.atomic(durable=True):
        User.objects.select_for_update().get(pk=user.pk)
        deleted, _ = TOTPDevice.objects.filter(user=user).delete()
        if deleted:
            _event(user=user, kind=SecondFactorEventKind.RESET, actor=actor)
    return bool(deleted)


@dataclass(frozen=True)
class Enrolment:
    """What the enrolment page shows of a key being set up."""

    uri: str
    key: str
    qr_svg: str


def enrolment_of(device: TOTPDevice) -> Enrolment:
    uri = otpauth_uri(device)
    return Enrolment(uri=uri, key=manual_key(device), qr_svg=qr_svg(uri))
