"""Reads about rooms and tables: the one place the gaming day is computed, and the one place that
says which rooms a person works in and so which rows they may see (every face asks it)."""

from __future__ import annotations

from collections import deque
from datetime import date, datetime, timedelta
from functools import cache
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from .models import PokerRoom, RulesVersion

M = TypeVar("M", bound=models.Model)


def gaming_day(*, room: PokerRoom, at: datetime) -> date:
    """The gaming day of the moment ``at`` in ``room``.

    A gaming day starts at the room's ``gaming_day_starts`` in the room's own time zone; a moment
    before that hour belongs to the previous calendar day (a 3 a.m. hand with a 6 a.m. start is the
    previous day's business).
    """
    if timezone.is_naive(at):
        raise ValueError("gaming_day needs an aware datetime")
    local = at.astimezone(ZoneInfo(room.timezone))
    day = local.date()
    return day - timedelta(days=1) if local.time() < room.gaming_day_starts else day


def gaming_day_bounds(*, room: PokerRoom, day: date) -> tuple[datetime, datetime]:
    """The first moment of ``day`` and the first moment of the next, as aware datetimes."""
    zone = ZoneInfo(room.timezone)
    start = datetime.combine(day, room.gaming_day_starts, tzinfo=zone)
    end = datetime.combine(day + timedelta(days=1), room.gaming_day_starts, tzinfo=zone)
    return start, end


def rules_version_in_effect(*, room: PokerRoom, at: datetime) -> RulesVersion | None:
    """The version of a room's rules in effect at ``at``: the latest ``effective_from`` not after it,
    the later loaded when two share a moment (``RulesVersion``)."""
    return RulesVersion.objects.filter(room=room, effective_from__lte=at).order_by("-effective_from", "-number").first()


# --- Who works in which room ----------------------------------------------------------------------


def room_path(model: type[models.Model]) -> str | None:
    """The lookup from a row of ``model`` to its poker room: ``"pk"`` for a room, ``"room"``,
    ``"table__room"``, ``"distribution__claim__room"``: the shortest path along required foreign
    keys (every path of a row leads to the same room), None for a model no room owns (people, the
    ledger's accounts and transfers)."""
    return _room_path(model._meta.concrete_model or model)


@cache
def _room_path(model: type[models.Model]) -> str | None:
    if model is PokerRoom:
        return "pk"
    people = {settings.AUTH_USER_MODEL.lower()}
    seen = {model}
    paths: deque[tuple[type[models.Model], str]] = deque([(model, "")])
    while paths:
        current, path = paths.popleft()
        for field in current._meta.concrete_fields:
            related = field.related_model
            if not field.is_relation or related is None or getattr(field, "null", False):
                continue
            assert isinstance(related, type)
            if related._meta.label_lower in people or related in seen:
                continue
            lookup = f"{path}{field.name}"
            if related is PokerRoom:
                return lookup
            seen.add(related)
            paths.append((related, f"{lookup}__"))
    return None


def _assignments(user: Any) -> QuerySet[Any]:
    return PokerRoom.staff.through.objects.filter(user_id=user.pk)


def visible_to(user: Any, queryset: QuerySet[M], *, path: str | None = None) -> QuerySet[M]:
    """The rows of ``queryset`` in the rooms ``user`` works in (``PokerRoom.staff``): every row for a
    person assigned to no room, only their rooms' rows for a person assigned to some, none for a
    visitor who is not signed in. ``path`` leads from a row to its room (``room_path`` finds it);
    a model no room owns is returned as it is. No query of its own: the rooms are a subquery."""
    if not getattr(user, "is_authenticated", False):
        return queryset.none()
    lookup = path or room_path(queryset.model)
    if lookup is None:
        return queryset
    assignments = _assignments(user)
    return queryset.filter(Q(**{f"{lookup}__in": assignments.values("pokerroom_id")}) | ~Exists(assignments))


def rooms_of(user: Any) -> QuerySet[PokerRoom]:
    """The rooms ``user`` works in, by code: those they are assigned to, or every room when none."""
    return visible_to(user, PokerRoom.objects.order_by("code"))


def works_in(user: Any, room: PokerRoom) -> bool:
    """Whether ``user`` works in ``room`` (``PokerRoom.staff``): assigned to it, or to no room."""
    if not getattr(user, "is_authenticated", False):
        return False
    assignments = _assignments(user)
    return not assignments.exists() or assignments.filter(pokerroom_id=room.pk).exists()


def staff_of(room: PokerRoom) -> Q:
    """Who works in ``room``, as a filter of people: assigned to it, or to no room at all."""
    through = PokerRoom.staff.through.objects
    return Q(Exists(through.filter(user_id=OuterRef("pk"), pokerroom_id=room.pk))) | ~Q(
        Exists(through.filter(user_id=OuterRef("pk")))
    )
