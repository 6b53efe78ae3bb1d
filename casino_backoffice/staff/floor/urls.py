"""Tablet pages of the kernel, included by the tablet site's root (``casino_backoffice/floor_urls.py``),
which also routes the home page with every app's tiles."""

from django.contrib.auth import views as auth_views
from django.urls import path

from ..forms import LockoutAuthenticationForm
from ..second_factor.views import SignInView, sign_in_code
from . import second_factor, views

urlpatterns = [
    path(
        "login/",
        SignInView.as_view(
            template_name="staff/floor/login.html",
            redirect_authenticated_user=True,
            authentication_form=LockoutAuthenticationForm,
        ),
        name="login",
    ),
    path(
        "login/code/",
        sign_in_code,
        {"template_name": "staff/floor/login_code.html", "sign_in_url": "floor:login", "default_next": "floor:home"},
        name="login-code",
    ),
    path("second-factor/", second_factor.second_factor, name="second-factor"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("pin/", views.pin_change, name="pin"),
]
