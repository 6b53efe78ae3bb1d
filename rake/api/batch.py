"""``POST /api/rounds/batch/``: a table system sends many rounds of play in one request.

Each round is the same as one ``POST /api/rounds/`` (same fields, same rules, same answer) and
carries its own ``idempotency_key``; rounds are recorded one by one and independently, so a refused
round records nothing and does not stop the others, and a retried batch records nothing twice. Table
systems that queue rounds while offline flush them this way; it is also the path that reaches the
room's peak rate (benchmarks/bench_rounds.py).
"""

from __future__ import annotations

from typing import Any

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.idempotency import sender_key
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action
from tables.models import Table

from ..services import RoundRecorded, RoundRequest, rounds_record_batch
from .common import ERRORS, Recorded, write_input, write_outcome
from .rounds import RoundInput, RoundOutput, late_entry_named, round_recorded, round_request

MAX_ROUNDS_PER_BATCH = 500


class BatchRoundInput(RoundInput):
    idempotency_key = serializers.CharField(
        max_length=120,
        help_text="A new key per round, reused only to retry it; the sender's own (another sender's equal key is another round).",
    )


class BatchInput(serializers.Serializer):
    rounds = serializers.ListField(child=serializers.DictField(), min_length=1, max_length=MAX_ROUNDS_PER_BATCH)


# Built with inline_serializer: a declared field named ``errors`` would hide Serializer.errors.
BatchResult = inline_serializer(
    "RoundBatchResult",
    fields={
        "index": serializers.IntegerField(help_text="Position of the round in the request."),
        "status": serializers.IntegerField(help_text="201 recorded (or replayed), 400 refused, 409 key reused."),
        "replayed": serializers.BooleanField(),
        "round": RoundOutput(required=False),
        "errors": serializers.DictField(required=False, help_text="Field errors or {detail, code}; nothing recorded."),
    },
    many=True,
)


class BatchOutput(serializers.Serializer):
    recorded = serializers.IntegerField()
    replayed = serializers.IntegerField()
    refused = serializers.IntegerField()
    results = BatchResult


class BatchRequest(serializers.Serializer):
    rounds = serializers.ListField(child=BatchRoundInput(), min_length=1, max_length=MAX_ROUNDS_PER_BATCH)


class RoundBatch(APIView):
    """Record up to 500 rounds of play, each as ``POST /api/rounds/`` would, each with its own key."""

    required_actions = {"POST": Action.ROUND_RECORD}

    @extend_schema(
        request=BatchRequest,
        responses={
            200: BatchOutput,
            400: OpenApiResponse(
                response=OpenApiTypes.OBJECT,
                description="The body is not a list of 1 to 500 rounds; nothing recorded.",
            ),
            403: ERRORS[403],
        },
    )
    def post(self, request: Request) -> Response:
        batch = BatchInput(data=request.data)
        batch.is_valid(raise_exception=True)
        results: list[dict[str, Any] | None] = []
        requests: list[RoundRequest] = []
        positions: list[int] = []
        tables: dict[tuple[str, str | None], Table] = {}
        sender = acting_user(request)  # each round's key is the sender's (``idempotency.sender_key``)
        # Shape first (serializers), then one service call records every well-formed round.
        for index, item in enumerate(batch.validated_data["rounds"]):
            try:
                values, table = write_input(BatchRoundInput, item, user=request.user, tables=tables)
                supervisor = late_entry_named(values, table=table)
            except ValidationError as error:
                results.append({"index": index, "status": 400, "replayed": False, "errors": error.detail})
                continue
            results.append(None)
            positions.append(index)
            requests.append(
                round_request(
                    values,
                    table=table,
                    idempotency_key=sender_key(sender_pk=sender.pk, key=values["idempotency_key"]),
                    late_entry_by=supervisor,
                )
            )
        for index, request_, outcome in zip(
            positions, requests, rounds_record_batch(rounds=requests, actor=sender), strict=True
        ):
            results[index] = {"index": index, **_result(request_.table, outcome)}
        counts = {"recorded": 0, "replayed": 0, "refused": 0}
        for result in results:
            assert result is not None
            key = "refused" if result["status"] != 201 else "replayed" if result["replayed"] else "recorded"
            counts[key] += 1
        return Response({**counts, "results": results}, status=status.HTTP_200_OK)


def _result(table: Table, outcome: RoundRecorded | DomainError) -> dict[str, Any]:
    """One round's answer, as ``POST /api/rounds/`` would give it."""
    answer: Recorded | DomainError = outcome if isinstance(outcome, DomainError) else round_recorded(table, outcome)
    code, body = write_outcome(answer)
    if isinstance(answer, Recorded):
        return {"status": code, "replayed": answer.replayed, "round": body}
    return {"status": code, "replayed": False, "errors": body}


urlpatterns = [path("rounds/batch/", RoundBatch.as_view(), name="api-rounds-batch")]
