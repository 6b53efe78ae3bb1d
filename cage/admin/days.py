"""The close of a gaming day and the schedule's runs in the admin."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path

from cage.admin.common import CageAdmin, rooms_asked
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may

from ..floor.day_close import CloseDayForm, day_rows
from ..models import GamingDayClose, ScheduleRun
from ..services import gaming_day_close


@admin.register(GamingDayClose)
class GamingDayCloseAdmin(CageAdmin):
    """The closed gaming days, and finance's page to close one (*Close a gaming day*): each open day of
    their rooms with what still blocks it, each a link, and the close with the PIN (§637a.17)."""

    list_display = ["gaming_day", "room", "closed_by", "closed_at"]
    list_filter = ["room"]
    list_select_related = ["room", "closed_by"]
    change_list_template = "admin/cage/gamingdayclose_change_list.html"

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        context = {"may_close": may(request.user, Action.GAMING_DAY_CLOSE), **(extra_context or {})}
        return super().changelist_view(request, context)

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.close_view)
        return [path("close/", view, name="cage_gaming_day_close"), *super().get_urls()]

    def close_view(self, request: HttpRequest) -> HttpResponse:
        """Finance closes a gaming day (``gaming_day_close``); the page is ``cage.floor.day_close``'s."""
        if not may(request.user, Action.GAMING_DAY_CLOSE):
            raise PermissionDenied
        error, failed = "", None
        if request.method == "POST":
            form = CloseDayForm(request.POST)
            room = next((r for r in rooms_asked(request) if r.code == request.POST.get("room")), None)
            if form.is_valid() and room is not None:
                day = form.cleaned_data["gaming_day"]
                try:
                    gaming_day_close(room=room, day=day, actor=acting_user(request), pin=form.cleaned_data["pin"])
                except DomainError as refused:
                    error, failed = (
                        f"Gaming day {day} of room {room.code} was not closed. {refused.message}",
                        (
                            room.code,
                            day,
                            form,
                        ),
                    )
                else:
                    self.message_user(request, f"Gaming day {day} of {room.name} closed and signed.", messages.SUCCESS)
                    return redirect("admin:cage_gaming_day_close")
            else:
                error = "Nothing was closed: " + (
                    "there is no such room of yours." if room is None else "give your PIN to sign the close."
                )
                if room is not None and form.cleaned_data.get("gaming_day"):
                    failed = (room.code, form.cleaned_data["gaming_day"], form)
        context = {
            **self.admin_site.each_context(request),
            "title": "Close a gaming day",
            "opts": self.model._meta,
            "rows": day_rows(request.user, failed=failed),
            "error": error,
            "rule": GamingDayClose.CLOSER.words,
        }
        return TemplateResponse(request, "admin/cage/close_gaming_day.html", context, status=400 if error else 200)


@admin.register(ScheduleRun)
class ScheduleRunAdmin(CageAdmin):
    list_display = ["at", "ran_at", "sheets_created", "sheets_flagged"]
