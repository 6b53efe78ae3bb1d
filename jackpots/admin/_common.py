"""What the Bad Beat's admin pages share: who reads them, the page where a person signs with their PIN,
and the room and the period a report asks for."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils import timezone

from casino_backoffice.core.admin import ReadOnlyAdmin
from casino_backoffice.core.floor.forms import PinSignatureField
from casino_backoffice.staff.permissions import Action, may
from tables.models import PokerRoom
from tables.selectors import gaming_day, rooms_of


def require(request: HttpRequest, action: Action) -> None:
    """A page of the back office for those the one table of actions allows: 403 for anyone else."""
    if not may(request.user, action):
        raise PermissionDenied


class BadBeatAdmin(ReadOnlyAdmin):
    """Bad Beat documents and money rows: read by the back office (``Action.BAD_BEAT_RECORDS_READ``),
    never added, changed nor deleted here; services are their only writers."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) and may(request.user, Action.BAD_BEAT_RECORDS_READ)


class SignForm(forms.Form):
    """A form signed with the PIN; its idempotency key is made when the page is first shown, so a
    double click or a resent form signs once."""

    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=120)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial["idempotency_key"] = f"admin-{uuid.uuid4()}"
        # The PIN signs: it comes last, whatever the subclass adds.
        self.fields["pin"] = PinSignatureField()


def sign_page(
    request: HttpRequest,
    *,
    title: str,
    facts: Sequence[tuple[str, Any]],
    rule: str,
    form: forms.Form | None,
    submit_label: str,
    back: tuple[str, str],
    error: str = "",
    table: tuple[Sequence[str], Sequence[Sequence[Any]]] | None = None,
    note: str = "",
    breadcrumbs: Sequence[tuple[str, str]] = (),
) -> TemplateResponse:
    """The page where a person reads what they sign and signs it with their PIN; a refusal shows the
    service's message above the form and nothing was changed."""
    context = {
        **admin.site.each_context(request),
        "title": title,
        "facts": facts,
        "rule": rule,
        "form": form,
        "submit_label": submit_label,
        "back_label": back[0],
        "back_url": back[1],
        "error": error,
        "table": table,
        "note": note,
        "breadcrumbs": breadcrumbs,
    }
    return TemplateResponse(request, "admin/jackpots/sign.html", context)


def rooms(request: HttpRequest) -> list[PokerRoom]:
    """The rooms a report may ask for: those the person works in (``tables.selectors.rooms_of``)."""
    return list(rooms_of(request.user))


def room_of(request: HttpRequest, choices: list[PokerRoom]) -> PokerRoom | None:
    return next((room for room in choices if room.code == request.GET.get("room")), choices[0] if choices else None)


def day_of(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:
        return None


def period_of(request: HttpRequest, room: PokerRoom | None) -> tuple[date, date]:
    """The gaming days a report covers: ``?from=&to=`` (ISO dates), by default the month so far."""
    today = gaming_day(room=room, at=timezone.now()) if room is not None else timezone.localdate()
    start = day_of(request.GET.get("from")) or today.replace(day=1)
    end = day_of(request.GET.get("to")) or today
    return (start, end) if start <= end else (end, start)
