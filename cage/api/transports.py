"""Chain of custody: ``/api/transports/``, their accounting at the cage and missing boxes.

A security officer signs for a locked container of witnessed table counts (§637a.15(d)(1)) or for
locked uncounted boxes (§637a.15(d)(2)) and carries it to the cage; there a floorperson or above
accounts for every box carried, and a box missing is excused only by a supervisor's signed exception.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cage.exceptions import CageErrorCode
from casino_backoffice.core.api import CentsField, RoomTimeField
from casino_backoffice.core.api_common import (
    IDEMPOTENCY_HEADER,
    PIN_CODES,
    ROLE_CODES,
    document_or_404,
    document_post,
    errors,
    valid,
)
from casino_backoffice.core.exceptions import CoreErrorCode
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.exceptions import StaffErrorCode
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from tables.api import room_named
from tables.selectors import visible_to

from ..models import Count, MissingBox, Transport, TransportItem, TransportKind, TransportStatus
from ..services import missing_box_record, transport_account, transport_create
from .common import SortedColumnField, boxes_named


class TransportInput(serializers.Serializer):
    seal = serializers.CharField(max_length=60, help_text="The seal number of the locked container (new in its room).")
    counts = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        allow_empty=False,
        min_length=1,  # minItems in the schema
        help_text="A container of witnessed table counts: their ids.",
    )
    boxes = serializers.ListField(
        child=serializers.CharField(max_length=60),
        required=False,
        allow_empty=False,
        min_length=1,
        help_text="Locked, uncounted boxes: their codes.",
    )
    room = serializers.SlugField(
        required=False, help_text="Room code; needed only when two rooms share a box code or to check the counts' room."
    )
    destination = serializers.CharField(
        max_length=60, required=False, default="main cage", help_text="The main cage or a satellite cage."
    )
    pin = serializers.CharField(help_text="The signed-in security officer's PIN: their signature for custody.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if bool(attrs.get("counts")) == bool(attrs.get("boxes")):
            raise ValidationError(
                "Give either counts (a container of table counts) or boxes (uncounted boxes), not both."
            )
        for name in ("counts", "boxes"):
            listed = attrs.get(name) or []
            twice = sorted({str(item) for item in listed if listed.count(item) > 1})
            if twice:
                raise ValidationError({name: [f"{', '.join(twice)} listed twice."]})
        return attrs


class TransportItemOutput(serializers.Serializer):
    box = serializers.CharField(source="box.code")
    count = serializers.IntegerField(
        source="count_id", allow_null=True, help_text="The table count inside, for a container of table counts."
    )


# A transport read by ``transport_shown``.
class TransportOutput(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.CharField(source="room.code")
    seal = serializers.CharField()
    kind = serializers.ChoiceField(choices=TransportKind.choices)
    destination = serializers.CharField()
    gaming_day = serializers.DateField()
    status = serializers.ChoiceField(choices=TransportStatus.choices)
    declared = CentsField(
        source="declared_cents",
        allow_null=True,
        help_text='The sum of the table counts inside, as "12.34"; null for uncounted boxes.',
    )
    items = TransportItemOutput(many=True)
    missing_boxes = SortedColumnField(
        column="box__code", child=serializers.CharField(), help_text="Boxes excused as missing by a supervisor."
    )
    carried_by = serializers.CharField(source="carried_by.username")
    carried_at = RoomTimeField()
    accounted_by = serializers.CharField(source="accounted_by.username", allow_null=True)
    accounted_at = RoomTimeField(allow_null=True)


def transport_shown(pk: int) -> Transport:
    """A transport as ``TransportOutput`` reads it: its items by box code, with their boxes."""
    return (
        Transport.objects.select_related("room", "carried_by", "accounted_by")
        .prefetch_related(Prefetch("items", TransportItem.objects.select_related("box").order_by("box__code")))
        .get(pk=pk)
    )


def _transport_create(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
    room = room_named(values.get("room"), user=actor)
    counts: list[Count] = []
    if values.get("counts"):
        found = visible_to(actor, Count.objects.select_related("box__room")).in_bulk(values["counts"])
        unknown = [str(pk) for pk in values["counts"] if pk not in found]
        if unknown:
            raise ValidationError({"counts": [f"There is no count {', '.join(unknown)}."]})
        counts = [found[pk] for pk in values["counts"]]
        rooms = {count.box.room for count in counts}
        if room is None and len(rooms) > 1:
            raise ValidationError({"counts": ["The counts are of several rooms; a container holds one room's counts."]})
        room = room or counts[0].box.room
        boxes = None
    else:
        boxes = boxes_named(values["boxes"], room=room, user=actor, field="boxes")
        if room is None and len({box.room_id for box in boxes}) > 1:
            raise ValidationError({"boxes": ["The boxes are of several rooms; say which room."]})
        room = room or boxes[0].room
    transport = transport_create(
        room=room,
        seal=values["seal"],
        counts=counts or None,
        boxes=boxes,
        destination=values["destination"],
        actor=actor,
        pin=values["pin"],
        idempotency_key=idempotency_key,
    )
    return dict(TransportOutput(transport_shown(transport.pk)).data)


class TransportCreate(APIView):
    """A security officer signs for custody of a sealed container of witnessed table counts
    (``counts``), or of locked uncounted boxes (``boxes``), and carries it to the cage
    (§637a.15(d)). Uncounted boxes move from the box into custody in the ledger at what they held."""

    required_actions = {"POST": Action.TRANSPORT_CREATE}

    @extend_schema(
        request=TransportInput,
        responses={
            201: TransportOutput,
            **errors(
                e400=[CageErrorCode.CAGE, CageErrorCode.UNKNOWN_BOX, StaffErrorCode.SEGREGATION_OF_DUTIES, *PIN_CODES],
                e403=ROLE_CODES,
                e409=[CageErrorCode.WRONG_STATUS, CoreErrorCode.IDEMPOTENCY_KEY_REUSED],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request) -> Response:
        return document_post(request, input_class=TransportInput, create=_transport_create)


class AccountInput(serializers.Serializer):
    boxes = serializers.ListField(
        child=serializers.CharField(max_length=60),
        allow_empty=True,
        help_text="The code of every box that arrived; each box carried must be here or excused as missing.",
    )
    pin = serializers.CharField(help_text="The signed-in floorperson's PIN: their signature.")


class TransportAccount(APIView):
    """At the cage a floorperson or above accounts for every box carried under the seal, and signs
    (§637a.15(d)(2)). A box carried but not named is refused unless a supervisor signed an exception
    naming it. The same person accounting again answers the transport again."""

    required_actions = {"POST": Action.TRANSPORT_ACCOUNT}

    @extend_schema(
        request=AccountInput,
        responses={
            200: TransportOutput,
            **errors(
                e400=[
                    CageErrorCode.BOX_MISSING,
                    CageErrorCode.UNKNOWN_BOX,
                    StaffErrorCode.SEGREGATION_OF_DUTIES,
                    *PIN_CODES,
                ],
                e403=ROLE_CODES,
                e404=[],
                e409=[CageErrorCode.WRONG_STATUS],
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        transport = document_or_404(Transport.objects.all(), pk, "transport", user=request.user)
        values = valid(AccountInput, request.data)
        transport_account(transport=transport, box_codes=values["boxes"], actor=acting_user(request), pin=values["pin"])
        return Response(TransportOutput(transport_shown(pk)).data)


class MissingBoxInput(serializers.Serializer):
    box = serializers.CharField(
        max_length=60, help_text="Code of the box carried under the seal but missing at the cage."
    )
    reason = serializers.CharField(help_text="What is known of the missing box.")
    pin = serializers.CharField(help_text="The signed-in supervisor's PIN: their signature.")


# A missing box read with its transport and room, its box and who recorded it.
class MissingBoxOutput(serializers.Serializer):
    id = serializers.IntegerField()
    transport = serializers.IntegerField(source="transport_id")
    seal = serializers.CharField(source="transport.seal")
    box = serializers.CharField(source="box.code")
    reason = serializers.CharField()
    recorded_by = serializers.CharField(source="recorded_by.username")
    recorded_at = RoomTimeField(room="transport.room")


class MissingBoxCreate(APIView):
    """A supervisor signs an exception naming a box carried under the seal but missing at the cage
    (§637a.15(d)(2)); the box's expected money becomes a variance when the cashier verifies. One
    exception per box and transport: a second answers the first (``Idempotent-Replayed: true``)."""

    required_actions = {"POST": Action.MISSING_BOX_RECORD}

    @extend_schema(
        request=MissingBoxInput,
        responses={
            201: MissingBoxOutput,
            **errors(
                e400=[CageErrorCode.CAGE, CageErrorCode.UNKNOWN_BOX, StaffErrorCode.SEGREGATION_OF_DUTIES, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=[CageErrorCode.WRONG_STATUS],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request, pk: int) -> Response:
        transport = document_or_404(Transport.objects.select_related("room"), pk, "transport", user=request.user)

        def create(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
            (box,) = boxes_named([values["box"]], room=transport.room, user=actor)
            missing = missing_box_record(
                transport=transport, box=box, reason=values["reason"], actor=actor, pin=values["pin"]
            )
            return dict(
                MissingBoxOutput(
                    MissingBox.objects.select_related("transport__room", "box", "recorded_by").get(pk=missing.pk)
                ).data
            )

        return document_post(request, input_class=MissingBoxInput, create=create)
