"""Collecting a chain's documents, then reading every transfer they posted and every signature on them
in two queries, whatever the chain's length (``Chain.links``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q

from casino_backoffice.core.clock import ZONED_SECOND, local_text
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.models import Signature
from tables.models import PokerRoom

from .model import Check, Link, Posted, Signed


@dataclass
class _Entry:
    step: str
    document: models.Model
    label: str
    amount_cents: int | None
    at: datetime | None
    details: tuple[tuple[str, str], ...]


class Chain:
    """The documents of one chain as the builders find them, each once, in the order found."""

    def __init__(self, *, room: PokerRoom, start: str) -> None:
        self.room = room
        self.start = start
        self._entries: dict[tuple[type, int], _Entry] = {}
        self.checks: list[Check] = []

    def add(
        self,
        step: str,
        document: models.Model,
        label: str,
        *,
        amount_cents: int | None = None,
        at: datetime | None = None,
        details: dict[str, str] | None = None,
    ) -> None:
        key = (type(document), int(document.pk))
        if key not in self._entries:
            shown = tuple((name, value) for name, value in (details or {}).items() if value not in ("", None))
            self._entries[key] = _Entry(step, document, label, amount_cents, at, shown)

    def has(self, document: models.Model) -> bool:
        return (type(document), int(document.pk)) in self._entries

    def check(self, step: str, what: str, *, expected: int, actual: int, explanation: str = "") -> None:
        check = Check(step, what, expected, actual, explanation if actual != expected else "")
        if check not in self.checks:  # a verification reached from two of its counts is checked once
            self.checks.append(check)

    def when(self, at: datetime | None) -> str:
        return local_text(at, self.room, ZONED_SECOND) if at else ""

    def links(self) -> tuple[Link, ...]:
        posted, signed = self._transfers(), self._signatures()
        return tuple(
            Link(
                step=entry.step,
                kind=entry.document._meta.model_name or "",
                id=int(entry.document.pk),
                label=entry.label,
                amount_cents=entry.amount_cents,
                at=self.when(entry.at),
                details=entry.details,
                transfers=tuple(posted.get(key, ())),
                signatures=tuple(signed.get(key, ())),
            )
            for key, entry in self._entries.items()
        )

    def _by_type(self) -> dict[ContentType, list[str]]:
        ids: dict[type, list[str]] = defaultdict(list)
        for model, pk in self._entries:
            ids[model].append(str(pk))
        types = ContentType.objects.get_for_models(*ids)
        return {types[model]: pks for model, pks in ids.items()}

    def _matching(self, type_field: str, id_field: str) -> Q:
        found = Q(pk__in=[])
        for content_type, pks in self._by_type().items():
            found |= Q(**{type_field: content_type, f"{id_field}__in": pks})
        return found

    def _model_of(self) -> dict[int, type]:
        return {int(ContentType.objects.get_for_model(model).pk): model for model, _ in self._entries}

    def _transfers(self) -> dict[tuple[type, int], list[Posted]]:
        models_by_type = self._model_of()
        found: dict[tuple[type, int], list[Posted]] = defaultdict(list)
        rows = (
            Transfer.objects.filter(self._matching("reference_type", "reference_id"))
            .select_related("debit", "credit")
            .order_by("posted_at", "pk")
        )
        for transfer in rows:
            key = (models_by_type[int(transfer.reference_type_id or 0)], int(transfer.reference_id))
            found[key].append(
                Posted(
                    id=transfer.pk,
                    kind=transfer.kind,
                    debit=transfer.debit.code,
                    credit=transfer.credit.code,
                    amount_cents=transfer.amount_cents,
                    posted_at=self.when(transfer.posted_at),
                )
            )
        return found

    def _signatures(self) -> dict[tuple[type, int], list[Signed]]:
        models_by_type = self._model_of()
        found: dict[tuple[type, int], list[Signed]] = defaultdict(list)
        rows = (
            Signature.objects.filter(self._matching("document_type", "document_id"))
            .select_related("signer")
            .order_by("signed_at", "pk")
        )
        for signature in rows:
            key = (models_by_type[int(signature.document_type_id)], int(signature.document_id))
            found[key].append(
                Signed(
                    purpose=signature.purpose,
                    person=signature.signer.get_full_name() or signature.signer.username,
                    role=signature.get_role_display(),
                    credential_number=signature.credential_number,
                    signed_at=self.when(signature.signed_at),
                    content_hash=signature.content_hash,
                )
            )
        return found


def person(user: Any) -> str:
    """A person as a trace names them: their name, else their username."""
    if user is None:
        return ""
    return user.get_full_name() or user.username
