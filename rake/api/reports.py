"""Endpoints that record nothing: the rake calculator, the rules versions and the poker revenue report."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api import CentsField, MoneyField
from casino_backoffice.staff.permissions import Action
from tables.models import PokerRoom, RulesVersion
from tables.selectors import rooms_of, visible_to

from ..compute import uncalled_bet_problem
from ..exports import CSVRenderer, XLSXRenderer
from ..selectors import GROUPINGS, PotBreakdown, poker_revenue, pot_breakdown, revenue_table
from .common import ERRORS, _resolve_table

# --- Rake calculator ------------------------------------------------------------------------------


class CalculatorInput(serializers.Serializer):
    table = serializers.CharField(max_length=10)
    room = serializers.SlugField(required=False)
    pot = MoneyField()
    uncalled_bet = MoneyField(required=False, default=0)
    flop_dealt = serializers.BooleanField(required=False, default=True)
    players_dealt_in = serializers.IntegerField(required=False, default=2, min_value=2)


@dataclass(frozen=True)
class DropShown:
    """A drop of the pot as the calculator answers it: its jackpot's code and name, amount and rule."""

    jackpot: str
    name: str
    amount_cents: int
    rule: str


@dataclass(frozen=True)
class BreakdownShown:
    """What the rules take from a pot as the calculator answers it."""

    breakdown: PotBreakdown

    @property
    def drops(self) -> list[DropShown]:
        names = self.breakdown.names
        return [DropShown(d.code, names[d.code], d.amount_cents, d.rule) for d in self.breakdown.outcome.drops]


# The answers of the calculator, read from a ``BreakdownShown`` (no docstrings: they would enter the schema).
class CalculatorDropOutput(serializers.Serializer):
    jackpot = serializers.CharField(help_text="The jackpot's code.")
    name = serializers.CharField()
    amount = CentsField(source="amount_cents")
    rule = serializers.CharField(help_text="The rule that set the drop.")


class CalculatorOutput(serializers.Serializer):
    table = serializers.CharField(source="breakdown.table.number")
    rules_version = serializers.IntegerField(source="breakdown.version_number")
    rakeable = CentsField(source="breakdown.outcome.rakeable_cents", help_text="The pot without the uncalled bet.")
    rake = CentsField(source="breakdown.outcome.rake_cents")
    rake_rule = serializers.CharField(source="breakdown.outcome.rake_rule")
    drops = CalculatorDropOutput(many=True)
    to_winner = CentsField(source="breakdown.outcome.to_winner_cents")


class RakeCalculator(APIView):
    """The rake and each drop the rules in effect take from a pot, with the rule that set each; records
    nothing. For whoever uses the tablet's rake calculator."""

    required_actions = {"POST": Action.RAKE_CALCULATE}

    @extend_schema(request=CalculatorInput, responses={200: CalculatorOutput, 400: ERRORS[400], 403: ERRORS[403]})
    def post(self, request: Request) -> Response:
        data = CalculatorInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        table = _resolve_table(values["table"], values.get("room"), user=request.user)
        if problem := uncalled_bet_problem(pot_cents=values["pot"], uncalled_cents=values["uncalled_bet"]):
            raise ValidationError({"uncalled_bet": [problem]})
        breakdown = pot_breakdown(
            table=table,
            pot_cents=values["pot"],
            uncalled_cents=values["uncalled_bet"],
            flop_dealt=values["flop_dealt"],
            players=values["players_dealt_in"],
            at=timezone.now(),
        )
        return Response(CalculatorOutput(BreakdownShown(breakdown)).data)


# --- Rules versions -------------------------------------------------------------------------------


class RulesVersionOutput(serializers.ModelSerializer):
    room: serializers.SlugRelatedField[PokerRoom] = serializers.SlugRelatedField(slug_field="code", read_only=True)
    loaded_by: serializers.StringRelatedField[Any] = serializers.StringRelatedField(
        allow_null=True, help_text="Who loaded the version; null for a version loaded before loaders were recorded."
    )

    class Meta:
        model = RulesVersion
        fields = [
            "id",
            "room",
            "number",
            "effective_from",
            "loaded_at",
            "loaded_by",
            "source_name",
            "content_sha256",
            "content",
        ]


class RulesVersionList(generics.ListAPIView):
    """Every version of each room's rules, newest first; filter with ``?room=main``."""

    serializer_class = RulesVersionOutput
    required_actions = {"GET": Action.RULES_VERSIONS_READ}

    @extend_schema(responses={200: RulesVersionOutput(many=True), 403: ERRORS[403]})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        versions = visible_to(self.request.user, RulesVersion.objects.select_related("room", "loaded_by"))
        versions = versions.order_by("room__code", "-number")
        if room := self.request.query_params.get("room"):
            versions = versions.filter(room__code=room)
        return versions


# --- Poker revenue --------------------------------------------------------------------------------


class RevenueOutput(serializers.Serializer):
    """The report as JSON, and what the CSV and XLSX renderers read: the columns, the rows, and the
    export's file name and title."""

    room = serializers.CharField(help_text="The room's code.")
    header = serializers.ListField(child=serializers.CharField(), help_text="The columns' names.")
    rows = serializers.ListField(
        child=serializers.ListField(), help_text="One list per group, in the order of the header."
    )
    filename = serializers.CharField(help_text="The export's file name, without its extension.")
    title = serializers.CharField(help_text="The export's title.")


class RevenueReport(APIView):
    """Poker revenue (§637a.17) from the ledger, grouped by any of table, gaming_day, shift and game:
    ``expected`` is the rake of rounds plus verified time charges that went into the drop boxes, less
    what the ledger ``reversed`` of it; ``counted`` is what cage verifications made official as poker
    revenue (§637a.15(e)), by table and gaming day (empty when nothing was verified, and when grouped
    by shift); ``variance`` is counted less expected. With the drops per jackpot. ``?format=csv`` or
    ``?format=xlsx`` exports."""

    renderer_classes = [JSONRenderer, BrowsableAPIRenderer, CSVRenderer, XLSXRenderer]
    required_actions = {"GET": Action.REVENUE_READ}

    @extend_schema(
        parameters=[
            OpenApiParameter("room", OpenApiTypes.STR, description="Room code (default: the only room)"),
            OpenApiParameter("from", OpenApiTypes.DATE, description="First gaming day"),
            OpenApiParameter("to", OpenApiTypes.DATE, description="Last gaming day"),
            OpenApiParameter("table", OpenApiTypes.STR, description="One table"),
            OpenApiParameter(
                "group_by", OpenApiTypes.STR, description="Comma-separated: table, gaming_day, shift, game"
            ),
            OpenApiParameter("format", OpenApiTypes.STR, enum=["json", "csv", "xlsx"]),
        ],
        responses={200: RevenueOutput, 403: ERRORS[403]},
    )
    def get(self, request: Request) -> Response:
        params = request.query_params
        rooms = rooms_of(request.user)
        room = (
            rooms.filter(code=params["room"]).first()
            if params.get("room")
            else (rooms.first() if rooms.count() == 1 else None)
        )
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
        rows = poker_revenue(
            room=room, date_from=dates["from"], date_to=dates["to"], group_by=group_by, table_number=params.get("table")
        )
        header, body = revenue_table(rows, group_by=group_by)
        report = {
            "room": room.code,
            "header": header,
            "rows": body,
            "filename": f"poker-revenue-{room.code}",
            "title": "Poker revenue",
        }
        return Response(RevenueOutput(report).data)
