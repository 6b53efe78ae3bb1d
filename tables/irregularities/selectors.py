"""The irregularity log: a day's irregularities of a room, with their rulings, newest first."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any, Protocol

from django.conf import settings
from django.db.models import QuerySet
from django.utils.module_loading import import_string

from ..selectors import visible_to
from .kinds import IrregularityKind
from .models import Irregularity

# What an irregularity's answer reads: one query for a page of the log.
IRREGULARITY_RELATED = ("room", "table", "round", "reported_by", "ruling__ruled_by")


def irregularities_filtered(
    *,
    user: Any,
    room_id: int | None = None,
    gaming_day: date | None = None,
    table_number: str | None = None,
    kind: str | None = None,
) -> QuerySet[Irregularity]:
    """The irregularities of the rooms ``user`` works in, filtered as given, newest first."""
    found = visible_to(user, Irregularity.objects.select_related(*IRREGULARITY_RELATED))
    if room_id is not None:
        found = found.filter(room_id=room_id)
    if gaming_day is not None:
        found = found.filter(gaming_day=gaming_day)
    if table_number:
        found = found.filter(table__number=table_number)
    if kind:
        found = found.filter(kind=kind)
    return found.order_by("-occurred_at", "-pk")


def irregularity_shown(pk: int) -> Irregularity:
    """An irregularity as the API answers it."""
    return Irregularity.objects.select_related(*IRREGULARITY_RELATED).get(pk=pk)


class VoidReturned(Protocol):
    """What a round's void returned to the pot, as the ledger moved it (``rake.services.voids``)."""

    @property
    def void(self) -> Any: ...  # the ``RoundVoid``: its reason, who voided it and when, its signature

    @property
    def rake_cents(self) -> int: ...

    @property
    def drops_cents(self) -> dict[str, int]: ...  # each jackpot's drop, by its code

    @property
    def total_cents(self) -> int: ...


def voids_returned(irregularities: Iterable[Irregularity]) -> dict[int, VoidReturned]:
    """The void recorded with each of ``irregularities`` and what it returned, by irregularity id.

    A round already recorded is voided by the rake (an app above this one), which records the void's
    irregularity here (§637a.18(i)); the composition root names its reader in the setting
    ``IRREGULARITY_VOIDS_RETURNED``. Only missing or extra cards void a round: the others cost no query."""
    ids = [
        irregularity.pk
        for irregularity in irregularities
        if irregularity.kind == IrregularityKind.MISSING_OR_EXTRA_CARDS
    ]
    path = getattr(settings, "IRREGULARITY_VOIDS_RETURNED", "")
    if not ids or not path:
        return {}
    return dict(import_string(path)(irregularity_ids=ids))
