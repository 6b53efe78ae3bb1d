"""An award paid at the cage, ``/api/high-hand/awards/{id}/pay/``, and finance's approval of where an
uncollected award goes, ``/api/high-hand/unclaimed/{id}/approve/`` (§637a.16(g), (i))."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

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
from jackpots.funds.api import pin_field
from jackpots.funds.reports import id_number_masked
from jackpots.high_hand.exceptions import HighHandErrorCode
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandAwardPayment,
    HighHandUnclaimed,
)
from jackpots.high_hand.services.awards import award_pay, unclaimed_approve

# --- The award paid at the cage -------------------------------------------------------------------


class AwardPayInput(serializers.Serializer):
    id_type = serializers.CharField(
        max_length=60, help_text="The identification presented: the one recorded with the hand (§637a.16(b)(7))."
    )
    id_number = serializers.CharField(max_length=60)
    pin = pin_field("cage cashier")


class _MaskedIdNumberField(serializers.CharField):
    """A patron's ID number as the API shows it (``id_number_masked``): its last four characters."""

    def to_representation(self, value: str) -> str:
        return id_number_masked(value)


# The answer for a payment, read from a ``HighHandAwardPayment`` (its award, entry, period and room read with it).
class AwardPaymentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    award = serializers.IntegerField(source="award_id")
    period = serializers.IntegerField(source="award.period_id")
    amount = CentsField(source="award.amount_cents", help_text='What was paid, as "12.34".')
    player_name = serializers.CharField(source="award.entry.player_name")
    id_type = serializers.CharField()
    id_number = _MaskedIdNumberField(help_text="Masked but for its last four characters ('•••••1234').")
    paid_by = serializers.CharField(source="paid_by.username")
    paid_at = RoomTimeField(room="award.period.room")


def _payments():
    return HighHandAwardPayment.objects.select_related("award__entry", "award__period__room", "paid_by")


class AwardPay(APIView):
    """A cage cashier pays a High Hand award to its winner against the identification recorded with the
    hand, and signs (§637a.16(h): 'paid from the main cage or satellite cage'): one ledger transfer from
    the awards to collect. Paid once: another payment is a 409 ``award_already_paid``; the same request
    retried with its Idempotency-Key answers the first payment (``Idempotent-Replayed: true``). Another
    identification is a 400 ``id_mismatch``; an award gone where the rules send uncollected ones a 409
    ``award_expired``."""

    required_actions = {"POST": Action.HIGH_HAND_PAY}

    @extend_schema(
        request=AwardPayInput,
        responses={
            200: AwardPaymentOutput,
            **errors(
                e400=[HighHandErrorCode.ID_MISMATCH, StaffErrorCode.SEGREGATION_OF_DUTIES, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=[
                    HighHandErrorCode.AWARD_ALREADY_PAID,
                    HighHandErrorCode.AWARD_EXPIRED,
                    CoreErrorCode.IDEMPOTENCY_KEY_REUSED,
                ],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request, pk: int) -> Response:
        award = document_or_404(HighHandAward.objects.all(), pk, "High Hand award", user=request.user)

        def create(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
            payment = award_pay(
                award=award,
                id_type=values["id_type"],
                id_number=values["id_number"],
                actor=actor,
                pin=values["pin"],
                idempotency_key=idempotency_key,
            )
            return dict(AwardPaymentOutput(_payments().get(pk=payment.pk)).data)

        return document_post(
            request,
            input_class=AwardPayInput,
            create=create,
            answer_status=status.HTTP_200_OK,
        )


# --- An uncollected award -------------------------------------------------------------------------


class UnclaimedApproveInput(serializers.Serializer):
    pin = pin_field("finance employee")


# The answer for an uncollected award, read from a ``HighHandUnclaimed`` (its award, period, room and signer
# read with it).
class UnclaimedOutput(serializers.Serializer):
    id = serializers.IntegerField()
    award = serializers.IntegerField(source="award_id")
    amount = CentsField(source="award.amount_cents")
    destination = serializers.CharField(help_text="Where the posted rules send it: next_period or fund.")
    prepared_at = RoomTimeField(room="award.period.room")
    approved_by = serializers.CharField(source="approved_by.username", allow_null=True)
    approved_at = RoomTimeField(room="award.period.room", allow_null=True)
    into_period = serializers.IntegerField(
        source="into_period_id", allow_null=True, help_text="The period whose pool it joined."
    )


class UnclaimedApprove(APIView):
    """Finance approves and signs the transfer of an award not collected in time (§637a.16(i)): its money
    goes back to the fund, into the pool of the fund's next period not yet announced. Approved once (409
    ``already_approved``); with no such period yet, a 409 ``no_period`` (try again when one opens)."""

    required_actions = {"POST": Action.HIGH_HAND_UNCLAIMED_APPROVE}

    @extend_schema(
        request=UnclaimedApproveInput,
        responses={
            200: UnclaimedOutput,
            **errors(
                e400=PIN_CODES,
                e403=ROLE_CODES,
                e404=[],
                e409=[HighHandErrorCode.ALREADY_APPROVED, HighHandErrorCode.NO_PERIOD],
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        unclaimed = document_or_404(
            HighHandUnclaimed.objects.all(), pk, "uncollected High Hand award", user=request.user
        )
        values = valid(UnclaimedApproveInput, request.data)
        unclaimed_approve(unclaimed=unclaimed, actor=acting_user(request), pin=values["pin"])
        done = HighHandUnclaimed.objects.select_related("award__period__room", "approved_by").get(pk=pk)
        return Response(UnclaimedOutput(done).data)
