"""A round's Progressive Payout Wagers, ``/api/progressive/rounds/`` (§655a.11, §657a.11): serializers
check shape, ``jackpots.progressive.services`` every rule."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api import MoneyField, WholeNumberField
from casino_backoffice.core.api_common import (
    IDEMPOTENCY_HEADER,
    ROLE_CODES,
    AwareDateTimeField,
    document_or_404,
    document_post,
    errors,
    money,
    person,
)
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from jackpots.funds.api import room_field, table_named
from jackpots.funds.models import PaymentPlace
from jackpots.progressive.models import (
    ProgressiveHand,
    ProgressiveRound,
)
from jackpots.progressive.services.rounds import SeatWager, progressive_round_record
from tables.api import local, room_required

_MAX_SEAT = 32767

ROUND_CODES = ("table_closed", "not_progressive", "wager_size", "cards_invalid", "invalid")

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


class ProgressiveWagerOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    amount = serializers.CharField()


class ProgressiveEnvyOutput(serializers.Serializer):
    seat = serializers.IntegerField(help_text="The receiver's seat.")
    wager = serializers.CharField(help_text="The receiver's wager: its size picks the schedule.")
    line = serializers.CharField()
    amount = serializers.CharField()


class ProgressiveHandOutput(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.CharField()
    seat = serializers.IntegerField()
    cards = serializers.CharField(help_text="The player's cards (| the community cards at Mississippi Stud).")
    hand_cards = serializers.CharField(help_text="The cards that make the hand, best first.")
    words = serializers.CharField(help_text="The hand in words.")
    folded = serializers.BooleanField()
    wager = serializers.CharField()
    line = serializers.CharField(help_text="The progressive paytable line won; blank when none.")
    payout = serializers.CharField(help_text='The line as posted: "100% of meter", "300 for 1".')
    meter_before = serializers.CharField(help_text="The meter at this player's turn (§655a.12(c)(4)).")
    amount = serializers.CharField(help_text="The payout; 0.00 for a hand that only gives Envy Bonuses.")
    place = serializers.ChoiceField(choices=PaymentPlace.choices, help_text="Paid at the table or through the cage.")
    light_confirmed = serializers.BooleanField()
    envy_qualifying = serializers.BooleanField()
    envy_bonuses = ProgressiveEnvyOutput(many=True)
    validated_by = serializers.CharField(allow_null=True)
    validated_at = serializers.DateTimeField(allow_null=True)
    paid = serializers.BooleanField(help_text="Paid to the patron (at the table with the validation, or at the cage).")
    recorded_by = serializers.CharField()
    recorded_at = serializers.DateTimeField()


class ProgressiveRoundOutput(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.CharField()
    meter = serializers.CharField()
    ended_at = serializers.DateTimeField()
    gaming_day = serializers.DateField()
    wagers = ProgressiveWagerOutput(many=True)
    wagers_accepted = serializers.IntegerField()
    chips_collected = serializers.IntegerField()
    exception = serializers.IntegerField(allow_null=True, help_text="The wager count exception, when counts differ.")
    explained = serializers.BooleanField(help_text="Whether a supervisor explained the exception.")
    total_wagered = serializers.CharField()
    increment = serializers.CharField(help_text="Added to the meter at the rate of progression.")
    house_share = serializers.CharField(help_text="The rest of the wagers: the house's.")
    community_cards = serializers.CharField()
    hands = ProgressiveHandOutput(many=True)
    recorded_by = serializers.CharField()


def hands_read():
    return ProgressiveHand.objects.select_related(
        "round__table__room", "recorded_by", "validation__validated_by", "payment"
    ).prefetch_related("envy_bonuses")


def hand_data(hand: ProgressiveHand) -> dict[str, Any]:
    room = hand.round.table.room
    validation = getattr(hand, "validation", None)
    paid = hasattr(hand, "payment") or (validation is not None and hand.place == "table")
    return {
        "id": hand.pk,
        "round": hand.round_id,
        "table": hand.round.table.number,
        "seat": hand.seat,
        "cards": hand.cards,
        "hand_cards": hand.hand_cards,
        "words": hand.words,
        "folded": hand.folded,
        "wager": money(hand.wager_cents),
        "line": hand.line,
        "payout": hand.payout,
        "meter_before": money(hand.meter_before_cents),
        "amount": money(hand.amount_cents),
        "place": hand.place,
        "light_confirmed": hand.light_confirmed,
        "envy_qualifying": hand.envy_qualifying,
        "envy_bonuses": [
            {"seat": b.seat, "wager": money(b.wager_cents), "line": b.line, "amount": money(b.amount_cents)}
            for b in hand.envy_bonuses.all()
        ],
        "validated_by": person(validation.validated_by) if validation else None,
        "validated_at": local(validation.validated_at, room) if validation else None,
        "paid": paid,
        "recorded_by": person(hand.recorded_by),
        "recorded_at": local(hand.recorded_at, room),
    }


def round_data(pk: int) -> dict[str, Any]:
    round_ = (
        ProgressiveRound.objects.select_related("table__room", "meter", "recorded_by", "count_exception__explanation")
        .prefetch_related("wagers")
        .get(pk=pk)
    )
    exception = getattr(round_, "count_exception", None)
    return {
        "id": round_.pk,
        "table": round_.table.number,
        "meter": round_.meter.code,
        "ended_at": local(round_.ended_at, round_.table.room),
        "gaming_day": round_.gaming_day,
        "wagers": [{"seat": w.seat, "amount": money(w.amount_cents)} for w in round_.wagers.all()],
        "wagers_accepted": round_.wagers_accepted,
        "chips_collected": round_.chips_collected,
        "exception": exception.pk if exception else None,
        "explained": bool(exception and hasattr(exception, "explanation")),
        "total_wagered": money(round_.wagers_cents),
        "increment": money(round_.increment_cents),
        "house_share": money(round_.house_cents),
        "community_cards": round_.community_cards,
        "hands": [hand_data(hand) for hand in hands_read().filter(round=round_)],
        "recorded_by": person(round_.recorded_by),
    }


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
    return round_data(round_.pk)


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
                e400=list(ROUND_CODES), e403=ROLE_CODES, e409=["payout_documentation_open", "idempotency_key_reused"]
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
        return Response(round_data(pk))
