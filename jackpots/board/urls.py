"""The display board players read, under /display/. It needs no sign-in: it hangs on the wall."""

from django.urls import path

from jackpots.board import views

urlpatterns = [
    path("", views.display_index, name="index"),
    path("<slug:room_code>/", views.display_board, name="board"),
    path("<slug:room_code>/panel/", views.display_panel, name="panel"),
]
