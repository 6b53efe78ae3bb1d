"""A winning hand, ``/api/progressive/hands/``, its validation, its payment through the cage, and the
explanation of a wager count exception (§655a.12, §657a.12). A round's hands are recorded from the
highest seat down, as the dealer pays them (§655a.11(i), §657a.11(c))."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api import CentsField, RoomTimeField, WholeNumberField
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
from jackpots.funds.api import id_field, pin_field
from jackpots.funds.reports import id_number_masked
from jackpots.progressive.api.rounds import (
    ProgressiveHandOutput,
    ProgressiveRoundOutput,
    hands_read,
    round_shown,
)
from jackpots.progressive.exceptions import ProgressiveErrorCode
from jackpots.progressive.models import (
    ProgressiveHand,
    ProgressivePayment,
    ProgressiveRound,
    WagerCountException,
)
from jackpots.progressive.services.hands import progressive_hand_record, progressive_pay, progressive_validate
from jackpots.progressive.services.rounds import wager_count_explain
from tables.selectors import visible_to

_MAX_SEAT = 32767

HAND_CODES = (
    ProgressiveErrorCode.NO_PAYOUT,
    ProgressiveErrorCode.LIGHT_NOT_CONFIRMED,
    ProgressiveErrorCode.OUT_OF_ORDER,
    ProgressiveErrorCode.CARDS_INVALID,
    ProgressiveErrorCode.INVALID,
)

# --- Hands ----------------------------------------------------------------------------------------


class ProgressiveHandInput(serializers.Serializer):
    round = id_field(help_text="The progressive round.")
    seat = WholeNumberField(min_value=1, max_value=_MAX_SEAT)
    cards = serializers.CharField(
        max_length=30, help_text="The player's cards: two at Mississippi Stud, five at Crazy 4 Poker."
    )
    community_cards = serializers.CharField(
        max_length=20,
        required=False,
        allow_blank=True,
        help_text="Mississippi Stud's three community cards, when the round did not record them.",
    )
    folded = serializers.BooleanField(default=False, help_text="The player folded: no payout, Envy Bonuses kept.")
    light_confirmed = serializers.BooleanField(
        default=False, help_text="The dealer saw the progressive system's light for this seat (§655a.11(i)(4)(i)(B))."
    )


def _hand_record(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
    round_ = visible_to(actor, ProgressiveRound.objects.filter(pk=values["round"])).first()
    if round_ is None:
        raise ValidationError({"round": [f"There is no progressive round {values['round']}."]})
    hand = progressive_hand_record(
        round=round_,
        seat=values["seat"],
        cards=values["cards"],
        community_cards=values.get("community_cards", ""),
        folded=values["folded"],
        light_confirmed=values["light_confirmed"],
        actor=actor,
        idempotency_key=idempotency_key,
    )
    return dict(ProgressiveHandOutput(hands_read().get(pk=hand.pk)).data)


class HandCreate(APIView):
    """The dealer records a hand that wins a progressive payout or is an Envy Bonus Qualifying Hand
    (§655a.11(i)(4)(i)(A)-(B), §657a.11(e)(1)-(2)): the evaluator names the hand and the line; a share of
    the meter is the meter at this player's turn; the other wagering players receive their Envy Bonuses
    by their wager size. 409 ``meter_pending`` while the meter waits for its reset, ``already_recorded``
    for a seat recorded; 400 ``out_of_order`` for a seat paid after one recorded."""

    required_actions = {"POST": Action.PROGRESSIVE_HAND_RECORD}

    @extend_schema(
        request=ProgressiveHandInput,
        responses={
            201: ProgressiveHandOutput,
            **errors(
                e400=HAND_CODES,
                e403=ROLE_CODES,
                e409=[
                    ProgressiveErrorCode.ALREADY_RECORDED,
                    ProgressiveErrorCode.METER_PENDING,
                    ProgressiveErrorCode.ROUND_VOIDED,
                    CoreErrorCode.IDEMPOTENCY_KEY_REUSED,
                ],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request) -> Response:
        return document_post(request, input_class=ProgressiveHandInput, create=_hand_record)


class ProgressiveValidateInput(serializers.Serializer):
    pin = pin_field("floorperson or above")


class HandValidate(APIView):
    """A floorperson or above validates a progressive payout and signs (§655a.11(i)(4)(i)(C),
    §657a.11(e)(3)); not who recorded it (400 ``same_person``); once (409 ``already_validated``). What is
    paid at the table is paid with it."""

    required_actions = {"POST": Action.PROGRESSIVE_VALIDATE}

    @extend_schema(
        request=ProgressiveValidateInput,
        responses={
            200: ProgressiveHandOutput,
            **errors(
                e400=[ProgressiveErrorCode.SAME_PERSON, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=[ProgressiveErrorCode.ALREADY_VALIDATED],
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        hand = document_or_404(ProgressiveHand.objects.all(), pk, "progressive hand", user=request.user)
        values = valid(ProgressiveValidateInput, request.data)
        progressive_validate(hand=hand, actor=acting_user(request), pin=values["pin"])
        return Response(ProgressiveHandOutput(hands_read().get(pk=pk)).data)


class ProgressivePayInput(serializers.Serializer):
    patron_name = serializers.CharField(max_length=120)
    id_type = serializers.CharField(max_length=60)
    id_number = serializers.CharField(max_length=60)
    pin = pin_field("cage cashier")


class IdNumberMaskedField(serializers.CharField):
    """A patron's ID number answered masked but for its last four characters."""

    def to_representation(self, value: str) -> str:
        return id_number_masked(value)


# The answer for a payment at the cage, read from the payment (no docstring: it would enter the schema).
class ProgressivePaymentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    hand = serializers.IntegerField(source="hand_id")
    amount = CentsField(source="hand.amount_cents")
    patron_name = serializers.CharField()
    id_type = serializers.CharField()
    id_number = IdNumberMaskedField(help_text="Masked but for its last four characters.")
    paid_by = serializers.CharField(source="paid_by.username")
    paid_at = RoomTimeField(room="hand.round.table.room")


class HandPay(APIView):
    """A cage cashier pays a validated progressive payout that may not be paid from the table inventory
    (§655a.11(i)(4)(i)(D), §657a.11(e)(4)), against the patron's identification, and signs. Once: 409
    ``already_paid``; the same request retried with its key answers the first payment."""

    required_actions = {"POST": Action.PROGRESSIVE_PAY}

    @extend_schema(
        request=ProgressivePayInput,
        responses={
            200: ProgressivePaymentOutput,
            **errors(
                e400=[
                    ProgressiveErrorCode.NOT_AT_CAGE,
                    ProgressiveErrorCode.NOT_VALIDATED,
                    ProgressiveErrorCode.ID_REQUIRED,
                    StaffErrorCode.SEGREGATION_OF_DUTIES,
                    *PIN_CODES,
                ],
                e403=ROLE_CODES,
                e404=[],
                e409=[ProgressiveErrorCode.ALREADY_PAID, CoreErrorCode.IDEMPOTENCY_KEY_REUSED],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request, pk: int) -> Response:
        hand = document_or_404(ProgressiveHand.objects.all(), pk, "progressive hand", user=request.user)

        def create(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
            payment = progressive_pay(
                hand=hand,
                patron_name=values["patron_name"],
                id_type=values["id_type"],
                id_number=values["id_number"],
                actor=actor,
                pin=values["pin"],
                idempotency_key=idempotency_key,
            )
            payment = ProgressivePayment.objects.select_related("hand__round__table__room", "paid_by").get(
                pk=payment.pk
            )
            return dict(ProgressivePaymentOutput(payment).data)

        return document_post(
            request,
            input_class=ProgressivePayInput,
            create=create,
            answer_status=status.HTTP_200_OK,
        )


class ProgressiveExplainInput(serializers.Serializer):
    explanation = serializers.CharField(max_length=2000)
    pin = pin_field("supervisor")


class ExceptionExplain(APIView):
    """A supervisor explains a wager count exception and signs; once (409 ``already_explained``)."""

    required_actions = {"POST": Action.PROGRESSIVE_EXPLAIN}

    @extend_schema(
        request=ProgressiveExplainInput,
        responses={
            200: ProgressiveRoundOutput,
            **errors(
                e400=[ProgressiveErrorCode.REASON_REQUIRED, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=[ProgressiveErrorCode.ALREADY_EXPLAINED],
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        exception = document_or_404(WagerCountException.objects.all(), pk, "wager count exception", user=request.user)
        values = valid(ProgressiveExplainInput, request.data)
        wager_count_explain(
            exception=exception, explanation=values["explanation"], actor=acting_user(request), pin=values["pin"]
        )
        return Response(ProgressiveRoundOutput(round_shown(exception.round_id)).data)
