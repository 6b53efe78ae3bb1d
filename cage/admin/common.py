"""What the cage's admin pages share: the read-only base, the default filter, the rooms a person
works in and the day asked for."""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest, HttpResponse

from casino_backoffice.core.admin import ReadOnlyAdmin
from casino_backoffice.staff.permissions import Action, may
from tables.models import PokerRoom
from tables.selectors import rooms_of

MONEY_INPUT = forms.TextInput(
    attrs={"inputmode": "decimal", "placeholder": "0.00", "autocomplete": "off", "size": "12"}
)


class DefaultFilter(admin.SimpleListFilter):
    """A list filter with a default choice: the list opens on what a cashier works from."""

    default = ""

    def value(self) -> str:
        value = super().value()
        return self.default if value is None else str(value)

    def choices(self, changelist: Any) -> Any:
        for lookup, title in self.lookup_choices:
            yield {
                "selected": self.value() == str(lookup),
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }


class CageAdmin(ReadOnlyAdmin):
    change_list_template = "admin/cage/change_list.html"

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        context = {"may_read_record": may(request.user, Action.CAGE_RECORD_READ), **(extra_context or {})}
        return super().changelist_view(request, context)


def rooms_asked(request: HttpRequest) -> list[PokerRoom]:
    """The rooms a page may ask for: those the person works in (``tables.selectors.rooms_of``)."""
    return list(rooms_of(request.user))


def room_asked(request: HttpRequest, rooms: list[PokerRoom]) -> PokerRoom | None:
    return next((room for room in rooms if room.code == request.GET.get("room")), rooms[0] if rooms else None)


def day_asked(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:
        return None
