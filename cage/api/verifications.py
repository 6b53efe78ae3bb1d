"""The cage: ``/api/cage-verifications/``, ``/api/variances/`` and the close of a gaming day.

§637a.15(e), §637a.16(e): a cage cashier counts each box or verifies the aggregate of a container of
table counts; what the cashier accepts becomes official. A variance over the room's threshold awaits
an explanation signed by a shift supervisor or finance, and blocks closing its gaming day.
"""

from __future__ import annotations

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
from casino_backoffice.core.api import MoneyField
from casino_backoffice.core.api_common import (
    IDEMPOTENCY_HEADER,
    PIN_CODES,
    RESTRICTED_LIST_ERRORS,
    ROLE_CODES,
    document_or_404,
    document_post,
    errors,
    money,
    person,
    valid,
)
from casino_backoffice.core.exceptions import CoreErrorCode
from casino_backoffice.ledger.exceptions import LedgerErrorCode
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.exceptions import StaffErrorCode
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from tables.api import local, room_named, room_required
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
    variance_direction,
)
from ..selectors import unresolved_filter
from ..services import cage_verify, gaming_day_close, variance_explain, verification_explain
from .common import CountedField, boxes_named, day_param, transport_named

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


class VerificationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    transport = serializers.IntegerField()
    seal = serializers.CharField()
    room = serializers.CharField()
    gaming_day = serializers.DateField()
    counted = serializers.CharField(help_text='What the cashier counted in all, as "12.34".')
    box_counts = serializers.DictField(
        child=serializers.CharField(), help_text="What was counted per box, for uncounted boxes."
    )
    official = serializers.CharField(
        help_text="What became official in funds and poker revenue: the table counts of a container (players' contributions "
        "are not reduced by a loss between the table and the cage), or what was counted in each box."
    )
    variance = serializers.CharField(
        help_text="Counted at the cage less the table counts (a container) or less expected (boxes)."
    )
    direction = serializers.ChoiceField(
        choices=VarianceDirection.choices, help_text="Which way the variance goes: over, short or none."
    )
    status = serializers.ChoiceField(choices=VerificationStatus.choices)
    variances = serializers.ListField(child=serializers.IntegerField(), help_text="Ids of the variances it found.")
    cashier = serializers.CharField()
    verified_at = serializers.DateTimeField()


def verification_data(verification_id: int) -> dict[str, Any]:
    verification = CageVerification.objects.select_related("room", "transport", "cashier").get(pk=verification_id)
    return {
        "id": verification.pk,
        "transport": verification.transport_id,
        "seal": verification.transport.seal,
        "room": verification.room.code,
        "gaming_day": verification.gaming_day.isoformat(),
        "counted": money(verification.counted_cents),
        "box_counts": {code: money(cents) for code, cents in verification.box_counts.items()},
        "official": money(verification.official_cents),
        "variance": money(verification.variance_cents),
        "direction": variance_direction(verification.variance_cents).value,
        "status": verification.status,
        "variances": sorted(verification.variances.values_list("pk", flat=True)),
        "cashier": person(verification.cashier),
        "verified_at": local(verification.verified_at, verification.room),
    }


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
    return verification_data(verification.pk)


class ConfirmBoxOutput(serializers.Serializer):
    box = serializers.CharField()
    counted = serializers.CharField()
    expected = serializers.CharField()
    variance = serializers.CharField()
    direction = serializers.ChoiceField(choices=VarianceDirection.choices)


class ConfirmVarianceOutput(serializers.Serializer):
    """A 409: ``confirm_variance`` with both amounts, so the page can ask the cashier to confirm; any
    other code (``wrong_status``, ``idempotency_key_reused``) is ``{detail, code}`` alone, so the amounts
    are not required."""

    detail = serializers.CharField()
    code = serializers.CharField(help_text="confirm_variance, wrong_status or idempotency_key_reused")
    counted = serializers.CharField(required=False, help_text="What the cashier counted, in all.")
    declared = serializers.CharField(
        required=False, allow_null=True, help_text="A container: the sum of its table counts (null for boxes)."
    )
    expected = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="Boxes: what the ledger expected in them, in all (null for a container).",
    )
    variance = serializers.CharField(
        required=False, help_text='Counted less declared (or expected): "-71.10" is short.'
    )
    direction = serializers.ChoiceField(required=False, choices=VarianceDirection.choices)
    threshold = serializers.CharField(required=False, help_text="The room's variance threshold.")
    boxes = ConfirmBoxOutput(many=True, required=False, help_text="Boxes: each one beyond the threshold.")


def confirm_variance_data(refused: VarianceNotConfirmed) -> dict[str, Any]:
    difference = refused.counted_cents - refused.expected_cents
    return {
        "detail": refused.message,
        "code": refused.code,
        "counted": money(refused.counted_cents),
        "declared": money(refused.expected_cents) if refused.declared else None,
        "expected": None if refused.declared else money(refused.expected_cents),
        "variance": money(difference),
        "direction": variance_direction(difference).value,
        "threshold": money(refused.threshold_cents),
        "boxes": [
            {
                "box": code,
                "counted": money(cents),
                "expected": money(expected),
                "variance": money(cents - expected),
                "direction": variance_direction(cents - expected).value,
            }
            for code, cents, expected in refused.boxes
        ],
    }


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
            return Response(ConfirmVarianceOutput(confirm_variance_data(refused)).data, status=status.HTTP_409_CONFLICT)


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
        return Response(verification_data(pk))


# --- Variances ------------------------------------------------------------------------------------


class CorrectionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    box = serializers.CharField()
    official_change = serializers.CharField(
        help_text='What the box\'s fund (or poker revenue) gained: "-71.10" is money it gave back.'
    )
    reason = serializers.CharField()
    corrected_by = serializers.CharField()
    corrected_at = serializers.DateTimeField()


class VarianceOutput(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.CharField()
    gaming_day = serializers.DateField()
    kind = serializers.ChoiceField(choices=VarianceKind.choices)
    box = serializers.CharField(allow_null=True)
    count = serializers.IntegerField(allow_null=True)
    verification = serializers.IntegerField(allow_null=True)
    amount = serializers.CharField(
        help_text='Counted less expected (or the cage less the table counts): "-1.00" is a dollar short.'
    )
    threshold = serializers.CharField(help_text="The room's variance threshold when it was found.")
    needs_explanation = serializers.BooleanField(help_text="Over the threshold: a signed explanation is needed.")
    unresolved = serializers.BooleanField(
        help_text="Needs an explanation and has none yet: it blocks closing its gaming day."
    )
    found_at = serializers.DateTimeField()
    explanation = serializers.CharField()
    explained_by = serializers.CharField(allow_null=True)
    explained_at = serializers.DateTimeField(allow_null=True)
    direction = serializers.ChoiceField(
        choices=VarianceDirection.choices, help_text="Which way the variance goes: over or short."
    )
    superseded = serializers.BooleanField(
        help_text="The variance of a count a recount superseded: kept on the record, not explained, not in totals."
    )
    corrections = CorrectionOutput(many=True, help_text="Finance's corrections of the official record, one per box.")


_VARIANCE_RELATED = ("room", "box", "explained_by", "count")
_VARIANCE_CORRECTIONS = Prefetch("corrections", VarianceCorrection.objects.select_related("box", "corrected_by"))


def variance_data(variance: Variance) -> dict[str, Any]:
    return {
        "id": variance.pk,
        "room": variance.room.code,
        "gaming_day": variance.gaming_day.isoformat(),
        "kind": variance.kind,
        "box": variance.box.code if variance.box else None,
        "count": variance.count_id,
        "verification": variance.verification_id,
        "amount": money(variance.amount_cents),
        "threshold": money(variance.threshold_cents),
        "needs_explanation": variance.needs_explanation,
        "unresolved": variance.unresolved,
        "found_at": local(variance.found_at, variance.room),
        "explanation": variance.explanation,
        "explained_by": person(variance.explained_by),
        "explained_at": local(variance.explained_at, variance.room),
        "direction": variance.direction.value,
        "superseded": variance.superseded,
        "corrections": [
            {
                "id": correction.pk,
                "box": correction.box.code,
                "official_change": money(correction.official_change_cents),
                "reason": correction.reason,
                "corrected_by": person(correction.corrected_by),
                "corrected_at": local(correction.corrected_at, variance.room),
            }
            for correction in variance.corrections.all()
        ],
    }


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
        return self.get_paginated_response([variance_data(variance) for variance in page])


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
        return Response(
            variance_data(
                Variance.objects.select_related(*_VARIANCE_RELATED).prefetch_related(_VARIANCE_CORRECTIONS).get(pk=pk)
            )
        )


# --- The close of a gaming day --------------------------------------------------------------------


class CloseInput(serializers.Serializer):
    room = serializers.SlugField(required=False, help_text="Room code; needed when there are several rooms.")
    gaming_day = serializers.DateField(help_text="The gaming day to close (YYYY-MM-DD).")
    pin = serializers.CharField(help_text="The signed-in finance person's PIN: their signature.")


class CloseOutput(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.CharField()
    gaming_day = serializers.DateField()
    closed_by = serializers.CharField()
    closed_at = serializers.DateTimeField()


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
            return {
                "id": close.pk,
                "room": room.code,
                "gaming_day": close.gaming_day.isoformat(),
                "closed_by": person(GamingDayClose.objects.select_related("closed_by").get(pk=close.pk).closed_by),
                "closed_at": local(close.closed_at, room),
            }

        return document_post(request, input_class=CloseInput, create=create)
