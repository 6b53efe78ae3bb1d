"""Counts at a closed table: ``/api/compliance-notices/``, ``/api/counts/`` and the witness.

§637a.15(d)(1), §637a.16(d)(1): a dealer counts and signs; a floorperson or above who is not the
counter witnesses and signs, with the surveillance recording reference. A Bad Beat box is counted
upon notice to a casino compliance representative (§637a.15(d)).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cage.exceptions import CageErrorCode
from casino_backoffice.core.api import CentsField, MoneyField, RoomTimeField
from casino_backoffice.core.api_common import (
    IDEMPOTENCY_HEADER,
    LIST_ERRORS,
    PIN_CODES,
    ROLE_CODES,
    AwareDateTimeField,
    document_or_404,
    document_post,
    errors,
    valid,
)
from casino_backoffice.core.exceptions import CoreErrorCode
from casino_backoffice.money import format_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.exceptions import StaffErrorCode
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from tables.api import room_named, room_required
from tables.selectors import visible_to

from ..models import ComplianceNotice, Count, CountStatus
from ..services import count_record, count_recount, count_witness, notice_record
from .common import DirectionField, boxes_named, day_param

# --- The notice to compliance ---------------------------------------------------------------------


class NoticeInput(serializers.Serializer):
    room = serializers.SlugField(required=False, help_text="Room code; needed when there are several rooms.")
    notified = serializers.CharField(
        max_length=120, help_text="The casino compliance representative notified, by name."
    )
    method = serializers.CharField(max_length=120, help_text="How: phone, radio, in person, e-mail ...")
    notified_at = AwareDateTimeField(
        required=False, help_text="When the notice was given (default: now); never in the future."
    )
    pin = serializers.CharField(help_text="The signed-in floorperson's PIN: their signature.")


class NoticeOutput(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.CharField(source="room.code")
    gaming_day = serializers.DateField(
        help_text="The gaming day the notice is for: Bad Beat counts of that day refer to it."
    )
    notified = serializers.CharField()
    method = serializers.CharField()
    notified_at = RoomTimeField()
    recorded_by = serializers.CharField(
        source="recorded_by.username", help_text="Username of the floorperson or above who recorded and signed it."
    )


def _notice_record(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
    notice = notice_record(
        room=room_required(values.get("room"), user=actor),
        notified=values["notified"],
        method=values["method"],
        notified_at=values.get("notified_at"),
        actor=actor,
        pin=values["pin"],
        idempotency_key=idempotency_key,
    )
    return dict(NoticeOutput(notice).data)


class NoticeCreate(APIView):
    """A floorperson or above records, and signs, the notice to the casino compliance representative
    before Bad Beat boxes are counted (§637a.15(d)). A Bad Beat count refers to the room's notice of
    its gaming day, or names one."""

    required_actions = {"POST": Action.NOTICE_RECORD}

    @extend_schema(
        request=NoticeInput,
        responses={
            201: NoticeOutput,
            **errors(
                e400=[CageErrorCode.CAGE, *PIN_CODES], e403=ROLE_CODES, e409=[CoreErrorCode.IDEMPOTENCY_KEY_REUSED]
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request) -> Response:
        return document_post(request, input_class=NoticeInput, create=_notice_record)


# --- Counts ---------------------------------------------------------------------------------------


class DenominationsField(serializers.DictField):
    """Pieces counted per denomination, {"5.00": 3, "1.00": 2}: each key an amount above 0.00 read by
    the one money parser, each value a whole number of pieces. Two keys of the same amount ("5" and
    "5.00") add up. Keyed by cents as a string, as the count stores them."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.IntegerField(min_value=0), **kwargs)

    def to_internal_value(self, data: Any) -> dict[str, int]:
        pieces: dict[str, int] = {}
        for denomination, number in super().to_internal_value(data).items():
            cents = MoneyField().to_internal_value(denomination)
            if cents == 0:
                raise ValidationError(f"A denomination is more than 0.00, not {denomination!r}.")
            pieces[str(cents)] = pieces.get(str(cents), 0) + number
        return pieces

    def to_representation(self, value: dict[str, int]) -> dict[str, int]:
        return {format_cents(int(cents)): pieces for cents, pieces in value.items()}


class CountInput(serializers.Serializer):
    box = serializers.CharField(max_length=60, help_text="Box code, such as T1-bb.")
    room = serializers.SlugField(required=False, help_text="Room code; needed only when two rooms share the box code.")
    counted = MoneyField(help_text='What the dealer counted in the box, as "12.34".')
    notice = serializers.IntegerField(
        required=False,
        help_text="The compliance notice a Bad Beat count refers to (default: the room's notice of the gaming day).",
    )
    denominations = DenominationsField(
        required=False,
        help_text='Optional: pieces counted per denomination, {"5.00": 3, "1.00": 2}; they must add up to the count.',
    )
    pin = serializers.CharField(help_text="The signed-in dealer's PIN: their signature.")


_COUNT_RELATED = ("box__room", "box__table", "sheet", "counted_by", "witnessed_by", "superseded_by")


# A count read with ``_COUNT_RELATED``.
class CountOutput(serializers.Serializer):
    id = serializers.IntegerField()
    box = serializers.CharField(source="box.code")
    room = serializers.CharField(source="box.room.code")
    table = serializers.CharField(source="box.table.number")
    place = serializers.CharField(
        help_text="table: counted at a closed table; cage: counted by the cashier at the cage."
    )
    gaming_day = serializers.DateField()
    sheet = serializers.CharField(
        source="sheet.key", allow_null=True, help_text="The count sheet the count filled, such as day:2026-11-30."
    )
    counted = CentsField(source="counted_cents", help_text='What was counted, as "12.34".')
    expected = CentsField(source="expected_cents", help_text="What the box held by the ledger when it was counted.")
    variance = CentsField(source="variance_cents", help_text='Counted less expected: "-1.00" is a dollar short.')
    direction = DirectionField(source="variance_cents", help_text="Which way the variance goes: over, short or none.")
    denominations = DenominationsField(help_text="Pieces per denomination, when given.")
    notice = serializers.IntegerField(
        source="notice_id", allow_null=True, help_text="The compliance notice of a Bad Beat count."
    )
    status = serializers.ChoiceField(choices=CountStatus.choices)
    counted_by = serializers.CharField(source="counted_by.username")
    counted_at = RoomTimeField(room="box.room")
    witnessed_by = serializers.CharField(source="witnessed_by.username", allow_null=True)
    witnessed_at = RoomTimeField(room="box.room", allow_null=True)
    surveillance_reference = serializers.CharField(help_text="The surveillance recording reference the witness gave.")
    supersedes = serializers.IntegerField(
        source="supersedes_id",
        allow_null=True,
        help_text="A recount: the count it supersedes (kept on the record, struck through).",
    )
    recount_reason = serializers.CharField(help_text="A recount: why the count it supersedes was wrong.")
    superseded_by = serializers.IntegerField(
        source="superseded_by.pk", allow_null=True, help_text="A superseded count: the recount that took its place."
    )


def count_shown(pk: int) -> Count:
    """A count as ``CountOutput`` reads it."""
    return Count.objects.select_related(*_COUNT_RELATED).get(pk=pk)


def _count_record(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
    (box,) = boxes_named([values["box"]], room=room_named(values.get("room"), user=actor), user=actor)
    notice = None
    if values.get("notice") is not None:
        notice = visible_to(actor, ComplianceNotice.objects.filter(pk=values["notice"])).first()
        if notice is None:
            raise ValidationError({"notice": [f"There is no compliance notice {values['notice']}."]})
    count = count_record(
        box=box,
        counted_cents=values["counted"],
        notice=notice,
        denominations=values.get("denominations"),
        actor=actor,
        pin=values["pin"],
        idempotency_key=idempotency_key,
    )
    return dict(CountOutput(count_shown(count.pk)).data)


class CountListCreate(generics.ListAPIView):
    """Counts of boxes. GET lists them, newest first (filters: ``status``, ``room``, ``gaming_day``,
    ``box``): surveillance sees the counts to record, security the witnessed counts to carry. POST: a
    dealer counts a box at a closed table and signs (§637a.15(d)(1), §637a.16(d)(1)); the box's
    expected content moves into custody and a difference is a variance."""

    serializer_class = CountOutput
    required_actions = {"GET": Action.COUNTS_READ, "POST": Action.COUNT_RECORD}

    def get_queryset(self):
        params = self.request.query_params
        counts = visible_to(self.request.user, Count.objects.select_related(*_COUNT_RELATED)).order_by(
            "-counted_at", "-pk"
        )
        if room := room_named(params.get("room"), user=self.request.user):
            counts = counts.filter(box__room=room)
        if wanted := params.get("status"):
            if wanted not in CountStatus.values:
                raise ValidationError({"status": [f"A count's status is one of {', '.join(CountStatus.values)}."]})
            counts = counts.filter(status=wanted)
        if day := day_param(self.request, "gaming_day"):
            counts = counts.filter(gaming_day=day)
        if box := params.get("box"):
            counts = counts.filter(box__code=box)
        return counts

    @extend_schema(
        parameters=[
            OpenApiParameter("status", OpenApiTypes.STR, enum=CountStatus.values, description="The count's status"),
            OpenApiParameter("room", OpenApiTypes.STR, description="Room code"),
            OpenApiParameter("gaming_day", OpenApiTypes.DATE, description="Gaming day (YYYY-MM-DD)"),
            OpenApiParameter("box", OpenApiTypes.STR, description="Box code"),
        ],
        responses={200: CountOutput(many=True), **LIST_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None  # every list is paginated (REST_FRAMEWORK settings)
        return self.get_paginated_response(CountOutput(page, many=True).data)

    @extend_schema(
        request=CountInput,
        responses={
            201: CountOutput,
            **errors(
                e400=[CageErrorCode.CAGE, CageErrorCode.COMPLIANCE_NOTICE_REQUIRED, *PIN_CODES],
                e403=ROLE_CODES,
                e409=[CageErrorCode.BOX_ALREADY_COUNTED, CoreErrorCode.IDEMPOTENCY_KEY_REUSED],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request) -> Response:
        return document_post(request, input_class=CountInput, create=_count_record)


class WitnessInput(serializers.Serializer):
    surveillance_reference = serializers.CharField(
        max_length=120, help_text="The surveillance department's recording reference."
    )
    pin = serializers.CharField(help_text="The signed-in witness's PIN: their signature.")


class CountWitness(APIView):
    """A floorperson or above who is not the counter witnesses the count and signs, with the
    surveillance recording reference (§637a.15(d)(1)). The same witness signing again with the same
    reference answers the count again."""

    required_actions = {"POST": Action.COUNT_WITNESS}

    @extend_schema(
        request=WitnessInput,
        responses={
            200: CountOutput,
            **errors(
                e400=[CageErrorCode.CAGE, StaffErrorCode.SEGREGATION_OF_DUTIES, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=[CageErrorCode.WRONG_STATUS],
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        count = document_or_404(Count.objects.all(), pk, "count", user=request.user)
        values = valid(WitnessInput, request.data)
        count_witness(
            count=count,
            actor=acting_user(request),
            pin=values["pin"],
            surveillance_reference=values["surveillance_reference"],
        )
        return Response(CountOutput(count_shown(pk)).data)


class RecountInput(serializers.Serializer):
    counted = MoneyField(help_text='What the box held, recounted, as "7.90".')
    reason = serializers.CharField(
        max_length=2000, help_text='Why the count is wrong, such as "typed 79.00 for 7.90"; kept with both counts.'
    )
    denominations = DenominationsField(
        required=False,
        help_text='Optional: pieces recounted per denomination, {"5.00": 1, "1.00": 2}; they must add up to the recount.',
    )
    pin = serializers.CharField(help_text="The signed-in supervisor's PIN: their signature on the recount.")


def _count_recount(count: Count) -> Any:
    def create(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
        recount = count_recount(
            count=count,
            counted_cents=values["counted"],
            reason=values["reason"],
            denominations=values.get("denominations"),
            actor=actor,
            pin=values["pin"],
            idempotency_key=idempotency_key,
        )
        return dict(CountOutput(count_shown(recount.pk)).data)

    return create


class CountRecount(APIView):
    """Before the cage verifies it, a count still at the table (counted or witnessed, not carried) is
    superseded by a recount of the same box: the counter's supervisor (a poker shift supervisor or
    above, never the counter) recounts it and signs with the reason. The recount takes the count's
    sheet and what it counted is what the container declares and the cage expects; the superseded
    count stays on the record (``superseded``). The recount awaits its witness, as every table count
    (§637a.15(d)(1)). A count carried to the cage or verified is a 409 ``count_not_recountable``."""

    required_actions = {"POST": Action.COUNT_RECOUNT}

    @extend_schema(
        request=RecountInput,
        responses={
            201: CountOutput,
            **errors(
                e400=[CageErrorCode.CAGE, StaffErrorCode.SEGREGATION_OF_DUTIES, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=[CageErrorCode.COUNT_NOT_RECOUNTABLE, CoreErrorCode.IDEMPOTENCY_KEY_REUSED],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request, pk: int) -> Response:
        count = document_or_404(Count.objects.all(), pk, "count", user=request.user)
        return document_post(request, input_class=RecountInput, create=_count_recount(count))
