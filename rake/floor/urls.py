"""Tablet pages of the rake app, included by the tablet site's root (``casino_backoffice/floor_urls.py``)."""

from django.urls import path

from . import views, voids

urlpatterns = [
    path("rounds/log/", views.round_log, name="round-log"),
    path("rounds/void/", voids.void_rounds, name="round-void-list"),
    path("rounds/<int:round_id>/void/", voids.round_void_page, name="round-void"),
    path("rake-calculator/", views.calculator, name="rake-calculator"),
    path("time-charges/", views.time_charges, name="time-charges"),
    path("time-charges/<int:charge_id>/verify/", views.time_charge_verify_page, name="time-charge-verify"),
]
