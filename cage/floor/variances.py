"""The tablet page of the variances awaiting an explanation: a poker shift supervisor (or finance)
explains each and signs, as finance does in the admin; a correction of the official record stays
finance's, in the admin (``cage.services.variance_explain``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.pages import pin_typo, refused_page
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action
from tables.selectors import visible_to

from ..models import Variance
from ..selectors import unresolved_filter
from ..services import variance_explain
from .forms import ExplainForm

TEMPLATE = "cage/floor/variances.html"


def _rows(user: Any, bound: tuple[int, ExplainForm] | None = None) -> list[tuple[Variance, ExplainForm]]:
    """The unexplained variances of the person's rooms, oldest first, each with its form."""
    variances = (
        visible_to(user, Variance.objects.filter(unresolved_filter()))
        .select_related("room", "box__table", "box__jackpot", "count__counted_by", "counted_by", "cashier")
        .order_by("found_at", "pk")
    )
    return [
        (
            variance,
            bound[1] if bound is not None and bound[0] == variance.pk else ExplainForm(auto_id=f"id_v{variance.pk}_%s"),
        )
        for variance in variances
    ]


@login_required
def variances_page(request: HttpRequest) -> HttpResponse:
    """Each variance over the threshold not yet explained, with who counted and what was expected: the
    person explains it in words and signs. Whoever counted, witnessed, carried or verified that money
    is refused by the service, in its words (``staff.segregation``)."""
    if (refusal := refused_page(request, TEMPLATE, Action.VARIANCE_EXPLAIN)) is not None:
        return refusal
    return render(request, TEMPLATE, {"rows": _rows(request.user)})


@login_required
@require_POST
def variance_explain_sign(request: HttpRequest, variance_id: int) -> HttpResponse:
    if (refusal := refused_page(request, TEMPLATE, Action.VARIANCE_EXPLAIN)) is not None:
        return refusal
    variance = visible_to(request.user, Variance.objects.select_related("box")).filter(pk=variance_id).first()
    if variance is None:
        messages.error(request, f"There is no variance {variance_id} in your rooms.")
        return redirect("floor:cage-variances")
    form = ExplainForm(request.POST, auto_id=f"id_v{variance.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"Variance {variance.pk} was not explained: correct what is marked.{pin_typo(form)}")
        return render(request, TEMPLATE, {"rows": _rows(request.user, (variance.pk, form))})
    try:
        variance_explain(
            variance=variance,
            reason=form.cleaned_data["reason"],
            actor=acting_user(request),
            pin=form.cleaned_data["pin"],
        )
    except DomainError as refused:
        messages.error(request, f"Variance {variance.pk} was not explained; nothing was recorded. {refused.message}")
        return render(request, TEMPLATE, {"rows": _rows(request.user, (variance.pk, form))})
    messages.success(request, f"{variance} explained and signed.")
    return redirect("floor:cage-variances")
