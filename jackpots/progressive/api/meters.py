"""The progressive meters, ``/api/progressive/meters/``, and their reset (§655a.12(c), §657a.12(d))."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api_common import (
    PIN_CODES,
    RESTRICTED_LIST_ERRORS,
    ROLE_CODES,
    document_or_404,
    errors,
    money,
    person,
    valid,
)
from casino_backoffice.money import format_percent
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action
from jackpots.funds.api import pin_field
from jackpots.progressive.models import (
    ProgressiveMeter,
)
from jackpots.progressive.selectors import MeterStanding, meters_standing
from jackpots.progressive.services.meters import meter_reset
from tables.api import local, room_named
from tables.selectors import rooms_of

# --- Meters ---------------------------------------------------------------------------------------


class ProgressiveMeterOutput(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.CharField()
    code = serializers.CharField()
    name = serializers.CharField()
    game = serializers.CharField()
    amount = serializers.CharField(help_text='The meter, as "12345.67": the ledger balance of the meter.')
    pending = serializers.BooleanField(help_text="A 100% payout was won and the meter is not reset yet.")
    pending_hand = serializers.IntegerField(allow_null=True, help_text="The 100% payout the reset waits on.")
    tables = serializers.ListField(child=serializers.CharField(), help_text="The tables linked to the meter.")
    rate_percent = serializers.CharField(allow_null=True, help_text="The rate of progression, percent of a wager.")
    reset = serializers.CharField(allow_null=True, help_text="The reset amount posted.")
    wagers = serializers.ListField(child=serializers.CharField(), help_text="The wager sizes the meter accepts.")


def meter_data(standing: MeterStanding) -> dict[str, Any]:
    rule = standing.rule
    return {
        "id": standing.meter.pk,
        "room": standing.meter.room.code,
        "code": standing.meter.code,
        "name": standing.meter.name,
        "game": standing.meter.game,
        "amount": money(standing.amount_cents),
        "pending": standing.is_pending,
        "pending_hand": standing.pending.pk if standing.pending else None,
        "tables": standing.tables,
        "rate_percent": format_percent(rule.rate_bp) if rule else None,
        "reset": money(rule.reset_cents) if rule else None,
        "wagers": [money(cents) for cents in rule.wagers_cents] if rule else [],
    }


class MeterList(APIView):
    """Every progressive meter with its amount, whether it is pending a reset after a 100% payout, its
    linked tables and its posted rate, reset amount and wager sizes (filter: ``room``)."""

    required_actions = {"GET": Action.PROGRESSIVE_READ}

    @extend_schema(
        parameters=[OpenApiParameter("room", OpenApiTypes.STR, description="Room code")],
        responses={200: ProgressiveMeterOutput(many=True), **RESTRICTED_LIST_ERRORS},
    )
    def get(self, request: Request) -> Response:
        room = room_named(request.query_params.get("room"), user=request.user)
        rooms = [room] if room is not None else list(rooms_of(request.user))
        return Response([meter_data(standing) for r in rooms for standing in meters_standing(room=r)])


class ProgressivePinInput(serializers.Serializer):
    pin = pin_field("supervisor")


class ProgressiveFundingOutput(serializers.Serializer):
    id = serializers.IntegerField()
    meter = serializers.CharField()
    reason = serializers.CharField()
    after_hand = serializers.IntegerField(allow_null=True)
    amount = serializers.CharField()
    funded_by = serializers.CharField()
    funded_at = serializers.DateTimeField()
    meter_amount = serializers.CharField(help_text="The meter after the reset.")


class MeterReset(APIView):
    """A poker shift supervisor or manager resets the meter after a 100% payout to the posted reset
    amount, funded by the house, and signs (§655a.12(c)(3), §657a.12(d)(3)). 409 ``not_pending`` when no
    100% payout waits for a reset; 400 ``not_validated`` before the payout is validated."""

    required_actions = {"POST": Action.PROGRESSIVE_RESET}

    @extend_schema(
        request=ProgressivePinInput,
        responses={
            200: ProgressiveFundingOutput,
            **errors(e400=["not_validated", *PIN_CODES], e403=ROLE_CODES, e404=[], e409=["not_pending"]),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        meter = document_or_404(
            ProgressiveMeter.objects.select_related("room"), pk, "progressive meter", user=request.user
        )
        values = valid(ProgressivePinInput, request.data)
        funding = meter_reset(meter=meter, actor=acting_user(request), pin=values["pin"])
        standing = next(s for s in meters_standing(room=meter.room) if s.meter.pk == meter.pk)
        return Response(
            {
                "id": funding.pk,
                "meter": meter.code,
                "reason": funding.reason,
                "after_hand": funding.after_hand_id,
                "amount": money(funding.amount_cents),
                "funded_by": person(funding.funded_by),
                "funded_at": local(funding.funded_at, meter.room),
                "meter_amount": money(standing.amount_cents),
            }
        )
