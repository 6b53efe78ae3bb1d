"""``/audit/search/``: the search form and its results, each a link to its trace, and for a gaming day
asked, the day's package of each room (finance and compliance); in the admin's style."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse

from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from tables.selectors import rooms_of

from .forms import ChainSearchForm
from .selectors import SEARCH_LIMIT, chain_search


@login_required(login_url="admin:login")
def search_view(request: HttpRequest) -> HttpResponse:
    """Compliance and finance search every chain of their rooms; a cage cashier the payments they made."""
    user = request.user
    if not (may(user, Action.TRACE_SEARCH) or may(user, Action.OWN_PAYMENTS_SEARCH)):
        raise PermissionDenied
    rooms = rooms_of(user)
    asked = bool(request.GET)
    form = ChainSearchForm(request.GET if asked else None, rooms=rooms)
    results, packages = None, []
    if asked and form.is_valid():
        results = chain_search(actor=acting_user(request), **form.cleaned_data)
        day = form.cleaned_data.get("gaming_day")
        if day is not None and may(user, Action.DAY_PACKAGE_READ):
            asked_rooms = [form.cleaned_data["room"]] if form.cleaned_data.get("room") else list(rooms)
            packages = [(room, reverse("audit:day_package", args=[room.pk, day.isoformat()])) for room in asked_rooms]
    context = {
        **admin.site.each_context(request),
        "title": "Search a chain",
        "form": form,
        "results": results,
        "packages": packages,
        "limit": SEARCH_LIMIT,
        "own_payments_only": not may(user, Action.TRACE_SEARCH),
    }
    return TemplateResponse(request, "audit/search.html", context, status=400 if asked and not form.is_valid() else 200)
