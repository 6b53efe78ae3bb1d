"""The project's URLs with the rake tablet pages in the floor site, as the lead wires them."""

from django.urls import include, path

from casino_backoffice.staff import floor_urls
from casino_backoffice.urls import urlpatterns as project
from rake import floor_urls as rake_floor_urls

urlpatterns = [p for p in project if str(p.pattern) != "floor/"] + [
    path("floor/", include((floor_urls.urlpatterns + rake_floor_urls.urlpatterns, "floor"))),
]
