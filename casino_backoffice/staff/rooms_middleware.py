"""A person given no poker room and not the all-rooms grant works nowhere: every page but signing out
says so (the API's own permission refuses them the same way, 403 ``no_room``). Rooms are never a
default: an administrator gives each person theirs."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse

from .exceptions import NO_ROOM_MESSAGE


class NoRoomMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or not getattr(user, "works_nowhere", False):
            return self.get_response(request)
        if request.path in {reverse("floor:logout"), reverse("admin:logout")} or request.path.startswith("/static/"):
            return self.get_response(request)
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": NO_ROOM_MESSAGE, "code": "no_room"}, status=403)
        return render(request, "staff/no_room.html", {"message": NO_ROOM_MESSAGE}, status=403)
