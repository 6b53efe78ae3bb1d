"""The site's root: a composition root that names every face (admin, API, tablet site, display board)."""

from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView

from casino_backoffice.core.views import healthz
from casino_backoffice.staff.forms import LockoutAdminAuthenticationForm

admin.site.site_header = "Poker-room back office"
admin.site.site_title = "Poker-room back office"
admin.site.index_title = "Cage, finance and compliance"
admin.site.login_form = LockoutAdminAuthenticationForm

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="floor:home", permanent=False)),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/", include("casino_backoffice.api_urls")),
    path("floor/", include("casino_backoffice.floor_urls")),
    path("audit/", include("audit.urls")),
    path("display/", include(("jackpots.board.urls", "display"))),
]

# Under /api/ every error Django answers itself (an unknown path, a crash) is JSON like the rest.
handler400 = "casino_backoffice.core.api.bad_request"
handler403 = "casino_backoffice.core.api.permission_denied"
handler404 = "casino_backoffice.core.api.page_not_found"
handler500 = "casino_backoffice.core.api.server_error"
