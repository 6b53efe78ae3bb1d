"""Signing rules and signable documents.

A rule ('floorperson or above', 'not the same person as the counter') is declared once, as a
``SigningRule`` beside the document it governs, and checked by ``signature_add`` at the moment of
signing, with an error that names the broken rule. Who may sign is who may take the rule's action
in the one table of actions and roles (``permissions.ACTION_ROLES``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.contrib.contenttypes.models import ContentType
from django.db import models

from .permissions import Action, roles_of
from .roles import Role

if TYPE_CHECKING:
    from .models import Signature


@dataclass(frozen=True)
class SigningRule:
    """Who may sign a document for one purpose.

    ``action``: the signer must hold a role that may take it (``roles``; the first held, in the
    order roles are declared, is recorded).
    ``not_same_as``: purposes on the same document whose signer must be another person.
    ``not_same_as_fields``: attributes of the document naming people who may not sign (the person
    who prepared a payout may not approve it).
    ``requires``: purposes that must already be signed.
    """

    purpose: str
    action: Action
    section: str = ""
    not_same_as: tuple[str, ...] = ()
    not_same_as_fields: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    description: str = field(default="", compare=False)

    @property
    def roles(self) -> tuple[Role, ...]:
        return roles_of(self.action)

    @property
    def name(self) -> str:
        """The rule as each signature records it (at most 120 characters): "explainer by poker shift
        supervisor, finance (§...)"."""
        roles = ", ".join(Role(role).label.lower() for role in self.roles)
        text = f"{self.purpose} by {roles}"
        if self.section:
            text += f" ({self.section})"
        return text

    @property
    def words(self) -> str:
        """The rule as pages and refusals say it: "Signed as the explainer by a poker shift supervisor
        or finance (§...)", "Signed as the approver by finance or an administrator"."""
        labels = [_signer(role) for role in self.roles]
        roles = labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} or {labels[-1]}"
        text = f"Signed as the {self.purpose} by {roles}"
        if self.section:
            text += f" ({self.section})"
        return text


# Roles that are a department: one of its people signs, "by finance", never "by a finance".
_DEPARTMENTS = frozenset({Role.FINANCE, Role.SURVEILLANCE, Role.COMPLIANCE})


def _signer(role: Role) -> str:
    """Who signs, as a rule says it: 'a floorperson', 'an administrator', 'finance'."""
    label = Role(role).label.lower()
    if role in _DEPARTMENTS:
        return label
    return f"{'an' if label[0] in 'aeiou' else 'a'} {label}"


def _default(value: Any) -> Any:
    # One moment hashes the same whatever zone it was written in: a document signed with the room's
    # local time and read back from the database in UTC still matches its signature.
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise TypeError(f"cannot sign a naive datetime ({value.isoformat()}); give its time zone")
        return value.astimezone(UTC).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, models.Model):
        return f"{value._meta.label}:{value.pk}"
    raise TypeError(f"cannot sign a {type(value).__name__}")


def content_hash(content: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of a document's signed content (datetimes in UTC)."""
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), default=_default)
    return hashlib.sha256(canonical.encode()).hexdigest()


class SignableDocument(models.Model):
    """A document people sign. Once it carries a signature, its signed content cannot change."""

    class Meta:
        abstract = True

    def signing_content(self) -> dict[str, Any]:
        """What a signature attests: every field that matters, in a stable form."""
        raise NotImplementedError

    def signatures(self) -> models.QuerySet[Signature]:
        from .models import Signature

        return Signature.objects.filter(
            document_type=ContentType.objects.get_for_model(type(self)), document_id=str(self.pk)
        ).select_related("signer")

    @property
    def is_signed(self) -> bool:
        return self.pk is not None and self.signatures().exists()


def refuse_change_of_signed_document(sender: type, instance: models.Model, **kwargs: Any) -> None:
    """pre_save guard: a document whose signed content differs from what was signed is refused.

    Fields outside ``signing_content`` (a status moving on) may change; the attested content may not.
    """
    from .exceptions import DocumentIsSigned

    if not isinstance(instance, SignableDocument) or instance.pk is None or kwargs.get("raw"):
        return
    latest = instance.signatures().order_by("-signed_at", "-id").first()
    if latest is not None and content_hash(instance.signing_content()) != latest.content_hash:
        raise DocumentIsSigned(
            f"{instance._meta.verbose_name} {instance.pk} is signed and cannot change; "
            "correct it with a new document that points at it."
        )
