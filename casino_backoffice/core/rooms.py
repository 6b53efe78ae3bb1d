"""The rows of a queryset a person may see, as the layer that knows poker rooms says.

The kernel knows no rooms: the setting ``ROOMS_VISIBLE_TO`` names the function that does
(``tables.selectors.visible_to``: a person assigned to rooms sees only their rows, and only the people
who work beside them). The kernel's
document lookup (``api_common.document_or_404``) and its admin lists (``admin.ReadOnlyAdmin``) ask it,
so a row of another room is answered as a row that does not exist.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

from django.conf import settings
from django.db import models
from django.db.models import QuerySet
from django.utils.module_loading import import_string

M = TypeVar("M", bound=models.Model)


@cache
def _scope() -> Callable[[Any, QuerySet[Any]], QuerySet[Any]]:
    path = getattr(settings, "ROOMS_VISIBLE_TO", "")
    return import_string(path) if path else (lambda user, queryset: queryset)


def visible(user: Any, queryset: QuerySet[M]) -> QuerySet[M]:
    """The rows of ``queryset`` ``user`` may see: those of the rooms they work in."""
    return _scope()(user, queryset)


@cache
def _share() -> Callable[[Any, Any], bool]:
    path = getattr(settings, "ROOMS_SHARED_BY", "")
    return import_string(path) if path else (lambda user, other: True)


def works_beside(user: Any, other: Any) -> bool:
    """Whether ``user`` works in a room ``other`` works in (an administrator of a person's room)."""
    return _share()(user, other)
