"""Every API route, one include per app, under /api/."""

from django.urls import include, path

urlpatterns = [
    path("", include("casino_backoffice.staff.api")),
    path("", include("tables.api")),
    path("", include("tables.irregularities.api")),
    path("", include("tables.equipment.api")),
    path("", include("rake.api")),
    path("", include("rake.api.batch")),
    path("", include("jackpots.api_urls")),
    path("", include("cage.api")),
    path("", include("audit.api_urls")),
]
