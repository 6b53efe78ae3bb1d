"""The audit pages under /audit/: the trace of a dollar and its PDF (issue 29). Behind the admin's
sign-in; ``audit.trace.build.trace_of`` says who reads which trace."""

from django.contrib import admin
from django.urls import path

from .trace.views import trace_page, trace_pdf_download

app_name = "audit"

urlpatterns = [
    path("trace/", admin.site.admin_view(trace_page), name="trace"),
    path("trace/pdf/", admin.site.admin_view(trace_pdf_download), name="trace-pdf"),
]
