"""Bad Beat claims: ``/api/bad-beat/claims/``, each claim, its verification and its denial (§637a.15(f)).

'The Poker shift supervisor shall verify each Bad Beat Poker hand prior to awarding the Bad Beat
payout.' A floorperson or above records the claim at the table, with the cards as text ("Ah Kd"); the
evaluator's verdict is recorded with it, qualifying or not (a claim that does not qualify is a 201 with
``qualifies: false``, kept as evidence and never verified). Serializers check shape; the services parse
the cards and check every rule.
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

from casino_backoffice.core.api import CentsField, MoneyField, RoomTimeField, WholeNumberField
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
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.exceptions import StaffErrorCode
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from jackpots.bad_beat.api.payouts import DistributionOutput
from jackpots.bad_beat.exceptions import BadBeatErrorCode
from jackpots.bad_beat.hand_rounds import hand_round_of_claim
from jackpots.bad_beat.models import BadBeatClaim, BadBeatDecision, ClaimStatus, DecisionOutcome
from jackpots.bad_beat.services.claims import SeatedHand, SeatedPlayer, claim_deny, claim_open, claim_verify
from jackpots.funds.api import id_field, jackpot_named, pin_field, room_field, round_named, table_named
from jackpots.funds.models import Jackpot
from tables.api import room_named, room_required
from tables.selectors import visible_to

# Seats and counts of players are small numbers (the table's seats); anything larger is a 400 here.
_MAX_SEAT = 32767

# --- What a claim reads as ------------------------------------------------------------------------


class HandOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    hole = serializers.CharField(help_text='The hole cards, as "As Ks".')

    def __init__(self, *, side: str, **kwargs: Any) -> None:
        self.side = side  # "losing" or "winning": the claim's columns it reads
        super().__init__(source="*", **kwargs)

    def get_attribute(self, instance: BadBeatClaim) -> SeatedHand:
        side = self.side
        return SeatedHand(
            seat=getattr(instance, f"{side}_seat"),
            name=getattr(instance, f"{side}_name"),
            hole=getattr(instance, f"{side}_hole"),
        )


class PlayerOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()


class VerifiedCentsField(CentsField):
    """An amount of a decision, answered for a verification only: null for a denial."""

    def get_attribute(self, instance: BadBeatDecision) -> int | None:
        return super().get_attribute(instance) if instance.outcome == DecisionOutcome.VERIFIED else None


class HandRoundField(serializers.IntegerField):
    """The id of a claim's round (``hand_round_of_claim``): null when no round agrees with it yet."""

    def get_attribute(self, instance: BadBeatClaim) -> int | None:
        return hand_round_of_claim(instance)


class DecisionOutput(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=DecisionOutcome.choices)
    reason = serializers.CharField(help_text="Why the claim was denied (empty for a verification).")
    official = VerifiedCentsField(
        source="official_cents",
        allow_null=True,
        help_text="Verified: the fund's official balance at the verification.",
    )
    owed = VerifiedCentsField(
        source="owed_cents", allow_null=True, help_text="Verified: what earlier verified claims still owed."
    )
    available = VerifiedCentsField(source="available_cents", allow_null=True, help_text="Verified: official less owed.")
    reserve = VerifiedCentsField(
        source="reserve_cents", allow_null=True, help_text="Verified: kept back for the next jackpot."
    )
    payout = VerifiedCentsField(
        source="payout_cents",
        allow_null=True,
        help_text="Verified: the payout fixed now, the hand's part of the rest (null when denied).",
    )
    decided_by = serializers.CharField(source="decided_by.username")
    decided_at = RoomTimeField(room="claim.room")


# The answer for a claim, read from a claim of ``claims_queryset()`` (no docstring: it would enter the schema).
class ClaimOutput(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=ClaimStatus.choices,
        help_text="claimed -> verified or denied; verified -> distributed -> paid (every share paid).",
    )
    qualifies = serializers.BooleanField(help_text="The evaluator's verdict on the posted qualifier (§637a.15(b)(3)).")
    reasons = serializers.ListField(child=serializers.CharField(), help_text="The verdict, in words.")
    losing_hand = serializers.CharField(help_text="The losing hand in words, such as 'Aces full of Kings'.")
    winning_hand = serializers.CharField(help_text="The winning hand in words.")
    room = serializers.CharField(source="room.code")
    jackpot = serializers.CharField(source="jackpot.code", help_text="The fund's code.")
    table = serializers.CharField(source="table.number")
    round = HandRoundField(
        allow_null=True,
        help_text="The logged round of the hand: named or found when the claim was opened, or linked when the round "
        "arrived after it; null: no round agrees with it yet.",
    )
    pot = CentsField(
        source="pot_cents",
        allow_null=True,
        help_text='The pot as seen at the table, such as "120.00"; null: not given.',
    )
    rules_version = serializers.IntegerField(
        source="rules_version.number", help_text="The number of the rules version the hand was checked under."
    )
    hand = serializers.CharField(
        source="hand_code", help_text="The code of the fund's Bad Beat hand the claim was checked against."
    )
    hand_name = serializers.CharField()
    game = serializers.CharField()
    happened_at = RoomTimeField(help_text="When the hand was played: the round's end, or the claim.")
    players_dealt_in = serializers.IntegerField()
    board = serializers.CharField()
    losing = HandOutput(side="losing")
    winning = HandOutput(side="winning")
    others = PlayerOutput(many=True, help_text="Every other player dealt in: they share the table share.")
    surveillance_reference = serializers.CharField()
    opened_by = serializers.CharField(source="opened_by.username")
    opened_at = RoomTimeField()
    decision = DecisionOutput(allow_null=True, help_text="The shift supervisor's verification or denial.")
    distribution = DistributionOutput(allow_null=True, help_text="Finance's distribution, its shares and payments.")


_CLAIM_RELATED = (
    "room",
    "jackpot",
    "table",
    "rules_version",
    "opened_by",
    "decision__decided_by",
    "distribution__prepared_by",
    "round_link",
)


def claims_queryset():
    """The claims as ``ClaimOutput`` reads them: each one's decision, distribution, shares and payments
    with it (the decision and the distribution read their claim's room from it)."""
    return BadBeatClaim.objects.select_related(*_CLAIM_RELATED).prefetch_related(
        "distribution__shares__payment__paid_by"
    )


def _claim(pk: int) -> dict[str, Any]:
    return dict(ClaimOutput(claims_queryset().get(pk=pk)).data)


# --- The claim at the table -----------------------------------------------------------------------


def _seat() -> WholeNumberField:
    return WholeNumberField(min_value=1, max_value=_MAX_SEAT, help_text="The seat number at the table.")


class HandInput(serializers.Serializer):
    seat = _seat()
    name = serializers.CharField(max_length=120, help_text="The player's name as they gave it.")
    hole = serializers.CharField(max_length=60, help_text='The hole cards as text, such as "As Ks" (four at Omaha).')


class PlayerInput(serializers.Serializer):
    seat = _seat()
    name = serializers.CharField(max_length=120)


class ClaimInput(serializers.Serializer):
    jackpot = serializers.SlugField(max_length=30, help_text="The Bad Beat fund's code, such as bb.")
    table = serializers.CharField(max_length=10, help_text="Table number, such as T1.")
    room = room_field()
    round = id_field(
        required=False,
        allow_null=True,
        help_text="The logged round of the hand, when known: its rules apply. Its table, players dealt in, pot (when "
        "given) and end (from 30 minutes before the claim to 10 minutes after) must agree with the claim, else a 400 "
        "round_mismatch naming what differs.",
    )
    pot = MoneyField(
        required=False,
        allow_null=True,
        help_text='The pot as seen at the table, such as "120.00": without a round, the claim takes the one logged '
        "round not claimed yet that agrees with it, or is linked to it when it arrives.",
    )
    players_dealt_in = WholeNumberField(
        min_value=0, max_value=_MAX_SEAT, help_text="Every player dealt in, the losing and the winning hand included."
    )
    board = serializers.CharField(max_length=60, help_text='The five board cards as text, such as "Ad Ac Kc 7s 7h".')
    losing = HandInput(help_text="The losing hand: seat, name, hole cards.")
    winning = HandInput(help_text="The winning hand: seat, name, hole cards.")
    others: serializers.ListSerializer = serializers.ListSerializer(
        child=PlayerInput(),
        required=False,
        max_length=100,
        help_text="Every other player dealt in ([{seat, name}]): they share the table share.",
    )
    surveillance_reference = serializers.CharField(
        max_length=120, required=False, allow_blank=True, default="", help_text="The surveillance recording reference."
    )
    pin = pin_field("floorperson or above")


def _claim_open(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
    room = room_required(values.get("room"), user=actor)
    jackpot = jackpot_named(values["jackpot"], room=room)
    table = table_named(values["table"], room=room)
    claim = claim_open(
        jackpot=jackpot,
        table=table,
        round=round_named(values.get("round"), user=actor),
        pot_cents=values.get("pot"),
        players_dealt_in=values["players_dealt_in"],
        board=values["board"],
        losing=SeatedHand(**values["losing"]),
        winning=SeatedHand(**values["winning"]),
        others=[SeatedPlayer(**other) for other in values.get("others", [])],
        surveillance_reference=values["surveillance_reference"],
        actor=actor,
        pin=values["pin"],
        idempotency_key=idempotency_key,
    )
    return _claim(claim.pk)


class ClaimListCreate(generics.ListAPIView):
    """Bad Beat claims. GET lists them, newest first (filters: ``room``, ``status``, ``jackpot``). POST:
    a floorperson or above records a Bad Beat claimed at a table and signs (§637a.15(f)); the evaluator's
    verdict is recorded with it. A claim that does not qualify (too few players, a losing hand below the
    posted qualifier ...) is still a 201, with ``qualifies: false`` and the reasons. Cards that don't exist
    or repeat across the hands and the board are a 400 ``claim_invalid`` naming the card; nothing is
    recorded. A hand is claimed once (§637a.15(f)-(g)): a second claim of the round, or of the same cards
    (in whatever order) at the table on the same gaming day, is a 409 ``already_claimed`` naming the
    first claim and where it stands, while that one is not denied."""

    serializer_class = ClaimOutput
    required_actions = {"GET": Action.BAD_BEAT_READ, "POST": Action.BAD_BEAT_CLAIM}

    def get_queryset(self):
        params = self.request.query_params
        claims = visible_to(self.request.user, claims_queryset()).order_by("-opened_at", "-pk")
        room = room_named(params.get("room"), user=self.request.user)
        if room is not None:
            claims = claims.filter(room=room)
        if wanted := params.get("status"):
            if wanted not in ClaimStatus.values:
                raise ValidationError({"status": [f"A claim's status is one of {', '.join(ClaimStatus.values)}."]})
            claims = claims.filter(status=wanted)
        if code := params.get("jackpot"):
            funds = Jackpot.objects.filter(code=code, **({"room": room} if room is not None else {}))
            if not funds.exists():
                where = f" in room {room.code}" if room is not None else ""
                raise ValidationError({"jackpot": [f"There is no jackpot {code}{where}."]})
            claims = claims.filter(jackpot__in=funds)
        return claims

    @extend_schema(
        parameters=[
            OpenApiParameter("room", OpenApiTypes.STR, description="Room code"),
            OpenApiParameter("status", OpenApiTypes.STR, enum=ClaimStatus.values, description="The claim's status"),
            OpenApiParameter("jackpot", OpenApiTypes.STR, description="The fund's code"),
        ],
        responses={200: ClaimOutput(many=True), **RESTRICTED_LIST_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None  # every list is paginated (REST_FRAMEWORK settings)
        return self.get_paginated_response(ClaimOutput(page, many=True).data)

    @extend_schema(
        request=ClaimInput,
        responses={
            201: ClaimOutput,
            **errors(
                e400=[
                    BadBeatErrorCode.CLAIM_INVALID,
                    BadBeatErrorCode.ROUND_MISMATCH,
                    BadBeatErrorCode.BAD_BEAT_NOT_OFFERED,
                    *PIN_CODES,
                ],
                e403=ROLE_CODES,
                e409=[BadBeatErrorCode.ALREADY_CLAIMED, CoreErrorCode.IDEMPOTENCY_KEY_REUSED],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request) -> Response:
        return document_post(request, input_class=ClaimInput, create=_claim_open)


class ClaimDetail(APIView):
    """One claim with its evidence, the shift supervisor's decision, finance's distribution, its shares
    and their payments."""

    required_actions = {"GET": Action.BAD_BEAT_READ}

    @extend_schema(responses={200: ClaimOutput, **errors(e403=[StaffErrorCode.NOT_PERMITTED], e404=[])})
    def get(self, request: Request, pk: int) -> Response:
        document_or_404(BadBeatClaim.objects.all(), pk, "Bad Beat claim", user=request.user)
        return Response(_claim(pk))


# --- The shift supervisor's decision --------------------------------------------------------------


class VerifyInput(serializers.Serializer):
    pin = pin_field("shift supervisor")


class DenyInput(serializers.Serializer):
    reason = serializers.CharField(max_length=2000, help_text="Why the claim is denied: kept with its evidence.")
    pin = pin_field("shift supervisor")


_DECISION_409 = [BadBeatErrorCode.ALREADY_DECIDED]


class ClaimVerify(APIView):
    """The poker shift supervisor verifies a qualifying claim and signs (§637a.15(f)); the payout is fixed
    from the fund's official balance at that moment and the fund shows 'pending adjustment' until finance
    adjusts its display. Refused for a claim that does not qualify (400 ``claim_does_not_qualify``), for
    the person who opened it (400 ``segregation_of_duties``), for a claim already decided (409) and for a
    claim of a hand that another claim stands before (409 ``already_claimed``: recorded before a hand
    could be claimed once)."""

    required_actions = {"POST": Action.BAD_BEAT_VERIFY}

    @extend_schema(
        request=VerifyInput,
        responses={
            200: ClaimOutput,
            **errors(
                e400=[BadBeatErrorCode.CLAIM_DOES_NOT_QUALIFY, StaffErrorCode.SEGREGATION_OF_DUTIES, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=[*_DECISION_409, BadBeatErrorCode.ALREADY_CLAIMED],
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        claim = document_or_404(BadBeatClaim.objects.all(), pk, "Bad Beat claim", user=request.user)
        values = valid(VerifyInput, request.data)
        claim_verify(claim=claim, actor=acting_user(request), pin=values["pin"])
        return Response(_claim(pk))


class ClaimDeny(APIView):
    """The poker shift supervisor denies a claim with a reason and signs; the claim keeps its evidence
    (§637a.18(a): the shift supervisor's decision is final)."""

    required_actions = {"POST": Action.BAD_BEAT_VERIFY}

    @extend_schema(
        request=DenyInput,
        responses={
            200: ClaimOutput,
            **errors(
                e400=[BadBeatErrorCode.REASON_REQUIRED, StaffErrorCode.SEGREGATION_OF_DUTIES, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=_DECISION_409,
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        claim = document_or_404(BadBeatClaim.objects.all(), pk, "Bad Beat claim", user=request.user)
        values = valid(DenyInput, request.data)
        claim_deny(claim=claim, reason=values["reason"], actor=acting_user(request), pin=values["pin"])
        return Response(_claim(pk))
