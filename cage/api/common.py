"""What every cage endpoint shares: the Idempotency-Key, the errors as the schema states them, the
lookups of rooms, boxes and transports named in a body, and how people, times and money read."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date, datetime
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from django.db import models
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from casino_backoffice.core.api import MoneyField
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.money import AMOUNT_PATTERN, MAX_AMOUNT_CENTS, format_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.models import User
from tables.models import PokerRoom

from ..models import Box, Transport
from ..services import boxes_sync

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description="A new key per document (up to 120 characters). The same key with the same body answers the first "
    "result again, with the header `Idempotent-Replayed: true`, and records nothing; with another body it is a 409 "
    "`idempotency_key_reused`.",
)
REPLAYED_HEADER = "Idempotent-Replayed"
_MAX_KEY = 120
D = TypeVar("D", bound=models.Model)


def idempotency_key(request: Request) -> str:
    """The request's Idempotency-Key; a 400 when it is missing or too long."""
    key = (request.headers.get("Idempotency-Key") or "").strip()
    if not key:
        raise ValidationError(
            {"Idempotency-Key": ["This header is required: a new key per document, reused only to retry it."]}
        )
    if len(key) > _MAX_KEY:
        raise ValidationError({"Idempotency-Key": [f"The key is at most {_MAX_KEY} characters."]})
    return key


# --- Errors, as the schema states them ------------------------------------------------------------


class ErrorOutput(serializers.Serializer):
    detail = serializers.CharField(
        help_text="What was refused and why, in words for the person at the table or the cage."
    )
    code = serializers.CharField(help_text="The refused rule, for programs (listed with each status).")


_STATUS_MEANING = {
    400: "Nothing recorded. Field errors (`{field: [message]}`), or a refused rule (`{detail, code}`)",
    403: "Nothing recorded. `{detail, code}`",
    404: 'Nothing recorded: there is no such document. `{detail, code: "not_found"}`',
    409: "Nothing recorded. `{detail, code}`",
}


def errors(**codes: Iterable[str]) -> dict[int, OpenApiResponse]:
    """The error responses of a write for its schema: ``errors(e400=["wrong_pin"], e409=[...])``,
    each with the codes it may answer."""
    responses: dict[int, OpenApiResponse] = {}
    for name, listed in codes.items():
        number = int(name.removeprefix("e"))
        words = ", ".join(f"`{code}`" for code in listed)
        description = f"{_STATUS_MEANING[number]}{f'; code one of {words}' if words else ''}."
        responses[number] = OpenApiResponse(
            response=OpenApiTypes.OBJECT if number == 400 else ErrorOutput, description=description
        )
    return responses


# The errors of a list: a malformed filter, and for the restricted ones a role that may not read.
LIST_ERRORS = {
    400: OpenApiResponse(
        response=OpenApiTypes.OBJECT,
        description="A filter is malformed or names an unknown room: `{field: [message]}`.",
    )
}
RESTRICTED_LIST_ERRORS = {
    **LIST_ERRORS,
    403: OpenApiResponse(
        response=ErrorOutput, description='The role may not read it: `{detail, code: "not_permitted"}`.'
    ),
}


class NotFound(DomainError):
    """No document of that id (a 404 with a code, like every other API error)."""

    code = "not_found"
    status = 404


def document_or_404(queryset: models.QuerySet[D], pk: int, name: str) -> D:
    found = queryset.filter(pk=pk).first()
    if found is None:
        raise NotFound(f"There is no {name} {pk}.")
    return found


# Codes any signed write may answer: a role that may not act (403 ``not_permitted``), a PIN that is
# wrong, missing or locked (``staff.exceptions``).
PIN_CODES = ("wrong_pin", "no_pin", "invalid_pin")
ROLE_CODES = ("not_permitted", "signing_locked")


# --- Money ----------------------------------------------------------------------------------------


def money(cents: int | None) -> str | None:
    return None if cents is None else format_cents(cents)


_MONEY_SCHEMA = {
    "type": "string",
    "pattern": f"^(?:{AMOUNT_PATTERN.pattern})$",
    "example": "120.00",
    "description": f"Dollars and cents as a JSON string, from 0.00 to {format_cents(MAX_AMOUNT_CENTS)}.",
}


@extend_schema_field(
    {
        "oneOf": [
            _MONEY_SCHEMA,
            {"type": "object", "additionalProperties": _MONEY_SCHEMA, "example": {"T1-drop": "15.00", "T1-hh": "6.00"}},
        ],
        "description": 'The aggregate counted, as "12.34", for a container of table counts; or what was counted in '
        'each box, {box code: "12.34"}, for uncounted boxes. JSON numbers are refused.',
    }
)
class CountedField(serializers.Field):
    """One amount ("12.34") or an amount per box code ({"T1-drop": "15.00"}), to cents."""

    default_error_messages = {"invalid": "{message}"}

    def to_internal_value(self, data: Any) -> int | dict[str, int]:
        if isinstance(data, dict):
            counted: dict[str, int] = {}
            for code, amount in data.items():
                if not str(code).strip():
                    self.fail("invalid", message="A box code is empty.")
                try:
                    counted[str(code).strip()] = MoneyField().to_internal_value(amount)
                except ValidationError as error:
                    self.fail("invalid", message=f"Box {code}: {' '.join(str(d) for d in error.detail)}")
            return counted
        return int(MoneyField().to_internal_value(data))

    def to_representation(self, value: Any) -> Any:
        if isinstance(value, dict):
            return {code: format_cents(cents) for code, cents in value.items()}
        return format_cents(value)


# --- People and times -----------------------------------------------------------------------------


def person(user: User | None) -> str | None:
    """A person as the API names them: their username."""
    return None if user is None else user.username


def local(at: datetime | None, room: PokerRoom) -> str | None:
    """An aware datetime in the room's time zone, ISO-8601 with its offset."""
    return None if at is None else at.astimezone(ZoneInfo(room.timezone)).isoformat()


def day_param(request: Request, name: str) -> date | None:
    """A date query parameter (YYYY-MM-DD), or None when absent; a 400 when malformed."""
    raw = request.query_params.get(name)
    if not raw:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise ValidationError({name: ["Give the gaming day as YYYY-MM-DD."]}) from None


# --- Rooms, boxes and transports named in a body --------------------------------------------------


def room_named(code: str | None, *, field: str = "room") -> PokerRoom | None:
    """The room of that code, None when no code is given; a 400 naming ``field`` when unknown."""
    if not code:
        return None
    room = PokerRoom.objects.filter(code=code).first()
    if room is None:
        raise ValidationError({field: [f"There is no room {code}."]})
    return room


def room_required(code: str | None, *, field: str = "room") -> PokerRoom:
    """The room of that code, or the only room when none is given and there is one."""
    room = room_named(code, field=field)
    if room is not None:
        return room
    rooms = list(PokerRoom.objects.all()[:2])
    if len(rooms) != 1:
        raise ValidationError({field: ["Say which room (its code, such as main)."]})
    return rooms[0]


def boxes_named(codes: list[str], *, room: PokerRoom | None, field: str = "box") -> list[Box]:
    """The boxes of those codes, in the order given: in ``room`` when given, else wherever the code is
    unique. A 400 names an unknown box, or a code several rooms share without a room."""
    found = _boxes_by_code(codes, room=room)
    if any(code not in found for code in codes):
        # A box the rules name but the schedule has not met yet (a new table, a new rules version).
        for each in [room] if room is not None else PokerRoom.objects.all():
            boxes_sync(room=each)
        found = _boxes_by_code(codes, room=room)
    where = f" in room {room.code}" if room is not None else ""
    unknown = [code for code in codes if code not in found]
    if unknown:
        raise ValidationError({field: [f"There is no box {', '.join(unknown)}{where}."]})
    shared = [code for code in codes if len(found[code]) > 1]
    if shared:
        raise ValidationError({"room": [f"Box {', '.join(shared)} exists in several rooms; say which room."]})
    return [found[code][0] for code in codes]


def _boxes_by_code(codes: list[str], *, room: PokerRoom | None) -> dict[str, list[Box]]:
    found: dict[str, list[Box]] = {}
    boxes = Box.objects.filter(code__in=set(codes)).select_related("room", "table", "jackpot", "account")
    if room is not None:
        boxes = boxes.filter(room=room)
    for box in boxes:
        found.setdefault(box.code, []).append(box)
    return found


def transport_named(*, transport_id: int | None, seal: str | None, room: PokerRoom | None) -> Transport:
    """The transport of that id, or of that seal (in ``room`` when given); a 400 when unknown."""
    transports = Transport.objects.select_related("room")
    if transport_id is not None:
        found = transports.filter(pk=transport_id).first()
        if found is None or (room is not None and found.room_id != room.pk):
            raise ValidationError({"transport": [f"There is no transport {transport_id}."]})
        return found
    matching = list((transports.filter(room=room) if room is not None else transports).filter(seal=seal)[:2])
    if not matching:
        where = f" in room {room.code}" if room is not None else ""
        raise ValidationError({"seal": [f"No container was carried under seal {seal}{where}."]})
    if len(matching) > 1:
        raise ValidationError({"room": [f"Seal {seal} was used in several rooms; say which room."]})
    return matching[0]


# --- Writes ---------------------------------------------------------------------------------------


def valid(input_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = input_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def document_post(
    request: Request,
    *,
    input_class: type[serializers.Serializer],
    existing: Callable[[dict[str, Any], str], bool],
    create: Callable[..., dict[str, Any]],
) -> Response:
    """The POST routine of a document: the Idempotency-Key, the shape of the body, then
    ``create(values=, actor=, idempotency_key=)`` (which calls the service and answers the document's
    data); 201, with ``Idempotent-Replayed: true`` when ``existing(values, key)`` said the document was
    recorded before this request. A refusal raises (``{detail, code}`` from the one handler)."""
    key = idempotency_key(request)
    values = valid(input_class, request.data)
    replayed = existing(values, key)
    data = create(values=values, actor=acting_user(request), idempotency_key=key)
    response = Response(data, status=status.HTTP_201_CREATED)
    if replayed:
        response[REPLAYED_HEADER] = "true"
    return response


def keyed(model: type[models.Model]) -> Callable[[dict[str, Any], str], bool]:
    """Whether a document of ``model`` was recorded under the key (the service answers it again, or
    refuses another body with a 409)."""
    return lambda values, key: model._default_manager.filter(idempotency_key=key).exists()
