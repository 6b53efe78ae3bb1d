"""``GET /api/trace/?payment=12`` (or ``round``, ``box``, ``count``, ``transport``, ``verification``,
``claim``, ``period``, ``award``, ``hit``, ``award_payment``, ``hit_payment``, ``transfer``): the trace
of a dollar as JSON, with the SHA-256 printed on its PDF (issue 29, item 2)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api_common import errors
from casino_backoffice.core.exceptions import CoreErrorCode
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.exceptions import StaffErrorCode
from casino_backoffice.staff.permissions import Action

from ..exceptions import AuditErrorCode
from .build import STARTS, trace_asked, trace_of
from .render import trace_sha256
from .serializers import TraceOutput

_NAMED = {
    "payment": "a Bad Beat share's payment",
    "award_payment": "a High Hand award's payment",
    "hit_payment": "a progressive payout's payment",
    "hit": "a progressive hand paid",
    "period": "a High Hand period",
    "award": "a High Hand award",
    "claim": "a Bad Beat claim",
    "transfer": "a ledger transfer",
}


class TraceView(APIView):
    """The chain one document belongs to, from the pot to the patron: each document with its amount, the
    ledger transfers it posted and every signature on it, and the checks that the amounts reconcile.
    Exactly one parameter names the document. Compliance and finance read every trace of their rooms; a
    cage cashier the trace of a payment they made (403 ``not_your_payment`` otherwise); another room's
    document is not there (404)."""

    required_actions = {"GET": Action.TRACE_OPEN}

    @extend_schema(
        operation_id="trace_retrieve",
        parameters=[
            OpenApiParameter(start, OpenApiTypes.INT, description=f"The id of {_NAMED.get(start, 'a ' + start)}.")
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
        trace = trace_of(start=start, pk=pk, actor=acting_user(request))
        return Response(TraceOutput(trace, context={"sha256": trace_sha256(trace)}).data)
