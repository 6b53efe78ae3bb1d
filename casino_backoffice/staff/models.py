"""Staff, their Board credentials and signing PINs, and signatures.

A signature is a person re-confirming who they are (their PIN) at the moment of signing a document,
recorded with their role and Board-issued credential number as they stood at that moment, the time,
and a hash of what was signed (docs/architecture.md, Signatures). Signatures are never updated or deleted; a
trigger refuses it, on PostgreSQL and SQLite alike.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, ClassVar

from django.contrib.auth.models import AbstractUser, UserManager
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from casino_backoffice.core.audit import history_user

from .roles import Role

if TYPE_CHECKING:
    _UserManager = UserManager["User"]
else:
    _UserManager = UserManager


class StaffManager(_UserManager):
    def get_by_natural_key(self, username: str | None) -> User:
        return self.get(**{f"{self.model.USERNAME_FIELD}__iexact": username})


class User(AbstractUser):
    """A member of staff. Their roles are their groups (``Role``)."""

    credential_number = models.CharField(
        "Board credential number",
        max_length=32,
        unique=True,
        null=True,
        blank=True,
        help_text="The occupation permit or credential number issued by the Gaming Control Board.",
    )
    pin_hash = models.CharField(max_length=256, blank=True, editable=False)
    failed_pin_attempts = models.PositiveSmallIntegerField(default=0, editable=False)
    signing_locked_at = models.DateTimeField(null=True, blank=True, editable=False)
    all_rooms = models.BooleanField(
        "works in every room",
        default=False,
        db_default=False,
        help_text="The all-rooms grant, for property-wide staff (finance, compliance, an administrator) by choice: "
        "a person without it works only in the rooms they are given, and in none until they are given one.",
    )

    objects: ClassVar[StaffManager] = StaffManager()
    REQUIRED_FIELDS = ["email", "credential_number"]

    # Role changes (group membership) are audited too.
    history = HistoricalRecords(
        excluded_fields=["password", "pin_hash", "last_login"], m2m_fields=["groups"], get_user=history_user
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(credential_number=""), name="staff_user_credential_number_not_blank"),
        ]

    @cached_property
    def roles(self) -> frozenset[Role]:
        """Read once per instance: a request asks its user's roles in the permission check, the
        service and the page, with one query."""
        names = {group.name for group in self.groups.all()}
        return frozenset(role for role in Role if role.value in names)

    @property
    def works_everywhere(self) -> bool:
        """The all-rooms grant (a superuser holds it by being one): rooms are never a default."""
        return bool(self.all_rooms or self.is_superuser)

    @cached_property
    def works_nowhere(self) -> bool:
        """Given no room and not the all-rooms grant: refused everywhere until given one (read once
        per instance, as the roles are)."""
        return not self.works_everywhere and not self.poker_rooms.exists()

    @property
    def has_pin(self) -> bool:
        return bool(self.pin_hash)

    @property
    def signing_locked(self) -> bool:
        return self.signing_locked_at is not None

    def __str__(self) -> str:
        name = self.get_full_name() or self.username
        return f"{name} ({self.credential_number})" if self.credential_number else name


class Signature(models.Model):
    """One person's signature on one document, for one purpose (counter, witness, approver ...)."""

    document_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    document_id = models.CharField(max_length=64)
    document = GenericForeignKey("document_type", "document_id")
    purpose = models.CharField(max_length=40, help_text="What the signer attests, e.g. 'witness'.")
    rule = models.CharField(max_length=120, help_text="The signing rule checked, with its section.")
    signer = models.ForeignKey(User, on_delete=models.PROTECT, related_name="signatures")
    role = models.CharField(max_length=32, choices=Role.choices)
    credential_number = models.CharField(max_length=32)
    signed_at = models.DateTimeField()
    content_hash = models.CharField(max_length=64, help_text="SHA-256 of the signed content.")

    class Meta:
        ordering = ["signed_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["document_type", "document_id", "purpose"], name="staff_signature_one_per_purpose"
            ),
        ]
        indexes = [models.Index(fields=["document_type", "document_id"])]

    def __str__(self) -> str:
        return (
            f"{self.purpose} signature by {self.signer} ({self.get_role_display()}) at {self.signed_at:%Y-%m-%d %H:%M}"
        )


class SignInReason(models.TextChoices):
    """Why an attempt to sign in ended as it did (rows from before reasons were kept have none)."""

    SIGNED_IN = "signed_in", "Signed in"
    WRONG_PASSWORD = "wrong_password", "Wrong password"
    LOCKED_OUT = "locked_out", "Locked out"
    WRONG_CODE = "wrong_code", "Wrong second-factor code"
    REPLAYED_CODE = "replayed_code", "Second-factor code used already"


class SignInAttempt(models.Model):
    """One attempt to sign in, as compliance reads them: who was named, whether it succeeded, why,
    when, from where. A person with a second factor makes one attempt with the password and, when it
    is right, one with the code; only the code's success is a success. Re-entering the code to remove
    a second factor is an attempt too. Inserted once, never changed (a trigger refuses UPDATE, DELETE
    and TRUNCATE). The lockout counts a person's failures since their last success (``staff.signin``)."""

    username = models.CharField(max_length=150, db_index=True)
    succeeded = models.BooleanField()
    refused_locked = models.BooleanField(default=False, help_text="Refused before the password was checked: locked.")
    reason = models.CharField(max_length=20, choices=SignInReason.choices, blank=True, default="")
    at = models.DateTimeField()
    address = models.GenericIPAddressField(null=True, blank=True)
    user_agent = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["username", "at"], name="staff_signin_username_at")]

    def __str__(self) -> str:
        if self.reason:
            outcome = self.get_reason_display().lower()
        else:
            outcome = "signed in" if self.succeeded else "locked out" if self.refused_locked else "wrong password"
        return f"{self.username}: {outcome} at {self.at:%Y-%m-%d %H:%M:%S}"


class SecondFactorEventKind(models.TextChoices):
    CONFIRMED = "confirmed", "Turned on (first code confirmed)"
    REMOVED = "removed", "Removed by the person (code re-entered)"
    RESET = "reset", "Reset by an administrator"


class SecondFactorEvent(models.Model):
    """A person's second factor (``staff.second_factor``) turned on, removed by them or reset by an
    administrator, as compliance reads it: whose, what, by whom, when. Inserted once, never changed."""

    user = models.ForeignKey("staff.User", on_delete=models.PROTECT, related_name="second_factor_events")
    kind = models.CharField(max_length=20, choices=SecondFactorEventKind.choices)
    actor = models.ForeignKey("staff.User", on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["at"], name="staff_secondfactorevent_at")]

    def __str__(self) -> str:
        return f"{self.user}: {self.get_kind_display().lower()} by {self.actor} at {self.at:%Y-%m-%d %H:%M:%S}"


class RefusedAction(models.Model):
    """An action refused to a person whose roles may not take it (``permissions.action_require``), as
    compliance reads them: who, which action, their roles then, when. Inserted once, never changed."""

    user = models.ForeignKey("staff.User", on_delete=models.PROTECT, null=True, related_name="+")
    username = models.CharField(max_length=150)
    action = models.CharField(max_length=60)
    roles = models.CharField(max_length=300, blank=True, help_text="The roles the person held.")
    at = models.DateTimeField()

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["at"], name="staff_refusedaction_at")]

    def __str__(self) -> str:
        return f"{self.username} refused {self.action} at {self.at:%Y-%m-%d %H:%M:%S}"
