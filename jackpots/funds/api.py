"""What the jackpot products' endpoints share: the funds, tables and rounds a body names, found in the
room it names (or the only room), each unknown one a 400 naming its field; a moment with its offset;
a patron's identification number masked (``funds.reports.id_number_masked``, the one way)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from casino_backoffice.core.api import WholeNumberField
from jackpots.funds.models import Jackpot
from tables.models import PokerRoom, Round, Table
from tables.selectors import visible_to

# Ids are PostgreSQL bigints: a larger number is refused as a field error before any query.
MAX_ID = 2**63 - 1


def id_field(**options: Any) -> WholeNumberField:
    return WholeNumberField(min_value=1, max_value=MAX_ID, **options)


def room_field() -> serializers.SlugField:
    return serializers.SlugField(required=False, help_text="Room code; needed when there are several rooms.")


def pin_field(who: str) -> serializers.CharField:
    return serializers.CharField(max_length=60, help_text=f"The signed-in {who}'s PIN: their signature.")


def jackpot_named(code: str, *, room: PokerRoom, field: str = "jackpot") -> Jackpot:
    """The fund of that code in ``room``; a 400 on ``field`` when the room has none."""
    jackpot = Jackpot.objects.select_related("room").filter(room=room, code=code).first()
    if jackpot is None:
        raise ValidationError({field: [f"There is no jackpot {code} in room {room.code}."]})
    return jackpot


def table_named(number: str, *, room: PokerRoom) -> Table:
    """The table of that number in ``room``; a 400 on ``table`` when the room has none."""
    table = Table.objects.select_related("room").filter(room=room, number=number).first()
    if table is None:
        raise ValidationError({"table": [f"There is no table {number} in room {room.code}."]})
    return table


def round_named(round_id: int | None, *, user: Any) -> Round | None:
    """The round of that id in the rooms ``user`` works in, None when none is given; a 400 on ``round``
    when there is none (the service checks that it was played at the claim's table)."""
    if round_id is None:
        return None
    found = visible_to(user, Round.objects.filter(pk=round_id)).first()
    if found is None:
        raise ValidationError({"round": [f"There is no round {round_id}."]})
    return found
