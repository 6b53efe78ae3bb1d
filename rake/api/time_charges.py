"""``/api/time-charges/``: time charges assessed and verified (§637a.17(b)(3))."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api import CentsField, RoomTimeField
from casino_backoffice.core.api_common import AwareDateTimeField, ErrorOutput
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from tables.models import Table
from tables.selectors import visible_to

from ..models import TimeCharge
from ..services import time_charge_assess, time_charge_verify
from .common import ERRORS, IDEMPOTENCY_HEADER, Recorded, idempotent_post

# --- Time charges ---------------------------------------------------------------------------------


class TimeChargeInput(serializers.Serializer):
    table = serializers.CharField(max_length=10)
    room = serializers.SlugField(required=False)
    interval_starts_at = AwareDateTimeField(help_text="Start of the 20- or 30-minute interval, on the clock.")
    players_seated = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="Per-player policies: every seated player, inactive ones too.",
    )


class AsRecordedTimeField(serializers.DateTimeField):
    """A moment answered on the clock it was read with (the database's UTC: "...+00:00"), not converted."""

    def to_representation(self, value: datetime) -> str:
        return value.isoformat()


# The answer for a time charge, read from the charge (no docstring: it would enter the schema).
class TimeChargeOutput(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.CharField(source="table.number")
    interval_starts_at = RoomTimeField(room="table.room")
    interval_minutes = serializers.IntegerField()
    basis = serializers.CharField()
    players_seated = serializers.IntegerField(allow_null=True)
    fee_per_interval = CentsField(source="fee_per_interval_cents")
    amount = CentsField(source="amount_cents")
    policy = serializers.CharField(source="policy_code")
    gaming_day = serializers.DateField()
    shift = serializers.CharField()
    verified_at = AsRecordedTimeField(allow_null=True)


def _time_charge_assess(*, table: Table, values: dict[str, Any], actor: User, idempotency_key: str) -> Recorded:
    charge, replayed = time_charge_assess(
        table=table,
        interval_starts_at=values["interval_starts_at"],
        players_seated=values.get("players_seated"),
        actor=actor,
        idempotency_key=idempotency_key,
    )
    return Recorded(data=dict(TimeChargeOutput(charge).data), replayed=replayed)


class TimeChargeListCreate(generics.ListAPIView):
    """Time charges (§637a.17(b)(3)). POST assesses one interval at a table; a floorperson verifies it."""

    serializer_class = TimeChargeOutput
    required_actions = {"GET": Action.TIME_CHARGES_READ, "POST": Action.TIME_CHARGE_ASSESS}

    def get_queryset(self):
        charges = visible_to(self.request.user, TimeCharge.objects.select_related("table__room"))
        if table := self.request.query_params.get("table"):
            charges = charges.filter(table__number=table)
        return charges

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None  # every list is paginated (REST_FRAMEWORK settings)
        return self.get_paginated_response(TimeChargeOutput(page, many=True).data)

    @extend_schema(
        request=TimeChargeInput, responses={201: TimeChargeOutput, **ERRORS}, parameters=[IDEMPOTENCY_HEADER]
    )
    def post(self, request: Request) -> Response:
        return idempotent_post(request, input_class=TimeChargeInput, record=_time_charge_assess)


class TimeChargeVerify(APIView):
    """A floorperson or above verifies a time charge with their PIN; it goes into the drop box (§637a.17(b)(3)(v))."""

    required_actions = {"POST": Action.TIME_CHARGE_VERIFY}

    @extend_schema(
        request=inline_serializer("TimeChargeVerifyInput", {"pin": serializers.CharField()}),
        responses={
            200: TimeChargeOutput,
            400: ERRORS[400],
            403: ERRORS[403],
            409: OpenApiResponse(response=ErrorOutput, description="Already verified."),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        charge = generics.get_object_or_404(
            visible_to(request.user, TimeCharge.objects.select_related("table__room")), pk=pk
        )
        charge = time_charge_verify(
            time_charge=charge, actor=acting_user(request), pin=str(request.data.get("pin", ""))
        )
        return Response(TimeChargeOutput(charge).data)
