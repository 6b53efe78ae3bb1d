"""The admin site, whose sign-in is the tablet's: the lockout form, then the code of a person with a
second factor, on a page of the admin's own look. Installed in place of ``django.contrib.admin``
(``StaffAdminConfig``), so ``admin.site`` is this site everywhere."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, URLResolver, path, reverse
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache


class StaffAdminSite(admin.AdminSite):
    index_template = "admin/today_index.html"

    def index(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> TemplateResponse:
        """The admin's first page: *Today* (``core.today``) above the records, for the cage, finance and
        compliance first of all; the list of every kind of record stays below it."""
        from casino_backoffice.core.today import TODAY_FIRST_ROLES, today_sections

        sections = today_sections(request)
        roles = set(getattr(request.user, "roles", None) or ())
        context = {
            "today": sections,
            "today_first": bool(roles & TODAY_FIRST_ROLES) or any(section.count for section in sections),
            **(extra_context or {}),
        }
        return super().index(request, context)

    def get_urls(self) -> list[URLResolver | URLPattern]:
        return [path("login/code/", self.login_code, name="login_code"), *super().get_urls()]

    @method_decorator(never_cache)
    @login_not_required
    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        """``AdminSite.login``, with the sign-in view that asks for the code."""
        if request.method == "GET" and self.has_permission(request):
            return HttpResponseRedirect(reverse("admin:index", current_app=self.name))
        from django.contrib.admin.forms import AdminAuthenticationForm

        from .views import SignInView

        context = {
            **self.each_context(request),
            "title": "Log in",
            "subtitle": None,
            "app_path": request.get_full_path(),
            "username": request.user.get_username(),
        }
        if REDIRECT_FIELD_NAME not in request.GET and REDIRECT_FIELD_NAME not in request.POST:
            context[REDIRECT_FIELD_NAME] = reverse("admin:index", current_app=self.name)
        context.update(extra_context or {})
        request.current_app = self.name
        view = SignInView.as_view(
            extra_context=context,
            authentication_form=self.login_form or AdminAuthenticationForm,
            template_name=self.login_template or "admin/login.html",
            code_url="admin:login_code",
        )
        return view(request)  # type: ignore[return-value]  # a LoginView answers an HttpResponse

    @method_decorator(never_cache)
    @login_not_required
    def login_code(self, request: HttpRequest) -> HttpResponse:
        from .views import sign_in_code

        request.current_app = self.name
        return sign_in_code(
            request,
            template_name="staff/admin/login_code.html",
            sign_in_url="admin:login",
            default_next="admin:index",
            extra_context={**self.each_context(request), "title": "Your code"},
        )


class StaffAdminConfig(AdminConfig):
    default_site = "casino_backoffice.staff.second_factor.admin_site.StaffAdminSite"

    def ready(self) -> None:
        super().ready()
        from django_otp.plugins.otp_totp.models import TOTPDevice

        # django-otp's own admin of devices would let a superuser delete one unrecorded: a person's
        # second factor is reset from their staff page (``staff.admin``), which records who did it.
        if admin.site.is_registered(TOTPDevice):
            admin.site.unregister(TOTPDevice)
