"""The display board: a full-screen page per poker room that refreshes its panel every 5 seconds."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from jackpots.board.selectors import display_state
from tables.models import PokerRoom
from tables.selectors import rooms_of

REFRESH_SECONDS = 5


def display_index(request: HttpRequest) -> HttpResponse:
    """The boards of the rooms a signed-in person works in; to anyone else, none: a screen opens its
    own room's board by its address, and the property's rooms are not listed to the public."""
    rooms = rooms_of(request.user) if request.user.is_authenticated else PokerRoom.objects.none()
    return render(request, "display/index.html", {"rooms": rooms})


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
