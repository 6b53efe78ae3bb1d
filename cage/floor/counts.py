"""Tablet pages of the count: the dealer's count at a closed table, the notice to compliance, the
witness and the supervisor's recount.

Each page asks the one table of actions and roles first (``staff.permissions``) and shows a person
who may not act the table's words; each action is a service of ``cage.services``, whose refusals the
page shows in the same words, having changed nothing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q, QuerySet
from django.db.models.functions import Length
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.pages import pin_typo, refused_page
from casino_backoffice.core.idempotency import IdempotencyKeyReused
from casino_backoffice.core.natural import natural_key
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.funds.models import JackpotKind
from tables.models import PokerRoom
from tables.selectors import gaming_day, rooms_of, visible_to

from ..models import RECOUNTABLE, Box, ComplianceNotice, Count, CountPlace, CountStatus
from ..selectors import box_states
from ..services import count_record, count_recount, count_witness, counts_witness, notice_record
from .forms import CountForm, NoticeForm, RecountForm, WitnessForm


def today_in(room: PokerRoom) -> date:
    return gaming_day(room=room, at=timezone.now())


def on_their_gaming_day(rooms: list[PokerRoom], *, room_field: str) -> Q:
    """Rows of each room's current gaming day (rooms may keep different clocks)."""
    condition = Q(pk__in=[])
    for room in rooms:
        condition |= Q(**{room_field: room, "gaming_day": today_in(room)})
    return condition


def boxes_at_closed_tables(user: Any) -> QuerySet[Box]:
    return (
        visible_to(user, Box.objects.filter(table__is_open=False))
        .select_related("room", "table", "jackpot")
        .order_by("room__code", Length("table__number"), "table__number", "kind", "code")
    )


# --- The dealer's count ---------------------------------------------------------------------------


def _notice_today(rooms: list[PokerRoom]) -> dict[int, ComplianceNotice]:
    notices = (
        ComplianceNotice.objects.filter(on_their_gaming_day(rooms, room_field="room"))
        .select_related("recorded_by", "room")
        .order_by("notified_at")
    )
    return {notice.room_id: notice for notice in notices}


@login_required
def count_page(request: HttpRequest) -> HttpResponse:
    """A dealer counts a box at a closed table (§637a.15(d)(1), §637a.16(d)(1)): picks the box, enters
    what it held on the number pad (the chips of each denomination, if they like, add up to it) and
    signs with their PIN. The expected content is shown only after the count: the dealer counts blind.
    A Bad Beat box needs the day's notice to compliance first (§637a.15(d))."""
    template = "cage/floor/count.html"
    if (refusal := refused_page(request, template, Action.COUNT_RECORD)) is not None:
        return refusal
    user = acting_user(request)
    if request.method == "POST":
        form = CountForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            key = data["idempotency_key"]
            first = Count.objects.filter(idempotency_key=key).values_list("pk", flat=True).first()
            try:
                count = count_record(
                    box=data["box"],
                    counted_cents=data["counted"],
                    denominations=data["denominations"] or None,
                    actor=user,
                    pin=data["pin"],
                    idempotency_key=key,
                )
            except IdempotencyKeyReused:
                first = Count.objects.filter(idempotency_key=key).values_list("pk", flat=True).first()
                messages.info(request, f"Count {first} was already recorded by this form; it counts once.")
                return redirect(f"{reverse('floor:cage-count')}?recorded={first}")
            except DomainError as refused:
                messages.error(request, f"Nothing was recorded. {refused.message}")
            else:
                if first is not None:
                    messages.info(request, f"Count {count.pk} was already recorded by this form; it counts once.")
                else:
                    messages.success(
                        request,
                        f"Count {count.pk} of box {count.box.code} recorded. A floorperson or above witnesses it now.",
                    )
                return redirect(f"{reverse('floor:cage-count')}?recorded={count.pk}")
        else:
            messages.error(request, f"Nothing was recorded: correct what is marked below.{pin_typo(form)}")
        box = form.cleaned_data.get("box") if hasattr(form, "cleaned_data") else None
        return render(request, template, {"form": form, "box": box, "notice": _notice_for_box(box)})
    if (recorded_id := request.GET.get("recorded", "")).isdigit():
        recorded = (
            visible_to(
                request.user, Count.objects.select_related("box__table", "box__room", "box__jackpot", "counted_by")
            )
            .filter(pk=int(recorded_id))
            .first()
        )
        if recorded is not None:
            return render(request, template, {"recorded": recorded, "variance": recorded.variance_cents})
    if (box_id := request.GET.get("box", "")).isdigit():
        box = boxes_at_closed_tables(request.user).filter(pk=int(box_id)).first()
        if box is None:
            messages.error(
                request, "That box is not at a closed table: boxes are counted at a closed table (§637a.15(d)(1))."
            )
        else:
            return render(
                request,
                template,
                {"form": CountForm(initial={"box": box.pk}), "box": box, "notice": _notice_for_box(box)},
            )
    return render(
        request, template, {"tables": _tables_of_boxes(request.user), "may_notice": may(user, Action.NOTICE_RECORD)}
    )


def _notice_for_box(box: Box | None) -> dict[str, Any] | None:
    """For a Bad Beat box: the day's notice to compliance, or that it is missing."""
    if box is None or box.jackpot is None or box.jackpot.kind != JackpotKind.BAD_BEAT:
        return None
    return {"notice": _notice_today([box.room]).get(box.room_id)}


def _tables_of_boxes(user: Any) -> list[dict[str, Any]]:
    """The closed tables and their boxes, as large buttons, with what each box needs."""
    boxes = list(boxes_at_closed_tables(user))
    rooms = list({box.room_id: box.room for box in boxes}.values())
    notices = _notice_today(rooms)
    states = box_states(
        boxes=Box.objects.filter(pk__in=[box.pk for box in boxes]), today={room.pk: today_in(room) for room in rooms}
    )
    tables: dict[int, dict[str, Any]] = {}
    for box in boxes:
        table = tables.setdefault(box.table_id, {"table": box.table, "room": box.room, "boxes": []})
        bad_beat = box.jackpot is not None and box.jackpot.kind == JackpotKind.BAD_BEAT
        table["boxes"].append(
            {
                "box": box,
                "name": box.jackpot.name if box.jackpot else "Rake drop box",
                "needs_notice": bad_beat and box.room_id not in notices,
                "state": states[box.pk],
            }
        )
    return list(tables.values())


@login_required
def notice_page(request: HttpRequest) -> HttpResponse:
    """A floorperson or above records, and signs, the notice to the casino compliance representative
    before Bad Beat boxes are counted (§637a.15(d)): who was notified, how."""
    template = "cage/floor/notice.html"
    if (refusal := refused_page(request, template, Action.NOTICE_RECORD)) is not None:
        return refusal
    rooms = list(rooms_of(request.user))
    form = NoticeForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                notice = notice_record(
                    room=data["room"],
                    notified=data["notified"],
                    method=data["method"],
                    actor=acting_user(request),
                    pin=data["pin"],
                    idempotency_key=data["idempotency_key"],
                )
            except DomainError as refused:
                messages.error(request, f"Nothing was recorded. {refused.message}")
            else:
                messages.success(
                    request,
                    f"Notice to {notice.notified} ({notice.method}) recorded for gaming day {notice.gaming_day}: "
                    "Bad Beat boxes may be counted.",
                )
                return redirect("floor:cage-notice")
        else:
            messages.error(request, f"Nothing was recorded: correct what is marked below.{pin_typo(form)}")
    notices = ComplianceNotice.objects.filter(on_their_gaming_day(rooms, room_field="room")).select_related(
        "room", "recorded_by"
    )
    return render(request, template, {"form": form, "notices": notices, "one_room": len(rooms) == 1})


# --- The witness ----------------------------------------------------------------------------------


def _witness_rows(user: Any, bound: tuple[int, WitnessForm] | None = None) -> list[tuple[Count, WitnessForm]]:
    counts = (
        visible_to(user, Count.objects.filter(status=CountStatus.COUNTED, place=CountPlace.TABLE))
        .select_related("box__table", "box__room", "box__jackpot", "counted_by")
        .order_by("counted_at", "pk")
    )
    rows = []
    for count in counts:
        if bound is not None and bound[0] == count.pk:
            rows.append((count, bound[1]))
        else:
            rows.append((count, WitnessForm(auto_id=f"id_count{count.pk}_%s")))
    return rows


@dataclass
class _TableCounts:
    """A table's counts awaiting a witness, and the form that witnesses them all in one signing."""

    table: Any
    rows: list[tuple[Count, WitnessForm]]
    form: WitnessForm


def _witness_tables(
    user: Any, bound: tuple[int, WitnessForm] | None = None, bound_table: tuple[int, WitnessForm] | None = None
) -> list[_TableCounts]:
    """The counts awaiting a witness by table, tables in natural order (T1, T2, ..., T10)."""
    tables: dict[int, _TableCounts] = {}
    for count, form in _witness_rows(user, bound):
        table = count.box.table
        if table.pk not in tables:
            table_form = bound_table[1] if bound_table and bound_table[0] == table.pk else None
            tables[table.pk] = _TableCounts(table, [], table_form or WitnessForm(auto_id=f"id_table{table.pk}_%s"))
        tables[table.pk].rows.append((count, form))
    return sorted(tables.values(), key=lambda group: (group.table.room_id, natural_key(group.table.number)))


@login_required
def witness_page(request: HttpRequest) -> HttpResponse:
    """The counts awaiting their witness, by table: a floorperson or above who is not the counter signs
    each, or a table's counts all in one signing (each count keeps its own signature), with the
    surveillance department's recording reference (§637a.15(d)(1))."""
    template = "cage/floor/witness.html"
    if (refusal := refused_page(request, template, Action.COUNT_WITNESS)) is not None:
        return refusal
    return render(request, template, {"tables": _witness_tables(request.user)})


@login_required
@require_POST
def witness_sign(request: HttpRequest, count_id: int) -> HttpResponse:
    template = "cage/floor/witness.html"
    if (refusal := refused_page(request, template, Action.COUNT_WITNESS)) is not None:
        return refusal
    count = visible_to(request.user, Count.objects.select_related("box")).filter(pk=count_id).first()
    if count is None:
        messages.error(request, f"There is no count {count_id}.")
        return redirect("floor:cage-witness")
    form = WitnessForm(request.POST, auto_id=f"id_count{count.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"Count {count.pk} was not witnessed: correct what is marked below.{pin_typo(form)}")
        return render(request, template, {"tables": _witness_tables(request.user, (count.pk, form))})
    try:
        count = count_witness(
            count=count,
            actor=acting_user(request),
            pin=form.cleaned_data["pin"],
            surveillance_reference=form.cleaned_data["surveillance_reference"],
        )
    except DomainError as refused:
        messages.error(request, f"Count {count.pk} was not witnessed. {refused.message}")
        return render(request, template, {"tables": _witness_tables(request.user, (count.pk, form))})
    messages.success(
        request,
        f"Count {count.pk} of box {count.box.code} ({display_cents(count.counted_cents)}) witnessed, "
        f"recording {count.surveillance_reference}. Its contents go into a locked container for security.",
    )
    return redirect("floor:cage-witness")


@login_required
@require_POST
def witness_table_sign(request: HttpRequest, table_id: int) -> HttpResponse:
    """The counts of one table witnessed in one signing (``counts_witness``): the ones the page listed,
    sent back as ``count``; all or none."""
    template = "cage/floor/witness.html"
    if (refusal := refused_page(request, template, Action.COUNT_WITNESS)) is not None:
        return refusal
    asked = [int(pk) for pk in request.POST.getlist("count") if pk.isdigit()]
    counts = list(
        visible_to(request.user, Count.objects.select_related("box__table")).filter(
            pk__in=asked, box__table_id=table_id
        )
    )
    form = WitnessForm(request.POST, auto_id=f"id_table{table_id}_%s")
    if not counts or len(counts) != len(set(asked)):
        messages.error(request, "Those counts are not all awaiting a witness at that table: nothing was witnessed.")
        return redirect("floor:cage-witness")
    if not form.is_valid():
        messages.error(request, f"Nothing was witnessed: correct what is marked below.{pin_typo(form)}")
        return render(request, template, {"tables": _witness_tables(request.user, bound_table=(table_id, form))})
    try:
        witnessed = counts_witness(
            counts=counts,
            actor=acting_user(request),
            pin=form.cleaned_data["pin"],
            surveillance_reference=form.cleaned_data["surveillance_reference"],
        )
    except DomainError as refused:
        messages.error(request, f"Nothing was witnessed. {refused.message}")
        return render(request, template, {"tables": _witness_tables(request.user, bound_table=(table_id, form))})
    boxes = ", ".join(f"{count.box.code} ({display_cents(count.counted_cents)})" for count in witnessed)
    messages.success(
        request,
        f"{len(witnessed)} counts of table {witnessed[0].box.table.number} witnessed in one signing, recording "
        f"{form.cleaned_data['surveillance_reference'].strip()}: {boxes}. Each keeps its own signature.",
    )
    return redirect("floor:cage-witness")


# --- The supervisor's recount ---------------------------------------------------------------------


def _recount_rows(user: Any, bound: tuple[int, RecountForm] | None = None) -> list[tuple[Count, RecountForm]]:
    counts = (
        visible_to(user, Count.objects.filter(status__in=RECOUNTABLE, place=CountPlace.TABLE))
        .select_related("box__table", "box__room", "box__jackpot", "counted_by", "witnessed_by", "supersedes")
        .order_by("counted_at", "pk")
    )
    return [
        (
            count,
            bound[1] if bound is not None and bound[0] == count.pk else RecountForm(auto_id=f"id_recount{count.pk}_%s"),
        )
        for count in counts
    ]


@login_required
def recount_page(request: HttpRequest) -> HttpResponse:
    """The counts still at the table (counted or witnessed, not carried): a poker shift supervisor or
    above who is not the counter recounts a wrong one and signs with the reason; the recount
    supersedes it, the old count stays on the record struck through, and the recount awaits its witness."""
    template = "cage/floor/recount.html"
    if (refusal := refused_page(request, template, Action.COUNT_RECOUNT)) is not None:
        return refusal
    return render(request, template, {"rows": _recount_rows(request.user)})


@login_required
@require_POST
def recount_sign(request: HttpRequest, count_id: int) -> HttpResponse:
    template = "cage/floor/recount.html"
    if (refusal := refused_page(request, template, Action.COUNT_RECOUNT)) is not None:
        return refusal
    count = visible_to(request.user, Count.objects.select_related("box")).filter(pk=count_id).first()
    if count is None:
        messages.error(request, f"There is no count {count_id}.")
        return redirect("floor:cage-recount")
    form = RecountForm(request.POST, auto_id=f"id_recount{count.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"Count {count.pk} was not recounted: correct what is marked below.{pin_typo(form)}")
        return render(request, template, {"rows": _recount_rows(request.user, (count.pk, form))})
    data = form.cleaned_data
    try:
        recount = count_recount(
            count=count,
            counted_cents=data["counted"],
            reason=data["reason"],
            actor=acting_user(request),
            pin=data["pin"],
            idempotency_key=data["idempotency_key"],
        )
    except IdempotencyKeyReused:
        messages.info(request, "This form was already sent; its recount is recorded once.")
        return redirect("floor:cage-recount")
    except DomainError as refused:
        messages.error(request, f"Count {count.pk} was not recounted; nothing was recorded. {refused.message}")
        return render(request, template, {"rows": _recount_rows(request.user, (count.pk, form))})
    messages.success(
        request,
        f"Recount {recount.pk} of box {recount.box.code}: {display_cents(recount.counted_cents)}, superseding count "
        f"{count.pk} ({display_cents(count.counted_cents)}). A floorperson or above who is not you witnesses it now.",
    )
    return redirect("floor:cage-recount")
