"""The tablet site under /floor/."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path(
        "login/",
        auth_views.LoginView.as_view(template_name="floor/login.html", redirect_authenticated_user=True),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("pin/", views.pin_change, name="pin"),
    path("tables/", views.tables, name="tables"),
    path("tables/<int:table_id>/open/", views.table_open_close, name="table-open-close"),
    path("", include("rake.floor_urls")),
]
