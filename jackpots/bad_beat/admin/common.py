"""What the Bad Beat's admin pages share."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from casino_backoffice.core.admin import ReadOnlyAdmin
from casino_backoffice.staff.permissions import Action, may


class BadBeatAdmin(ReadOnlyAdmin):
    """Bad Beat documents and money rows: read by the back office (``Action.BAD_BEAT_RECORDS_READ``),
    never added, changed nor deleted here; services are their only writers."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) and may(request.user, Action.BAD_BEAT_RECORDS_READ)
