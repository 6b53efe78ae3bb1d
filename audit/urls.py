"""The audit pages under /audit/: the trace of a dollar and its PDF, its search, a gaming day's package
(issue 29). Behind the admin's sign-in; ``audit.trace.build.trace_of`` says who reads which trace."""

from django.contrib import admin
from django.urls import path

from .package.views import package_view
from .search.views import search_view
from .trace.views import trace_page, trace_pdf_download

app_name = "audit"

urlpatterns = [
    path("trace/", admin.site.admin_view(trace_page), name="trace"),
    path("trace/pdf/", admin.site.admin_view(trace_pdf_download), name="trace-pdf"),
    path("search/", search_view, name="search"),
    path("days/<int:room_id>/<str:day>/package.zip", package_view, name="day_package"),
]
