"""Tablet pages of the tables app, included by the tablet site's root (``casino_backoffice/floor_urls.py``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("tables/", views.tables, name="tables"),
    path("tables/<int:table_id>/open/", views.table_open_close, name="table-open-close"),
]
