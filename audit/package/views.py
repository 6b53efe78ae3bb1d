"""``/audit/days/<room id>/<YYYY-MM-DD>/package.zip``: a gaming day's package, built into a temporary
file and sent from it."""

from __future__ import annotations

import tempfile
from datetime import date

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, HttpRequest, HttpResponseBadRequest
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404

from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.permissions import Action, may
from tables.selectors import rooms_of

from .build import package_build


@login_required(login_url="admin:login")
def package_view(request: HttpRequest, room_id: int, day: str) -> HttpResponseBase:
    """Finance and compliance of the room download its gaming day's package (``package_build``); a
    room of theirs they do not work in is not there (404), a day that is not a date a 400."""
    if not may(request.user, Action.DAY_PACKAGE_READ):
        raise PermissionDenied
    room = get_object_or_404(rooms_of(request.user), pk=room_id)
    try:
        gaming_day = date.fromisoformat(day)
    except ValueError:
        return HttpResponseBadRequest(f"{day} is not a gaming day: give it as YYYY-MM-DD.", content_type="text/plain")
    out = tempfile.TemporaryFile()  # FileResponse closes it once sent
    try:
        manifest = package_build(room=room, day=gaming_day, actor=acting_user(request), out=out)
    except ActionNotPermitted:
        out.close()
        raise PermissionDenied from None
    out.seek(0)
    response = FileResponse(out, as_attachment=True, filename=f"day-package-{room.code}-{gaming_day}.zip")
    response["X-Package-State"] = manifest.state
    return response
