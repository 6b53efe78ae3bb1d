"""``GET /api/trace/?round=ID`` (or ``box``, ``count``, ``transport``, ``verification``, ``claim``,
``period``, ``award``, ``hit``, ``payment``, ``award_payment``, ``hit_payment``, ``transfer``): the trace
of a dollar as JSON, the regulator's evidence for one chain; its ``sha256`` is printed on the PDF of the
same trace."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api_common import errors
from casino_backoffice.core.exceptions import CoreErrorCode
from casino_backoffice.staff.exceptions import StaffErrorCode
from casino_backoffice.staff.permissions import Action

from ..exceptions import AuditErrorCode
from .build import STARTS, trace_asked, trace_of
from .render import trace_json


class TraceTransferOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    debit = serializers.CharField(help_text="The account the money went to.")
    credit = serializers.CharField(help_text="The account the money came from.")
    amount_cents = serializers.IntegerField()
    amount = serializers.CharField()
    posted_at = serializers.CharField(help_text="On the room's clock, with its zone.")


class TraceSignatureOutput(serializers.Serializer):
    purpose = serializers.CharField()
    person = serializers.CharField()
    role = serializers.CharField()
    credential_number = serializers.CharField()
    signed_at = serializers.CharField()
    content_hash = serializers.CharField(help_text="SHA-256 of what was signed.")


class TraceLinkOutput(serializers.Serializer):
    kind = serializers.CharField(help_text="The document's kind (its model), such as count or bad beat payment.")
    id = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label", as the JSON names it
    amount_cents = serializers.IntegerField(allow_null=True)
    amount = serializers.CharField(allow_null=True)
    at = serializers.CharField()
    details = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    transfers = TraceTransferOutput(many=True)
    signatures = TraceSignatureOutput(many=True)


class TraceStepOutput(serializers.Serializer):
    step = serializers.CharField()
    links = TraceLinkOutput(many=True)


class TraceCheckOutput(serializers.Serializer):
    step = serializers.CharField()
    what = serializers.CharField()
    expected_cents = serializers.IntegerField()
    actual_cents = serializers.IntegerField()
    difference_cents = serializers.IntegerField()
    reconciles = serializers.BooleanField()
    explanation = serializers.CharField(allow_blank=True)


class TraceOutput(serializers.Serializer):
    start = serializers.CharField(help_text="What the trace was asked from: `payment:12`.")
    room = serializers.CharField()
    zone = serializers.CharField()
    reconciles = serializers.BooleanField(help_text="Every check reconciles, or its difference is explained.")
    steps = TraceStepOutput(many=True)
    checks = TraceCheckOutput(many=True)
    sha256 = serializers.CharField(help_text="SHA-256 of the canonical JSON of everything above, printed on the PDF.")


class TraceView(APIView):
    """The trace of a dollar: compliance and finance, any chain of their rooms; a cage cashier, the chain
    of a payment they made."""

    required_actions = {"GET": Action.TRACE_OPEN}

    @extend_schema(
        operation_id="trace_read",
        parameters=[
            OpenApiParameter(
                start, OpenApiTypes.INT, description=f"The id of the {start.replace('_', ' ')} to trace from"
            )
            for start in STARTS
        ],
        responses={
            200: TraceOutput,
            **errors(
                e400=[AuditErrorCode.TRACE_ASKED_WRONGLY],
                e403=[StaffErrorCode.NOT_PERMITTED, AuditErrorCode.NOT_YOUR_PAYMENT],
                e404=[CoreErrorCode.NOT_FOUND],
            ),
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        start, pk = trace_asked(request.query_params)
        return Response(TraceOutput(trace_json(trace_of(start=start, pk=pk, actor=request.user))).data)
