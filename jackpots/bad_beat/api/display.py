"""The displayed amount of a Bad Beat fund, ``/api/display-adjustments/`` and its witness (§637a.15(h)),
and the transfer of a discontinued fund, ``/api/fund-transfers/`` and its approval (§637a.15(i)).

'(h) No less than once a day and immediately upon notification of a Bad Beat verification by the
Poker shift supervisor, a finance department employee shall: (1) In the presence of a floorperson or
above, adjust each Bad Beat payout amount displayed in the Poker area to reflect the current Bad Beat
payout amount. (2) Verify that the amount of any Bad Beat payout maintained by the finance department
corresponds to the amount being displayed to patrons.'
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api import CentsField, MoneyField, RoomTimeField
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
from jackpots.bad_beat.exceptions import BadBeatErrorCode
from jackpots.bad_beat.models import DisplayAdjustment, FundTransfer, FundTransferStatus
from jackpots.bad_beat.services.display import (
    display_adjust,
    display_witness,
    fund_transfer_approve,
    fund_transfer_prepare,
)
from jackpots.funds.api import jackpot_named, pin_field, room_field
from tables.api import room_required

# --- Display adjustments --------------------------------------------------------------------------


class AdjustmentInput(serializers.Serializer):
    jackpot = serializers.SlugField(max_length=30, help_text="The Bad Beat fund's code, such as bb.")
    room = room_field()
    pin = pin_field("finance employee")


# An adjustment read by ``adjustment_shown`` (no docstring: it would enter the schema).
class AdjustmentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.CharField(source="room.code")
    jackpot = serializers.CharField(source="jackpot.code")
    amount = CentsField(
        source="amount_cents",
        help_text='What the display shows once the witness signs, as "12.34": the finance record, the official '
        "balance less what verified claims owe.",
    )
    previous = CentsField(
        source="previous_cents", allow_null=True, help_text="What it showed before; null: never adjusted."
    )
    official = CentsField(source="official_cents", help_text="The fund's official balance at the adjustment.")
    owed = CentsField(source="owed_cents", help_text="What verified claims still owed from it.")
    gaming_day = serializers.DateField()
    adjusted_by = serializers.CharField(source="adjusted_by.username")
    adjusted_at = RoomTimeField()
    witnessed_by = serializers.CharField(
        source="witnessed_by.username",
        allow_null=True,
        help_text="The floorperson or above in whose presence it was adjusted.",
    )
    witnessed_at = RoomTimeField(
        allow_null=True, help_text="When the witness signed: the display shows the amount from then on; null: not yet."
    )
    claim = serializers.IntegerField(
        source="verification.claim_id",
        allow_null=True,
        help_text="The claim whose verification it answers, the earliest verified since the display's previous "
        "adjustment; null until witnessed, and for an adjustment of the day.",
    )
    seconds_from_verification = serializers.IntegerField(
        allow_null=True, help_text="Whole seconds from that verification to the adjustment taking effect."
    )


def adjustment_shown(pk: int) -> DisplayAdjustment:
    """An adjustment as ``AdjustmentOutput`` reads it."""
    return DisplayAdjustment.objects.select_related(
        "room", "jackpot", "adjusted_by", "witnessed_by", "verification"
    ).get(pk=pk)


def _adjustment(pk: int) -> dict[str, Any]:
    return dict(AdjustmentOutput(adjustment_shown(pk)).data)


def _display_adjust(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
    room = room_required(values.get("room"), user=actor)
    adjustment = display_adjust(
        jackpot=jackpot_named(values["jackpot"], room=room),
        actor=actor,
        pin=values["pin"],
        idempotency_key=idempotency_key,
    )
    return _adjustment(adjustment.pk)


class DisplayAdjustmentCreate(APIView):
    """A finance employee sets the displayed amount of a Bad Beat fund to the finance record and signs
    (§637a.15(h)(1)), at least once a gaming day and at once after a verification. It takes effect when
    the floorperson or above present signs as witness: until then the display, and its 'pending
    adjustment' notice, stay as they were; an earlier adjustment still awaiting its witness is
    superseded. A High Hand's display is not adjusted this way (400 ``display_refused``)."""

    required_actions = {"POST": Action.DISPLAY_ADJUST}

    @extend_schema(
        request=AdjustmentInput,
        responses={
            201: AdjustmentOutput,
            **errors(
                e400=[BadBeatErrorCode.DISPLAY_REFUSED, *PIN_CODES],
                e403=ROLE_CODES,
                e409=[CoreErrorCode.IDEMPOTENCY_KEY_REUSED],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request) -> Response:
        return document_post(request, input_class=AdjustmentInput, create=_display_adjust)


class AdjustmentWitnessInput(serializers.Serializer):
    pin = pin_field("floorperson or above")


class DisplayAdjustmentWitness(APIView):
    """The floorperson or above in whose presence the display was adjusted signs as witness
    (§637a.15(h)(1)); never the finance employee who adjusted it. The adjustment takes effect now and
    the time from the verification it answers is recorded. Witnessed once (409 ``already_witnessed``);
    an adjustment finance set again since never takes effect (409 ``display_superseded``)."""

    required_actions = {"POST": Action.DISPLAY_WITNESS}

    @extend_schema(
        request=AdjustmentWitnessInput,
        responses={
            200: AdjustmentOutput,
            **errors(
                e400=[StaffErrorCode.SEGREGATION_OF_DUTIES, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=[BadBeatErrorCode.ALREADY_WITNESSED, BadBeatErrorCode.DISPLAY_SUPERSEDED],
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        adjustment = document_or_404(DisplayAdjustment.objects.all(), pk, "display adjustment", user=request.user)
        values = valid(AdjustmentWitnessInput, request.data)
        display_witness(adjustment=adjustment, actor=acting_user(request), pin=values["pin"])
        return Response(_adjustment(pk))


# --- The transfer of a discontinued fund (§637a.15(i)) --------------------------------------------


class TransferInput(serializers.Serializer):
    # A field named like ``Field.source``: DRF's metaclass takes declared fields off the class.
    source = serializers.SlugField(max_length=30, help_text="The discontinued Bad Beat fund's code.")  # type: ignore[assignment]
    destination = serializers.SlugField(max_length=30, help_text="The Bad Beat fund that receives its money.")
    room = room_field()
    amount = MoneyField(help_text='What moves, as "12.34": at most the source\'s official balance less what it owes.')
    reason = serializers.CharField(
        max_length=2000, help_text="The approved discontinuation procedure the transfer follows."
    )
    pin = pin_field("finance employee")


# A transfer read by ``transfer_shown`` (no docstring: it would enter the schema).
class TransferOutput(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.CharField(source="source.room.code")
    source = serializers.CharField(source="source.code")  # type: ignore[assignment]
    destination = serializers.CharField(source="destination.code")
    amount = CentsField(source="amount_cents")
    reason = serializers.CharField()
    status = serializers.ChoiceField(
        choices=FundTransferStatus.choices, help_text="prepared: nothing moved yet; approved: the money moved."
    )
    prepared_by = serializers.CharField(source="prepared_by.username")
    prepared_at = RoomTimeField(room="source.room")
    approved_by = serializers.CharField(source="approved_by.username", allow_null=True)
    approved_at = RoomTimeField(room="source.room", allow_null=True)


def transfer_shown(pk: int) -> FundTransfer:
    """A transfer as ``TransferOutput`` reads it."""
    return FundTransfer.objects.select_related("source__room", "destination", "prepared_by", "approved_by").get(pk=pk)


def _transfer(pk: int) -> dict[str, Any]:
    return dict(TransferOutput(transfer_shown(pk)).data)


def _transfer_prepare(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
    room = room_required(values.get("room"), user=actor)
    transfer = fund_transfer_prepare(
        source=jackpot_named(values["source"], room=room, field="source"),
        destination=jackpot_named(values["destination"], room=room, field="destination"),
        amount_cents=values["amount"],
        reason=values["reason"],
        actor=actor,
        pin=values["pin"],
        idempotency_key=idempotency_key,
    )
    return _transfer(transfer.pk)


class FundTransferCreate(APIView):
    """Finance prepares the transfer of a discontinued Bad Beat fund's money to another Bad Beat fund
    offered at a table and signs (§637a.15(i)); nothing moves until another person approves it. Refused
    for a High Hand fund, a fund still collecting, or more than the source holds less what it owes."""

    required_actions = {"POST": Action.FUND_TRANSFER_PREPARE}

    @extend_schema(
        request=TransferInput,
        responses={
            201: TransferOutput,
            **errors(
                e400=[BadBeatErrorCode.FUND_TRANSFER_REFUSED, *PIN_CODES],
                e403=ROLE_CODES,
                e409=[BadBeatErrorCode.ABOVE_OFFICIAL_BALANCE, CoreErrorCode.IDEMPOTENCY_KEY_REUSED],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request) -> Response:
        return document_post(request, input_class=TransferInput, create=_transfer_prepare)


class ApproveInput(serializers.Serializer):
    pin = pin_field("approver")


class FundTransferApprove(APIView):
    """Another finance employee or an administrator approves a prepared transfer and signs; the ledger
    transfer from fund to fund is posted then (§637a.15(i)). Approved once (409 ``already_approved``)."""

    required_actions = {"POST": Action.FUND_TRANSFER_APPROVE}

    @extend_schema(
        request=ApproveInput,
        responses={
            200: TransferOutput,
            **errors(
                e400=[BadBeatErrorCode.FUND_TRANSFER_REFUSED, StaffErrorCode.SEGREGATION_OF_DUTIES, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=[BadBeatErrorCode.ALREADY_APPROVED, BadBeatErrorCode.ABOVE_OFFICIAL_BALANCE],
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        transfer = document_or_404(FundTransfer.objects.all(), pk, "fund transfer", user=request.user)
        values = valid(ApproveInput, request.data)
        fund_transfer_approve(transfer=transfer, actor=acting_user(request), pin=values["pin"])
        return Response(_transfer(pk))
