"""``/api/irregularities/``: what went wrong at a table, reported and ruled (§637a.18, §655a.5(b),
§655a.13, §657a.5(b), §657a.13).

POST reports one and signs it (the dealer or floorperson at the table); ``{id}/rule/`` rules on it
(a floorperson or above who did not report it; a dispute, a poker shift supervisor or above,
§637a.18(a)); GET is the log, filtered by ``room``, ``gaming_day``, ``table`` and ``kind``. Serializers
check shape; ``services`` check rules.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api import CentsField, RoomTimeField
from casino_backoffice.core.api_common import (
    IDEMPOTENCY_HEADER,
    LIST_ERRORS,
    PIN_CODES,
    ROLE_CODES,
    AwareDateTimeField,
    document_or_404,
    document_post,
    errors,
)
from casino_backoffice.core.exceptions import CoreErrorCode
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action

from ..api import room_named, room_required
from ..models import Round, Table
from ..selectors import visible_to
from .exceptions import IrregularityErrorCode
from .kinds import IrregularityKind, MisdealCause
from .models import Irregularity, IrregularityStatus
from .selectors import irregularities_filtered, irregularity_shown
from .services import irregularity_report, irregularity_rule

# --- Input ----------------------------------------------------------------------------------------


class IrregularityInput(serializers.Serializer):
    room = serializers.SlugField(required=False, help_text="Room code; needed when there are several rooms.")
    table = serializers.CharField(max_length=10, help_text="Table number, such as T1.")
    round = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="The round of play it happened in, once logged; required for missing_or_extra_cards (a round "
        "logged void at the table) and dealer_error_refund.",
    )
    kind = serializers.CharField(
        max_length=40,
        help_text="What happened: one of the regulations' kinds ("
        + ", ".join(IrregularityKind.values)
        + ") or one of the room's own, which its rules file lists under irregularities (§637a.18(s)).",
    )
    cause = serializers.ChoiceField(
        choices=MisdealCause.choices,
        required=False,
        allow_blank=True,
        help_text="A misdeal's cause (§637a.18(g)(1)-(4)); no other kind has one.",
    )
    description = serializers.CharField(max_length=4000, help_text="What happened, in words.")
    cards = serializers.CharField(
        required=False, allow_blank=True, max_length=200, help_text="The cards involved, such as 'As Kd'."
    )
    compliance_notified = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=120,
        help_text="collusion_removal: who at compliance was notified, and how (§637a.18(c)).",
    )
    occurred_at = AwareDateTimeField(
        required=False, help_text="When it happened (default: the round's end, else now); never in the future."
    )
    pin = serializers.CharField(help_text="The signed-in dealer's or floorperson's PIN: their signature.")


class RulingInput(serializers.Serializer):
    ruling = serializers.CharField(max_length=4000, help_text="The ruling, in words.")
    pin = serializers.CharField(help_text="The signed-in floorperson's or supervisor's PIN: their signature.")


# --- Output ---------------------------------------------------------------------------------------


class RulingOutput(serializers.Serializer):
    id = serializers.IntegerField()
    ruling = serializers.CharField()
    ruled_by = serializers.CharField(source="ruled_by.username")
    ruled_at = RoomTimeField(room="irregularity.room")


class IrregularityOutput(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.CharField(source="room.code")
    table = serializers.CharField(source="table.number")
    gaming_day = serializers.DateField()
    round = serializers.IntegerField(source="round_id", allow_null=True)
    refund = CentsField(
        source="round.refund_cents",
        allow_null=True,
        help_text="What the round refunded from its pot to a player before the rake (§637a.18(k)(3)); null without a round.",
    )
    occurred_at = RoomTimeField()
    kind = serializers.CharField(
        help_text="One of the regulations' kinds (" + ", ".join(IrregularityKind.values) + ") or the room's own."
    )
    section = serializers.CharField(
        help_text="The provision it records, at the table's game; §637a.18(s) for a kind of the room's own."
    )
    cause = serializers.CharField(help_text="A misdeal's cause; empty for other kinds.")
    cards = serializers.CharField()
    description = serializers.CharField()
    compliance_notified = serializers.CharField()
    status = serializers.ChoiceField(choices=IrregularityStatus.choices)
    reported_by = serializers.CharField(source="reported_by.username")
    reported_at = RoomTimeField()
    ruling = RulingOutput(allow_null=True, help_text="The ruling, once ruled; null while reported.")


# --- Writes ---------------------------------------------------------------------------------------


def _table_named(number: str, *, room: Any, user: Any) -> Table:
    table = visible_to(user, Table.objects.select_related("room")).filter(room=room, number=number).first()
    if table is None:
        raise ValidationError({"table": [f"There is no table {number} in room {room.code}."]})
    return table


def _irregularity_report(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
    table = _table_named(values["table"], room=room_required(values.get("room"), user=actor), user=actor)
    round_ = None
    if values.get("round") is not None:
        round_ = visible_to(actor, Round.objects.select_related("table__room")).filter(pk=values["round"]).first()
        if round_ is None:
            raise ValidationError({"round": [f"There is no round {values['round']}."]})
    irregularity = irregularity_report(
        table=table,
        kind=values["kind"],
        description=values["description"],
        round=round_,
        cause=values.get("cause", ""),
        cards=values.get("cards", ""),
        compliance_notified=values.get("compliance_notified", ""),
        occurred_at=values.get("occurred_at"),
        actor=actor,
        pin=values["pin"],
        idempotency_key=idempotency_key,
    )
    return dict(IrregularityOutput(irregularity_shown(irregularity.pk)).data)


_REPORT_CODES = (IrregularityErrorCode.IRREGULARITY, IrregularityErrorCode.ROUND_REQUIRED)


def _day(request: Request) -> date | None:
    raw = request.query_params.get("gaming_day")
    if not raw:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise ValidationError({"gaming_day": ["Give the gaming day as YYYY-MM-DD."]}) from None


class IrregularityListCreate(generics.ListAPIView):
    """Irregularities at the tables. GET is the log, newest first (filters: ``room``, ``gaming_day``,
    ``table``, ``kind``). POST: the dealer or floorperson at the table reports one and signs it: its kind
    from the regulations' list, a misdeal with its cause (§637a.18(g)(1)-(4)), the round where the money
    is the round's (§637a.18(i), (k)(3))."""

    serializer_class = IrregularityOutput
    required_actions = {"GET": Action.IRREGULARITIES_READ, "POST": Action.IRREGULARITY_REPORT}

    def get_queryset(self):
        params, user = self.request.query_params, self.request.user
        kind = params.get("kind")
        if kind and not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,39}", kind):
            raise ValidationError(
                {"kind": [f"A kind is one of {', '.join(IrregularityKind.values)}, or a code of the room's own."]}
            )
        room = room_named(params.get("room"), user=user)
        return irregularities_filtered(
            user=user,
            room_id=room.pk if room else None,
            gaming_day=_day(self.request),
            table_number=params.get("table"),
            kind=kind,
        )

    @extend_schema(
        parameters=[
            OpenApiParameter("room", OpenApiTypes.STR, description="Room code"),
            OpenApiParameter("gaming_day", OpenApiTypes.DATE, description="Gaming day (YYYY-MM-DD)"),
            OpenApiParameter("table", OpenApiTypes.STR, description="Table number"),
            OpenApiParameter(
                "kind", OpenApiTypes.STR, description="Kind: one of the regulations' or a code of the room's own"
            ),
        ],
        responses={200: IrregularityOutput(many=True), **LIST_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None  # every list is paginated (REST_FRAMEWORK settings)
        return self.get_paginated_response(IrregularityOutput(page, many=True).data)

    @extend_schema(
        request=IrregularityInput,
        responses={
            201: IrregularityOutput,
            **errors(e400=[*_REPORT_CODES, *PIN_CODES], e403=ROLE_CODES, e409=[CoreErrorCode.IDEMPOTENCY_KEY_REUSED]),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request) -> Response:
        return document_post(request, input_class=IrregularityInput, create=_irregularity_report)


class IrregularityRule(APIView):
    """A floorperson or above who did not report it rules on an irregularity in words and signs; a
    dispute is ruled by a poker shift supervisor or above, whose decision is final (§637a.18(a)). Once."""

    required_actions = {"POST": Action.IRREGULARITY_RULE}

    @extend_schema(
        request=RulingInput,
        responses={
            201: IrregularityOutput,
            **errors(
                e400=[IrregularityErrorCode.IRREGULARITY, IrregularityErrorCode.RULED_BY_REPORTER, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[CoreErrorCode.NOT_FOUND],
                e409=[IrregularityErrorCode.ALREADY_RULED, CoreErrorCode.IDEMPOTENCY_KEY_REUSED],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request, pk: int) -> Response:
        irregularity = document_or_404(Irregularity.objects.all(), pk, "irregularity", user=request.user)

        def rule(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
            irregularity_rule(
                irregularity=irregularity,
                ruling=values["ruling"],
                actor=actor,
                pin=values["pin"],
                idempotency_key=idempotency_key,
            )
            return dict(IrregularityOutput(irregularity_shown(irregularity.pk)).data)

        return document_post(request, input_class=RulingInput, create=rule)


urlpatterns = [
    path("irregularities/", IrregularityListCreate.as_view(), name="api-irregularities"),
    path("irregularities/<int:pk>/rule/", IrregularityRule.as_view(), name="api-irregularity-rule"),
]
