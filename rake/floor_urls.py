"""Tablet pages of the rake app, to include in the floor site's namespace:

    path("", include("rake.floor_urls"))   # in casino_backoffice/staff/floor_urls.py urlpatterns (+=)
"""

from django.urls import path

from . import views

urlpatterns = [path("rake-calculator/", views.calculator, name="rake-calculator")]
