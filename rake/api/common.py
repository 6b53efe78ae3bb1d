"""What every rake endpoint shares: money and datetime fields, table and Idempotency-Key lookup,
the POST routine of idempotent writes, error responses. Who may call which endpoint is the one table
of actions and roles: each view names its action (``required_actions``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from casino_backoffice.core.api_common import ErrorOutput
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.idempotency import sender_key
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.models import User
from tables.models import Table
from tables.selectors import visible_to

from ..exceptions import InvalidRound

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    # As ``_idempotency_key`` reads it: up to 120 characters, not only spaces or tabs.
    {"type": "string", "minLength": 1, "maxLength": 120, "pattern": "[^ \t]"},
    OpenApiParameter.HEADER,
    required=True,
    description="A new key per round (up to 120 characters), the sender's own: a key another person or table "
    "system used is a new round of yours. The same key with the same body answers the first result again, with the "
    "header `Idempotent-Replayed: true`, and records nothing; with another body it is a 409.",
)


def _resolve_table(number: str, room_code: str | None, *, user: Any) -> Table:
    """The table of that number (in the room of that code) among the rooms ``user`` works in; a 400
    when there is none (another room's included) or several rooms have one and no room is said."""
    visible = visible_to(user, Table.objects.select_related("room"))
    tables = list(visible.filter(number=number, **({"room__code": room_code} if room_code else {}))[:2])
    if not tables:
        raise ValidationError({"table": [f"There is no table {number}{f' in room {room_code}' if room_code else ''}."]})
    if len(tables) > 1:
        raise ValidationError({"room": [f"Table {number} exists in several rooms; say which room."]})
    return tables[0]


def _idempotency_key(request: Request) -> str:
    # HTTP's optional whitespace around a value: spaces and tabs (str.strip() would take \x1c-\x1f and \x85 too).
    key = (request.headers.get("Idempotency-Key") or "").strip(" \t")
    if not key:
        raise ValidationError(
            {"Idempotency-Key": ["This header is required: a new key per round, reused only to retry it."]}
        )
    if len(key) > 120:
        raise ValidationError({"Idempotency-Key": ["The key is at most 120 characters."]})
    return key


# Every error answer is JSON (the one exception handler): a 400 ``{field: [message]}`` or
# ``{detail, code}``, any other status ``{detail, code}``.
ERRORS = {
    400: OpenApiResponse(
        response=OpenApiTypes.OBJECT,
        description="Field errors (`{field: [message]}`) or a refused rule (`{detail, code}`, such as "
        "`late_entry_unsigned`: a round logged later than the room's late_entry_minutes without a shift "
        "supervisor's signature); nothing recorded.",
    ),
    403: OpenApiResponse(
        response=ErrorOutput,
        description='The signed-in person\'s role may not take this action (`{detail, code: "not_permitted"}`); nothing recorded.',
    ),
    409: OpenApiResponse(
        response=ErrorOutput,
        description="The Idempotency-Key was used with another body (`idempotency_key_reused`), or the round's "
        "gaming day was closed by finance (`gaming_day_closed`, §637a.17); nothing recorded.",
    ),
}


# --- The POST routine of idempotent writes -------------------------------------------------------


@dataclass(frozen=True)
class Recorded:
    """What a service recorded for one write, as the API answers it, and whether it was a replay."""

    data: dict[str, Any]
    replayed: bool


def write_input(
    input_class: type[serializers.Serializer],
    data: Any,
    *,
    user: Any,
    tables: dict[tuple[str, str | None], Table] | None = None,
) -> tuple[dict[str, Any], Table]:
    """Check the shape of one write (``input_class``), then find the table it names in the rooms
    ``user`` works in; a ``ValidationError`` otherwise. ``tables`` caches tables across the items of a
    batch."""
    serializer = input_class(data=data)
    serializer.is_valid(raise_exception=True)
    values: dict[str, Any] = dict(serializer.validated_data)
    where = (values["table"], values.get("room"))
    if tables is None:
        return values, _resolve_table(*where, user=user)
    table = tables.get(where) or tables.setdefault(where, _resolve_table(*where, user=user))
    return values, table


def write_outcome(outcome: Recorded | DomainError) -> tuple[int, dict[str, Any]]:
    """The status and body of one write: 201 with what was recorded (or replayed), 400 with field
    errors, or the refused rule's status with ``{detail, code}``."""
    if isinstance(outcome, InvalidRound):
        return status.HTTP_400_BAD_REQUEST, outcome.field_errors
    if isinstance(outcome, DomainError):
        return outcome.status, {"detail": outcome.message, "code": outcome.code}
    return status.HTTP_201_CREATED, outcome.data


def idempotent_post(
    request: Request,
    *,
    input_class: type[serializers.Serializer],
    record: Callable[..., Recorded],
) -> Response:
    """The POST routine of every idempotent write: the Idempotency-Key (the sender's,
    ``idempotency.sender_key``: another sender's equal key is a new round), the shape of the body, the
    table it names, then ``record(table=, values=, actor=, idempotency_key=)`` (which calls the
    service); 201 with ``Idempotent-Replayed: true`` when the key was recorded before."""
    actor: User = acting_user(request)
    key = sender_key(sender_pk=actor.pk, key=_idempotency_key(request))
    values, table = write_input(input_class, request.data, user=request.user)
    outcome: Recorded | DomainError
    try:
        outcome = record(table=table, values=values, actor=actor, idempotency_key=key)
    except DomainError as error:
        outcome = error
    code, body = write_outcome(outcome)
    response = Response(body, status=code)
    if isinstance(outcome, Recorded) and outcome.replayed:
        response["Idempotent-Replayed"] = "true"
    return response
