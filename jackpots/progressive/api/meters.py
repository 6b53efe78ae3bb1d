"""The progressive meters, ``/api/progressive/meters/``, and their reset (§655a.12(c), §657a.12(d))."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api import CentsField, RoomTimeField
from casino_backoffice.core.api_common import (
    PIN_CODES,
    RESTRICTED_LIST_ERRORS,
    ROLE_CODES,
    document_or_404,
    errors,
    valid,
)
from casino_backoffice.money import format_percent
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action
from jackpots.funds.api import pin_field
from jackpots.progressive.exceptions import ProgressiveErrorCode
from jackpots.progressive.models import MeterFunding, ProgressiveMeter
from jackpots.progressive.selectors import meters_standing
from jackpots.progressive.services.meters import meter_reset
from tables.api import room_named
from tables.selectors import rooms_of

# --- Meters ---------------------------------------------------------------------------------------


class PercentField(serializers.CharField):
    """A rate in basis points answered as a plain number of percent, as the rules file posts it ("2.5")."""

    def to_representation(self, value: Any) -> str:
        return format_percent(int(value))


# The answer for a meter, read from a ``MeterStanding`` (no docstring: it would enter the schema).
class ProgressiveMeterOutput(serializers.Serializer):
    id = serializers.IntegerField(source="meter.pk")
    room = serializers.CharField(source="meter.room.code")
    code = serializers.CharField(source="meter.code")
    name = serializers.CharField(source="meter.name")
    game = serializers.CharField(source="meter.game")
    amount = CentsField(source="amount_cents", help_text='The meter, as "12345.67": the ledger balance of the meter.')
    pending = serializers.BooleanField(
        source="is_pending", help_text="A 100% payout was won and the meter is not reset yet."
    )
    pending_hand = serializers.IntegerField(
        source="pending.pk", allow_null=True, help_text="The 100% payout the reset waits on."
    )
    tables = serializers.ListField(child=serializers.CharField(), help_text="The tables linked to the meter.")
    rate_percent = PercentField(
        source="rule.rate_bp", allow_null=True, help_text="The rate of progression, percent of a wager."
    )
    reset = CentsField(source="rule.reset_cents", allow_null=True, help_text="The reset amount posted.")
    wagers = serializers.ListField(
        source="wagers_cents", child=CentsField(), help_text="The wager sizes the meter accepts."
    )


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
        standings = [standing for r in rooms for standing in meters_standing(room=r)]
        return Response(ProgressiveMeterOutput(standings, many=True).data)


class ProgressivePinInput(serializers.Serializer):
    pin = pin_field("supervisor")


@dataclass(frozen=True)
class FundingShown:
    """A reset as the API answers it: the house's funding, its meter (its room read with it) and the
    meter's amount after the reset."""

    funding: MeterFunding
    meter: ProgressiveMeter
    meter_amount_cents: int


# The answer for a reset, read from a ``FundingShown`` (no docstring: it would enter the schema).
class ProgressiveFundingOutput(serializers.Serializer):
    id = serializers.IntegerField(source="funding.pk")
    meter = serializers.CharField(source="meter.code")
    reason = serializers.CharField(source="funding.reason")
    after_hand = serializers.IntegerField(source="funding.after_hand_id", allow_null=True)
    amount = CentsField(source="funding.amount_cents")
    funded_by = serializers.CharField(source="funding.funded_by.username")
    funded_at = RoomTimeField(source="funding.funded_at", room="meter.room")
    meter_amount = CentsField(source="meter_amount_cents", help_text="The meter after the reset.")


class MeterReset(APIView):
    """A poker shift supervisor or manager resets the meter after a 100% payout to the posted reset
    amount, funded by the house, and signs (§655a.12(c)(3), §657a.12(d)(3)). 409 ``not_pending`` when no
    100% payout waits for a reset; 400 ``not_validated`` before the payout is validated."""

    required_actions = {"POST": Action.PROGRESSIVE_RESET}

    @extend_schema(
        request=ProgressivePinInput,
        responses={
            200: ProgressiveFundingOutput,
            **errors(
                e400=[ProgressiveErrorCode.NOT_VALIDATED, ProgressiveErrorCode.NOT_PROGRESSIVE, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=[ProgressiveErrorCode.NOT_PENDING],
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        meter = document_or_404(
            ProgressiveMeter.objects.select_related("room"), pk, "progressive meter", user=request.user
        )
        values = valid(ProgressivePinInput, request.data)
        funding = meter_reset(meter=meter, actor=acting_user(request), pin=values["pin"])
        standing = next(s for s in meters_standing(room=meter.room) if s.meter.pk == meter.pk)
        shown = FundingShown(funding=funding, meter=meter, meter_amount_cents=standing.amount_cents)
        return Response(ProgressiveFundingOutput(shown).data)
