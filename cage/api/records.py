"""``/api/official-record/``: the finance department's official record of contributions
(§637a.15(e), §637a.16(e)), per fund and gaming day, from the ledger; as JSON, CSV or XLSX."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core import exports
from casino_backoffice.core.api import CentsField
from casino_backoffice.core.api_common import RESTRICTED_LIST_ERRORS
from casino_backoffice.core.exports import XLSX_TYPE, Column, Kind, csv_streaming_response
from casino_backoffice.staff.permissions import Action
from jackpots.funds.accounts import jackpot_fund_account
from jackpots.funds.models import Jackpot
from tables.api import room_required

from ..selectors import OFFICIAL_RECORD_COLUMNS, OfficialRow, official_record, official_record_rows_iter
from .common import day_param

REVENUE_FUND = "revenue"
_KINDS = {"gaming_day": Kind.DATE, "official": Kind.MONEY}
HEADER = ["fund", "account", "gaming_day", "official"]


def official_columns(header: Sequence[str]) -> list[Column]:
    return [Column(key, _KINDS.get(key, Kind.TEXT)) for key in header]


class CSVRenderer(exports.CSVRenderer):
    """The official record as CSV (``?format=csv``)."""

    columns = staticmethod(official_columns)


class XLSXRenderer(exports.XLSXRenderer):
    """The official record as XLSX (``?format=xlsx``)."""

    columns = staticmethod(official_columns)


@dataclass(frozen=True)
class OfficialRowShown:
    """A row of the official record with the fund its account is."""

    fund: str
    row: OfficialRow


# An ``OfficialRowShown``.
class OfficialRowOutput(serializers.Serializer):
    fund = serializers.CharField(
        help_text=f'The jackpot\'s code, or "{REVENUE_FUND}" for poker revenue (rake drop boxes).'
    )
    account = serializers.CharField(
        source="row.account.code", help_text="The ledger account the verifications posted to."
    )
    gaming_day = serializers.DateField(source="row.gaming_day")
    official = CentsField(
        source="row.official_cents", help_text='What cage verifications made official that gaming day, as "12.34".'
    )


class OfficialRecord(generics.ListAPIView):
    """The official record: what cage verifications made official per fund (a jackpot, or poker
    revenue) and gaming day (``room``, ``from``, ``to``). ``?format=csv`` or ``?format=xlsx`` exports
    every row (not paged)."""

    serializer_class = OfficialRowOutput
    renderer_classes = [JSONRenderer, BrowsableAPIRenderer, CSVRenderer, XLSXRenderer]
    required_actions = {"GET": Action.CAGE_RECORD_READ}

    @extend_schema(
        parameters=[
            OpenApiParameter("room", OpenApiTypes.STR, description="Room code (default: the only room)"),
            OpenApiParameter("from", OpenApiTypes.DATE, description="First gaming day"),
            OpenApiParameter("to", OpenApiTypes.DATE, description="Last gaming day"),
            OpenApiParameter(
                "format", OpenApiTypes.STR, enum=["json", "csv", "xlsx"], description="csv or xlsx: every row as a file"
            ),
        ],
        responses={
            (200, "application/json"): OfficialRowOutput(many=True),
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR, description="Columns fund, account, gaming_day, official."
            ),
            (200, XLSX_TYPE): OpenApiResponse(OpenApiTypes.BINARY, description="The same columns as a spreadsheet."),
            **{(status, "application/json"): response for status, response in RESTRICTED_LIST_ERRORS.items()},
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        room = room_required(request.query_params.get("room"), user=request.user)
        rows = official_record(room=room, start=day_param(request, "from"), end=day_param(request, "to"))
        funds = {
            jackpot_fund_account(jackpot=jackpot).code: jackpot.code for jackpot in Jackpot.objects.filter(room=room)
        }
        data = OfficialRowOutput(
            [OfficialRowShown(funds.get(row.account.code, REVENUE_FUND), row) for row in rows], many=True
        ).data
        if request.accepted_renderer.format in ("csv", "xlsx"):
            return Response(
                {
                    "header": HEADER,
                    "rows": [[row[key] for key in HEADER] for row in data],
                    "filename": f"official-record-{room.code}",
                    "title": "Official record",
                }
            )
        page = self.paginate_queryset(data)  # type: ignore[arg-type]
        assert page is not None  # every list is paginated (REST_FRAMEWORK settings)
        return self.get_paginated_response(page)

    def handle_exception(self, exc: Exception) -> Response:
        """A refusal answers JSON ``{detail, code}`` or field errors, whatever file was asked for."""
        response = super().handle_exception(exc)
        self.request.accepted_renderer, self.request.accepted_media_type = JSONRenderer(), JSONRenderer.media_type
        return response


class OfficialRecordLines(APIView):
    """Every transfer that made money official (``room``, ``from``, ``to``), one line each with its
    verification, seal, cashier and credential: the finance department's record line by line, as a
    CSV written while it is sent (flat memory however many years it covers)."""

    required_actions = {"GET": Action.CAGE_RECORD_READ}

    @extend_schema(
        parameters=[
            OpenApiParameter("room", OpenApiTypes.STR, description="Room code (default: the only room)"),
            OpenApiParameter("from", OpenApiTypes.DATE, description="First gaming day"),
            OpenApiParameter("to", OpenApiTypes.DATE, description="Last gaming day"),
        ],
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR, description="Columns " + ", ".join(c.key for c in OFFICIAL_RECORD_COLUMNS) + "."
            ),
            **{(status, "application/json"): response for status, response in RESTRICTED_LIST_ERRORS.items()},
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> StreamingHttpResponse:
        room = room_required(request.query_params.get("room"), user=request.user)
        rows = official_record_rows_iter(room=room, start=day_param(request, "from"), end=day_param(request, "to"))
        return csv_streaming_response(
            columns=OFFICIAL_RECORD_COLUMNS, rows=rows, filename=f"official-record-lines-{room.code}"
        )
