"""Tablet pages of the rake app, to include in the floor site's namespace:

    path("", include("rake.floor_urls"))   # in casino_backoffice/staff/floor_urls.py urlpatterns (+=)
"""

from django.urls import path

from . import views

urlpatterns = [
    path("rake-calculator/", views.calculator, name="rake-calculator"),
    path("time-charges/", views.time_charges, name="time-charges"),
    path("time-charges/<int:charge_id>/verify/", views.time_charge_verify_page, name="time-charge-verify"),
]
