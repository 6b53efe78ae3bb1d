"""The audit pages under /audit/ (the trace, its search, a gaming day's package)."""

from django.urls import path

from .trace.views import trace_page, trace_pdf_download

app_name = "audit"

urlpatterns: list = [
    path("trace/", trace_page, name="trace"),
    path("trace/pdf/", trace_pdf_download, name="trace-pdf"),
]
