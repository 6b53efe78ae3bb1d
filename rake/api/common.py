"""What every rake endpoint shares: who may log, money and datetime fields, table and Idempotency-Key lookup, error responses."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import SAFE_METHODS, IsAuthenticated
from rest_framework.request import Request

from casino_backoffice.money import InvalidAmount, format_cents, parse_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.roles import FLOORPERSON_OR_ABOVE, Role
from tables.models import Table

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description="A new key per round (up to 120 characters). The same key with the same body answers the first "
    "result again and records nothing; with another body it is a 409.",
)
LOGS_ROUNDS = frozenset({Role.DEALER}) | FLOORPERSON_OR_ABOVE


class LogsRounds(IsAuthenticated):
    """Any member of staff reads; dealers and floorpersons or above log rounds and time charges."""

    message = "Only a dealer or a floorperson or above logs rounds and time charges."

    def has_permission(self, request: Request, view: Any) -> bool:
        if not super().has_permission(request, view):
            return False
        if request.method in SAFE_METHODS:
            return True
        return bool(acting_user(request).roles & LOGS_ROUNDS)


@extend_schema_field({"type": "string", "pattern": r"^\d+(\.\d{1,2})?$", "example": "120.00"})
class MoneyField(serializers.Field):
    """Dollars and cents as a string ("120.00"); whole cents, never negative, never a float."""

    default_error_messages = {"invalid": "{message}"}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, str | int):
            self.fail("invalid", message=f"{data!r} is not an amount; write it as a string such as \"120.00\".")
        try:
            return int(parse_cents(data))
        except InvalidAmount as error:
            self.fail("invalid", message=str(error))
        raise AssertionError  # pragma: no cover

    def to_representation(self, value: int) -> str:
        return format_cents(value)


class AwareDateTimeField(serializers.DateTimeField):
    """ISO-8601 with its UTC offset ("2026-11-30T21:15:00-05:00" or "...Z"); a bare local time is refused."""

    def to_internal_value(self, value: Any) -> datetime:
        if isinstance(value, str):
            try:
                parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
            except ValueError:
                raise ValidationError(f"{value!r} is not an ISO-8601 date and time.") from None
            if parsed.tzinfo is None:
                raise ValidationError("Give the time with its UTC offset, such as 2026-11-30T21:15:00-05:00.")
            return parsed
        raise ValidationError("Give an ISO-8601 date and time with its UTC offset.")


def _resolve_table(number: str, room_code: str | None) -> Table:
    tables = list(Table.objects.select_related("room").filter(number=number, **({"room__code": room_code} if room_code else {}))[:2])
    if not tables:
        raise ValidationError({"table": [f"There is no table {number}{f' in room {room_code}' if room_code else ''}."]})
    if len(tables) > 1:
        raise ValidationError({"room": [f"Table {number} exists in several rooms; say which room."]})
    return tables[0]


def _idempotency_key(request: Request) -> str:
    key = (request.headers.get("Idempotency-Key") or "").strip()
    if not key:
        raise ValidationError({"Idempotency-Key": ["This header is required: a new key per round, reused only to retry it."]})
    if len(key) > 120:
        raise ValidationError({"Idempotency-Key": ["The key is at most 120 characters."]})
    return key


ERRORS = {
    400: OpenApiResponse(description="Field errors (`{field: [message]}`) or a refused rule (`{detail, code}`); nothing recorded."),
    409: OpenApiResponse(description="The Idempotency-Key was used with another body; nothing recorded."),
}
