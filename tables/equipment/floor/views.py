"""Tablet pages of devices and decks (§637a.18(q)-(r), §655a.3(c), §655a.4(a), §655a.13(e)-(g), §657a the same).

*Devices and decks*: each table of the person's rooms with its shuffler (and at a banked table its
dealing shoe), in service, failed or out of order since when and by whom, and a banked table's deck in
play with its age and whether it is past its limit. A table's page records a device's step as the
person's roles allow and the device's state takes it (a failure: the dealer or floorperson; out of
order and returned: a floorperson or above), puts a deck into play (the dealer who inspected it) and
verifies it (a floorperson or above who is not the inspector). The services check every rule; a
refusal is shown beside its form and nothing is recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models.functions import Length
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.pages import pin_typo, refused_page
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, may

from ...games import HOUSE_BANKED
from ...models import Table
from ...selectors import gaming_day, visible_to
from ..models import DeckChange, DeckMissing, Device, DeviceEvent, DeviceStep
from ..selectors import DECK_RELATED, TableEquipment, tables_equipment
from ..services import deck_change, deck_verify, device_failure_record, device_out_of_order, device_return
from .forms import DeckChangeForm, DeckVerifyForm, DeviceStepForm

LIST_TEMPLATE = "tables/equipment/floor/devices.html"
TABLE_TEMPLATE = "tables/equipment/floor/table.html"

_STEP_ACTIONS = {
    DeviceStep.FAILED: Action.DEVICE_FAILURE_RECORD,
    DeviceStep.OUT_OF_ORDER: Action.DEVICE_OUT_OF_ORDER,
    DeviceStep.RETURNED: Action.DEVICE_RETURN,
}
_STEP_SERVICES: dict[DeviceStep, Callable[..., DeviceEvent]] = {
    DeviceStep.FAILED: device_failure_record,
    DeviceStep.OUT_OF_ORDER: device_out_of_order,
    DeviceStep.RETURNED: device_return,
}
# The devices' names where a list has little room.
SHORT_NAMES = {Device.SHUFFLER: "Shuffler", Device.DEALING_SHOE: "Dealing shoe"}
_STEP_TITLES = {
    DeviceStep.FAILED: "Record a failure",
    DeviceStep.OUT_OF_ORDER: "Take out of order",
    DeviceStep.RETURNED: "Return to service",
}
# The forms a page shows again, bound, after a refusal: (the form's prefix, the form).
Bound = tuple[str, Any] | None


# --- What the pages show --------------------------------------------------------------------------


@dataclass(frozen=True)
class DeviceShown:
    """A device of a table: its state in words, its latest step, and the step forms the person may sign."""

    device: str
    label: str
    state: str  # "in service", "failed", "out of order"
    latest: DeviceEvent | None
    forms: list[tuple[str, DeviceStepForm]]  # (title, form)


@dataclass(frozen=True)
class DeckShown:
    """A deck of a banked table: its age on the floor, whether it is past its limit (§655a.3(c)), and
    the verification the person may sign, or why not."""

    deck: DeckChange
    in_play: bool
    age: str
    past_limit: bool
    verify: DeckVerifyForm | None
    not_yours: str = ""


def _state(latest: DeviceEvent | None) -> str:
    if latest is None or latest.step == DeviceStep.RETURNED:
        return "in service"
    return "out of order" if latest.step == DeviceStep.OUT_OF_ORDER else "failed"


def _steps_allowed(user: User, latest: DeviceEvent | None) -> list[DeviceStep]:
    """The steps the device's state takes and the person's roles may sign (``_state_refusal``'s rule)."""
    out = latest is not None and latest.step == DeviceStep.OUT_OF_ORDER
    steps = [DeviceStep.RETURNED] if out else [DeviceStep.FAILED, DeviceStep.OUT_OF_ORDER]
    return [step for step in steps if may(user, _STEP_ACTIONS[step])]


def _device_shown(device: str, latest: DeviceEvent | None, *, user: User, bound: Bound) -> DeviceShown:
    shown = []
    for step in _steps_allowed(user, latest):
        prefix = f"{device}-{step}"
        form = bound[1] if bound is not None and bound[0] == prefix else DeviceStepForm(step=step, prefix=prefix)
        shown.append((_STEP_TITLES[step], form))
    return DeviceShown(device, Device(device).label, _state(latest), latest, shown)


def age_text(since: datetime, now: datetime) -> str:
    """'3 h 05 min': how long a deck has been in play."""
    minutes = max(int((now - since) / timedelta(minutes=1)), 0)
    return f"{minutes // 60} h {minutes % 60:02d} min"


def _deck_shown(deck: DeckChange, *, in_play: bool, user: User, now: datetime, bound: Bound) -> DeckShown:
    age = age_text(deck.changed_at, now)
    past = in_play and deck.due_by < now
    verify, why = None, ""
    if not deck.preinspected and not hasattr(deck, "verification"):
        if deck.inspected_by_id == user.pk:
            why = "You inspected it: the floorperson assigned to the table verifies it (§655a.4(a))."
        elif may(user, Action.DECK_VERIFY):
            prefix = f"verify-{deck.pk}"
            verify = bound[1] if bound is not None and bound[0] == prefix else DeckVerifyForm(prefix=prefix)
    return DeckShown(deck, in_play, age, past, verify, why)


def _table_context(table: Table, *, user: User, bound: Bound = None) -> dict[str, Any]:
    now = timezone.now()
    (equipment,) = tables_equipment([table], at=now)
    devices = [_device_shown(device, latest, user=user, bound=bound) for device, latest in equipment.latest.items()]
    context: dict[str, Any] = {"table": table, "devices": devices, "banked": table.game in HOUSE_BANKED}
    if context["banked"]:
        today = DeckChange.objects.filter(table=table, gaming_day=gaming_day(room=table.room, at=now))
        decks = list(today.select_related(*DECK_RELATED).order_by("-changed_at", "-pk"))
        if equipment.deck is not None and equipment.deck not in decks:
            decks.insert(0, equipment.deck)
        context["decks"] = [
            _deck_shown(deck, in_play=deck == equipment.deck, user=user, now=now, bound=bound) for deck in decks
        ]
        if may(user, Action.DECK_INSPECT):
            context["deck_form"] = (
                bound[1] if bound is not None and bound[0] == "deck" else DeckChangeForm(prefix="deck")
            )
    return context


def _tables(user: Any) -> list[Table]:
    tables = Table.objects.select_related("room")
    return list(visible_to(user, tables).order_by("room__code", "-is_open", Length("number"), "number"))


def _table_of(user: Any, table_id: int) -> Table | None:
    return visible_to(user, Table.objects.select_related("room")).filter(pk=table_id).first()


@dataclass(frozen=True)
class TableRow:
    equipment: TableEquipment
    states: list[tuple[str, str, DeviceEvent | None]]  # (device's label, state, latest step)
    banked: bool
    deck_age: str
    deck_past_limit: bool
    deck_unverified: bool
    deck_missing: DeckMissing | None = None  # the schedule's flag of an open banked table with no deck


# --- Pages ----------------------------------------------------------------------------------------


@login_required
def devices_page(request: HttpRequest) -> HttpResponse:
    """Every table of the person's rooms, open first: its devices' states and a banked table's deck."""
    if (refusal := refused_page(request, LIST_TEMPLATE, Action.EQUIPMENT_READ)) is not None:
        return refusal
    now = timezone.now()
    rows = []
    equipment = tables_equipment(_tables(request.user), at=now)
    missing = {
        flag.table_id: flag
        for flag in DeckMissing.objects.filter(
            table__in=[found.table for found in equipment if found.deck is None and found.table.is_open]
        ).order_by("flagged_at", "pk")
    }
    for found in equipment:
        states = [(SHORT_NAMES[Device(device)], _state(latest), latest) for device, latest in found.latest.items()]
        deck = found.deck
        rows.append(
            TableRow(
                found,
                states,
                banked=found.table.game in HOUSE_BANKED,
                deck_age=age_text(deck.changed_at, now) if deck else "",
                deck_past_limit=deck is not None and found.table.is_open and deck.due_by < now,
                deck_unverified=deck is not None and not deck.preinspected and not hasattr(deck, "verification"),
                deck_missing=missing.get(found.table.pk),
            )
        )
    return render(request, LIST_TEMPLATE, {"rows": rows})


@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """One table's devices and decks, with the forms the person may sign."""
    if (refusal := refused_page(request, TABLE_TEMPLATE, Action.EQUIPMENT_READ)) is not None:
        return refusal
    table = _table_of(request.user, table_id)
    if table is None:
        messages.error(request, f"There is no table {table_id} in your rooms.")
        return redirect("floor:equipment")
    return render(request, TABLE_TEMPLATE, _table_context(table, user=acting_user(request)))


def _signed(request: HttpRequest, *, table: Table, prefix: str, form: Any, sign: Any, done: str) -> HttpResponse:
    """Sign with ``sign(cleaned_data)`` when ``form`` holds; else the table's page again with the form
    and why, nothing recorded."""
    user = acting_user(request)
    if form.is_valid():
        try:
            sign(form.cleaned_data)
        except DomainError as refused:
            messages.error(request, f"Nothing was recorded. {refused.message}")
        else:
            messages.success(request, done)
            return redirect("floor:equipment-table", table_id=table.pk)
    else:
        messages.error(request, f"Nothing was recorded: correct what is marked below.{pin_typo(form)}")
    return render(request, TABLE_TEMPLATE, _table_context(table, user=user, bound=(prefix, form)))


@login_required
@require_POST
def device_step_sign(request: HttpRequest, table_id: int, device: str, step: str) -> HttpResponse:
    """A device's step at a table, signed (``device_failure_record``, ``device_out_of_order``,
    ``device_return``): the service refuses a role or a state that does not take it."""
    if device not in Device.values or step not in DeviceStep.values:
        messages.error(request, "There is no such device or step.")
        return redirect("floor:equipment")
    if (refusal := refused_page(request, TABLE_TEMPLATE, _STEP_ACTIONS[DeviceStep(step)])) is not None:
        return refusal
    table = _table_of(request.user, table_id)
    if table is None:
        messages.error(request, f"There is no table {table_id} in your rooms.")
        return redirect("floor:equipment")
    prefix = f"{device}-{step}"
    form = DeviceStepForm(request.POST, step=step, prefix=prefix)
    user = acting_user(request)
    service = _STEP_SERVICES[DeviceStep(step)]

    def sign(data: dict[str, Any]) -> None:
        service(table=table, device=device, actor=user, pin=data["pin"], **form.service_arguments())

    done = f"{Device(device).label} of table {table.number}: {DeviceStep(step).label.lower()}, signed by you."
    return _signed(request, table=table, prefix=prefix, form=form, sign=sign, done=done)


@login_required
@require_POST
def deck_change_sign(request: HttpRequest, table_id: int) -> HttpResponse:
    """A deck put into play at a banked table by the dealer who inspected it, signed (``deck_change``)."""
    if (refusal := refused_page(request, TABLE_TEMPLATE, Action.DECK_INSPECT)) is not None:
        return refusal
    table = _table_of(request.user, table_id)
    if table is None:
        messages.error(request, f"There is no table {table_id} in your rooms.")
        return redirect("floor:equipment")
    form = DeckChangeForm(request.POST, prefix="deck")
    user = acting_user(request)

    def sign(data: dict[str, Any]) -> None:
        deck_change(
            table=table,
            dealt_from=data["dealt_from"],
            decks=data["decks"],
            preinspected=data["preinspected"],
            note=data["note"],
            actor=user,
            pin=data["pin"],
            idempotency_key=data["idempotency_key"],
        )

    done = f"A deck is in play at table {table.number}, inspected and signed by you."
    return _signed(request, table=table, prefix="deck", form=form, sign=sign, done=done)


@login_required
@require_POST
def deck_verify_sign(request: HttpRequest, deck_id: int) -> HttpResponse:
    """The floorperson's verification of a deck's inspection, signed (``deck_verify``)."""
    if (refusal := refused_page(request, TABLE_TEMPLATE, Action.DECK_VERIFY)) is not None:
        return refusal
    deck = visible_to(request.user, DeckChange.objects.select_related("room", "table__room")).filter(pk=deck_id).first()
    if deck is None:
        messages.error(request, f"There is no deck {deck_id} in your rooms.")
        return redirect("floor:equipment")
    prefix = f"verify-{deck.pk}"
    form = DeckVerifyForm(request.POST, prefix=prefix)
    user = acting_user(request)

    def sign(data: dict[str, Any]) -> None:
        deck_verify(deck=deck, actor=user, pin=data["pin"], idempotency_key=data["idempotency_key"])

    done = f"Deck {deck.pk} of table {deck.table.number}: its inspection verified, signed by you."
    return _signed(request, table=deck.table, prefix=prefix, form=form, sign=sign, done=done)
