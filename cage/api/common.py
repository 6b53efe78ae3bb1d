"""What the cage's endpoints share besides the kernel's document routine (``core.api_common``):
what was counted, the fields its answers share, gaming days in a query, and the boxes and transports
named in a body."""

from __future__ import annotations

from datetime import date
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request

from casino_backoffice.core.api import MoneyField
from casino_backoffice.money import AMOUNT_PATTERN, MAX_AMOUNT_CENTS, format_cents
from tables.models import PokerRoom
from tables.selectors import rooms_of, visible_to

from ..models import Box, Transport, VarianceDirection, variance_direction
from ..services import boxes_sync

# --- Money ----------------------------------------------------------------------------------------


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


# --- What answers share -------------------------------------------------------------------------


class DirectionField(serializers.ChoiceField):
    """Which way a variance in cents goes (``variance_direction``): over, short or none."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=VarianceDirection.choices, **kwargs)

    def to_representation(self, value: Any) -> str:  # the variance in cents
        return variance_direction(value).value


class SortedColumnField(serializers.ListField):
    """One column of a related set (``variances``, ``missing_boxes``), sorted: one query, as the list
    is read from the database, never from the related objects one by one."""

    def __init__(self, *, column: str, **kwargs: Any) -> None:
        self.column = column
        super().__init__(**kwargs)

    def to_representation(self, data: Any) -> list[Any]:
        return sorted(data.values_list(self.column, flat=True))


# --- Gaming days in a query -----------------------------------------------------------------------


def day_param(request: Request, name: str) -> date | None:
    """A date query parameter (YYYY-MM-DD), or None when absent; a 400 when malformed."""
    raw = request.query_params.get(name)
    if not raw:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise ValidationError({name: ["Give the gaming day as YYYY-MM-DD."]}) from None


# --- Boxes and transports named in a body ---------------------------------------------------------


def boxes_named(codes: list[str], *, room: PokerRoom | None, user: Any, field: str = "box") -> list[Box]:
    """The boxes of those codes, in the order given: in ``room`` when given, else wherever the code is
    unique among the rooms ``user`` works in. A 400 names an unknown box (another room's included), or
    a code several rooms share without a room."""
    found = _boxes_by_code(codes, room=room, user=user)
    if any(code not in found for code in codes):
        # A box the rules name but the schedule has not met yet (a new table, a new rules version).
        for each in [room] if room is not None else rooms_of(user):
            boxes_sync(room=each)
        found = _boxes_by_code(codes, room=room, user=user)
    where = f" in room {room.code}" if room is not None else ""
    unknown = [code for code in codes if code not in found]
    if unknown:
        raise ValidationError({field: [f"There is no box {', '.join(unknown)}{where}."]})
    shared = [code for code in codes if len(found[code]) > 1]
    if shared:
        raise ValidationError({"room": [f"Box {', '.join(shared)} exists in several rooms; say which room."]})
    return [found[code][0] for code in codes]


def _boxes_by_code(codes: list[str], *, room: PokerRoom | None, user: Any) -> dict[str, list[Box]]:
    found: dict[str, list[Box]] = {}
    boxes = visible_to(user, Box.objects.filter(code__in=set(codes))).select_related(
        "room", "table", "jackpot", "account"
    )
    if room is not None:
        boxes = boxes.filter(room=room)
    for box in boxes:
        found.setdefault(box.code, []).append(box)
    return found


def transport_named(*, transport_id: int | None, seal: str | None, room: PokerRoom | None, user: Any) -> Transport:
    """The transport of that id, or of that seal (in ``room`` when given), among the rooms ``user``
    works in; a 400 when unknown (another room's included)."""
    transports = visible_to(user, Transport.objects.select_related("room"))
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
