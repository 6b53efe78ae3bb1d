"""``/api/rounds/{id}/void/``: a round already recorded, voided by a floorperson or above (§637a.18(i)),
its rake and drops returned to the pot by reversing transfers."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
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
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from tables.exceptions import TableErrorCode
from tables.irregularities.exceptions import IrregularityErrorCode
from tables.models import Round

from ..exceptions import RakeErrorCode
from ..services import round_void, void_returned


class RoundVoidInput(serializers.Serializer):
    reason = serializers.CharField(
        max_length=4000, help_text="What was found: the missing or extra cards (§637a.18(i)), in words."
    )
    pin = serializers.CharField(help_text="The signed-in floorperson's PIN: their signature.")


class RoundVoidReturnedOutput(serializers.Serializer):
    rake = CentsField(source="rake_cents", help_text="The round's rake, back out of the drop box.")
    drops = serializers.DictField(
        source="drops_cents", child=CentsField(), help_text='Each jackpot\'s drop back out of its box, {code: "1.00"}.'
    )


class RoundVoidOutput(serializers.Serializer):
    id = serializers.IntegerField(source="void.pk")
    round = serializers.IntegerField(source="void.round_id")
    irregularity = serializers.IntegerField(
        source="void.irregularity_id", help_text="The round's irregularity (missing_or_extra_cards), signed with it."
    )
    reason = serializers.CharField(source="void.reason")
    voided_by = serializers.CharField(source="void.voided_by.username")
    voided_at = RoomTimeField(source="void.voided_at", room="void.round.table.room")
    reversed = RoundVoidReturnedOutput(
        source="*", help_text="What the void returned to the pot, as the ledger moved it."
    )


class RoundVoidCreate(APIView):
    """A floorperson or above voids a round already recorded and signs (§637a.18(i): missing cards
    discovered or additional cards found): the round stays as logged, its irregularity is recorded, and
    its rake and each drop are reversed in the ledger. Refused for a round voided already or logged
    void, one whose hand stands as a jackpot's, one whose box was counted since (the money left the
    box: finance corrects the official record), or of a gaming day finance closed."""

    required_actions = {"POST": Action.ROUND_VOID}

    @extend_schema(
        request=RoundVoidInput,
        responses={
            201: RoundVoidOutput,
            **errors(
                e400=[RakeErrorCode.RAKE, IrregularityErrorCode.IRREGULARITY, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[CoreErrorCode.NOT_FOUND],
                e409=[
                    RakeErrorCode.ROUND_ALREADY_VOID,
                    RakeErrorCode.ROUND_HAS_JACKPOT_HAND,
                    RakeErrorCode.ROUND_BOX_COUNTED,
                    TableErrorCode.GAMING_DAY_CLOSED,
                    CoreErrorCode.IDEMPOTENCY_KEY_REUSED,
                ],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = document_or_404(Round.objects.select_related("table__room"), pk, "round", user=request.user)

        def void(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
            voided = round_void(
                round=round_, reason=values["reason"], actor=actor, pin=values["pin"], idempotency_key=idempotency_key
            )
            return dict(RoundVoidOutput(void_returned(voided)).data)

        return document_post(request, input_class=RoundVoidInput, create=void)
