"""The progressive table games API (§655a.11-12, §657a.11-12): the meters ``/api/progressive/meters/``
and their reset, a round's Progressive Payout Wagers ``/api/progressive/rounds/``, a winning hand
``/api/progressive/hands/``, its validation, its payment through the cage, and the explanation of a
wager count exception.

Seats: seat 1 is the player farthest to the dealer's left; a round's hands are recorded from the
highest seat down, as the dealer pays them (§655a.11(i), §657a.11(c)). Money is a decimal string
("12.34"), cards are text ("As Ks"), times ISO-8601 with their offset. Serializers check shape;
``jackpots.progressive.services`` checks every rule.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api import MoneyField, WholeNumberField
from casino_backoffice.core.api_common import (
    IDEMPOTENCY_HEADER,
    PIN_CODES,
    RESTRICTED_LIST_ERRORS,
    ROLE_CODES,
    AwareDateTimeField,
    document_or_404,
    document_post,
    errors,
    money,
    person,
    valid,
)
from casino_backoffice.money import format_percent
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from jackpots.funds.api import id_field, id_number_masked, pin_field, room_field, table_named
from jackpots.funds.models import PaymentPlace
from jackpots.progressive.models import (
    ProgressiveHand,
    ProgressiveMeter,
    ProgressivePayment,
    ProgressiveRound,
    WagerCountException,
)
from jackpots.progressive.selectors import MeterStanding, meters_standing
from jackpots.progressive.services.hands import progressive_hand_record, progressive_pay, progressive_validate
from jackpots.progressive.services.meters import meter_reset
from jackpots.progressive.services.rounds import SeatWager, progressive_round_record, wager_count_explain
from tables.api import local, room_named, room_required
from tables.selectors import rooms_of, visible_to

_MAX_SEAT = 32767

ROUND_CODES = ("table_closed", "not_progressive", "wager_size", "cards_invalid", "invalid")
HAND_CODES = ("no_payout", "light_not_confirmed", "out_of_order", "cards_invalid", "invalid")

# --- Meters ---------------------------------------------------------------------------------------


class ProgressiveMeterOutput(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.CharField()
    code = serializers.CharField()
    name = serializers.CharField()
    game = serializers.CharField()
    amount = serializers.CharField(help_text='The meter, as "12345.67": the ledger balance of the meter.')
    pending = serializers.BooleanField(help_text="A 100% payout was won and the meter is not reset yet.")
    pending_hand = serializers.IntegerField(allow_null=True, help_text="The 100% payout the reset waits on.")
    tables = serializers.ListField(child=serializers.CharField(), help_text="The tables linked to the meter.")
    rate_percent = serializers.CharField(allow_null=True, help_text="The rate of progression, percent of a wager.")
    reset = serializers.CharField(allow_null=True, help_text="The reset amount posted.")
    wagers = serializers.ListField(child=serializers.CharField(), help_text="The wager sizes the meter accepts.")


def meter_data(standing: MeterStanding) -> dict[str, Any]:
    rule = standing.rule
    return {
        "id": standing.meter.pk,
        "room": standing.meter.room.code,
        "code": standing.meter.code,
        "name": standing.meter.name,
        "game": standing.meter.game,
        "amount": money(standing.amount_cents),
        "pending": standing.is_pending,
        "pending_hand": standing.pending.pk if standing.pending else None,
        "tables": standing.tables,
        "rate_percent": format_percent(rule.rate_bp) if rule else None,
        "reset": money(rule.reset_cents) if rule else None,
        "wagers": [money(cents) for cents in rule.wagers_cents] if rule else [],
    }


class MeterList(APIView):
    """Every progressive meter with its amount, whether it is pending a reset after a 100% payout, its
    linked tables and its posted rate, reset amount and wager sizes (filter: ``room``)."""

    required_actions = {"GET": Action.PROGRESSIVE_READ}

    @extend_schema(
        parameters=[OpenApiParameter("room", OpenApiTypes.STR, description="Room code")],
        responses={200: ProgressiveMeterOutput(many=True), **RESTRICTED_LIST_ERRORS},
    )
    def get(self, request: Request) -> Response:
        room = room_named(request.query_params.get("room"), user=request.user)
        rooms = [room] if room is not None else list(rooms_of(request.user))
        return Response([meter_data(standing) for r in rooms for standing in meters_standing(room=r)])


class ProgressivePinInput(serializers.Serializer):
    pin = pin_field("supervisor")


class ProgressiveFundingOutput(serializers.Serializer):
    id = serializers.IntegerField()
    meter = serializers.CharField()
    reason = serializers.CharField()
    after_hand = serializers.IntegerField(allow_null=True)
    amount = serializers.CharField()
    funded_by = serializers.CharField()
    funded_at = serializers.DateTimeField()
    meter_amount = serializers.CharField(help_text="The meter after the reset.")


class MeterReset(APIView):
    """A poker shift supervisor or manager resets the meter after a 100% payout to the posted reset
    amount, funded by the house, and signs (§655a.12(c)(3), §657a.12(d)(3)). 409 ``not_pending`` when no
    100% payout waits for a reset; 400 ``not_validated`` before the payout is validated."""

    required_actions = {"POST": Action.PROGRESSIVE_RESET}

    @extend_schema(
        request=ProgressivePinInput,
        responses={
            200: ProgressiveFundingOutput,
            **errors(e400=["not_validated", *PIN_CODES], e403=ROLE_CODES, e404=[], e409=["not_pending"]),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        meter = document_or_404(
            ProgressiveMeter.objects.select_related("room"), pk, "progressive meter", user=request.user
        )
        values = valid(ProgressivePinInput, request.data)
        funding = meter_reset(meter=meter, actor=acting_user(request), pin=values["pin"])
        standing = next(s for s in meters_standing(room=meter.room) if s.meter.pk == meter.pk)
        return Response(
            {
                "id": funding.pk,
                "meter": meter.code,
                "reason": funding.reason,
                "after_hand": funding.after_hand_id,
                "amount": money(funding.amount_cents),
                "funded_by": person(funding.funded_by),
                "funded_at": local(funding.funded_at, meter.room),
                "meter_amount": money(standing.amount_cents),
            }
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


def _hands():
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
        "hands": [hand_data(hand) for hand in _hands().filter(round=round_)],
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
    return hand_data(_hands().get(pk=hand.pk))


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
                e400=list(HAND_CODES),
                e403=ROLE_CODES,
                e409=["already_recorded", "meter_pending", "idempotency_key_reused"],
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
            **errors(e400=["same_person", *PIN_CODES], e403=ROLE_CODES, e404=[], e409=["already_validated"]),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        hand = document_or_404(ProgressiveHand.objects.all(), pk, "progressive hand", user=request.user)
        values = valid(ProgressiveValidateInput, request.data)
        progressive_validate(hand=hand, actor=acting_user(request), pin=values["pin"])
        return Response(hand_data(_hands().get(pk=pk)))


class ProgressivePayInput(serializers.Serializer):
    patron_name = serializers.CharField(max_length=120)
    id_type = serializers.CharField(max_length=60)
    id_number = serializers.CharField(max_length=60)
    pin = pin_field("cage cashier")


class ProgressivePaymentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    hand = serializers.IntegerField()
    amount = serializers.CharField()
    patron_name = serializers.CharField()
    id_type = serializers.CharField()
    id_number = serializers.CharField(help_text="Masked but for its last four characters.")
    paid_by = serializers.CharField()
    paid_at = serializers.DateTimeField()


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
                e400=["not_at_cage", "not_validated", "id_required", "segregation_of_duties", *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=["already_paid", "idempotency_key_reused"],
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
            return {
                "id": payment.pk,
                "hand": payment.hand_id,
                "amount": money(payment.hand.amount_cents),
                "patron_name": payment.patron_name,
                "id_type": payment.id_type,
                "id_number": id_number_masked(payment.id_number),
                "paid_by": person(payment.paid_by),
                "paid_at": local(payment.paid_at, payment.hand.round.table.room),
            }

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
            **errors(e400=["reason_required", *PIN_CODES], e403=ROLE_CODES, e404=[], e409=["already_explained"]),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        exception = document_or_404(WagerCountException.objects.all(), pk, "wager count exception", user=request.user)
        values = valid(ProgressiveExplainInput, request.data)
        wager_count_explain(
            exception=exception, explanation=values["explanation"], actor=acting_user(request), pin=values["pin"]
        )
        return Response(round_data(exception.round_id))
