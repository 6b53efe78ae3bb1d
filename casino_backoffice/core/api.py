"""What every API shares: the one DRF exception handler, JSON answers for what Django answers
itself under /api/, the one money field, amounts and moments as answers write them, and whole
numbers written as JSON numbers.

Domain errors become 400/403/409 with the rule's message: ``{detail, code}``; a role that may not
act is a 403 with the code ``not_permitted`` (``staff.exceptions.ActionNotPermitted``).
"""

from __future__ import annotations

from datetime import datetime
from functools import reduce
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from casino_backoffice.money import AMOUNT_PATTERN, MAX_AMOUNT_CENTS, InvalidAmount, format_cents, parse_cents

from .clock import local
from .exceptions import DomainError

API_PREFIX = "/api/"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        response: Response | None = Response({"detail": exc.message, "code": exc.code}, status=exc.status)
    else:
        response = drf_exception_handler(exc, context)
    request = context.get("request")
    # An error is JSON even where an export was asked for (?format=csv, xlsx): DRF would render it with
    # the export's renderer, as a spreadsheet the schema does not promise; the browsable API keeps its page.
    if response is not None and request is not None:
        renderer = getattr(request, "accepted_renderer", None)
        if not isinstance(renderer, JSONRenderer | BrowsableAPIRenderer):
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
    return response


# --- Errors Django answers itself ----------------------------------------------------------------
# An unknown path, a request Django refuses before any view, or a crash: under /api/ the answer is
# JSON like every other API error; elsewhere Django's own pages. Installed as handler400/403/404/500
# by the root URLconf.


def _json_error(status: int, detail: str, code: str) -> JsonResponse:
    return JsonResponse({"detail": detail, "code": code}, status=status)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX) or request.path == API_PREFIX.rstrip("/")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _json_error(400, "The request is malformed.", "bad_request")
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _json_error(403, str(exception) or "You may not do this.", "not_permitted")
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _json_error(404, f"There is no API endpoint at {request.path}.", "not_found")
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return _json_error(500, "The server failed to answer; nothing was recorded by this request.", "server_error")
    return defaults.server_error(request)


# --- Money ---------------------------------------------------------------------------------------


@extend_schema_field(
    {
        "type": "string",
        "pattern": f"^(?:{AMOUNT_PATTERN.pattern})$",
        "example": "120.00",
        "description": f'Dollars and cents as a JSON string: the digits 0-9, an optional leading "$", commas '
        f'only between groups of three ("1,250.00"; "23,90" is refused), at most two decimals; from 0.00 to '
        f"{format_cents(MAX_AMOUNT_CENTS)} (the pattern says so too). A JSON number is refused (400).",
    }
)
class MoneyField(serializers.Field):
    """Dollars and cents as a JSON string ("120.00"), read by ``casino_backoffice.money.parse_cents``,
    the one parser of every page and field: whole cents, never negative, at most ``MAX_AMOUNT_CENTS``.
    A JSON number is refused, whole or not: a table system sending 12000 meaning cents must never
    record a $12,000 pot."""

    default_error_messages = {"invalid": "{message}"}

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, str):
            self.fail("invalid", message=f'{data!r} is not an amount; write it as a string such as "120.00".')
        try:
            return int(parse_cents(data))
        except InvalidAmount as error:
            self.fail("invalid", message=str(error))

    def to_representation(self, value: int) -> str:
        return format_cents(value)


@extend_schema_field({"type": "string", "pattern": r"^-?\d+\.\d{2}$", "example": "-12.34"})
class CentsField(serializers.Field):
    """An amount answered (an output serializer's field, never read) as dollars and cents with its sign: ``format_cents`` ("1,250.00"
    is written "1250.00"; "-1.50" below zero). A null source answers null (``allow_null=True`` says so
    in the schema)."""

    def to_representation(self, value: int) -> str:
        return format_cents(value)


class RoomTimeField(serializers.DateTimeField):
    """A moment answered as the clock of its room reads it: ISO 8601 with the room's offset
    ("2026-11-30T21:15:00-05:00"; "...Z" in UTC), as DRF writes a moment, but in the room's zone, not
    the site's. ``room`` is the dotted path from the serialized object to anything with a time zone
    (the room; ``"table.room"``); a null moment answers null."""

    def __init__(self, *, room: str = "room", **kwargs: Any) -> None:
        self.room_path = room
        super().__init__(**kwargs)

    def get_attribute(self, instance: Any) -> datetime | None:
        at = super().get_attribute(instance)
        if at is None:
            return None
        return local(at, reduce(getattr, self.room_path.split("."), instance))

    def enforce_timezone(self, value: datetime) -> datetime:
        return value  # in the room's zone already


class WholeNumberField(serializers.IntegerField):
    """A JSON integer (a seat, a count of players, an id): a string, a fraction or a boolean is refused
    (400), as a number is for money, so that a table system's mistake is never read as something else."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))
