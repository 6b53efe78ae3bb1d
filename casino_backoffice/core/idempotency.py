"""Idempotent documents: the same key and the same request give the first answer again; the same
key with another request is refused (HTTP 409) and changes nothing.

A service that creates a document stores ``idempotency_key`` (unique) and ``request_sha256`` (the
fingerprint of what was asked) on it. ``document_replay`` answers a retry; parallel posts of one key
meet at the unique key and the loser reads the winner's document.

A retry can also race its own first attempt: it finds no document yet, waits for the lock the first
attempt holds, and then meets the state the first attempt left (the box counted, the claim
distributed) and is refused by a rule. ``document_replay_after`` is how every service ends such a
refusal: when the document of this very key and request now exists, the answer is that document, as
for any other retry.

Every replayed answer carries ``Idempotent-Replayed: true``, decided by what answered, not by a look
before the service ran (the loser of two parallel posts of one key looked before the winner wrote):
``document_replay`` notes each document it answers again (``replay_note``, for a document found by
another rule than its key too), and the API reads the notes of its request (``replays_noted``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, TypeVar

from django.db import IntegrityError, models

from .exceptions import Conflict, DomainError


class IdempotencyKeyReused(Conflict):
    code = "idempotency_key_reused"


def request_fingerprint(values: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of a request (datetimes in UTC, models by primary key)."""

    def default(value: Any) -> Any:
        if isinstance(value, datetime):
            return value.astimezone(UTC).isoformat()
        if isinstance(value, models.Model):
            return value.pk
        return str(value)

    canonical = json.dumps(values, sort_keys=True, separators=(",", ":"), default=default)
    return hashlib.sha256(canonical.encode()).hexdigest()


D = TypeVar("D", bound=models.Model)

# The documents answered again in the current request, while the API watches (``replays_noted``). A
# list, not a flag set anew: a service run in a copied context (a thread of sync_to_async) still adds
# to the request's list.
_REPLAYS: ContextVar[list[models.Model] | None] = ContextVar("idempotency_replays", default=None)


@contextmanager
def replays_noted() -> Iterator[list[models.Model]]:
    """The documents that the services called inside answer again instead of recording (empty when
    they recorded); a new list each time, so nothing of another request is counted."""
    noted: list[models.Model] = []
    token = _REPLAYS.set(noted)
    try:
        yield noted
    finally:
        _REPLAYS.reset(token)


def replay_note(document: models.Model) -> None:
    """Say that ``document``, recorded before, is the answer to this request: a replay."""
    noted = _REPLAYS.get()
    if noted is not None:
        noted.append(document)


def document_replay(*, model: type[D], idempotency_key: str, fingerprint: str) -> D | None:
    """The document first created under this key when the request is the same; None when the key is
    new; ``IdempotencyKeyReused`` when it was used for another request."""
    existing = model._default_manager.filter(idempotency_key=idempotency_key).first()
    if existing is None:
        return None
    if getattr(existing, "request_sha256", None) != fingerprint:
        name = model._meta.verbose_name
        raise IdempotencyKeyReused(
            f"The Idempotency-Key {idempotency_key!r} was used for another request ({name} {existing.pk}); "
            f"nothing was recorded. Use a new key for a new {name}."
        )
    replay_note(existing)
    return existing


def document_replay_after(
    error: IntegrityError | DomainError, *, model: type[D], idempotency_key: str, fingerprint: str
) -> D:
    """After ``error`` refused a request: the document that a concurrent attempt of the same request
    recorded under its key (the first attempt of a retry that waited for it), else ``error`` itself.

    Services call it from ``except (IntegrityError, DomainError) as error`` around everything after
    their first ``document_replay``; it answers ``IdempotencyKeyReused`` when the winner under that key
    was another request."""
    replayed = document_replay(model=model, idempotency_key=idempotency_key, fingerprint=fingerprint)
    if replayed is None:
        raise error
    return replayed
