"""Reads of signatures for the signed documents' reports (count sheets, Bad Beat claim files), and of
the people an administrator answers for."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db.models import Q, QuerySet

from casino_backoffice.core.rooms import visible, works_beside

from .models import Signature, User


@dataclass(frozen=True)
class SignatureLine:
    """One signature as a report prints it: what it attests, who (name, role, Board credential
    number), when, and the hash of what was signed."""

    purpose: str
    name: str
    role: str
    credential_number: str
    signed_at: datetime
    content_hash: str


def signature_lines(documents: Iterable[Any]) -> dict[tuple[int, str], list[SignatureLine]]:
    """Every signature of ``documents``, keyed by (content type id, document id), oldest first, in
    one query whatever the number of documents and kinds."""
    by_type: dict[int, set[str]] = defaultdict(set)
    for document in documents:
        by_type[ContentType.objects.get_for_model(type(document)).pk].add(str(document.pk))
    if not by_type:
        return {}
    condition = Q()
    for type_id, ids in by_type.items():
        condition |= Q(document_type_id=type_id, document_id__in=ids)
    lines: dict[tuple[int, str], list[SignatureLine]] = defaultdict(list)
    for signature in Signature.objects.filter(condition).select_related("signer").order_by("signed_at", "pk"):
        lines[(signature.document_type_id, signature.document_id)].append(
            SignatureLine(
                purpose=signature.purpose,
                name=signature.signer.get_full_name() or signature.signer.username,
                role=signature.get_role_display(),
                credential_number=signature.credential_number,
                signed_at=signature.signed_at,
                content_hash=signature.content_hash,
            )
        )
    return lines


def signature_key(document: Any) -> tuple[int, str]:
    """The key of ``document`` in what ``signature_lines`` answers."""
    return ContentType.objects.get_for_model(type(document)).pk, str(document.pk)


def people_managed_by(actor: Any, people: QuerySet[User]) -> QuerySet[User]:
    """The people ``actor`` answers for in the back office (issue 25, item 2): those who work beside
    them (``core.rooms.visible``: a room in common; a person holding the all-rooms grant only for an
    all-rooms administrator), and a superuser, the operator's own account, only for a superuser."""
    beside = visible(actor, people)
    return beside if getattr(actor, "is_superuser", False) else beside.filter(is_superuser=False)


def manages(actor: Any, person: User) -> bool:
    """Whether ``actor`` answers for ``person`` (``people_managed_by``), for one person."""
    if person.is_superuser and not getattr(actor, "is_superuser", False):
        return False
    return works_beside(actor, person)
