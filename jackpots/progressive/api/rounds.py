"""A round's Progressive Payout Wagers, ``/api/progressive/rounds/`` (§655a.11, §657a.11), and its void,
``/api/progressive/rounds/{id}/void/`` (§655a.13, §657a.13): serializers check shape,
``jackpots.progressive.services`` every rule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api import CentsField, MoneyField, RoomTimeField, WholeNumberField
from casino_backoffice.core.api_common import (
    IDEMPOTENCY_HEADER,
    PIN_CODES,
    ROLE_CODES,
    AwareDateTimeField,
    document_or_404,
    document_post,
    errors,
)
from casino_backoffice.core.exceptions import CoreErrorCode
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from jackpots.funds.api import room_field, table_named
from jackpots.funds.models import PaymentPlace
from jackpots.progressive.exceptions import ProgressiveErrorCode
from jackpots.progressive.models import (
    ProgressiveHand,
    ProgressiveRound,
)
from jackpots.progressive.services.rounds import SeatWager, progressive_round_record
from jackpots.progressive.services.voids import banked_round_void, banked_void_returned
from tables.api import room_required
from tables.exceptions import TableErrorCode
from tables.irregularities.exceptions import IrregularityErrorCode

_MAX_SEAT = 32767

ROUND_CODES = (
    ProgressiveErrorCode.TABLE_CLOSED,
    ProgressiveErrorCode.NOT_PROGRESSIVE,
    ProgressiveErrorCode.WAGER_SIZE,
    ProgressiveErrorCode.CARDS_INVALID,
    ProgressiveErrorCode.INVALID,
)

# --- Rounds ---------------------------------------------------------------------------------------


class ProgressiveWagerInput(serializers.Serializer):
    seat = WholeNumberField(min_value=1, max_value=_MAX_SEAT, help_text="Seat 1 is farthest to the dealer's left.")
    amount = MoneyField(help_text='The Progressive Payout Wager, as "1.00": a size the meter accepts.')


class ProgressiveRoundInput(serializers.Serializer):
    room = room_field()
    table = serializers.CharField(max_length=10, help_text="The banked table, such as T11.")
    ended_at = AwareDateTimeField(help_text="When the round ended, with its UTC offset.")
    wagers = ProgressiveWagerInput(
        many=True, help_text="The Progressive Payout Wagers the progressive system accepted."
    )
    chips_collected = WholeNumberField(
        min_value=0, max_value=_MAX_SEAT, help_text="The value chips the dealer collected (§655a.8(b), §657a.8(b))."
    )
    community_cards = serializers.CharField(
        max_length=20, required=False, allow_blank=True, help_text="Mississippi Stud's three community cards."
    )


# The answers for a round and its hands, read from the models (no docstrings: they would enter the schema).
class ProgressiveWagerOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    amount = CentsField(source="amount_cents")


class ProgressiveEnvyOutput(serializers.Serializer):
    seat = serializers.IntegerField(help_text="The receiver's seat.")
    wager = CentsField(source="wager_cents", help_text="The receiver's wager: its size picks the schedule.")
    line = serializers.CharField()
    amount = CentsField(source="amount_cents")


class ProgressiveHandOutput(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(source="round_id")
    table = serializers.CharField(source="round.table.number")
    seat = serializers.IntegerField()
    cards = serializers.CharField(help_text="The player's cards (| the community cards at Mississippi Stud).")
    hand_cards = serializers.CharField(help_text="The cards that make the hand, best first.")
    words = serializers.CharField(help_text="The hand in words.")
    folded = serializers.BooleanField()
    wager = CentsField(source="wager_cents")
    line = serializers.CharField(help_text="The progressive paytable line won; blank when none.")
    payout = serializers.CharField(help_text='The line as posted: "100% of meter", "300 for 1".')
    meter_before = CentsField(
        source="meter_before_cents", help_text="The meter at this player's turn (§655a.12(c)(4))."
    )
    amount = CentsField(source="amount_cents", help_text="The payout; 0.00 for a hand that only gives Envy Bonuses.")
    place = serializers.ChoiceField(choices=PaymentPlace.choices, help_text="Paid at the table or through the cage.")
    light_confirmed = serializers.BooleanField()
    envy_qualifying = serializers.BooleanField()
    envy_bonuses = ProgressiveEnvyOutput(many=True)
    validated_by = serializers.CharField(source="validation.validated_by.username", allow_null=True)
    validated_at = RoomTimeField(source="validation.validated_at", room="round.table.room", allow_null=True)
    paid = serializers.BooleanField(
        source="is_paid", help_text="Paid to the patron (at the table with the validation, or at the cage)."
    )
    recorded_by = serializers.CharField(source="recorded_by.username")
    recorded_at = RoomTimeField(room="round.table.room")


@dataclass(frozen=True)
class RoundShown:
    """A round as the API answers it: the round (its table, room, meter, recorder and wager count
    exception read with it, its wagers prefetched) and its hands in the dealer's order."""

    round: ProgressiveRound
    hands: tuple[ProgressiveHand, ...]

    @property
    def voided(self) -> bool:
        return hasattr(self.round, "void")

    @property
    def explained(self) -> bool:
        exception = getattr(self.round, "count_exception", None)
        return exception is not None and hasattr(exception, "explanation")


class ProgressiveRoundOutput(serializers.Serializer):
    id = serializers.IntegerField(source="round.pk")
    table = serializers.CharField(source="round.table.number")
    meter = serializers.CharField(source="round.meter.code")
    ended_at = RoomTimeField(source="round.ended_at", room="round.table.room")
    gaming_day = serializers.DateField(source="round.gaming_day")
    wagers = ProgressiveWagerOutput(source="round.wagers", many=True)
    wagers_accepted = serializers.IntegerField(source="round.wagers_accepted")
    chips_collected = serializers.IntegerField(source="round.chips_collected")
    exception = serializers.IntegerField(
        source="round.count_exception.pk",
        allow_null=True,
        help_text="The wager count exception, when counts differ.",
    )
    explained = serializers.BooleanField(help_text="Whether a supervisor explained the exception.")
    total_wagered = CentsField(source="round.wagers_cents")
    increment = CentsField(source="round.increment_cents", help_text="Added to the meter at the rate of progression.")
    house_share = CentsField(source="round.house_cents", help_text="The rest of the wagers: the house's.")
    community_cards = serializers.CharField(source="round.community_cards")
    hands = ProgressiveHandOutput(many=True)
    recorded_by = serializers.CharField(source="round.recorded_by.username")
    voided = serializers.BooleanField(
        help_text="Voided after it was recorded (§655a.13, §657a.13): its wagers returned, the meter without it."
    )


def hands_read() -> QuerySet[ProgressiveHand]:
    """Hands with what ``ProgressiveHandOutput`` reads of them, in a fixed number of queries."""
    return ProgressiveHand.objects.select_related(
        "round__table__room", "recorded_by", "validation__validated_by", "payment"
    ).prefetch_related("envy_bonuses")


def round_shown(pk: int) -> RoundShown:
    """The round ``pk`` with what ``ProgressiveRoundOutput`` reads of it, in a fixed number of queries."""
    round_ = (
        ProgressiveRound.objects.select_related(
            "table__room", "meter", "recorded_by", "count_exception__explanation", "void"
        )
        .prefetch_related("wagers")
        .get(pk=pk)
    )
    return RoundShown(round=round_, hands=tuple(hands_read().filter(round=round_)))


def _round_record(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
    room = room_required(values.get("room"), user=actor)
    table = table_named(values["table"], room=room)
    round_ = progressive_round_record(
        table=table,
        ended_at=values["ended_at"],
        wagers=[SeatWager(w["seat"], w["amount"]) for w in values["wagers"]],
        chips_collected=values["chips_collected"],
        community_cards=values.get("community_cards", ""),
        actor=actor,
        idempotency_key=idempotency_key,
    )
    return dict(ProgressiveRoundOutput(round_shown(round_.pk)).data)


class RoundCreate(APIView):
    """The dealer records the Progressive Payout Wagers the progressive table game system accepted in a
    round and the value chips collected (§655a.8(b), §657a.8(b)). The meter rises by the rate of
    progression of each wager, the rest is the house's share. Chips that differ from the wagers are
    recorded as an exception for a supervisor to explain (``exception``). 409 ``payout_documentation_open``
    while a payout of the table not paid from the table inventory waits for its validation: the cards
    stay on the table until the documentation is completed (§655a.11(i)(4)(i)(D), §657a.11(e)(4))."""

    required_actions = {"POST": Action.PROGRESSIVE_ROUND_RECORD}

    @extend_schema(
        request=ProgressiveRoundInput,
        responses={
            201: ProgressiveRoundOutput,
            **errors(
                e400=ROUND_CODES,
                e403=ROLE_CODES,
                e409=[
                    ProgressiveErrorCode.PAYOUT_DOCUMENTATION_OPEN,
                    TableErrorCode.GAMING_DAY_CLOSED,
                    CoreErrorCode.IDEMPOTENCY_KEY_REUSED,
                ],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request) -> Response:
        return document_post(request, input_class=ProgressiveRoundInput, create=_round_record)


class RoundDetail(generics.GenericAPIView):
    """A round with its wagers, its exception and the hands recorded."""

    required_actions = {"GET": Action.PROGRESSIVE_READ}

    @extend_schema(responses={200: ProgressiveRoundOutput, **errors(e403=ROLE_CODES, e404=[])})
    def get(self, request: Request, pk: int) -> Response:
        document_or_404(ProgressiveRound.objects.all(), pk, "progressive round", user=request.user)
        return Response(ProgressiveRoundOutput(round_shown(pk)).data)


# --- A round's void -------------------------------------------------------------------------------


class BankedRoundVoidInput(serializers.Serializer):
    reason = serializers.CharField(
        max_length=4000,
        help_text="What was found (§655a.13, §657a.13): the cards dealt in error, the cards exposed, the shoe that "
        "jammed, in words.",
    )
    pin = serializers.CharField(help_text="The signed-in floorperson's PIN: their signature.")


class BankedRoundVoidReturnedOutput(serializers.Serializer):
    rake = CentsField(source="rake_cents", help_text="Always 0.00: a banked round takes no rake.")
    drops = serializers.DictField(
        source="drops_cents",
        child=CentsField(),
        help_text='The round\'s increment back out of its meter, by the meter\'s code: {"msp": "0.30"}.',
    )
    house_share = CentsField(source="house_cents", help_text="The house's share of the wagers, returned too.")


class BankedRoundVoidOutput(serializers.Serializer):
    id = serializers.IntegerField(source="void.pk")
    round = serializers.IntegerField(source="void.round_id")
    irregularity = serializers.IntegerField(
        source="void.irregularity_id", help_text="The round's irregularity (banked_card_error), signed with it."
    )
    reason = serializers.CharField(source="void.reason")
    voided_by = serializers.CharField(source="void.voided_by.username")
    voided_at = RoomTimeField(source="void.voided_at", room="void.round.table.room")
    reversed = BankedRoundVoidReturnedOutput(
        source="*", help_text="What the void returned, as the ledger moved it (the poker void's shape)."
    )


class RoundVoidCreate(APIView):
    """A floorperson or above voids a banked round already recorded and signs (§655a.13(a), (c), (d), (f),
    §657a.13(a), (c), (d), (f): all hands void, all wagers returned to the players): the round stays as
    recorded, its irregularity (``banked_card_error``) is recorded, and its increment to the meter and
    the house's share are reversed in the ledger, so the meter shows what it would without the round.
    Refused for a round voided already, one with a progressive hand recorded (recorded, validated or
    paid: the payout stands), one whose meter paid a share of itself since, or of a gaming day finance
    closed."""

    required_actions = {"POST": Action.PROGRESSIVE_ROUND_VOID}

    @extend_schema(
        request=BankedRoundVoidInput,
        responses={
            201: BankedRoundVoidOutput,
            **errors(
                e400=[ProgressiveErrorCode.REASON_REQUIRED, IrregularityErrorCode.IRREGULARITY, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[CoreErrorCode.NOT_FOUND],
                e409=[
                    ProgressiveErrorCode.ROUND_ALREADY_VOID,
                    ProgressiveErrorCode.ROUND_HAS_PAYOUT,
                    ProgressiveErrorCode.METER_PAID_SINCE,
                    TableErrorCode.GAMING_DAY_CLOSED,
                    CoreErrorCode.IDEMPOTENCY_KEY_REUSED,
                ],
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = document_or_404(
            ProgressiveRound.objects.select_related("table__room", "meter__room"),
            pk,
            "progressive round",
            user=request.user,
        )

        def void(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
            voided = banked_round_void(
                round=round_, reason=values["reason"], actor=actor, pin=values["pin"], idempotency_key=idempotency_key
            )
            return dict(BankedRoundVoidOutput(banked_void_returned(voided)).data)

        return document_post(request, input_class=BankedRoundVoidInput, create=void)
