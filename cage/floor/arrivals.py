"""Tablet pages at the cage: the boxes that arrive, each transport accounted for and a missing box
recorded, with the services' refusals shown in their words, having changed nothing."""

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
from casino_backoffice.staff.permissions import Action, may
from tables.selectors import visible_to

from ..models import Transport, TransportKind, TransportStatus
from ..services import missing_box_record, transport_account
from .forms import AccountForm, MissingBoxForm

# --- At the cage ----------------------------------------------------------------------------------


def _arrivals(user: Any, bound: dict[int, Any] | None = None, *, supervisor: bool) -> list[dict[str, Any]]:
    transports = (
        visible_to(user, Transport.objects.filter(kind=TransportKind.BOXES, status=TransportStatus.IN_TRANSIT))
        .select_related("room", "carried_by")
        .prefetch_related("items__box", "missing_boxes__box", "missing_boxes__recorded_by")
        .order_by("carried_at", "pk")
    )
    rows = []
    for transport in transports:
        codes = [item.box.code for item in transport.items.all()]
        excused = [missing.box.code for missing in transport.missing_boxes.all()]
        carried = [code for code in codes if code not in excused]
        forms = (bound or {}).get(transport.pk, {})
        rows.append(
            {
                "transport": transport,
                "excused": transport.missing_boxes.all(),
                "account": forms.get("account") or AccountForm(codes=carried, auto_id=f"id_account{transport.pk}_%s"),
                "missing": (
                    forms.get("missing") or MissingBoxForm(codes=carried, auto_id=f"id_missing{transport.pk}_%s")
                )
                if supervisor
                else None,
            }
        )
    return rows


def _arrivals_page(request: HttpRequest, bound: dict[int, Any] | None = None) -> HttpResponse:
    supervisor = may(acting_user(request), Action.MISSING_BOX_RECORD)
    containers = (
        visible_to(
            request.user, Transport.objects.filter(kind=TransportKind.TABLE_COUNTS, status=TransportStatus.IN_TRANSIT)
        )
        .select_related("room", "carried_by")
        .order_by("carried_at")
    )
    return render(
        request,
        "cage/floor/arrivals.html",
        {
            "rows": _arrivals(request.user, bound, supervisor=supervisor),
            "containers": containers,
            "supervisor": supervisor,
        },
    )


@login_required
def arrivals_page(request: HttpRequest) -> HttpResponse:
    """At the cage a floorperson or above accounts for every locked box security carried, and signs
    (§637a.15(d)(2)); a box missing from what was carried is refused unless a supervisor signs an
    exception naming it."""
    if (refusal := refused_page(request, "cage/floor/arrivals.html", Action.TRANSPORT_ACCOUNT)) is not None:
        return refusal
    return _arrivals_page(request)


def _transport_or_back(request: HttpRequest, transport_id: int) -> Transport | None:
    transport = visible_to(request.user, Transport.objects.all()).filter(pk=transport_id).first()
    if transport is None:
        messages.error(request, f"There is no transport {transport_id}.")
    return transport


@login_required
@require_POST
def account_sign(request: HttpRequest, transport_id: int) -> HttpResponse:
    if (refusal := refused_page(request, "cage/floor/arrivals.html", Action.TRANSPORT_ACCOUNT)) is not None:
        return refusal
    if (transport := _transport_or_back(request, transport_id)) is None:
        return redirect("floor:cage-arrivals")
    excused = set(transport.missing_boxes.values_list("box__code", flat=True))
    codes = [code for code in transport.items.values_list("box__code", flat=True) if code not in excused]
    form = AccountForm(request.POST, codes=codes, auto_id=f"id_account{transport.pk}_%s")
    if not form.is_valid():
        messages.error(
            request, f"Seal {transport.seal} was not accounted for: correct what is marked below.{pin_typo(form)}"
        )
        return _arrivals_page(request, {transport.pk: {"account": form}})
    try:
        transport_account(
            transport=transport,
            box_codes=form.cleaned_data["boxes"],
            actor=acting_user(request),
            pin=form.cleaned_data["pin"],
        )
    except DomainError as refused:
        messages.error(request, f"Seal {transport.seal} was not accounted for. {refused.message}")
        return _arrivals_page(request, {transport.pk: {"account": form}})
    messages.success(request, f"Every box of seal {transport.seal} is accounted for; the cashier counts them now.")
    return redirect("floor:cage-arrivals")


@login_required
@require_POST
def missing_box_sign(request: HttpRequest, transport_id: int) -> HttpResponse:
    if (refusal := refused_page(request, "cage/floor/arrivals.html", Action.MISSING_BOX_RECORD)) is not None:
        return refusal
    if (transport := _transport_or_back(request, transport_id)) is None:
        return redirect("floor:cage-arrivals")
    codes = list(transport.items.values_list("box__code", flat=True))
    form = MissingBoxForm(request.POST, codes=codes, auto_id=f"id_missing{transport.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"No exception was signed: correct what is marked below.{pin_typo(form)}")
        return _arrivals_page(request, {transport.pk: {"missing": form}})
    box = transport.items.select_related("box").get(box__code=form.cleaned_data["box"]).box
    try:
        missing_box_record(
            transport=transport,
            box=box,
            reason=form.cleaned_data["reason"],
            actor=acting_user(request),
            pin=form.cleaned_data["pin"],
        )
    except DomainError as refused:
        messages.error(request, f"No exception was signed. {refused.message}")
        return _arrivals_page(request, {transport.pk: {"missing": form}})
    messages.success(
        request, f"Exception signed: box {box.code} is missing from seal {transport.seal}. Account for the others now."
    )
    return redirect("floor:cage-arrivals")
