"""The cage: ``/api/cage-verifications/``, ``/api/variances/`` and the close of a gaming day.

§637a.15(e), §637a.16(e): a cage cashier counts each box or verifies the aggregate of a container of
table counts; what the cashier accepts becomes official. A variance over the room's threshold awaits
an explanation signed by a shift supervisor or finance, and blocks closing its gaming day.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cage.exceptions import CageErrorCode
from casino_backoffice.core.api import CentsField, MoneyField, RoomTimeField
from casino_backoffice.core.api_common import (
    IDEMPOTENCY_HEADER,
    PIN_CODES,
    RESTRICTED_LIST_ERRORS,
    ROLE_CODES,
    document_or_404,
    document_post,
    errors,
    valid,
)
from casino_backoffice.core.exceptions import CoreErrorCode
from casino_backoffice.ledger.exceptions import LedgerErrorCode
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.exceptions import StaffErrorCode
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from tables.api import room_named, room_required
from tables.selectors import visible_to

from ..exceptions import VarianceNotConfirmed
from ..gaming_days import BlockerKind
from ..models import (
    CageVerification,
    GamingDayClose,
    Variance,
    VarianceCorrection,
    VarianceDirection,
    VarianceKind,
    VerificationStatus,
)
from ..selectors import unresolved_filter
from ..services import cage_verify, gaming_day_close, variance_explain, verification_explain
from .common import CountedField, DirectionField, SortedColumnField, boxes_named, day_param, transport_named

# --- Cage verifications ---------------------------------------------------------------------------


class VerificationInput(serializers.Serializer):
    transport = serializers.IntegerField(required=False, help_text="The transport's id; or give its seal.")
    seal = serializers.CharField(
        max_length=60, required=False, help_text="The seal on the container; instead of the transport's id."
    )
    room = serializers.SlugField(required=False, help_text="Room code; needed only when two rooms used the seal.")
    counted = CountedField()
    confirm_variance = serializers.BooleanField(
        required=False,
        default=False,
        help_text="true: the cashier counted again and confirms a count that differs from what the container declares "
        "(or a box from what the ledger expected) by more than the room's variance threshold. Without it such a count "
        "is a 409 confirm_variance naming both amounts, and nothing is recorded.",
    )
    pin = serializers.CharField(help_text="The signed-in cage cashier's PIN: their signature.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if (attrs.get("transport") is None) == (not attrs.get("seal")):
            raise ValidationError("Name the transport by its id (transport) or by its seal (seal), one of them.")
        return attrs


# A verification read by ``verification_shown``.
class VerificationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    transport = serializers.IntegerField(source="transport_id")
    seal = serializers.CharField(source="transport.seal")
    room = serializers.CharField(source="room.code")
    gaming_day = serializers.DateField()
    counted = CentsField(source="counted_cents", help_text='What the cashier counted in all, as "12.34".')
    box_counts = serializers.DictField(child=CentsField(), help_text="What was counted per box, for uncounted boxes.")
    official = CentsField(
        source="official_cents",
        help_text="What became official in funds and poker revenue: the table counts of a container (players' contributions "
        "are not reduced by a loss between the table and the cage), or what was counted in each box.",
    )
    variance = CentsField(
        source="variance_cents",
        help_text="Counted at the cage less the table counts (a container) or less expected (boxes).",
    )
    direction = DirectionField(source="variance_cents", help_text="Which way the variance goes: over, short or none.")
    status = serializers.ChoiceField(choices=VerificationStatus.choices)
    variances = SortedColumnField(
        column="pk", child=serializers.IntegerField(), help_text="Ids of the variances it found."
    )
    cashier = serializers.CharField(source="cashier.username")
    verified_at = RoomTimeField()


def verification_shown(pk: int) -> CageVerification:
    """A verification as ``VerificationOutput`` reads it: its room, transport and cashier with it."""
    return CageVerification.objects.select_related("room", "transport", "cashier").get(pk=pk)


def _cage_verify(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
    transport = transport_named(
        transport_id=values.get("transport"),
        seal=values.get("seal"),
        room=room_named(values.get("room"), user=actor),
        user=actor,
    )
    verification = cage_verify(
        transport=transport,
        counted=values["counted"],
        confirm_variance=values["confirm_variance"],
        actor=actor,
        pin=values["pin"],
        idempotency_key=idempotency_key,
    )
    return dict(VerificationOutput(verification_shown(verification.pk)).data)


@dataclass(frozen=True)
class BoxToConfirm:
    """A box beyond the threshold in a refused verification: what was counted and expected in it."""

    box: str
    counted_cents: int
    expected_cents: int

    @property
    def variance_cents(self) -> int:
        return self.counted_cents - self.expected_cents


@dataclass(frozen=True)
class VarianceToConfirm:
    """A ``VarianceNotConfirmed`` as its 409 answers it: what the container declared (a container) or
    what the ledger expected (boxes), the other one None."""

    detail: str
    code: str
    counted_cents: int
    declared_cents: int | None
    expected_cents: int | None
    variance_cents: int
    threshold_cents: int
    boxes: tuple[BoxToConfirm, ...]

    @classmethod
    def of(cls, refused: VarianceNotConfirmed) -> VarianceToConfirm:
        return cls(
            detail=refused.message,
            code=refused.code,
            counted_cents=refused.counted_cents,
            declared_cents=refused.expected_cents if refused.declared else None,
            expected_cents=None if refused.declared else refused.expected_cents,
            variance_cents=refused.counted_cents - refused.expected_cents,
            threshold_cents=refused.threshold_cents,
            boxes=tuple(BoxToConfirm(code, cents, expected) for code, cents, expected in refused.boxes),
        )


class ConfirmBoxOutput(serializers.Serializer):
    box = serializers.CharField()
    counted = CentsField(source="counted_cents")
    expected = CentsField(source="expected_cents")
    variance = CentsField(source="variance_cents")
    direction = DirectionField(source="variance_cents")


class ConfirmVarianceOutput(serializers.Serializer):
    """A 409: ``confirm_variance`` with both amounts, so the page can ask the cashier to confirm; any
    other code (``wrong_status``, ``idempotency_key_reused``) is ``{detail, code}`` alone, so the amounts
    are not required."""

    detail = serializers.CharField()
    code = serializers.CharField(help_text="confirm_variance, wrong_status or idempotency_key_reused")
    counted = CentsField(source="counted_cents", required=False, help_text="What the cashier counted, in all.")
    declared = CentsField(
        source="declared_cents",
        required=False,
        allow_null=True,
        help_text="A container: the sum of its table counts (null for boxes).",
    )
    expected = CentsField(
        source="expected_cents",
        required=False,
        allow_null=True,
        help_text="Boxes: what the ledger expected in them, in all (null for a container).",
    )
    variance = CentsField(
        source="variance_cents", required=False, help_text='Counted less declared (or expected): "-71.10" is short.'
    )
    direction = DirectionField(source="variance_cents", required=False)
    threshold = CentsField(source="threshold_cents", required=False, help_text="The room's variance threshold.")
    boxes = ConfirmBoxOutput(many=True, required=False, help_text="Boxes: each one beyond the threshold.")


class CageVerificationCreate(APIView):
    """A cage cashier verifies what a transport brought (§637a.15(e), §637a.16(e)): the aggregate of a
    container of table counts (``counted`` "12.34"), or each uncounted box after a floorperson
    accounted for them (``counted`` {box code: "12.34"}; a box excused as missing counts nothing). The
    cashier is neither the counter nor the witness of any count inside. What the cashier accepts is
    posted to the jackpot funds and poker revenue; a variance over the room's threshold leaves the
    verification ``variance_unresolved`` until it is explained.

    A count that differs from what the container declares (or a box from what the ledger expected) by
    more than the room's threshold is a 409 ``confirm_variance`` with both amounts, recording nothing;
    the cashier counts again and sends ``confirm_variance: true`` when the count stands."""

    required_actions = {"POST": Action.CAGE_VERIFY}

    @extend_schema(
        request=VerificationInput,
        responses={
            201: VerificationOutput,
            **errors(
                e400=[
                    CageErrorCode.CAGE,
                    CageErrorCode.COUNT_MISMATCH,
                    StaffErrorCode.SEGREGATION_OF_DUTIES,
                    *PIN_CODES,
                ],
                e403=ROLE_CODES,
                e409=[CageErrorCode.WRONG_STATUS, CoreErrorCode.IDEMPOTENCY_KEY_REUSED, CageErrorCode.CONFIRM_VARIANCE],
            ),
            409: OpenApiResponse(
                response=ConfirmVarianceOutput,
                description="Nothing recorded. `{detail, code}`; code one of `wrong_status`, `idempotency_key_reused`, "
                "or `confirm_variance` with both amounts (`counted` and `declared` or `expected`) and the variance.",
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request) -> Response:
        try:
            return document_post(request, input_class=VerificationInput, create=_cage_verify)
        except VarianceNotConfirmed as refused:
            return Response(ConfirmVarianceOutput(VarianceToConfirm.of(refused)).data, status=status.HTTP_409_CONFLICT)


class ExplainInput(serializers.Serializer):
    reason = serializers.CharField(help_text="Why the count differs.")
    pin = serializers.CharField(help_text="The signed-in shift supervisor's or finance person's PIN: their signature.")


class VarianceExplainInput(ExplainInput):
    correction = MoneyField(
        required=False,
        help_text='Finance only: the part of the variance that was not money in the box, as "71.10" (at most the '
        "variance). It corrects the official record by a signed ledger transfer between the box's fund (or poker "
        "revenue) and the account that took the variance; the verification is not rewritten.",
    )
    box = serializers.CharField(
        max_length=60,
        required=False,
        help_text="With a correction of a container's variance: the box whose count was wrong, such as T1-hh.",
    )


_EXPLAIN_ERRORS = errors(
    e400=[CageErrorCode.CAGE, StaffErrorCode.SEGREGATION_OF_DUTIES, *PIN_CODES],
    e403=ROLE_CODES,
    e404=[],
    e409=[CageErrorCode.WRONG_STATUS],
)


class VerificationExplain(APIView):
    """A shift supervisor or finance explains every variance of a verification that awaits an
    explanation, and signs; the verification is then ``verified``. The same person giving the same
    reason again answers the verification again."""

    required_actions = {"POST": Action.VARIANCE_EXPLAIN}

    @extend_schema(request=ExplainInput, responses={200: VerificationOutput, **_EXPLAIN_ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        verification = document_or_404(CageVerification.objects.all(), pk, "cage verification", user=request.user)
        values = valid(ExplainInput, request.data)
        verification_explain(
            verification=verification, reason=values["reason"], actor=acting_user(request), pin=values["pin"]
        )
        return Response(VerificationOutput(verification_shown(pk)).data)


# --- Variances ------------------------------------------------------------------------------------


# A correction read with its variance and the variance's room (``_VARIANCE_CORRECTIONS``).
class CorrectionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    box = serializers.CharField(source="box.code")
    official_change = CentsField(
        source="official_change_cents",
        help_text='What the box\'s fund (or poker revenue) gained: "-71.10" is money it gave back.',
    )
    reason = serializers.CharField()
    corrected_by = serializers.CharField(source="corrected_by.username")
    corrected_at = RoomTimeField(room="variance.room")


# A variance read with ``_VARIANCE_RELATED`` and ``_VARIANCE_CORRECTIONS``.
class VarianceOutput(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.CharField(source="room.code")
    gaming_day = serializers.DateField()
    kind = serializers.ChoiceField(choices=VarianceKind.choices)
    box = serializers.CharField(source="box.code", allow_null=True)
    count = serializers.IntegerField(source="count_id", allow_null=True)
    verification = serializers.IntegerField(source="verification_id", allow_null=True)
    amount = CentsField(
        source="amount_cents",
        help_text='Counted less expected (or the cage less the table counts): "-1.00" is a dollar short.',
    )
    threshold = CentsField(source="threshold_cents", help_text="The room's variance threshold when it was found.")
    needs_explanation = serializers.BooleanField(help_text="Over the threshold: a signed explanation is needed.")
    unresolved = serializers.BooleanField(
        help_text="Needs an explanation and has none yet: it blocks closing its gaming day."
    )
    found_at = RoomTimeField()
    explanation = serializers.CharField()
    explained_by = serializers.CharField(source="explained_by.username", allow_null=True)
    explained_at = RoomTimeField(allow_null=True)
    direction = serializers.ChoiceField(
        choices=VarianceDirection.choices, help_text="Which way the variance goes: over or short."
    )
    superseded = serializers.BooleanField(
        help_text="The variance of a count a recount superseded: kept on the record, not explained, not in totals."
    )
    corrections = CorrectionOutput(many=True, help_text="Finance's corrections of the official record, one per box.")


_VARIANCE_RELATED = ("room", "box", "explained_by", "count")
_VARIANCE_CORRECTIONS = Prefetch("corrections", VarianceCorrection.objects.select_related("box", "corrected_by"))


def variance_shown(pk: int) -> Variance:
    """A variance as ``VarianceOutput`` reads it."""
    return Variance.objects.select_related(*_VARIANCE_RELATED).prefetch_related(_VARIANCE_CORRECTIONS).get(pk=pk)


class VarianceList(generics.ListAPIView):
    """Every variance, newest first: the variance report (filters: ``room``, ``gaming_day``,
    ``unresolved=true`` for those awaiting an explanation)."""

    serializer_class = VarianceOutput
    required_actions = {"GET": Action.VARIANCE_READ}

    def get_queryset(self):
        variances = visible_to(
            self.request.user,
            Variance.objects.select_related(*_VARIANCE_RELATED).prefetch_related(_VARIANCE_CORRECTIONS),
        ).order_by("-found_at", "-pk")
        if room := room_named(self.request.query_params.get("room"), user=self.request.user):
            variances = variances.filter(room=room)
        if day := day_param(self.request, "gaming_day"):
            variances = variances.filter(gaming_day=day)
        unresolved = self.request.query_params.get("unresolved", "").lower()
        if unresolved not in ("", "true", "false"):
            raise ValidationError({"unresolved": ["Give true or false."]})
        if unresolved == "true":
            variances = variances.filter(unresolved_filter())
        elif unresolved == "false":
            variances = variances.exclude(unresolved_filter())
        return variances

    @extend_schema(
        parameters=[
            OpenApiParameter("room", OpenApiTypes.STR, description="Room code"),
            OpenApiParameter("gaming_day", OpenApiTypes.DATE, description="Gaming day (YYYY-MM-DD)"),
            OpenApiParameter("unresolved", OpenApiTypes.BOOL, description="true: only those awaiting an explanation"),
        ],
        responses={200: VarianceOutput(many=True), **RESTRICTED_LIST_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None  # every list is paginated (REST_FRAMEWORK settings)
        return self.get_paginated_response(VarianceOutput(page, many=True).data)


class VarianceExplain(APIView):
    """A shift supervisor or finance explains one variance and signs; a verification whose variances
    are all explained is ``verified``. The same person giving the same reason again answers the
    variance again. With ``correction`` (finance only), the official record is corrected too
    (§637a.15(e), §637a.16(e)): a signed ledger transfer between the box's fund (or poker revenue)
    and the account that took the variance, never a rewrite of the verification; a variance is
    corrected once."""

    required_actions = {"POST": Action.VARIANCE_EXPLAIN}

    @extend_schema(
        request=VarianceExplainInput,
        responses={
            200: VarianceOutput,
            **errors(
                e400=[
                    CageErrorCode.CAGE,
                    CageErrorCode.CORRECTION_INVALID,
                    StaffErrorCode.SEGREGATION_OF_DUTIES,
                    LedgerErrorCode.BELOW_ZERO,
                    *PIN_CODES,
                ],
                e403=ROLE_CODES,
                e404=[],
                e409=[CageErrorCode.WRONG_STATUS],
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        variance = document_or_404(Variance.objects.all(), pk, "variance", user=request.user)
        values = valid(VarianceExplainInput, request.data)
        box = None
        if values.get("box"):
            (box,) = boxes_named([values["box"]], room=variance.room, user=request.user)
        variance_explain(
            variance=variance,
            reason=values["reason"],
            correction_cents=values.get("correction"),
            box=box,
            actor=acting_user(request),
            pin=values["pin"],
        )
        return Response(VarianceOutput(variance_shown(pk)).data)


# --- The close of a gaming day --------------------------------------------------------------------


class CloseInput(serializers.Serializer):
    room = serializers.SlugField(required=False, help_text="Room code; needed when there are several rooms.")
    gaming_day = serializers.DateField(help_text="The gaming day to close (YYYY-MM-DD).")
    pin = serializers.CharField(help_text="The signed-in finance person's PIN: their signature.")


class CloseOutput(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.CharField(source="room.code")
    gaming_day = serializers.DateField()
    closed_by = serializers.CharField(source="closed_by.username")
    closed_at = RoomTimeField()


class GamingDayCloseCreate(APIView):
    """Finance closes a room's gaming day, and signs; refused (409) while the day is not over or anything
    of it is still open (``cage.gaming_days``: ``gaming_day_not_over``, ``counts_due``,
    ``transports_not_verified``, ``time_charges_not_verified``, ``unresolved_variance``, the first that
    applies; the message names every one). A day is closed once: closing it again answers the first
    close (``Idempotent-Replayed: true``); nothing is recorded for a closed day after (§637a.17)."""

    required_actions = {"POST": Action.GAMING_DAY_CLOSE}

    @extend_schema(
        request=CloseInput,
        responses={
            201: CloseOutput,
            **errors(e400=[*PIN_CODES], e403=ROLE_CODES, e409=[kind.code for kind in BlockerKind]),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request) -> Response:
        def create(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
            room = room_required(values.get("room"), user=actor)
            close = gaming_day_close(room=room, day=values["gaming_day"], actor=actor, pin=values["pin"])
            return dict(CloseOutput(GamingDayClose.objects.select_related("room", "closed_by").get(pk=close.pk)).data)

        return document_post(request, input_class=CloseInput, create=create)
