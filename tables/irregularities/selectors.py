"""The irregularity log: a day's irregularities of a room, with their rulings, newest first."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import QuerySet

from ..selectors import visible_to
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
