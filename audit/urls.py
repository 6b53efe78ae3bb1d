"""The audit pages under /audit/ (the trace, its search, a gaming day's package)."""

app_name = "audit"

urlpatterns: list = []
