"""Every write about staff: people, roles, PINs and signatures."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NoReturn

from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from knox.models import AuthToken

from casino_backoffice.core.rooms import works_beside

from .exceptions import (
    ActionNotPermitted,
    AlreadySigned,
    DuplicateCredentialNumber,
    InvalidPin,
    NoPin,
    SignerNotIndependent,
    SignerRoleNotAllowed,
    SigningLocked,
    StaffError,
    StaffErrorCode,
    WrongPin,
)
from .models import Signature, User
from .permissions import Action, action_require
from .pins import pin_hash_check, pin_hash_make
from .roles import ADMIN_ROLES, ROLE_PERMISSIONS, Role
from .selectors import manages
from .signing import SignableDocument, SigningRule, content_hash

# A signing PIN: 4 to 8 digits (0-9 only). Forms refuse anything else before the PIN is checked, so a
# typo never counts toward the signing lock.
PIN_MIN_DIGITS = 4
PIN_MAX_DIGITS = 8
PIN_PATTERN = re.compile(rf"^[0-9]{{{PIN_MIN_DIGITS},{PIN_MAX_DIGITS}}}$")
PIN_RULE = f"A signing PIN is {PIN_MIN_DIGITS} to {PIN_MAX_DIGITS} digits."

logger = logging.getLogger(__name__)


def roles_sync(*, using: str = "default") -> None:
    """Make each role's group hold exactly the permissions ``ROLE_PERMISSIONS`` names."""
    for role in Role:
        group, _ = Group.objects.using(using).get_or_create(name=role.value)
        wanted = ROLE_PERMISSIONS.get(role, {})
        codenames = Permission.objects.using(using).none()
        for app_label, actions in wanted.items():
            codenames |= Permission.objects.using(using).filter(
                content_type__app_label=app_label,
                codename__regex=rf"^({'|'.join(actions)})_",
            )
        group.permissions.set(codenames)


def _validate_pin(pin: str) -> None:
    if not PIN_PATTERN.match(pin or ""):
        raise InvalidPin(PIN_RULE)


def pin_set(*, user: User, pin: str, actor: User | None = None) -> None:
    """A person sets their own signing PIN (stored as an HMAC, ``staff.pins``).

    A person whose signing is locked after wrong PINs cannot: a new PIN would lift the lock that only
    an administrator lifts (``signing_unlock``), and whoever tried the PINs may also know the password.
    ``actor`` is the person themselves; none means the operator of the server at the command line
    (``createsuperuser``)."""
    if actor is not None:
        action_require(actor=actor, action=Action.PIN_SET)
        if actor.pk != user.pk:
            raise ActionNotPermitted(
                f"{actor} cannot set the signing PIN of {user}: each person sets their own.", action=Action.PIN_SET
            )
    _validate_pin(pin)
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.signing_locked_at is not None:
            raise SigningLocked(
                f"Signing is locked for {locked} after wrong PINs: an administrator must unlock it before a "
                "new PIN can be set. Nothing was changed."
            )
        locked.pin_hash = pin_hash_make(pin)
        locked.failed_pin_attempts = 0
        locked._change_reason = f"PIN set by {actor or 'the person'}"  # type: ignore[attr-defined]
        locked.save(update_fields=["pin_hash", "failed_pin_attempts"])
    user.pin_hash, user.failed_pin_attempts = locked.pin_hash, 0


def signing_unlock(*, user: User, actor: User) -> None:
    """An administrator of the person's room lifts a signing lock after too many wrong PINs (the person
    cannot: ``pin_set`` refuses while the lock holds)."""
    action_require(actor=actor, action=Action.SIGNING_UNLOCK)
    if not works_beside(actor, user):
        raise ActionNotPermitted(
            f"{actor} does not work in a room of {user}: an administrator of their room unlocks their signing. "
            "Nothing was changed.",
            action=Action.SIGNING_UNLOCK,
        )
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        locked.failed_pin_attempts = 0
        locked.signing_locked_at = None
        locked._change_reason = f"signing unlocked by {actor}"  # type: ignore[attr-defined]
        locked.save(update_fields=["failed_pin_attempts", "signing_locked_at"])


def _require_manages(*, actor: User, user: User) -> None:
    """An administrator acts on the tokens of the people of their rooms only (issue 25, item 2)."""
    if not manages(actor, user):
        raise ActionNotPermitted(
            f"{actor} does not work in a room of {user}: an administrator of their room manages their API tokens. "
            "Nothing was changed.",
            action=Action.STAFF_MANAGE,
        )


def api_token_create(*, user: User, actor: User | None = None, replace: bool = False) -> str:
    """A new API token for ``user`` (a table or cage system acting as that person, with their roles and
    rooms as they stand at each request), returned once: only its SHA-512 digest is stored (knox), so
    nobody can read it back. ``replace`` revokes the person's other tokens first. ``actor`` is the
    administrator who makes it; none means the operator of the server at the command line."""
    if actor is not None:
        action_require(actor=actor, action=Action.STAFF_MANAGE)
        _require_manages(actor=actor, user=user)
    if not user.is_active:
        raise StaffError(f"{user} is not an active member of staff: no token is made for them.")
    with transaction.atomic():
        if replace:
            AuthToken.objects.filter(user=user).delete()
        _, token = AuthToken.objects.create(user=user, expiry=None)
    logger.info("API token %s... made for %s by %s", token[:4], user.get_username(), actor or "the operator")
    return token


def api_token_revoke(*, token: AuthToken, actor: User) -> None:
    """An administrator of the token's person revokes it: the next request that carries it is refused (401)."""
    action_require(actor=actor, action=Action.STAFF_MANAGE)
    _require_manages(actor=actor, user=token.user)
    owner = token.user.get_username()
    AuthToken.objects.filter(pk=token.pk).delete()
    logger.info("API token %s... of %s revoked by %s", token.token_key[:4], owner, actor.get_username())


def staff_create(
    *,
    username: str,
    role: Role,
    credential_number: str,
    password: str,
    pin: str | None = None,
    first_name: str = "",
    last_name: str = "",
    email: str = "",
    extra_roles: Iterable[Role] = (),
    rooms: Iterable[Any] = (),
    all_rooms: bool = False,
) -> User:
    """Create a member of staff with a role (a group), a Board credential number, a signing PIN, and
    the rooms they work in: ``rooms`` (poker rooms), or ``all_rooms`` for property-wide staff by
    choice. One or the other is required: rooms are never a default."""
    credential_number = credential_number.strip()
    if not credential_number:
        raise StaffError("Every member of staff needs their Board credential number.")
    rooms = list(rooms)
    if not rooms and not all_rooms:
        raise StaffError(
            f"Give {username} the rooms they work in, or the all-rooms grant (property-wide staff only): "
            "a person given neither works nowhere."
        )
    if pin is not None:
        _validate_pin(pin)
    roles = [Role(role), *(Role(r) for r in extra_roles)]
    with transaction.atomic():
        if User.objects.filter(credential_number=credential_number).exists():
            raise DuplicateCredentialNumber(f"Credential number {credential_number} already belongs to another person.")
        try:
            with transaction.atomic():
                user = User.objects.create_user(
                    username=username,
                    password=password,
                    email=email,
                    first_name=first_name,
                    last_name=last_name,
                    credential_number=credential_number,
                    is_staff=any(r in ADMIN_ROLES for r in roles),
                    all_rooms=all_rooms,
                    pin_hash=pin_hash_make(pin) if pin else "",
                )
        except IntegrityError as error:
            if "credential_number" in str(error):
                raise DuplicateCredentialNumber(
                    f"Credential number {credential_number} already belongs to another person."
                ) from None
            raise StaffError(f"A person with the username {username!r} already exists.") from None
        user.groups.set(Group.objects.filter(name__in=[r.value for r in roles]))
        for room in rooms:  # from the room's side, whose staff history is kept (``PokerRoom.history``)
            room.staff.add(user)
    return user


def _room_codes(rooms: Iterable[Any]) -> str:
    return ", ".join(sorted(room.code for room in rooms))


def staff_access_check(
    *, actor: User, user: User | None, roles: Iterable[Role], rooms: Iterable[Any], all_rooms: bool
) -> None:
    """Refuse ``actor`` giving ``user`` (None: a person being created) these roles, rooms (the whole
    set they will work in) and all-rooms grant, unless the rules of issue 25, item 2 allow it:

    - an administrator (``Action.STAFF_MANAGE``) manages only the people of their rooms: a person who
      works beside them (a room in common; a person holding the all-rooms grant only for an all-rooms
      administrator; a superuser only for a superuser);
    - only an all-rooms administrator gives or takes away the all-rooms grant or a room they do not
      hold themselves;
    - roles (finance, compliance and administrator among them) change only for a person who will
      work in no room but the administrator's: a role is held in every room its person works in;
    - nobody grants themselves anything: their own roles, rooms and grant are another's to change.

    ``ActionNotPermitted``, whose message says which rule; nothing is changed."""
    action_require(actor=actor, action=Action.STAFF_MANAGE)
    roles, rooms = {Role(role) for role in roles}, set(rooms)
    held_roles = set(user.roles) if user is not None else set()
    held_rooms = set(user.poker_rooms.all()) if user is not None else set()
    held_all_rooms = bool(user.all_rooms) if user is not None else False
    changed = roles != held_roles or rooms != held_rooms or all_rooms != held_all_rooms

    def refuse(message: str) -> NoReturn:
        raise ActionNotPermitted(f"{message} Nothing was changed.", action=Action.STAFF_MANAGE)

    if user is not None and not manages(actor, user):
        refuse(f"{actor} does not work in a room of {user}: an administrator of their room manages them.")
    if user is not None and user.pk == actor.pk and changed:
        refuse("Your own roles and rooms are given by another administrator.")
    if actor.works_everywhere:
        return
    if all_rooms != held_all_rooms:
        refuse("Only an administrator holding the all-rooms grant gives it or takes it away.")
    mine = set(actor.poker_rooms.all())
    if foreign := (rooms ^ held_rooms) - mine:
        refuse(
            f"You do not administer room {_room_codes(foreign)}: only an administrator holding the all-rooms "
            "grant gives or takes away a room they do not hold."
        )
    if roles != held_roles and (elsewhere := rooms - mine):
        refuse(
            f"{user or 'This person'} also works in a room you do not administer ({_room_codes(elsewhere)}): "
            "their roles are changed by an administrator of every room they work in."
        )


def staff_access_set(
    *, user: User, actor: User, roles: Iterable[Role], rooms: Iterable[Any], all_rooms: bool, new: bool = False
) -> None:
    """An administrator gives ``user`` their roles (their groups), the rooms they work in (the whole
    set; from the rooms' side, whose staff history is kept) and the all-rooms grant, as
    ``staff_access_check`` allows; ``new``: ``user`` was just made by ``actor`` (the admin's add form)
    and holds nothing yet. Whether they work in the back office (``is_staff``) follows their roles, as
    ``staff_create`` sets it; ``is_superuser`` and raw permissions are never given here."""
    roles, rooms = [Role(role) for role in roles], list(rooms)
    staff_access_check(actor=actor, user=None if new else user, roles=roles, rooms=rooms, all_rooms=all_rooms)
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        locked.all_rooms = all_rooms
        locked.is_staff = any(role in ADMIN_ROLES for role in roles)
        locked._change_reason = f"roles and rooms given by {actor}"  # type: ignore[attr-defined]
        locked.save(update_fields=["all_rooms", "is_staff"])
        locked.groups.set(Group.objects.filter(name__in=[role.value for role in roles]))
        held = set(locked.poker_rooms.all())
        for room in held - set(rooms):
            room.staff.remove(locked)
        for room in set(rooms) - held:
            room.staff.add(locked)
    user.all_rooms, user.is_staff = locked.all_rooms, locked.is_staff
    user.__dict__.pop("roles", None)  # read again at the next ask


@dataclass(frozen=True)
class VerifiedSigner:
    """A person who has just re-entered their PIN: the only way to reach ``signature_add``."""

    user: User
    verified_at: datetime


def pin_check(*, user: User, pin: str) -> VerifiedSigner:
    """Check a person's PIN at the moment of signing.

    A wrong PIN is counted and the count is kept even though the signing fails; after
    ``SIGNING_MAX_FAILED_PINS`` wrong PINs in a row the person's signing is locked until an
    administrator unlocks it. Call this before opening the document's transaction: it commits its
    own count; and after ``action_require``, so that a person whose role may not sign is refused
    without a PIN counted against them.
    """
    limit = settings.SIGNING_MAX_FAILED_PINS
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if not locked.is_active:
            raise StaffError(f"{locked} is not an active member of staff and cannot sign.")
        if locked.signing_locked_at is not None:
            raise SigningLocked(
                f"Signing is locked for {locked} after {limit} wrong PINs; an administrator must unlock it."
            )
        if not locked.pin_hash:
            raise NoPin(f"{locked} has no signing PIN yet; set one before signing.")
        match = pin_hash_check(pin=pin or "", stored=locked.pin_hash)
        correct = match.correct
        if correct:
            changed = []
            if match.outdated:  # a PIN hashed with a password hasher, before ``staff.pins``
                locked.pin_hash = pin_hash_make(pin)
                locked._change_reason = "PIN stored again as an HMAC at its use"  # type: ignore[attr-defined]
                changed.append("pin_hash")
            if locked.failed_pin_attempts:
                locked.failed_pin_attempts = 0
                changed.append("failed_pin_attempts")
            if changed:
                locked.save(update_fields=changed)
        else:
            locked.failed_pin_attempts += 1
            if locked.failed_pin_attempts >= limit:
                locked.signing_locked_at = timezone.now()
            locked.save(update_fields=["failed_pin_attempts", "signing_locked_at"])
    # Raised outside the atomic block so that the count of wrong PINs is kept.
    if not correct:
        left = limit - locked.failed_pin_attempts
        if left <= 0:
            raise SigningLocked(f"Wrong PIN for {locked}. Signing is now locked; an administrator must unlock it.")
        raise WrongPin(f"Wrong PIN for {locked}. {left} {'try' if left == 1 else 'tries'} left before signing locks.")
    return VerifiedSigner(user=locked, verified_at=timezone.now())


def _signed_role(signer: User, rule: SigningRule) -> Role:
    held = signer.roles
    for role in rule.roles:
        if role in held:
            return role
    held_text = ", ".join(sorted(role.label.lower() for role in held)) or "no role"
    raise SignerRoleNotAllowed(
        f"{signer} cannot sign as {rule.purpose}: the rule is '{rule.words}', and they are {held_text}.",
        action=rule.action,
    )


def signature_add(*, document: SignableDocument, rule: SigningRule, signer: VerifiedSigner) -> Signature:
    """Sign ``document`` for ``rule.purpose``, checking the rule. Runs inside the caller's transaction,
    which must hold a lock on the document."""
    if not connection.in_atomic_block:
        raise RuntimeError("signature_add runs inside the transaction of the service that signs.")
    user = signer.user
    doc_type = ContentType.objects.get_for_model(type(document))
    existing = {
        signature.purpose: signature
        for signature in Signature.objects.filter(document_type=doc_type, document_id=str(document.pk)).select_related(
            "signer"
        )
    }
    if rule.purpose in existing:
        raise AlreadySigned(f"This document is already signed as {rule.purpose} by {existing[rule.purpose].signer}.")
    missing = [purpose for purpose in rule.requires if purpose not in existing]
    if missing:
        raise StaffError(
            f"The {', '.join(missing)} must sign before the {rule.purpose}.", code=StaffErrorCode.SIGNATURE_ORDER
        )
    role = _signed_role(user, rule)
    for purpose in rule.not_same_as:
        other = existing.get(purpose)
        if other is not None and other.signer_id == user.pk:
            raise SignerNotIndependent(
                f"{user} signed this document as {purpose} and cannot also sign as {rule.purpose} "
                f"(rule: '{rule.words}')."
            )
    for field_name in rule.not_same_as_fields:
        if getattr(document, f"{field_name}_id", None) == user.pk:
            raise SignerNotIndependent(
                f"{user} is the {field_name.replace('_', ' ')} of this document and cannot sign it as "
                f"{rule.purpose} (rule: '{rule.words}')."
            )
    if not user.credential_number:
        raise StaffError(f"{user} has no Board credential number and cannot sign.")
    return Signature.objects.create(
        document_type=doc_type,
        document_id=str(document.pk),
        purpose=rule.purpose,
        rule=rule.name,
        signer=user,
        role=role.value,
        credential_number=user.credential_number,
        signed_at=signer.verified_at,
        content_hash=content_hash(document.signing_content()),
    )


def signature_verify(*, signature: Signature) -> bool:
    """True when the document still has the content its signer signed."""
    document = signature.document
    return document is not None and content_hash(document.signing_content()) == signature.content_hash
