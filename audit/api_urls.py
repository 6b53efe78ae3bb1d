"""The audit API under /api/ (``GET /api/trace/``)."""

from django.urls import path

from .trace.api import TraceView

urlpatterns = [
    path("trace/", TraceView.as_view(), name="api-trace"),
]
