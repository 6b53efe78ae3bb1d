"""``/api/equipment/`` and ``/api/decks/``: the equipment log (§637a.18(q)-(r), §655a.13(e)-(g),
§657a.13(e)-(g)) and the deck log of the banked tables (§655a.3(c), §655a.4(a), §657a.3(c), §657a.4(a)).

POST ``equipment/`` records a device's step (failed, out_of_order, returned); POST ``decks/`` puts a
deck into play, the dealer's inspection signed; POST ``decks/{id}/verify/`` is the floorperson's
verification; each GET is its log, filtered by ``room``, ``gaming_day`` and ``table``. Serializers check
shape; ``services`` check rules.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api import RoomTimeField, WholeNumberField
from casino_backoffice.core.api_common import (
    IDEMPOTENCY_HEADER,
    LIST_ERRORS,
    PIN_CODES,
    ROLE_CODES,
    AwareDateTimeField,
    document_or_404,
    document_post,
    errors,
)
from casino_backoffice.core.exceptions import CoreErrorCode
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action

from ..api import room_named, room_required
from ..models import Table
from ..selectors import visible_to
from .exceptions import EquipmentErrorCode
from .models import DealtFrom, DeckChange, Device, DeviceStep, Failure, Marking
from .selectors import deck_changes_filtered, deck_shown, device_event_shown, device_events_filtered
from .services import deck_change, deck_verify, device_failure_record, device_out_of_order, device_return

# --- Input ----------------------------------------------------------------------------------------


class DeviceStepInput(serializers.Serializer):
    room = serializers.SlugField(required=False, help_text="Room code; needed when there are several rooms.")
    table = serializers.CharField(max_length=10, help_text="Table number, such as T1.")
    device = serializers.ChoiceField(choices=Device.choices)
    step = serializers.ChoiceField(
        choices=DeviceStep.choices,
        help_text="failed (a dealer or floorperson or above), out_of_order or returned (a floorperson or above).",
    )
    failure = serializers.ChoiceField(
        choices=Failure.choices, required=False, allow_blank=True, help_text="How it failed: for failed only."
    )
    marking = serializers.ChoiceField(
        choices=Marking.choices,
        required=False,
        allow_blank=True,
        help_text="Covered, or a sign placed on it (§637a.18(r)): for out_of_order only.",
    )
    serial_number = serializers.CharField(required=False, allow_blank=True, max_length=60)
    description = serializers.CharField(max_length=4000, help_text="What happened, in words.")
    occurred_at = AwareDateTimeField(required=False, help_text="When it happened (default now); never in the future.")
    pin = serializers.CharField(help_text="The signed-in person's PIN: their signature.")


class DeckInput(serializers.Serializer):
    room = serializers.SlugField(required=False, help_text="Room code; needed when there are several rooms.")
    table = serializers.CharField(max_length=10, help_text="Table number of a banked table, such as T5.")
    dealt_from = serializers.ChoiceField(
        choices=DealtFrom.choices, help_text="hand: changed within 4 hours; shoe: within 8 hours (§655a.3(c))."
    )
    decks = WholeNumberField(default=1, help_text="1, or 2 with a shuffler (§655a.3(b)).")
    preinspected = serializers.BooleanField(
        default=False, help_text="Received preinspected and preshuffled (§655a.4(e)): no verification follows."
    )
    note = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    changed_at = AwareDateTimeField(required=False, help_text="When the deck went into play (default now).")
    pin = serializers.CharField(help_text="The signed-in dealer's PIN: their signature of the inspection.")


class DeckVerifyInput(serializers.Serializer):
    pin = serializers.CharField(help_text="The signed-in floorperson's PIN: their signature.")


# --- Output ---------------------------------------------------------------------------------------


class DeviceEventOutput(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.CharField(source="room.code")
    table = serializers.CharField(source="table.number")
    gaming_day = serializers.DateField()
    device = serializers.ChoiceField(choices=Device.choices)
    serial_number = serializers.CharField()
    step = serializers.ChoiceField(choices=DeviceStep.choices)
    section = serializers.CharField(help_text="The provision it records, at the table's game.")
    failure = serializers.CharField()
    marking = serializers.CharField()
    ends = serializers.IntegerField(source="ends_id", allow_null=True, help_text="A return: the step it ends.")
    occurred_at = RoomTimeField()
    description = serializers.CharField()
    recorded_by = serializers.CharField(source="recorded_by.username")
    recorded_at = RoomTimeField()


class DeckVerificationOutput(serializers.Serializer):
    verified_by = serializers.CharField(source="verified_by.username")
    verified_at = RoomTimeField(room="deck.room")


class DeckOutput(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.CharField(source="room.code")
    table = serializers.CharField(source="table.number")
    gaming_day = serializers.DateField()
    changed_at = RoomTimeField()
    dealt_from = serializers.ChoiceField(choices=DealtFrom.choices)
    decks = serializers.IntegerField()
    preinspected = serializers.BooleanField()
    due_by = RoomTimeField(help_text="Changed by then at the latest (§655a.3(c), §657a.3(c)).")
    inspected_by = serializers.CharField(source="inspected_by.username")
    note = serializers.CharField()
    verification = DeckVerificationOutput(allow_null=True, help_text="The floorperson's verification; null until.")
    overdue = serializers.SerializerMethodField(help_text="Flagged overdue by the schedule.")

    def get_overdue(self, deck: DeckChange) -> bool:
        return getattr(deck, "overdue", None) is not None


# --- Writes ---------------------------------------------------------------------------------------


def _table_named(values: dict[str, Any], *, user: Any) -> Table:
    room = room_required(values.get("room"), user=user)
    table = visible_to(user, Table.objects.select_related("room")).filter(room=room, number=values["table"]).first()
    if table is None:
        raise ValidationError({"table": [f"There is no table {values['table']} in room {room.code}."]})
    return table


def _device_step(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
    common = {
        "table": _table_named(values, user=actor),
        "device": values["device"],
        "description": values["description"],
        "serial_number": values.get("serial_number", ""),
        "occurred_at": values.get("occurred_at"),
        "actor": actor,
        "pin": values["pin"],
        "idempotency_key": idempotency_key,
    }
    step = values["step"]
    if step == DeviceStep.FAILED:
        event = device_failure_record(failure=values.get("failure", ""), **common)
    elif step == DeviceStep.OUT_OF_ORDER:
        event = device_out_of_order(marking=values.get("marking", ""), **common)
    else:
        event = device_return(**common)
    return dict(DeviceEventOutput(device_event_shown(event.pk)).data)


def _deck_change(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
    deck = deck_change(
        table=_table_named(values, user=actor),
        dealt_from=values["dealt_from"],
        decks=values["decks"],
        preinspected=values["preinspected"],
        note=values.get("note", ""),
        changed_at=values.get("changed_at"),
        actor=actor,
        pin=values["pin"],
        idempotency_key=idempotency_key,
    )
    return dict(DeckOutput(deck_shown(deck.pk)).data)


def _day(request: Request) -> date | None:
    raw = request.query_params.get("gaming_day")
    if not raw:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise ValidationError({"gaming_day": ["Give the gaming day as YYYY-MM-DD."]}) from None


_FILTERS = [
    OpenApiParameter("room", OpenApiTypes.STR, description="Room code"),
    OpenApiParameter("gaming_day", OpenApiTypes.DATE, description="Gaming day (YYYY-MM-DD)"),
    OpenApiParameter("table", OpenApiTypes.STR, description="Table number"),
]


def _filters(request: Request) -> dict[str, Any]:
    room = room_named(request.query_params.get("room"), user=request.user)
    return {
        "user": request.user,
        "room_id": room.pk if room else None,
        "gaming_day": _day(request),
        "table_number": request.query_params.get("table"),
    }


class EquipmentListCreate(generics.ListAPIView):
    """The equipment log. GET: newest first (filters ``room``, ``gaming_day``, ``table``). POST: a step of a
    table's shuffler or dealing shoe, signed: failed (the dealer or floorperson at the table, §637a.18(q),
    §655a.13(e)-(f)), out_of_order, covered or signed (a floorperson or above, §637a.18(r), §655a.13(g)),
    returned to service (a floorperson or above)."""

    serializer_class = DeviceEventOutput
    required_actions = {"GET": Action.EQUIPMENT_READ, "POST": Action.DEVICE_FAILURE_RECORD}

    def get_queryset(self):
        return device_events_filtered(**_filters(self.request))

    @extend_schema(parameters=_FILTERS, responses={200: DeviceEventOutput(many=True), **LIST_ERRORS})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None  # every list is paginated (REST_FRAMEWORK settings)
        return self.get_paginated_response(DeviceEventOutput(page, many=True).data)

    @extend_schema(
        request=DeviceStepInput,
        responses={
            201: DeviceEventOutput,
            **errors(
                e400=[EquipmentErrorCode.EQUIPMENT, *PIN_CODES],
                e403=ROLE_CODES,
                e409=[
                    EquipmentErrorCode.DEVICE_OUT_OF_ORDER,
                    EquipmentErrorCode.DEVICE_NOT_OUT_OF_ORDER,
                    CoreErrorCode.IDEMPOTENCY_KEY_REUSED,
                ],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request) -> Response:
        return document_post(request, input_class=DeviceStepInput, create=_device_step)


class DeckListCreate(generics.ListAPIView):
    """The deck log of the banked tables. GET: newest first (filters ``room``, ``gaming_day``, ``table``).
    POST: the dealer puts a deck into play, inspected, and signs (§655a.4(a), §657a.4(a)); it is changed
    at least every 4 hours dealt by hand, 8 from a shoe (§655a.3(c), §657a.3(c))."""

    serializer_class = DeckOutput
    required_actions = {"GET": Action.EQUIPMENT_READ, "POST": Action.DECK_INSPECT}

    def get_queryset(self):
        return deck_changes_filtered(**_filters(self.request))

    @extend_schema(parameters=_FILTERS, responses={200: DeckOutput(many=True), **LIST_ERRORS})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None  # every list is paginated (REST_FRAMEWORK settings)
        return self.get_paginated_response(DeckOutput(page, many=True).data)

    @extend_schema(
        request=DeckInput,
        responses={
            201: DeckOutput,
            **errors(
                e400=[EquipmentErrorCode.DECK, *PIN_CODES],
                e403=ROLE_CODES,
                e409=[CoreErrorCode.IDEMPOTENCY_KEY_REUSED],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request) -> Response:
        return document_post(request, input_class=DeckInput, create=_deck_change)


class DeckVerify(APIView):
    """The floorperson or above verifies the dealer's inspection of a deck and signs (§655a.4(a),
    §657a.4(a)): never the inspector, once."""

    required_actions = {"POST": Action.DECK_VERIFY}

    @extend_schema(
        request=DeckVerifyInput,
        responses={
            201: DeckOutput,
            **errors(
                e400=[EquipmentErrorCode.DECK, EquipmentErrorCode.DECK_VERIFIED_BY_INSPECTOR, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[CoreErrorCode.NOT_FOUND],
                e409=[EquipmentErrorCode.DECK_ALREADY_VERIFIED, CoreErrorCode.IDEMPOTENCY_KEY_REUSED],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request, pk: int) -> Response:
        deck = document_or_404(DeckChange.objects.select_related("room"), pk, "deck", user=request.user)

        def verify(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
            deck_verify(deck=deck, actor=actor, pin=values["pin"], idempotency_key=idempotency_key)
            return dict(DeckOutput(deck_shown(deck.pk)).data)

        return document_post(request, input_class=DeckVerifyInput, create=verify)


urlpatterns = [
    path("equipment/", EquipmentListCreate.as_view(), name="api-equipment"),
    path("decks/", DeckListCreate.as_view(), name="api-decks"),
    path("decks/<int:pk>/verify/", DeckVerify.as_view(), name="api-deck-verify"),
]
