"""The audit API under /api/ (``GET /api/trace/``)."""

urlpatterns: list = []
