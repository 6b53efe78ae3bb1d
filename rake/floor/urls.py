"""Tablet pages of the rake app, included by the tablet site's root (``casino_backoffice/floor_urls.py``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("rounds/log/", views.round_log, name="round-log"),
    path("rake-calculator/", views.calculator, name="rake-calculator"),
    path("time-charges/", views.time_charges, name="time-charges"),
    path("time-charges/<int:charge_id>/verify/", views.time_charge_verify_page, name="time-charge-verify"),
]
