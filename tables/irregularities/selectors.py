"""The irregularity log: a day's irregularities of a room, with their rulings, newest first."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any, Protocol

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.module_loading import import_string

from ..selectors import gaming_day as gaming_day_of
from ..selectors import rooms_of, visible_to
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


def irregularities_of_the_day(*, user: Any, day: date | None = None) -> QuerySet[Irregularity]:
    """The irregularities of ``day`` in the rooms ``user`` works in, ruled or not, newest first: by
    default each room's gaming day now (rooms may keep different clocks and day starts)."""
    now = timezone.now()
    of_the_day = Q(pk__in=[])
    for room in rooms_of(user):
        of_the_day |= Q(room=room, gaming_day=day or gaming_day_of(room=room, at=now))
    return Irregularity.objects.filter(of_the_day).select_related(*IRREGULARITY_RELATED).order_by("-occurred_at", "-pk")


def irregularities_unruled(*, user: Any) -> QuerySet[Irregularity]:
    """The irregularities awaiting their ruling in the rooms ``user`` works in, whatever their gaming
    day, oldest first: the ruling is owed from the moment it was reported."""
    unruled = Irregularity.objects.filter(ruling__isnull=True).select_related("room", "table", "round", "reported_by")
    return visible_to(user, unruled).order_by("occurred_at", "pk")


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
