"""Filters the tables' logs share in the admin (irregularities, devices, decks): by gaming day and by
table, each offering only what the person's rooms hold."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

# The days a filter offers; any other day is asked in the address (``?gaming_day=2026-11-29``).
DAYS_OFFERED = 31


class GamingDayFilter(admin.SimpleListFilter):
    """The rows of one gaming day (the room's, ``tables.selectors.gaming_day``): the latest days that
    hold rows are offered."""

    title = "gaming day"
    parameter_name = "gaming_day"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        days = (
            model_admin.get_queryset(request)
            .order_by("-gaming_day")
            .values_list("gaming_day", flat=True)
            .distinct()[:DAYS_OFFERED]
        )
        return [(day.isoformat(), day.isoformat()) for day in days]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if not self.value():
            return queryset
        try:
            day = date.fromisoformat(str(self.value()))
        except ValueError:
            return queryset.none()  # not a day: nothing, rather than every day
        return queryset.filter(gaming_day=day)


class TableFilter(admin.SimpleListFilter):
    """The rows of one table, named with its room (two rooms may both have a T1)."""

    title = "table"
    parameter_name = "table"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        tables = (
            model_admin.get_queryset(request)
            .order_by("table__room__code", "table__number")
            .values_list("table_id", "table__room__code", "table__number")
            .distinct()
        )
        return [(str(pk), f"{room} {number}") for pk, room, number in tables]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if not value:
            return queryset
        return queryset.filter(table_id=value) if str(value).isdigit() else queryset.none()
