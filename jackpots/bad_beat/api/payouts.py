"""The payout of a verified Bad Beat: finance's distribution ``/api/bad-beat/claims/{id}/distribution/``
and the payment of each share ``/api/bad-beat/shares/{id}/pay/`` (§637a.15(f)(2), (g)).

'(g) The finance department shall prepare a Bad Beat payout distribution in cash or a recognized cash
equivalent ... a certificate holder may elect to pay a Bad Beat payout at the main cage or satellite
cage.' Each share is paid once, by one ledger transfer from the fund; a second payment is a 409.
"""

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
)
from casino_backoffice.core.exceptions import CoreErrorCode
from casino_backoffice.staff.exceptions import StaffErrorCode
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from jackpots.bad_beat.exceptions import BadBeatErrorCode
from jackpots.bad_beat.models import (
    BadBeatClaim,
    BadBeatDistribution,
    BadBeatPayment,
    BadBeatShare,
    PayoutMethod,
    ShareName,
)
from jackpots.bad_beat.services.payouts import distribution_prepare, share_pay
from jackpots.funds.api import pin_field
from jackpots.funds.exceptions import FundsErrorCode
from jackpots.funds.models import PaymentPlace
from jackpots.funds.reports import id_number_masked

# --- What a distribution, a share and a payment read as -------------------------------------------


class MaskedIdField(serializers.CharField):
    """A patron's identification number as the API shows it (``id_number_masked``)."""

    def to_representation(self, value: str) -> str:
        return id_number_masked(value)


class PaymentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    place = serializers.ChoiceField(
        choices=PaymentPlace.choices, help_text="table: delivered at the table; cage: paid at the cage."
    )
    patron_name = serializers.CharField(help_text="The patron paid: the name the claim gave for the seat.")
    id_type = serializers.CharField(help_text="The patron's identification: its type.")
    id_number = MaskedIdField(
        help_text="The patron's identification number, masked but for its last four characters ('•••••1234'); "
        "the whole number is in the back office's claim file."
    )
    tax_reportable = serializers.BooleanField()
    paid_by = serializers.CharField(source="paid_by.username", help_text="Username of who paid and signed.")
    paid_at = RoomTimeField(room="share.distribution.claim.room")


class ShareOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="The share's id: pay it at /api/bad-beat/shares/{id}/pay/.")
    share = serializers.ChoiceField(choices=ShareName.choices)
    seat = serializers.IntegerField()
    name = serializers.CharField()
    amount = CentsField(source="amount_cents", help_text='The share, as "12.34".')
    tax_reportable = serializers.BooleanField(
        help_text="At or above the tax reporting threshold: documented when it is paid."
    )
    payment = PaymentOutput(allow_null=True, help_text="null until the share is paid.")


# A distribution with its shares and their payments, read with them (``claims_queryset``,
# ``distribution_shown``): each share and payment reads the claim's room through them.
class DistributionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    claim = serializers.IntegerField(source="claim_id")
    total = CentsField(
        source="total_cents", help_text='The payout fixed at verification, as "12.34": the shares add up to it.'
    )
    method = serializers.ChoiceField(choices=PayoutMethod.choices)
    leftover_rule = serializers.CharField(help_text="Where the odd cents went, in words.")
    prepared_by = serializers.CharField(source="prepared_by.username")
    prepared_at = RoomTimeField(room="claim.room")
    shares = ShareOutput(many=True, help_text="Losing hand, winning hand, then the table share by seat.")


def distribution_shown(pk: int) -> BadBeatDistribution:
    """A distribution as ``DistributionOutput`` reads it."""
    return (
        BadBeatDistribution.objects.select_related("claim__room", "prepared_by")
        .prefetch_related("shares__payment__paid_by")
        .get(pk=pk)
    )


def payment_shown(pk: int) -> BadBeatPayment:
    """A payment as ``PaidShareOutput`` reads it: its share, distribution, claim and room with it."""
    return BadBeatPayment.objects.select_related("share__distribution__claim__room", "paid_by").get(pk=pk)


# --- The distribution -----------------------------------------------------------------------------


class DistributionInput(serializers.Serializer):
    method = serializers.ChoiceField(
        choices=PayoutMethod.choices,
        required=False,
        default=PayoutMethod.CASH,
        help_text="cash (default) or cash_equivalent (§637a.15(g)).",
    )
    pin = pin_field("finance employee")


class DistributionCreate(APIView):
    """Finance prepares the distribution of a verified claim's payout and signs (§637a.15(g)): the payout
    fixed at verification, split by the posted shares to the cent. Refused for a claim not verified (409
    ``wrong_status``), a claim distributed already (409 ``already_distributed``), a claim of a hand that
    another claim stands before (409 ``already_claimed``: recorded before a hand could be claimed once),
    and above the fund's official balance less what other verified claims owe (409
    ``above_official_balance``)."""

    required_actions = {"POST": Action.BAD_BEAT_DISTRIBUTE}

    @extend_schema(
        request=DistributionInput,
        responses={
            201: DistributionOutput,
            **errors(
                e400=[FundsErrorCode.JACKPOT, StaffErrorCode.SEGREGATION_OF_DUTIES, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=[
                    BadBeatErrorCode.WRONG_STATUS,
                    BadBeatErrorCode.ALREADY_DISTRIBUTED,
                    BadBeatErrorCode.ALREADY_CLAIMED,
                    BadBeatErrorCode.ABOVE_OFFICIAL_BALANCE,
                    CoreErrorCode.IDEMPOTENCY_KEY_REUSED,
                ],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request, pk: int) -> Response:
        claim = document_or_404(BadBeatClaim.objects.all(), pk, "Bad Beat claim", user=request.user)

        def create(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
            distribution = distribution_prepare(
                claim=claim, actor=actor, pin=values["pin"], idempotency_key=idempotency_key, method=values["method"]
            )
            return dict(DistributionOutput(distribution_shown(distribution.pk)).data)

        return document_post(request, input_class=DistributionInput, create=create)


# --- The payment of a share -----------------------------------------------------------------------


class PayInput(serializers.Serializer):
    id_type = serializers.CharField(max_length=60, help_text="The patron's identification: its type (license ...).")
    id_number = serializers.CharField(max_length=60, help_text="The patron's identification: its number.")
    place = serializers.ChoiceField(
        choices=PaymentPlace.choices,
        required=False,
        help_text="table or cage; by default where the payer's role pays (security: table, cage cashier: cage; "
        "finance: table).",
    )
    pin = pin_field("payer")


# A payment read by ``payment_shown``, with its share and the claim as it stands after it.
class PaidShareOutput(PaymentOutput):
    share = serializers.IntegerField(source="share_id")
    claim = serializers.IntegerField(source="share.distribution.claim_id")
    claim_status = serializers.CharField(
        source="share.distribution.claim.status", help_text='"paid" once every share of the claim is paid.'
    )
    share_name = serializers.ChoiceField(source="share.share", choices=ShareName.choices)
    seat = serializers.IntegerField(source="share.seat")
    amount = CentsField(source="share.amount_cents", help_text='What was paid, as "12.34".')


class SharePay(APIView):
    """Security (at the table, §637a.15(f)(2)), a cage cashier (at the cage, §637a.15(g)) or finance
    pays one share to its patron, records the patron's identification and signs: one ledger transfer
    from the fund. A share is paid once: another payment is a 409 ``share_already_paid``; the same
    request retried with its Idempotency-Key answers the first payment (``Idempotent-Replayed: true``).
    A share of a claim of a hand that another claim stands before is not paid (409 ``already_claimed``)."""

    required_actions = {"POST": Action.BAD_BEAT_PAY}

    @extend_schema(
        request=PayInput,
        responses={
            200: PaidShareOutput,
            **errors(
                e400=[
                    BadBeatErrorCode.ID_REQUIRED,
                    BadBeatErrorCode.WRONG_PLACE,
                    StaffErrorCode.SEGREGATION_OF_DUTIES,
                    *PIN_CODES,
                ],
                e403=ROLE_CODES,
                e404=[],
                e409=[
                    BadBeatErrorCode.SHARE_ALREADY_PAID,
                    BadBeatErrorCode.ALREADY_CLAIMED,
                    BadBeatErrorCode.ABOVE_OFFICIAL_BALANCE,
                    CoreErrorCode.IDEMPOTENCY_KEY_REUSED,
                ],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request, pk: int) -> Response:
        share = document_or_404(BadBeatShare.objects.select_related("distribution"), pk, "share", user=request.user)

        def create(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
            payment = share_pay(
                share=share,
                id_type=values["id_type"],
                id_number=values["id_number"],
                actor=actor,
                pin=values["pin"],
                idempotency_key=idempotency_key,
                place=values.get("place"),
            )
            return dict(PaidShareOutput(payment_shown(payment.pk)).data)

        return document_post(
            request,
            input_class=PayInput,
            create=create,
            answer_status=status.HTTP_200_OK,
        )
