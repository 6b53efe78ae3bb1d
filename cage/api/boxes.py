"""``/api/boxes/`` and ``/api/jackpots/``: what each box is expected to hold, and each fund's position
(official, owed, available, displayed) beside the expected money still in its boxes.

The jackpots list lives here, in the cage, because the official balance is what the cage made
official and the expected money is in the cage's boxes (``jackpots`` may not import ``cage``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from casino_backoffice.core.api import CentsField, RoomTimeField
from casino_backoffice.core.api_common import LIST_ERRORS
from casino_backoffice.staff.permissions import Action, may
from jackpots.bad_beat.selectors import FundPosition, fund_positions
from jackpots.funds.models import Jackpot
from tables.api import room_named
from tables.selectors import visible_to

from ..models import Box, BoxKind
from ..selectors import BoxContent, boxes_with_expected, jackpot_expected_in_boxes


class ExpectedField(CentsField):
    """Money the ledger expects in boxes; null when the serializer's context says ``blind``: whoever
    counts or carries boxes (``Action.BOX_EXPECTED_READ``) counts blind."""

    def get_attribute(self, instance: Any) -> Any:
        return None if self.context.get("blind") else super().get_attribute(instance)


# A ``BoxContent``; ``blind`` in the context for whoever may not see what a box is expected to hold.
class BoxOutput(serializers.Serializer):
    code = serializers.CharField(
        source="box.code", help_text="T1-bb is table T1's box of jackpot bb; T1-drop its rake drop box."
    )
    room = serializers.CharField(source="box.room.code", help_text="Room code.")
    table = serializers.CharField(source="box.table.number", help_text="Table number.")
    kind = serializers.ChoiceField(
        source="box.kind", choices=BoxKind.choices, help_text="jackpot: a jackpot's box; rake: the rake drop box."
    )
    jackpot = serializers.CharField(
        source="box.jackpot.code", allow_null=True, help_text="The jackpot's code; null for a rake drop box."
    )
    expected = ExpectedField(
        source="expected_cents",
        allow_null=True,
        help_text='What the box\'s next count covers by the ledger, as "12.34": what logged rounds and verified time '
        "charges put in since its last count or transport. For a High Hand box, what it holds of `period` only: the "
        "box is exchanged at each qualifying period's end and counted per period (§637a.16(d)). Null for whoever "
        "counts or carries boxes (a dealer, security): they count blind, and see what the box was expected to hold "
        "in the answer to their count. Given to the cage, finance, compliance and surveillance.",
    )
    period = RoomTimeField(
        source="period.starts_at",
        room="box.room",
        allow_null=True,
        help_text="A High Hand box: the start (ISO 8601 with offset, the room's time zone) of the qualifying period its "
        "next count is for, the oldest whose box content was not counted nor carried yet. Null for a Bad Beat or "
        "rake drop box, and for a High Hand box with no such period.",
    )


_ROOM = OpenApiParameter("room", OpenApiTypes.STR, description="Room code")


class BoxList(generics.ListAPIView):
    """Every jackpot box and rake drop box, with its expected content for those who may see it before a
    count (filters: ``room``, ``table``, ``jackpot``, ``kind``). A read: it writes nothing; the boxes a
    rules version names are opened when it is loaded (``rake.signals.rules_version_loaded``)."""

    serializer_class = BoxOutput
    required_actions = {"GET": Action.BOXES_READ}

    def get_queryset(self):
        params = self.request.query_params
        user = self.request.user
        room = room_named(params.get("room"), user=user)
        boxes = visible_to(user, Box.objects.select_related("room", "table", "jackpot")).order_by("room__code", "code")
        if room is not None:
            boxes = boxes.filter(room=room)
        if table := params.get("table"):
            boxes = boxes.filter(table__number=table)
        if jackpot := params.get("jackpot"):
            boxes = boxes.filter(jackpot__code=jackpot)
        if kind := params.get("kind"):
            if kind not in BoxKind.values:
                raise ValidationError({"kind": [f"A box is of kind {' or '.join(BoxKind.values)}, not {kind}."]})
            boxes = boxes.filter(kind=kind)
        return boxes

    @extend_schema(
        parameters=[
            _ROOM,
            OpenApiParameter("table", OpenApiTypes.STR, description="Table number"),
            OpenApiParameter("jackpot", OpenApiTypes.STR, description="Jackpot code"),
            OpenApiParameter("kind", OpenApiTypes.STR, enum=BoxKind.values, description="jackpot or rake"),
        ],
        responses={200: BoxOutput(many=True), **LIST_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None  # every list is paginated (REST_FRAMEWORK settings)
        order = {box.pk: position for position, box in enumerate(page)}
        contents: list[BoxContent] = sorted(
            boxes_with_expected(boxes=Box.objects.filter(pk__in=order)), key=lambda content: order[content.box.pk]
        )
        blind = not may(request.user, Action.BOX_EXPECTED_READ)
        return self.get_paginated_response(BoxOutput(contents, many=True, context={"blind": blind}).data)


@dataclass(frozen=True)
class FundShown:
    """A fund's position as ``JackpotOutput`` reads it, with the expected money still in its boxes."""

    position: FundPosition
    expected_in_boxes_cents: int


# A ``FundShown``; ``blind`` in the context as for ``BoxOutput``.
class JackpotOutput(serializers.Serializer):
    code = serializers.CharField(source="position.jackpot.code")
    room = serializers.CharField(source="position.jackpot.room.code", help_text="Room code.")
    kind = serializers.CharField(source="position.jackpot.kind", help_text="bad_beat or high_hand.")
    name = serializers.CharField(source="position.jackpot.name")
    official = CentsField(
        source="position.official_cents",
        help_text='The fund\'s official balance, as "12.34": what cage verifications made official, less what was paid '
        "and transferred (§637a.15(e), §637a.16(e)).",
    )
    owed = CentsField(
        source="position.owed_cents",
        help_text="What verified Bad Beat claims still owe from the fund: verified, not yet paid (§637a.15(f)).",
    )
    available = CentsField(
        source="position.available_cents",
        help_text="Official less owed: the finance record, the current payout amount a Bad Beat display must show "
        "(§637a.15(h)(1)).",
    )
    displayed = CentsField(
        source="position.displayed_cents",
        allow_null=True,
        help_text='What the display shows, as set by the latest display adjustment, as "12.34"; null when never '
        "adjusted. Adjustments (POST /api/display-adjustments/) are for Bad Beat funds: a High Hand's display shows "
        "its official balance and is not adjusted, so its `displayed` stays null.",
    )
    pending = serializers.BooleanField(
        source="position.pending",
        help_text="A claim was verified since the latest adjustment: the display shows 'pending adjustment' "
        "(§637a.15(f)(1)) until finance adjusts it. Always false for a High Hand.",
    )
    display_matches = serializers.BooleanField(
        source="position.display_matches",
        help_text="`displayed` equals `available`: the amount finance keeps corresponds to the amount displayed "
        "(§637a.15(h)(2)). False for a fund never adjusted (a High Hand).",
    )
    expected_in_boxes = ExpectedField(
        source="expected_in_boxes_cents",
        allow_null=True,
        help_text="Money logged rounds put in the fund's boxes, not yet counted and verified. Null for whoever counts "
        "or carries boxes blind (a dealer, security), as a box's `expected` is.",
    )


class JackpotList(generics.ListAPIView):
    """Each jackpot fund: its official balance, what verified claims owe from it, what its display shows
    and whether that matches, and the expected money still in its boxes (filter: ``room``)."""

    serializer_class = JackpotOutput
    required_actions = {"GET": Action.FUNDS_READ}

    def get_queryset(self):
        user = self.request.user
        jackpots = visible_to(user, Jackpot.objects.select_related("room")).order_by("room__code", "kind", "code")
        if room := room_named(self.request.query_params.get("room"), user=user):
            jackpots = jackpots.filter(room=room)
        return jackpots

    @extend_schema(parameters=[_ROOM], responses={200: JackpotOutput(many=True), **LIST_ERRORS})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None  # every list is paginated (REST_FRAMEWORK settings)
        positions = fund_positions(jackpots=page)
        expected = jackpot_expected_in_boxes(jackpots=page)
        funds = [FundShown(positions[jackpot.pk], expected[jackpot.pk]) for jackpot in page]
        blind = not may(request.user, Action.BOX_EXPECTED_READ)
        return self.get_paginated_response(JackpotOutput(funds, many=True, context={"blind": blind}).data)
