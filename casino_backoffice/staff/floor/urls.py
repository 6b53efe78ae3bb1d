"""Tablet pages of the kernel, included by the tablet site's root (``casino_backoffice/floor_urls.py``),
which also routes the home page with every app's tiles."""

from django.contrib.auth import views as auth_views
from django.urls import path

from ..forms import LockoutAuthenticationForm
from . import views

urlpatterns = [
    path(
        "login/",
        auth_views.LoginView.as_view(
            template_name="staff/floor/login.html",
            redirect_authenticated_user=True,
            authentication_form=LockoutAuthenticationForm,
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("pin/", views.pin_change, name="pin"),
]
