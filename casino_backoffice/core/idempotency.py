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

A key is its sender's: the API records a key sent by a person or a table system in that sender's own
space (``sender_key``: ``<sender id>:<key as sent>``), so a key another sender used already is a new
request of this sender (its own document), never a 409 naming the other's document or telling that it
exists. Messages show the key as it was sent (``key_as_sent``). A document recorded before keys were
scoped holds the key as sent: a retry of that very request after the upgrade still answers it
(``document_replay`` also looks under the unscoped key, for the same request only), while another
request under such a key is a new document, as for any other sender; no data migration rewrites the
sealed documents.

A service writes this shape once, through ``DocumentOnce``: ``record`` looks for the document of the
key first, runs the service's write (its rule: PIN, lock, check again with ``replay_under_lock``,
write), and ends a refusal (a ``DomainError``, or the ``IntegrityError`` of a unique key another
attempt won) with ``document_replay_after``. The service keeps only its rule, and, where the loser of a
race on a unique key other than the idempotency key deserves a refusal naming what won, that refusal.

Every replayed answer carries ``Idempotent-Replayed: true``, decided by what answered, not by a look
before the service ran (the loser of two parallel posts of one key looked before the winner wrote):
``document_replay`` notes each document it answers again (``replay_note``, for a document found by
another rule than its key too), and the API reads the notes of its request (``replays_noted``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar, cast

from django.db import IntegrityError, models

from .exceptions import Conflict, CoreErrorCode, DomainError


class IdempotencyKeyReused(Conflict):
    code = CoreErrorCode.IDEMPOTENCY_KEY_REUSED


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

# ``<sender id>:<key as sent>``; a key as sent has 120 characters at most, so a scoped key fits the
# 200 characters of every document's ``idempotency_key`` with room for the sender's id.
_SCOPED = re.compile(r"(?P<sender>[0-9]+):(?P<sent>.+)", re.DOTALL)


def sender_key(*, sender_pk: int, key: str) -> str:
    """The key a service records for ``key`` as sent by the person or table system ``sender_pk``:
    scoped to that sender, so two senders' equal keys are two requests."""
    return f"{sender_pk}:{key}"


def key_as_sent(key: str) -> str:
    """The key as its sender sent it: without the sender's scope (``sender_key``)."""
    scoped = _SCOPED.fullmatch(key)
    return scoped["sent"] if scoped else key


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
    new; ``IdempotencyKeyReused`` when it was used for another request (by the same sender: keys are
    scoped, ``sender_key``).

    A document recorded before keys were scoped, under the key as sent, answers a retry of the same
    request (the same fingerprint) that straddled the upgrade; another request under that key is new."""
    existing = model._default_manager.filter(idempotency_key=idempotency_key).first()
    if existing is None:
        return document_replay_unscoped(model=model, idempotency_key=idempotency_key, fingerprint=fingerprint)
    if getattr(existing, "request_sha256", None) != fingerprint:
        name = model._meta.verbose_name
        raise IdempotencyKeyReused(
            f"The Idempotency-Key {key_as_sent(idempotency_key)!r} was used for another request "
            f"({name} {existing.pk}); nothing was recorded. Use a new key for a new {name}."
        )
    replay_note(existing)
    return existing


def document_replay_unscoped(*, model: type[D], idempotency_key: str, fingerprint: str) -> D | None:
    """The document of this very request recorded before keys were scoped, under the key as sent (a
    retry that straddled the upgrade); None for a key not scoped, or when there is none. A service
    that writes before it looks (an insert that skips a key already there) asks this first."""
    sent = key_as_sent(idempotency_key)
    if sent == idempotency_key:
        return None
    existing = model._default_manager.filter(idempotency_key=sent, request_sha256=fingerprint).first()
    if existing is not None:
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


class _Recorded(Exception):  # not an error: the answer found under the lock, carried out of the write
    """The document of this very request, found under the service's lock (``replay_under_lock``)."""

    def __init__(self, document: models.Model) -> None:
        super().__init__(document)
        self.document = document


@dataclass(frozen=True)
class DocumentOnce(Generic[D]):
    """One request for a document of ``model`` under ``idempotency_key`` (scoped to its sender,
    ``sender_key``), asking what ``fingerprint`` says: recorded once, answered again to a retry.

    ``record`` carries the replay and the race; the service's ``write`` carries only its rule::

        once = DocumentOnce(model=Count, idempotency_key=idempotency_key, fingerprint=fingerprint)
        return once.record(lambda: _count_write(once, ...))
    """

    model: type[D]
    idempotency_key: str
    fingerprint: str

    def replay(self) -> D | None:
        """The document of this request recorded before (noted as a replay), None when the key is new;
        ``IdempotencyKeyReused`` when the key was used for another request (``document_replay``)."""
        return document_replay(model=self.model, idempotency_key=self.idempotency_key, fingerprint=self.fingerprint)

    def replay_under_lock(self) -> None:
        """Check again, once the write holds its locks: a retry that waited for its first attempt's
        locks answers the document the first attempt recorded. Ends the write (its transaction rolls
        back, holding nothing written) and ``record`` answers that document. Called inside ``record``."""
        replayed = self.replay()
        if replayed is not None:
            raise _Recorded(replayed)

    def record(self, write: Callable[[], D], *, race_refusal: Callable[[], DomainError | None] | None = None) -> D:
        """The document of this request: the one recorded before under its key, else what ``write``
        records (it opens the outermost transaction, ``transaction.atomic(durable=True)``, and refuses
        by its rule with a ``DomainError``).

        A refusal of the write, or the ``IntegrityError`` of a unique key, answers the document a
        concurrent attempt of this very request recorded meanwhile (``document_replay_after``), and
        ``IdempotencyKeyReused`` when the winner under the key was another request. When there is
        none, a ``DomainError`` is raised as it is; an ``IntegrityError`` (the loser of a race on
        another unique key: the share paid, the seat recorded) becomes ``race_refusal()`` when it
        names what won, else it is raised as it is."""
        replayed = self.replay()
        if replayed is not None:
            return replayed
        try:
            return write()
        except _Recorded as recorded:
            return cast(D, recorded.document)  # found by ``self.replay``: a document of ``model``
        except IntegrityError:
            replayed = self.replay()
            if replayed is not None:
                return replayed
            refusal = race_refusal() if race_refusal is not None else None
            if refusal is None:
                raise
            raise refusal from None
        except DomainError as error:
            return self.replay_after(error)

    def replay_after(self, error: IntegrityError | DomainError) -> D:
        """After ``error`` refused this request: the document a concurrent attempt of it recorded, else
        ``error`` itself (``document_replay_after``)."""
        return document_replay_after(
            error, model=self.model, idempotency_key=self.idempotency_key, fingerprint=self.fingerprint
        )
