"""An award paid at the cage, ``/api/high-hand/awards/{id}/pay/``, and finance's approval of where an
uncollected award goes, ``/api/high-hand/unclaimed/{id}/approve/`` (§637a.16(g), (i))."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api_common import (
    IDEMPOTENCY_HEADER,
    PIN_CODES,
    ROLE_CODES,
    document_or_404,
    document_post,
    errors,
    money,
    person,
    valid,
)
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from jackpots.funds.api import (
    id_number_masked,
    pin_field,
)
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandAwardPayment,
    HighHandUnclaimed,
)
from jackpots.high_hand.services.awards import award_pay, unclaimed_approve
from tables.api import local

# --- The award paid at the cage -------------------------------------------------------------------


class AwardPayInput(serializers.Serializer):
    id_type = serializers.CharField(
        max_length=60, help_text="The identification presented: the one recorded with the hand (§637a.16(b)(7))."
    )
    id_number = serializers.CharField(max_length=60)
    pin = pin_field("cage cashier")


class AwardPaymentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    award = serializers.IntegerField()
    period = serializers.IntegerField()
    amount = serializers.CharField(help_text='What was paid, as "12.34".')
    player_name = serializers.CharField()
    id_type = serializers.CharField()
    id_number = serializers.CharField(help_text="Masked but for its last four characters ('•••••1234').")
    paid_by = serializers.CharField()
    paid_at = serializers.DateTimeField()


def _payment_data(pk: int) -> dict[str, Any]:
    payment = HighHandAwardPayment.objects.select_related("award__entry", "award__period__room", "paid_by").get(pk=pk)
    award = payment.award
    return {
        "id": payment.pk,
        "award": award.pk,
        "period": award.period_id,
        "amount": money(award.amount_cents),
        "player_name": award.entry.player_name,
        "id_type": payment.id_type,
        "id_number": id_number_masked(payment.id_number),
        "paid_by": person(payment.paid_by),
        "paid_at": local(payment.paid_at, award.period.room),
    }


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
                e400=["id_mismatch", "segregation_of_duties", *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=["award_already_paid", "award_expired", "idempotency_key_reused"],
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
            return _payment_data(payment.pk)

        return document_post(
            request,
            input_class=AwardPayInput,
            create=create,
            answer_status=status.HTTP_200_OK,
        )


# --- An uncollected award -------------------------------------------------------------------------


class UnclaimedApproveInput(serializers.Serializer):
    pin = pin_field("finance employee")


class UnclaimedOutput(serializers.Serializer):
    id = serializers.IntegerField()
    award = serializers.IntegerField()
    amount = serializers.CharField()
    destination = serializers.CharField(help_text="Where the posted rules send it: next_period or fund.")
    prepared_at = serializers.DateTimeField()
    approved_by = serializers.CharField(allow_null=True)
    approved_at = serializers.DateTimeField(allow_null=True)
    into_period = serializers.IntegerField(allow_null=True, help_text="The period whose pool it joined.")


class UnclaimedApprove(APIView):
    """Finance approves and signs the transfer of an award not collected in time (§637a.16(i)): its money
    goes back to the fund, into the pool of the fund's next period not yet announced. Approved once (409
    ``already_approved``); with no such period yet, a 409 ``no_period`` (try again when one opens)."""

    required_actions = {"POST": Action.HIGH_HAND_UNCLAIMED_APPROVE}

    @extend_schema(
        request=UnclaimedApproveInput,
        responses={
            200: UnclaimedOutput,
            **errors(e400=PIN_CODES, e403=ROLE_CODES, e404=[], e409=["already_approved", "no_period"]),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        unclaimed = document_or_404(
            HighHandUnclaimed.objects.all(), pk, "uncollected High Hand award", user=request.user
        )
        values = valid(UnclaimedApproveInput, request.data)
        unclaimed_approve(unclaimed=unclaimed, actor=acting_user(request), pin=values["pin"])
        done = HighHandUnclaimed.objects.select_related("award__period__room", "approved_by").get(pk=pk)
        room = done.award.period.room
        return Response(
            {
                "id": done.pk,
                "award": done.award_id,
                "amount": money(done.award.amount_cents),
                "destination": done.destination,
                "prepared_at": local(done.prepared_at, room),
                "approved_by": person(done.approved_by),
                "approved_at": local(done.approved_at, room),
                "into_period": done.into_period_id,
            }
        )
