"""Tablet pages of security's custody (the boxes from the tables to the cage) and of surveillance's counts
to record, asked of the one table of actions and roles first (``staff.permissions``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.pages import pin_typo, refused_page
from casino_backoffice.core.idempotency import IdempotencyKeyReused
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from tables.irregularities.models import Irregularity
from tables.irregularities.selectors import irregularities_of_the_day
from tables.selectors import gaming_day_bounds, rooms_of, visible_to

from ..models import Box, Count, CountPlace, CountStatus, Transport, TransportStatus
from ..services import transport_create
from .counts import boxes_at_closed_tables, today_in
from .forms import BoxesForm, ContainerForm

# How often surveillance's page refreshes its list of counts to record.
SURVEILLANCE_REFRESH_SECONDS = 30


# --- Security's custody ---------------------------------------------------------------------------


def _witnessed_counts(user: Any) -> QuerySet[Count]:
    return (
        visible_to(user, Count.objects.filter(status=CountStatus.WITNESSED))
        .select_related("box__room", "box__table", "witnessed_by")
        .order_by("box__room__code", "box__code", "pk")
    )


def _uncounted_boxes(user: Any) -> QuerySet[Box]:
    """Boxes at closed tables that are neither in a count on its way nor in a transport not yet verified."""
    busy_counts = Count.objects.filter(status__in=[CountStatus.COUNTED, CountStatus.WITNESSED]).values("box")
    carried = Transport.objects.filter(status__in=[TransportStatus.IN_TRANSIT, TransportStatus.ACCOUNTED]).values(
        "items__box"
    )
    return boxes_at_closed_tables(user).exclude(pk__in=busy_counts).exclude(pk__in=carried)


def _in_transit(user: Any) -> QuerySet[Transport]:
    return (
        visible_to(user, Transport.objects.filter(status__in=[TransportStatus.IN_TRANSIT, TransportStatus.ACCOUNTED]))
        .select_related("room", "carried_by", "accounted_by")
        .prefetch_related("items__box")
        .order_by("-carried_at")
    )


@login_required
def custody_page(request: HttpRequest) -> HttpResponse:
    """A security officer signs for custody of a locked container of witnessed table counts, or of
    locked uncounted boxes, and carries it to the main cage or a satellite cage (§637a.15(d))."""
    template = "cage/floor/custody.html"
    if (refusal := refused_page(request, template, Action.TRANSPORT_CREATE)) is not None:
        return refusal
    posted = request.POST.get("carry") if request.method == "POST" else None
    if posted in ("counts", "boxes"):
        # A resent form: what it carried is on its way and no longer offered; answer what it did.
        prefix = "container" if posted == "counts" else "boxes"
        sent = Transport.objects.filter(idempotency_key=request.POST.get(f"{prefix}-idempotency_key", "")).first()
        if sent is not None:
            messages.info(request, f"Seal {sent.seal} was already signed for by this form; it is carried once.")
            return redirect("floor:cage-custody")
    container = ContainerForm(
        request.POST if posted == "counts" else None, prefix="container", counts=_witnessed_counts(request.user)
    )
    boxes = BoxesForm(request.POST if posted == "boxes" else None, prefix="boxes", boxes=_uncounted_boxes(request.user))
    form = container if posted == "counts" else boxes if posted == "boxes" else None
    if form is not None:
        if form.is_valid():
            data = form.cleaned_data
            chosen = list(data["counts"] if posted == "counts" else data["boxes"])
            room = form.room_of(chosen)
            if room is not None:
                key = data["idempotency_key"]
                first = Transport.objects.filter(idempotency_key=key).values_list("pk", flat=True).first()
                try:
                    transport = transport_create(
                        room=room,
                        seal=data["seal"],
                        destination=data["destination"],
                        actor=acting_user(request),
                        pin=data["pin"],
                        idempotency_key=key,
                        **({"counts": chosen} if posted == "counts" else {"boxes": chosen}),
                    )
                except IdempotencyKeyReused:
                    messages.info(request, "This form was already sent; its container is listed below, carried once.")
                    return redirect("floor:cage-custody")
                except DomainError as refused:
                    messages.error(request, f"Nothing was signed. {refused.message}")
                else:
                    what = (
                        f"{len(chosen)} count{'s' if len(chosen) != 1 else ''}"
                        if posted == "counts"
                        else f"{len(chosen)} box{'es' if len(chosen) != 1 else ''}"
                    )
                    if first is not None:
                        messages.info(
                            request, f"Seal {transport.seal} was already signed for by this form; it is carried once."
                        )
                    else:
                        messages.success(
                            request,
                            f"Seal {transport.seal} ({what}) is in your custody, on its way to the {transport.destination}.",
                        )
                    return redirect("floor:cage-custody")
        else:
            messages.error(request, f"Nothing was signed: correct what is marked below.{pin_typo(form)}")
    return render(request, template, {"container": container, "boxes": boxes, "in_transit": _in_transit(request.user)})


# --- Surveillance ---------------------------------------------------------------------------------


def _counts_to_record(user: Any) -> list[Count]:
    """Counts at a table since each room's gaming day began (a count may fill an older sheet)."""
    today = Q(pk__in=[])
    for room in rooms_of(user):
        today |= Q(box__room=room, counted_at__gte=gaming_day_bounds(room=room, day=today_in(room))[0])
    return list(
        Count.objects.filter(today, place=CountPlace.TABLE)
        .select_related("box__table", "box__room", "counted_by", "witnessed_by")
        .order_by("-counted_at", "-pk")
    )


def _irregularities(user: Any) -> list[Irregularity] | None:
    """The gaming day's irregularities of the person's rooms, for whoever reads them; None for others."""
    return list(irregularities_of_the_day(user=user)) if may(user, Action.IRREGULARITIES_READ) else None


@login_required
def surveillance_page(request: HttpRequest) -> HttpResponse:
    """Surveillance's page: today's table counts to record (§637a.15(d)(1): 'recorded by the
    surveillance department'), with table, box, time, counter, witness and the recording reference,
    and beside them the gaming day's irregularities at the tables (§637a.18), with their status.
    Read-only; the lists refresh themselves every 30 seconds (htmx), the page never reloads."""
    template = "cage/floor/surveillance.html"
    if (refusal := refused_page(request, template, Action.COUNTS_TO_RECORD_READ)) is not None:
        return refusal
    return render(
        request,
        template,
        {
            "counts": _counts_to_record(request.user),
            "irregularities": _irregularities(request.user),
            "refresh_seconds": SURVEILLANCE_REFRESH_SECONDS,
        },
    )


@login_required
def surveillance_rows(request: HttpRequest) -> HttpResponse:
    template = "cage/floor/_surveillance_rows.html"
    if (refusal := refused_page(request, template, Action.COUNTS_TO_RECORD_READ)) is not None:
        return refusal
    response = render(
        request,
        template,
        {"counts": _counts_to_record(request.user), "irregularities": _irregularities(request.user)},
    )
    response["Cache-Control"] = "no-store"
    return response
