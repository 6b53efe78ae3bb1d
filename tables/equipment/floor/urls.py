"""Tablet pages of devices and decks, included by the tablet site's root (``casino_backoffice/floor_urls.py``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("equipment/", views.devices_page, name="equipment"),
    path("equipment/tables/<int:table_id>/", views.table_page, name="equipment-table"),
    path("equipment/tables/<int:table_id>/<str:device>/<str:step>/", views.device_step_sign, name="equipment-step"),
    path("equipment/tables/<int:table_id>/decks/", views.deck_change_sign, name="equipment-deck"),
    path("equipment/decks/<int:deck_id>/verify/", views.deck_verify_sign, name="equipment-deck-verify"),
]
