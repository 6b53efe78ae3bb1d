"""The display board: a full-screen page per poker room that refreshes its panel every 5 seconds."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tables.models import PokerRoom

from .selectors import display_state

REFRESH_SECONDS = 5


def display_index(request: HttpRequest) -> HttpResponse:
    return render(request, "display/index.html", {"rooms": PokerRoom.objects.all()})


def display_board(request: HttpRequest, room_code: str) -> HttpResponse:
    room = get_object_or_404(PokerRoom, code=room_code)
    return render(
        request,
        "display/board.html",
        {"state": display_state(room=room), "refresh_ms": REFRESH_SECONDS * 1000},
    )


def display_panel(request: HttpRequest, room_code: str) -> HttpResponse:
    room = get_object_or_404(PokerRoom, code=room_code)
    response = render(request, "display/panel.html", {"state": display_state(room=room)})
    response["Cache-Control"] = "no-store"
    return response
