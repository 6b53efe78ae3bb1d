"""The display check of every fund, ``GET /api/display-check/`` (issue 27, item 2): what the board shows
beside the finance department's record, the difference and why, the same figures as the admin's page
and its export (``jackpots.board.check``). Money is a decimal string ("12.34"), null when the board
shows no amount."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api import CentsField
from casino_backoffice.core.api_common import RESTRICTED_LIST_ERRORS
from casino_backoffice.staff.permissions import Action
from jackpots.board.check import display_check_lines
from tables.api import room_named
from tables.selectors import rooms_of


class DisplayCheckOutput(serializers.Serializer):
    room = serializers.CharField(source="room.code", help_text="The room's code.")
    product = serializers.CharField(help_text="Bad Beat, High Hand or Progressive meter.")
    name = serializers.CharField()
    code = serializers.CharField()
    shown = CentsField(source="shown_cents", allow_null=True, help_text="On the board; null when it shows no amount.")
    official = CentsField(source="official_cents", help_text="The finance department's record.")
    difference = CentsField(
        source="difference_cents", allow_null=True, help_text="Shown less official; null when nothing is shown."
    )
    state = serializers.ChoiceField(choices=["matches", "differs", "not shown"])
    why = serializers.ListField(child=serializers.CharField(), help_text="Why they differ, in words.")


class DisplayCheck(APIView):
    """Every fund of the rooms the person works in (filter: ``room``): on the board, official, the
    difference and why (§637a.15(h)(2), §637a.16(g))."""

    required_actions = {"GET": Action.BAD_BEAT_RECORDS_READ}

    @extend_schema(
        parameters=[OpenApiParameter("room", OpenApiTypes.STR, description="Room code")],
        responses={200: DisplayCheckOutput(many=True), **RESTRICTED_LIST_ERRORS},
    )
    def get(self, request: Request) -> Response:
        room = room_named(request.query_params.get("room"), user=request.user)
        rooms = [room] if room is not None else list(rooms_of(request.user))
        return Response(DisplayCheckOutput(display_check_lines(rooms=rooms, at=timezone.now()), many=True).data)
