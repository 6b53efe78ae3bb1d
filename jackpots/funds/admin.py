"""The funds in the admin: the jackpot funds and each round's drops, shown under the round; and what
every product's admin pages share (the action a page requires, the PIN signature page, the rooms of
the person and the room, day or period a page reads)."""

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

from casino_backoffice.core.admin import ReadOnlyAdmin, ReadOnlyInline
from casino_backoffice.core.floor.forms import PinSignatureField
from casino_backoffice.money import display_cents
from casino_backoffice.staff.permissions import Action, may
from jackpots.funds.models import Jackpot, RoundDrop
from tables.admin import RoundAdmin
from tables.models import PokerRoom, Round
from tables.selectors import gaming_day, rooms_of


@admin.register(Jackpot)
class JackpotAdmin(ReadOnlyAdmin):
    """The jackpot funds the rules files named; their rules are in each rules version."""

    list_display = ["code", "name", "kind", "room", "created_at"]
    list_filter = ["room", "kind"]
    list_select_related = ["room"]


class RoundDropInline(ReadOnlyInline):
    model = RoundDrop
    readonly_fields = ("jackpot_code", "amount", "rule")
    fields = readonly_fields

    @admin.display(description="Amount")
    def amount(self, drop: RoundDrop) -> str:
        return display_cents(drop.amount_cents)


# A round's drops are jackpots' rows, shown under the round: tables (below jackpots) registers the
# round's admin without them, and jackpots registers it again with them.
admin.site.unregister(Round)


@admin.register(Round)
class RoundWithDropsAdmin(RoundAdmin):
    inlines = [*RoundAdmin.inlines, RoundDropInline]


def require(request: HttpRequest, action: Action) -> None:
    """A page of the back office for those the one table of actions allows: 403 for anyone else."""
    if not may(request.user, action):
        raise PermissionDenied


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
