"""The audit pages under /audit/ (the trace, its search, a gaming day's package)."""

from django.urls import path

from .package.views import package_view
from .search.views import search_view
from .trace.views import trace_page, trace_pdf_download

app_name = "audit"

urlpatterns: list = [
    path("trace/", trace_page, name="trace"),
    path("trace/pdf/", trace_pdf_download, name="trace-pdf"),
    path("search/", search_view, name="search"),
    path("days/<int:room_id>/<str:day>/package.zip", package_view, name="day_package"),
]
