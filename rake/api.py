"""The rake API: rounds of play, time charges, the rake calculator, rules versions and poker revenue.

Serializers check shape; ``rake.services`` checks rules. Money is a decimal string ("120.00") in
and out. Every money-creating POST takes an ``Idempotency-Key`` header.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import Prefetch
from django.urls import path
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import generics, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import SAFE_METHODS, IsAuthenticated
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.money import InvalidAmount, format_cents, parse_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.roles import FLOORPERSON_OR_ABOVE, Role
from tables.models import PokerRoom, Round, RoundDrop, RulesVersion, Table

from .exceptions import InvalidRound
from .exports import CSVRenderer, XLSXRenderer
from .models import TimeCharge
from .selectors import GROUPINGS, PotBreakdown, poker_revenue, pot_breakdown, revenue_table, rules_version_number
from .services import round_record, time_charge_assess, time_charge_verify

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


class RoundInput(serializers.Serializer):
    table = serializers.CharField(max_length=10, help_text="Table number, such as T1.")
    room = serializers.SlugField(required=False, help_text="Room code; needed only when two rooms share a table number.")
    ended_at = AwareDateTimeField(help_text="When the round ended, ISO-8601 with offset; rates the round by the rules then in effect.")
    players_dealt_in = serializers.IntegerField(min_value=0, max_value=32767)
    pot = MoneyField(help_text="The whole pot, side pots included, before rake, as \"120.00\".")
    uncalled_bet = MoneyField(required=False, default=0, help_text="The uncalled final bet returned to its bettor (§637a.17(d)).")
    flop_dealt = serializers.BooleanField(required=False, default=True)
    voided = serializers.BooleanField(required=False, default=False, help_text="A voided round (§637a.18(i)) takes no rake and no drops.")


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
    drops = serializers.DictField(child=serializers.CharField(), help_text="Jackpot code to amount, in the order the table lists them.")
    drop_rules = serializers.DictField(child=serializers.CharField())
    created_at = serializers.DateTimeField()


def round_data(round_: Round, drops: tuple[RoundDrop, ...] | list[RoundDrop], *, version_number: int | None = None) -> dict[str, Any]:
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


ERRORS = {
    400: OpenApiResponse(description="Field errors (`{field: [message]}`) or a refused rule (`{detail, code}`); nothing recorded."),
    409: OpenApiResponse(description="The Idempotency-Key was used with another body; nothing recorded."),
}


class RoundListCreate(generics.ListAPIView):
    """Rounds of play. GET lists them (filters: ``table``, ``room``, ``gaming_day``); POST logs one."""

    serializer_class = RoundOutput
    permission_classes = [LogsRounds]

    def get_queryset(self):
        rounds = Round.objects.select_related("table__room", "rules_version").prefetch_related(
            Prefetch("drops", queryset=RoundDrop.objects.order_by("position"))
        )
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
        key = _idempotency_key(request)
        data = RoundInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        table = _resolve_table(values["table"], values.get("room"))
        try:
            recorded = round_record(
                table=table,
                ended_at=values["ended_at"],
                players_dealt_in=values["players_dealt_in"],
                pot_cents=values["pot"],
                uncalled_bet_cents=values["uncalled_bet"],
                flop_dealt=values["flop_dealt"],
                voided=values["voided"],
                actor=acting_user(request),
                idempotency_key=key,
            )
        except InvalidRound as error:
            return Response(error.field_errors, status=status.HTTP_400_BAD_REQUEST)
        round_ = recorded.round
        round_.table = table
        number = rules_version_number(version_id=round_.rules_version_id)
        response = Response(round_data(round_, recorded.drops, version_number=number), status=status.HTTP_201_CREATED)
        if recorded.replayed:
            response["Idempotent-Replayed"] = "true"
        return response


# --- Time charges ---------------------------------------------------------------------------------


class TimeChargeInput(serializers.Serializer):
    table = serializers.CharField(max_length=10)
    room = serializers.SlugField(required=False)
    interval_starts_at = AwareDateTimeField(help_text="Start of the 20- or 30-minute interval, on the clock.")
    players_seated = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, help_text="Per-player policies: every seated player, inactive ones too."
    )


class TimeChargeOutput(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.CharField()
    interval_starts_at = serializers.DateTimeField()
    interval_minutes = serializers.IntegerField()
    basis = serializers.CharField()
    players_seated = serializers.IntegerField(allow_null=True)
    fee_per_interval = serializers.CharField()
    amount = serializers.CharField()
    policy = serializers.CharField()
    gaming_day = serializers.DateField()
    shift = serializers.CharField()
    verified_at = serializers.DateTimeField(allow_null=True)


def time_charge_data(charge: TimeCharge) -> dict[str, Any]:
    return {
        "id": charge.pk,
        "table": charge.table.number,
        "interval_starts_at": charge.interval_starts_at.astimezone(ZoneInfo(charge.table.room.timezone)).isoformat(),
        "interval_minutes": charge.interval_minutes,
        "basis": charge.basis,
        "players_seated": charge.players_seated,
        "fee_per_interval": format_cents(charge.fee_per_interval_cents),
        "amount": format_cents(charge.amount_cents),
        "policy": charge.policy_code,
        "gaming_day": str(charge.gaming_day),
        "shift": charge.shift,
        "verified_at": charge.verified_at.isoformat() if charge.verified_at else None,
    }


class TimeChargeListCreate(generics.ListAPIView):
    """Time charges (§637a.17(b)(3)). POST assesses one interval at a table; a floorperson verifies it."""

    serializer_class = TimeChargeOutput
    permission_classes = [LogsRounds]

    def get_queryset(self):
        charges = TimeCharge.objects.select_related("table__room")
        if table := self.request.query_params.get("table"):
            charges = charges.filter(table__number=table)
        return charges

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None  # every list is paginated (REST_FRAMEWORK settings)
        return self.get_paginated_response([time_charge_data(c) for c in page])

    @extend_schema(request=TimeChargeInput, responses={201: TimeChargeOutput, **ERRORS}, parameters=[IDEMPOTENCY_HEADER])
    def post(self, request: Request) -> Response:
        key = _idempotency_key(request)
        data = TimeChargeInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        table = _resolve_table(values["table"], values.get("room"))
        try:
            charge, replayed = time_charge_assess(
                table=table,
                interval_starts_at=values["interval_starts_at"],
                players_seated=values.get("players_seated"),
                actor=acting_user(request),
                idempotency_key=key,
            )
        except InvalidRound as error:
            return Response(error.field_errors, status=status.HTTP_400_BAD_REQUEST)
        response = Response(time_charge_data(charge), status=status.HTTP_201_CREATED)
        if replayed:
            response["Idempotent-Replayed"] = "true"
        return response


class TimeChargeVerify(APIView):
    """A floorperson or above verifies a time charge with their PIN; it goes into the drop box (§637a.17(b)(3)(v))."""

    @extend_schema(
        request=inline_serializer("TimeChargeVerifyInput", {"pin": serializers.CharField()}),
        responses={200: TimeChargeOutput, 400: ERRORS[400], 409: OpenApiResponse(description="Already verified.")},
    )
    def post(self, request: Request, pk: int) -> Response:
        charge = generics.get_object_or_404(TimeCharge.objects.select_related("table__room"), pk=pk)
        charge = time_charge_verify(time_charge=charge, actor=acting_user(request), pin=str(request.data.get("pin", "")))
        return Response(time_charge_data(charge))


# --- Rake calculator ------------------------------------------------------------------------------


class CalculatorInput(serializers.Serializer):
    table = serializers.CharField(max_length=10)
    room = serializers.SlugField(required=False)
    pot = MoneyField()
    uncalled_bet = MoneyField(required=False, default=0)
    flop_dealt = serializers.BooleanField(required=False, default=True)
    players_dealt_in = serializers.IntegerField(required=False, default=2, min_value=2)


class CalculatorOutput(serializers.Serializer):
    table = serializers.CharField()
    rules_version = serializers.IntegerField()
    rakeable = serializers.CharField(help_text="The pot without the uncalled bet.")
    rake = serializers.CharField()
    rake_rule = serializers.CharField()
    drops = serializers.ListField(child=serializers.DictField())
    to_winner = serializers.CharField()


def breakdown_data(breakdown: PotBreakdown) -> dict[str, Any]:
    outcome = breakdown.outcome
    return {
        "table": breakdown.table.number,
        "rules_version": breakdown.version_number,
        "rakeable": format_cents(outcome.rakeable_cents),
        "rake": format_cents(outcome.rake_cents),
        "rake_rule": outcome.rake_rule,
        "drops": [
            {"jackpot": d.code, "name": breakdown.names[d.code], "amount": format_cents(d.amount_cents), "rule": d.rule}
            for d in outcome.drops
        ],
        "to_winner": format_cents(outcome.to_winner_cents),
    }


class RakeCalculator(APIView):
    """The rake and each drop the rules in effect take from a pot, with the rule that set each; records nothing."""

    @extend_schema(request=CalculatorInput, responses={200: CalculatorOutput, 400: ERRORS[400]})
    def post(self, request: Request) -> Response:
        data = CalculatorInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        table = _resolve_table(values["table"], values.get("room"))
        if values["uncalled_bet"] > values["pot"]:
            raise ValidationError({"uncalled_bet": ["The uncalled bet is larger than the pot."]})
        breakdown = pot_breakdown(
            table=table, pot_cents=values["pot"], uncalled_cents=values["uncalled_bet"], flop_dealt=values["flop_dealt"],
            players=values["players_dealt_in"], at=timezone.now(),
        )
        return Response(breakdown_data(breakdown))


# --- Rules versions -------------------------------------------------------------------------------


class RulesVersionOutput(serializers.ModelSerializer):
    room: serializers.SlugRelatedField[PokerRoom] = serializers.SlugRelatedField(slug_field="code", read_only=True)
    loaded_by: serializers.StringRelatedField[Any] = serializers.StringRelatedField()

    class Meta:
        model = RulesVersion
        fields = ["id", "room", "number", "effective_from", "loaded_at", "loaded_by", "source_name", "content_sha256", "content"]


class RulesVersionList(generics.ListAPIView):
    """Every version of each room's rules, newest first; filter with ``?room=main``."""

    serializer_class = RulesVersionOutput

    def get_queryset(self):
        versions = RulesVersion.objects.select_related("room", "loaded_by").order_by("room__code", "-number")
        if room := self.request.query_params.get("room"):
            versions = versions.filter(room__code=room)
        return versions


# --- Poker revenue --------------------------------------------------------------------------------


class RevenueReport(APIView):
    """Poker revenue (§637a.17): rake expected from rounds plus verified time charges, grouped by any of
    table, gaming_day, shift and game, with the drops per jackpot. ``counted`` and ``variance`` stay
    empty until drop-box counts arrive (the cage issue). ``?format=csv`` or ``?format=xlsx`` exports."""

    renderer_classes = [JSONRenderer, BrowsableAPIRenderer, CSVRenderer, XLSXRenderer]

    @extend_schema(
        parameters=[
            OpenApiParameter("room", OpenApiTypes.STR, description="Room code (default: the only room)"),
            OpenApiParameter("from", OpenApiTypes.DATE, description="First gaming day"),
            OpenApiParameter("to", OpenApiTypes.DATE, description="Last gaming day"),
            OpenApiParameter("table", OpenApiTypes.STR, description="One table"),
            OpenApiParameter("group_by", OpenApiTypes.STR, description="Comma-separated: table, gaming_day, shift, game"),
            OpenApiParameter("format", OpenApiTypes.STR, enum=["json", "csv", "xlsx"]),
        ],
        responses={200: inline_serializer("RevenueOutput", {"header": serializers.ListField(), "rows": serializers.ListField()})},
    )
    def get(self, request: Request) -> Response:
        params = request.query_params
        rooms = PokerRoom.objects.all()
        room = rooms.filter(code=params["room"]).first() if params.get("room") else (rooms.first() if rooms.count() == 1 else None)
        if room is None:
            raise ValidationError({"room": ["Say which room (?room=main)."]})
        dates: dict[str, date | None] = {}
        for name in ("from", "to"):
            try:
                dates[name] = date.fromisoformat(params[name]) if params.get(name) else None
            except ValueError:
                raise ValidationError({name: ["Give the gaming day as YYYY-MM-DD."]}) from None
        group_by = [g.strip() for g in params.get("group_by", "gaming_day,table").split(",") if g.strip()]
        unknown = [g for g in group_by if g not in GROUPINGS]
        if unknown:
            raise ValidationError({"group_by": [f"Group by any of {', '.join(GROUPINGS)}; not {', '.join(unknown)}."]})
        rows = poker_revenue(room=room, date_from=dates["from"], date_to=dates["to"], group_by=group_by, table_number=params.get("table"))
        header, body = revenue_table(rows)
        return Response({"room": room.code, "header": header, "rows": body, "filename": f"poker-revenue-{room.code}", "title": "Poker revenue"})


urlpatterns = [
    path("rounds/", RoundListCreate.as_view(), name="api-rounds"),
    path("time-charges/", TimeChargeListCreate.as_view(), name="api-time-charges"),
    path("time-charges/<int:pk>/verify/", TimeChargeVerify.as_view(), name="api-time-charge-verify"),
    path("rake-calculator/", RakeCalculator.as_view(), name="api-rake-calculator"),
    path("rules-versions/", RulesVersionList.as_view(), name="api-rules-versions"),
    path("revenue/", RevenueReport.as_view(), name="api-revenue"),
]
