"""What the document APIs of every app share: the Idempotency-Key, the errors as the schema states
them, a document looked up by the id in its path, how people and money read, and the POST routine
of a signed document.

The cage's API and the Bad Beat's API are written with these; rooms named in a body are looked up
by ``tables.api`` (the kernel knows no rooms).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from django.db import models
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from casino_backoffice.money import format_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.exceptions import StaffErrorCode
from casino_backoffice.staff.models import User

from .exceptions import CoreErrorCode, DomainError, ErrorCode
from .idempotency import replays_noted, sender_key
from .rooms import visible

_MAX_KEY = 120
IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    # As ``idempotency_key`` reads it: up to 120 characters, not only spaces or tabs.
    {"type": "string", "minLength": 1, "maxLength": _MAX_KEY, "pattern": "[^ \t]"},
    OpenApiParameter.HEADER,
    required=True,
    description="A new key per document (up to 120 characters), the sender's own: a key another person or table "
    "system used is a new request of yours. The same key with the same body answers the first result again, with the "
    "header `Idempotent-Replayed: true`, and records nothing; with another body it is a 409 `idempotency_key_reused`.",
)
REPLAYED_HEADER = "Idempotent-Replayed"
D = TypeVar("D", bound=models.Model)


def idempotency_key(request: Request) -> str:
    """The request's Idempotency-Key as its sender's (``idempotency.sender_key``: a key another
    person or table system used is a new request of this one); a 400 when it is missing or too long."""
    return sender_key(sender_pk=acting_user(request).pk, key=idempotency_key_as_sent(request))


def idempotency_key_as_sent(request: Request) -> str:
    """The request's Idempotency-Key as sent; a 400 when it is missing or too long."""
    # HTTP's optional whitespace around a value: spaces and tabs (str.strip() would take \x1c-\x1f and \x85 too).
    key = (request.headers.get("Idempotency-Key") or "").strip(" \t")
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


def errors(**codes: Iterable[ErrorCode]) -> dict[int, OpenApiResponse]:
    """The error responses of a write for its schema: ``errors(e400=[StaffErrorCode.WRONG_PIN],
    e409=[...])``, each with the codes it may answer, members of the domains' enumerations (a string
    is a ``TypeError``: the schema names only codes a refusal can carry)."""
    responses: dict[int, OpenApiResponse] = {}
    for name, listed in codes.items():
        number = int(name.removeprefix("e"))
        for code in listed:
            if not isinstance(code, ErrorCode):
                raise TypeError(f"errors({name}=...): {code!r} is not a member of an ErrorCode enumeration.")
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

    code = CoreErrorCode.NOT_FOUND
    status = 404


def document_or_404(queryset: models.QuerySet[D], pk: int, name: str, *, user: Any) -> D:
    """The document of that id among those ``user`` may see (the rooms they work in); a 404 when there
    is none, or it is another room's (the same answer: its existence is not disclosed)."""
    found = visible(user, queryset).filter(pk=pk).first()
    if found is None:
        raise NotFound(f"There is no {name} {pk}.")
    return found


# Codes any signed write may answer: a role that may not act (403 ``not_permitted``), a PIN that is
# wrong, missing or locked (``staff.exceptions``).
PIN_CODES = (StaffErrorCode.WRONG_PIN, StaffErrorCode.NO_PIN, StaffErrorCode.INVALID_PIN)
ROLE_CODES = (StaffErrorCode.NOT_PERMITTED, StaffErrorCode.SIGNING_LOCKED)


# --- People and money -----------------------------------------------------------------------------


def money(cents: int | None) -> str | None:
    return None if cents is None else format_cents(cents)


def person(user: User | None) -> str | None:
    """A person as the API names them: their username."""
    return None if user is None else user.username


# --- Writes ---------------------------------------------------------------------------------------


def valid(input_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = input_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def document_post(
    request: Request,
    *,
    input_class: type[serializers.Serializer],
    create: Callable[..., dict[str, Any]],
    answer_status: int = status.HTTP_201_CREATED,
) -> Response:
    """The POST routine of a document: the Idempotency-Key, the shape of the body, then
    ``create(values=, actor=, idempotency_key=)`` (which calls the service and answers the document's
    data); ``answer_status`` (201), with ``Idempotent-Replayed: true`` exactly when the service
    answered a document recorded before this request (``idempotency.replays_noted``: the loser of two
    parallel posts of one key too). A refusal raises (``{detail, code}`` from the one handler)."""
    key = idempotency_key(request)
    values = valid(input_class, request.data)
    with replays_noted() as replays:
        data = create(values=values, actor=acting_user(request), idempotency_key=key)
    response = Response(data, status=answer_status)
    if replays:
        response[REPLAYED_HEADER] = "true"
    return response


class AwareDateTimeField(serializers.DateTimeField):
    """ISO-8601 with its UTC offset ("2026-11-30T21:15:00-05:00" or "...Z"); a bare local time is refused:
    the moment decides the gaming day, the rules version and the qualifying period."""

    def to_internal_value(self, value: Any) -> datetime:
        if not isinstance(value, str):
            raise ValidationError("Give an ISO-8601 date and time with its UTC offset.")
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise ValidationError(f"{value!r} is not an ISO-8601 date and time.") from None
        if parsed.tzinfo is None:
            raise ValidationError("Give the time with its UTC offset, such as 2026-11-30T21:15:00-05:00.")
        # PostgreSQL refuses an offset past 15:59 that Python reads ("-20:34"), which was a server error:
        # such a time is kept in UTC.
        offset = parsed.utcoffset()
        if offset is not None and abs(offset) >= timedelta(hours=16):
            try:
                return parsed.astimezone(UTC)
            except OverflowError:
                raise ValidationError(f"{value!r} is not a date and time the room can have.") from None
        return parsed
