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

from casino_backoffice.core.api_common import (
    IDEMPOTENCY_HEADER,
    PIN_CODES,
    ROLE_CODES,
    document_or_404,
    document_post,
    errors,
    money,
    person,
)
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from jackpots.bad_beat.models import (
    BadBeatClaim,
    BadBeatDistribution,
    BadBeatPayment,
    BadBeatShare,
    PayoutMethod,
    ShareName,
)
from jackpots.bad_beat.services.payouts import distribution_prepare, share_pay
from jackpots.funds.api import id_number_masked, pin_field
from jackpots.funds.models import PaymentPlace
from tables.api import local

# --- What a distribution, a share and a payment read as -------------------------------------------


class PaymentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    place = serializers.ChoiceField(
        choices=PaymentPlace.choices, help_text="table: delivered at the table; cage: paid at the cage."
    )
    patron_name = serializers.CharField(help_text="The patron paid: the name the claim gave for the seat.")
    id_type = serializers.CharField(help_text="The patron's identification: its type.")
    id_number = serializers.CharField(
        help_text="The patron's identification number, masked but for its last four characters ('•••••1234'); "
        "the whole number is in the back office's claim file."
    )
    tax_reportable = serializers.BooleanField()
    paid_by = serializers.CharField(help_text="Username of who paid and signed.")
    paid_at = serializers.DateTimeField()


class ShareOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="The share's id: pay it at /api/bad-beat/shares/{id}/pay/.")
    share = serializers.ChoiceField(choices=ShareName.choices)
    seat = serializers.IntegerField()
    name = serializers.CharField()
    amount = serializers.CharField(help_text='The share, as "12.34".')
    tax_reportable = serializers.BooleanField(
        help_text="At or above the tax reporting threshold: documented when it is paid."
    )
    payment = PaymentOutput(allow_null=True, help_text="null until the share is paid.")


class DistributionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    claim = serializers.IntegerField()
    total = serializers.CharField(help_text='The payout fixed at verification, as "12.34": the shares add up to it.')
    method = serializers.ChoiceField(choices=PayoutMethod.choices)
    leftover_rule = serializers.CharField(help_text="Where the odd cents went, in words.")
    prepared_by = serializers.CharField()
    prepared_at = serializers.DateTimeField()
    shares = ShareOutput(many=True, help_text="Losing hand, winning hand, then the table share by seat.")


def payment_data(payment: BadBeatPayment, *, claim: BadBeatClaim) -> dict[str, Any]:
    return {
        "id": payment.pk,
        "place": payment.place,
        "patron_name": payment.patron_name,
        "id_type": payment.id_type,
        "id_number": id_number_masked(payment.id_number),
        "tax_reportable": payment.tax_reportable,
        "paid_by": person(payment.paid_by),
        "paid_at": local(payment.paid_at, claim.room),
    }


def distribution_data(distribution: BadBeatDistribution, *, claim: BadBeatClaim) -> dict[str, Any]:
    """The distribution with its shares and their payments (prefetched by the caller when it lists)."""
    shares = []
    for share in distribution.shares.all():
        payment = getattr(share, "payment", None)
        shares.append(
            {
                "id": share.pk,
                "share": share.share,
                "seat": share.seat,
                "name": share.name,
                "amount": money(share.amount_cents),
                "tax_reportable": share.tax_reportable,
                "payment": None if payment is None else payment_data(payment, claim=claim),
            }
        )
    return {
        "id": distribution.pk,
        "claim": claim.pk,
        "total": money(distribution.total_cents),
        "method": distribution.method,
        "leftover_rule": distribution.leftover_rule,
        "prepared_by": person(distribution.prepared_by),
        "prepared_at": local(distribution.prepared_at, claim.room),
        "shares": shares,
    }


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
                e400=["jackpot", "segregation_of_duties", *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=[
                    "wrong_status",
                    "already_distributed",
                    "already_claimed",
                    "above_official_balance",
                    "idempotency_key_reused",
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
            return distribution_data(
                BadBeatDistribution.objects.select_related("claim__room", "prepared_by")
                .prefetch_related("shares__payment__paid_by")
                .get(pk=distribution.pk),
                claim=BadBeatClaim.objects.select_related("room").get(pk=claim.pk),
            )

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


class PaidShareOutput(PaymentOutput):
    share = serializers.IntegerField()
    claim = serializers.IntegerField()
    claim_status = serializers.CharField(help_text='"paid" once every share of the claim is paid.')
    share_name = serializers.ChoiceField(choices=ShareName.choices)
    seat = serializers.IntegerField()
    amount = serializers.CharField(help_text='What was paid, as "12.34".')


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
                e400=["id_required", "wrong_place", "segregation_of_duties", *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=["share_already_paid", "already_claimed", "above_official_balance", "idempotency_key_reused"],
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
            paid = BadBeatPayment.objects.select_related("share__distribution__claim__room", "paid_by").get(
                pk=payment.pk
            )
            claim = paid.share.distribution.claim
            return {
                **payment_data(paid, claim=claim),
                "share": paid.share_id,
                "claim": claim.pk,
                "claim_status": claim.status,
                "share_name": paid.share.share,
                "seat": paid.share.seat,
                "amount": money(paid.share.amount_cents),
            }

        return document_post(
            request,
            input_class=PayInput,
            create=create,
            answer_status=status.HTTP_200_OK,
        )
