"""``/api/rounds/``: rounds of play, listed and logged one at a time."""

from __future__ import annotations

from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import Prefetch
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from casino_backoffice.core.api import MoneyField
from casino_backoffice.money import format_cents
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from jackpots.models import RoundDrop
from tables.models import Round, Table
from tables.selectors import visible_to

from ..selectors import rules_version_number
from ..services import RoundRecorded, round_record
from .common import ERRORS, IDEMPOTENCY_HEADER, AwareDateTimeField, Recorded, idempotent_post


class RoundInput(serializers.Serializer):
    table = serializers.CharField(max_length=10, help_text="Table number, such as T1.")
    room = serializers.SlugField(
        required=False, help_text="Room code; needed only when two rooms share a table number."
    )
    ended_at = AwareDateTimeField(
        help_text="When the round ended, ISO-8601 with offset; rates the round by the rules then in effect."
    )
    players_dealt_in = serializers.IntegerField(min_value=0, max_value=32767)
    pot = MoneyField(help_text='The whole pot, side pots included, before rake, as "120.00".')
    uncalled_bet = MoneyField(
        required=False, default=0, help_text="The uncalled final bet returned to its bettor (§637a.17(d))."
    )
    flop_dealt = serializers.BooleanField(required=False, default=True)
    voided = serializers.BooleanField(
        required=False, default=False, help_text="A voided round (§637a.18(i)) takes no rake and no drops."
    )


class RoundOutput(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.CharField()
    room = serializers.CharField()
    ended_at = serializers.DateTimeField()
    gaming_day = serializers.DateField()
    shift = serializers.CharField()
    game = serializers.CharField()
    players_dealt_in = serializers.IntegerField()
    pot = serializers.CharField()
    uncalled_bet = serializers.CharField()
    flop_dealt = serializers.BooleanField()
    voided = serializers.BooleanField()
    rules_version = serializers.IntegerField(help_text="Number of the room's rules version that rated the round.")
    rake = serializers.CharField()
    rake_rule = serializers.CharField()
    drops = serializers.DictField(
        child=serializers.CharField(), help_text="Jackpot code to amount, in the order the table lists them."
    )
    drop_rules = serializers.DictField(child=serializers.CharField())
    created_at = serializers.DateTimeField()


def round_data(
    round_: Round, drops: tuple[RoundDrop, ...] | list[RoundDrop], *, version_number: int | None = None
) -> dict[str, Any]:
    table = round_.table
    ordered = sorted(drops, key=lambda d: d.position)
    return {
        "id": round_.pk,
        "table": table.number,
        "room": table.room.code,
        "ended_at": round_.ended_at.astimezone(ZoneInfo(table.room.timezone)).isoformat(),
        "gaming_day": round_.gaming_day.isoformat() if isinstance(round_.gaming_day, date) else round_.gaming_day,
        "shift": round_.shift,
        "game": round_.game,
        "players_dealt_in": round_.players_dealt_in,
        "pot": format_cents(round_.pot_cents),
        "uncalled_bet": format_cents(round_.uncalled_bet_cents),
        "flop_dealt": round_.flop_dealt,
        "voided": round_.voided,
        "rules_version": version_number if version_number is not None else round_.rules_version.number,
        "rake": format_cents(round_.rake_cents),
        "rake_rule": round_.rake_rule,
        "drops": {d.jackpot_code: format_cents(d.amount_cents) for d in ordered},
        "drop_rules": {d.jackpot_code: d.rule for d in ordered},
        "created_at": round_.created_at.astimezone(ZoneInfo(table.room.timezone)).isoformat(),
    }


def round_recorded(table: Table, recorded: RoundRecorded) -> Recorded:
    """A round as the API answers it, recorded or replayed."""
    round_ = recorded.round
    round_.table = table
    number = rules_version_number(version_id=round_.rules_version_id)
    return Recorded(data=round_data(round_, recorded.drops, version_number=number), replayed=recorded.replayed)


def _round_record(*, table: Table, values: dict[str, Any], actor: User, idempotency_key: str) -> Recorded:
    recorded = round_record(
        table=table,
        ended_at=values["ended_at"],
        players_dealt_in=values["players_dealt_in"],
        pot_cents=values["pot"],
        uncalled_bet_cents=values["uncalled_bet"],
        flop_dealt=values["flop_dealt"],
        voided=values["voided"],
        actor=actor,
        idempotency_key=idempotency_key,
    )
    return round_recorded(table, recorded)


class RoundListCreate(generics.ListAPIView):
    """Rounds of play. GET lists them (filters: ``table``, ``room``, ``gaming_day``); POST logs one."""

    serializer_class = RoundOutput
    required_actions = {"POST": Action.ROUND_RECORD}

    def get_queryset(self):
        rounds = visible_to(self.request.user, Round.objects.select_related("table__room", "rules_version"))
        rounds = rounds.prefetch_related(Prefetch("drops", queryset=RoundDrop.objects.order_by("position")))
        params = self.request.query_params
        if table := params.get("table"):
            rounds = rounds.filter(table__number=table)
        if room := params.get("room"):
            rounds = rounds.filter(table__room__code=room)
        if day := params.get("gaming_day"):
            try:
                rounds = rounds.filter(gaming_day=date.fromisoformat(day))
            except ValueError:
                raise ValidationError({"gaming_day": ["Give the gaming day as YYYY-MM-DD."]}) from None
        return rounds

    @extend_schema(
        parameters=[
            OpenApiParameter("table", OpenApiTypes.STR, description="Table number"),
            OpenApiParameter("room", OpenApiTypes.STR, description="Room code"),
            OpenApiParameter("gaming_day", OpenApiTypes.DATE, description="Gaming day (YYYY-MM-DD)"),
        ]
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None  # every list is paginated (REST_FRAMEWORK settings)
        return self.get_paginated_response([round_data(r, list(r.drops.all())) for r in page])

    @extend_schema(request=RoundInput, responses={201: RoundOutput, **ERRORS}, parameters=[IDEMPOTENCY_HEADER])
    def post(self, request: Request) -> Response:
        return idempotent_post(request, input_class=RoundInput, record=_round_record)
