"""The High Hand Jackpot API (§637a.16): the qualifying periods ``/api/high-hand/periods/``, the
entries of the High Hand Tracking Slip ``/api/high-hand/entries/`` and their void, the payment of an
award at the cage ``/api/high-hand/awards/{id}/pay/`` and finance's approval of where an uncollected
award goes ``/api/high-hand/unclaimed/{id}/approve/``.

'(f) ... When a player has a full house or better, the dealer shall call a floorperson or above who
shall verify the hand and record the value on the High Hand Tracking Slip.' Serializers check shape;
``jackpots.high_hand.services`` checks every rule (the minimum hand, a higher hand than the period's, the open
period, the players dealt in, the pot, the identification). Money is a decimal string ("12.34"), cards
are text ("Ah Ad Ac Kh Ks"), times ISO-8601 with their offset, answered on the room's clock.
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
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from jackpots.funds.api import (
    id_field,
    id_number_masked,
    jackpot_named,
    pin_field,
    room_field,
    round_named,
    table_named,
)
from jackpots.funds.models import Jackpot
from jackpots.high_hand.cards import high_hand_cards
from jackpots.high_hand.hand_rounds import hand_round_of_entry
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandAwardPayment,
    HighHandEntry,
    HighHandPeriod,
    HighHandUnclaimed,
    PeriodStatus,
)
from jackpots.high_hand.selectors import estimated_pool_cents, high_hand_periods, slip_leader
from jackpots.high_hand.services.awards import award_pay, unclaimed_approve
from jackpots.high_hand.services.slip import entry_record, entry_void
from tables.api import local, room_named, room_required
from tables.models import PokerRoom
from tables.selectors import staff_of, visible_to

# Seats and counts of players are small numbers; anything larger is a 400 here.
_MAX_SEAT = 32767

# The rules an entry may be refused by (``jackpots.high_hand.services.slip.entry_record``), all 400.
ENTRY_CODES = (
    "below_minimum",
    "not_higher",
    "period_closed",
    "too_few_players",
    "player_required",
    "id_required",
    "dealer_required",
    "credential_required",
    "dealer_is_verifier",
    "cards_invalid",
    "made_in_future",
    "not_offered",
    "seat_invalid",
    "round_mismatch",
    "round_voided",
)


# --- What a period reads as -----------------------------------------------------------------------


class HighHandOutput(serializers.Serializer):
    cards = serializers.CharField(help_text='The five cards of the hand, best first, as "As Ah Ad Ks Kh".')
    words = serializers.CharField(help_text="The hand in words, such as 'Full house, aces full of kings'.")
    table = serializers.CharField()
    seat = serializers.IntegerField()


class WinnerOutput(serializers.Serializer):
    award = serializers.IntegerField(help_text="The award's id: pay it at /api/high-hand/awards/{id}/pay/.")
    name = serializers.CharField(help_text="The player's name, as recorded on the slip.")
    amount = serializers.CharField(help_text='The award, as "12.34": the pool, or an equal part of it for a tie.')
    table = serializers.CharField()
    seat = serializers.IntegerField()
    collect_by = serializers.DateTimeField(help_text="Collected at the cage by then (§637a.16(b)(6)).")
    paid = serializers.BooleanField()


class PeriodOutput(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.CharField()
    jackpot = serializers.CharField(help_text="The fund's code.")
    starts_at = serializers.DateTimeField(help_text="The period is [starts_at, ends_at), on the room's clock.")
    ends_at = serializers.DateTimeField()
    status = serializers.ChoiceField(
        choices=PeriodStatus.choices,
        help_text="open -> closed (its end passed; its boxes to count) -> awarded or rolled_over (its pool announced).",
    )
    pool = serializers.CharField(
        allow_null=True,
        help_text="The official pool once the period's boxes are counted and verified (§637a.16(g)): its "
        "contributions plus what rolled in; null until then.",
    )
    estimated_pool = serializers.CharField(
        allow_null=True,
        help_text="Until the pool is official: the fund's drops from the pots of rounds that ended in the period, "
        "plus what rolled in. An estimate, not counted yet; null once the pool is official.",
    )
    rolled_in = serializers.CharField(help_text="What earlier periods without a qualifying hand rolled into this one.")
    high_hand = HighHandOutput(
        allow_null=True, help_text="The period's high hand: the best entry not voided (the first among equals)."
    )
    winners = WinnerOutput(many=True, help_text="Once awarded: each winning hand's award (several for a tie).")
    close_note = serializers.CharField(help_text="Why the period was closed late, when it was.")
    waiting_note = serializers.CharField(
        help_text="Why the period, its boxes counted and verified, is not announced yet (its pool is more than "
        "the fund holds); empty otherwise."
    )
    announced_at = serializers.DateTimeField(allow_null=True)


def period_data(period: HighHandPeriod) -> dict[str, Any]:
    """A period from ``jackpots.high_hand.selectors.high_hand_periods`` (entries and awards prefetched)."""
    room = period.room
    leader = slip_leader(period.entries.all())
    return {
        "id": period.pk,
        "room": room.code,
        "jackpot": period.jackpot.code,
        "starts_at": local(period.starts_at, room),
        "ends_at": local(period.ends_at, room),
        "status": period.status,
        "pool": money(period.pool_cents),
        "estimated_pool": money(estimated_pool_cents(period)),
        "rolled_in": money(period.rolled_in_cents),
        "high_hand": None
        if leader is None
        else {"cards": leader.cards, "words": leader.words, "table": leader.table.number, "seat": leader.seat},
        "winners": [
            {
                "award": award.pk,
                "name": award.entry.player_name,
                "amount": money(award.amount_cents),
                "table": award.entry.table.number,
                "seat": award.entry.seat,
                "collect_by": local(award.collect_by, room),
                "paid": hasattr(award, "payment"),
            }
            for award in period.awards.all()
        ],
        "close_note": period.close_note,
        "waiting_note": period.waiting_note,
        "announced_at": local(period.announced_at, room),
    }


class PeriodList(generics.ListAPIView):
    """High Hand qualifying periods, newest first (filters: ``room``, ``jackpot``, ``status``): each with
    its pool (official once counted and verified) or its estimate, its high hand and its winners."""

    serializer_class = PeriodOutput
    required_actions = {"GET": Action.HIGH_HAND_READ}

    def get_queryset(self):
        params = self.request.query_params
        periods = visible_to(self.request.user, high_hand_periods()).order_by("-starts_at", "jackpot__code", "-pk")
        room = room_named(params.get("room"), user=self.request.user)
        if room is not None:
            periods = periods.filter(room=room)
        if wanted := params.get("status"):
            if wanted not in PeriodStatus.values:
                raise ValidationError({"status": [f"A period's status is one of {', '.join(PeriodStatus.values)}."]})
            periods = periods.filter(status=wanted)
        if code := params.get("jackpot"):
            funds = Jackpot.objects.filter(code=code, **({"room": room} if room is not None else {}))
            if not funds.exists():
                where = f" in room {room.code}" if room is not None else ""
                raise ValidationError({"jackpot": [f"There is no jackpot {code}{where}."]})
            periods = periods.filter(jackpot__in=funds)
        return periods

    @extend_schema(
        parameters=[
            OpenApiParameter("room", OpenApiTypes.STR, description="Room code"),
            OpenApiParameter("jackpot", OpenApiTypes.STR, description="The High Hand fund's code"),
            OpenApiParameter("status", OpenApiTypes.STR, enum=PeriodStatus.values, description="The period's status"),
        ],
        responses={200: PeriodOutput(many=True), **RESTRICTED_LIST_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None  # every list is paginated (REST_FRAMEWORK settings)
        return self.get_paginated_response([period_data(period) for period in page])


# --- An entry of the Tracking Slip ----------------------------------------------------------------


class VoidOutput(serializers.Serializer):
    reason = serializers.CharField()
    voided_by = serializers.CharField()
    voided_at = serializers.DateTimeField()


class EntryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    period = serializers.IntegerField(help_text="The qualifying period whose slip the entry is on.")
    words = serializers.CharField(help_text="The hand in words, such as 'Full house, aces full of kings'.")
    cards = serializers.CharField(help_text="The five cards of the hand, best first.")
    tie = serializers.BooleanField(help_text="The hand equals the period's high hand as it stood when recorded.")
    table = serializers.CharField()
    seat = serializers.IntegerField()
    player_name = serializers.CharField()
    made_at = serializers.DateTimeField()
    round = serializers.IntegerField(
        allow_null=True,
        help_text="The logged round of the hand: named or found when it was recorded, or linked when the round "
        "arrived after it; null: no round agrees with it yet.",
    )
    recorded_by = serializers.CharField(help_text="The floorperson or above who verified the hand and signed.")
    recorded_at = serializers.DateTimeField()
    void = VoidOutput(allow_null=True, help_text="The shift supervisor's void, with the reason; null: it stands.")


class VoidedEntryOutput(EntryOutput):
    high_hand = HighHandOutput(
        allow_null=True, help_text="The period's high hand after the void: the best entry left, or null."
    )


def _entries():
    return HighHandEntry.objects.select_related("period__room", "table", "recorded_by", "void__voided_by", "round_link")


def entry_data(entry: HighHandEntry) -> dict[str, Any]:
    room = entry.period.room
    void = getattr(entry, "void", None)
    return {
        "id": entry.pk,
        "period": entry.period_id,
        "words": entry.words,
        "cards": entry.cards,
        "tie": entry.tie,
        "table": entry.table.number,
        "seat": entry.seat,
        "player_name": entry.player_name,
        "made_at": local(entry.made_at, room),
        "round": hand_round_of_entry(entry),
        "recorded_by": person(entry.recorded_by),
        "recorded_at": local(entry.recorded_at, room),
        "void": None
        if void is None
        else {"reason": void.reason, "voided_by": person(void.voided_by), "voided_at": local(void.voided_at, room)},
    }


class EntryInput(serializers.Serializer):
    jackpot = serializers.SlugField(max_length=30, help_text="The High Hand fund's code, such as hh.")
    table = serializers.CharField(max_length=10, help_text="Table number, such as T1.")
    room = room_field()
    seat = WholeNumberField(min_value=1, max_value=_MAX_SEAT, help_text="The player's seat.")
    player_name = serializers.CharField(max_length=120, allow_blank=True, help_text="§637a.16(f)(1).")
    player_phone = serializers.CharField(max_length=40, allow_blank=True, help_text="§637a.16(f)(1).")
    id_type = serializers.CharField(
        max_length=60, allow_blank=True, help_text="The player's identification (§637a.16(b)(7)): its type."
    )
    id_number = serializers.CharField(max_length=60, allow_blank=True, help_text="Its number.")
    dealer = serializers.CharField(max_length=150, help_text="The dealer's username (§637a.16(f)(4)).")
    players_dealt_in = WholeNumberField(min_value=0, max_value=_MAX_SEAT)
    pot = MoneyField(help_text='The pot after the rake, as "12.34": at least the posted minimum pot.')
    cards = serializers.CharField(
        max_length=60,
        required=False,
        help_text='The five cards of the hand, as "Ah Ad Ac Kh Ks". Or give hole (and board) instead.',
    )
    hole = serializers.CharField(
        max_length=60,
        required=False,
        help_text="Instead of cards: the player's cards as the table's game deals them (Hold'em 2, Omaha 4 with "
        "the board; Seven-card Stud 7; Five-card Stud and Draw 5); the evaluator picks the best five.",
    )
    board = serializers.CharField(
        max_length=60, required=False, allow_blank=True, help_text="With hole, at Hold'em and Omaha: the 5 board cards."
    )
    made_at = AwareDateTimeField(
        help_text="When the hand was made: inside an open qualifying period, not in the future."
    )
    round = id_field(
        required=False,
        allow_null=True,
        help_text="The logged round of the hand. Its table, players dealt in, pot and end (from a minute before "
        "made_at to 10 minutes after) must agree with the entry, else a 400 round_mismatch naming what differs. "
        "Without it, the entry takes the one logged round that agrees with it, or is linked to it when it arrives.",
    )
    pin = pin_field("floorperson or above")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "cards" in attrs and ("hole" in attrs or "board" in attrs):
            raise ValidationError({"cards": ["Give the five cards, or hole and board; not both."]})
        if "cards" not in attrs and "hole" not in attrs:
            raise ValidationError(
                {"cards": ["Give the five cards of the hand, or hole (and board) as the table's game deals them."]}
            )
        return attrs


def _dealer_named(username: str, *, room: PokerRoom) -> User:
    """The dealer of that username among those who work in ``room``; a 400 otherwise."""
    dealer = User.objects.filter(staff_of(room), username=username).first()
    if dealer is None:
        raise ValidationError({"dealer": [f"There is no member of staff {username} in room {room.code}."]})
    return dealer


def _entry_record(*, values: dict[str, Any], actor: User, idempotency_key: str) -> dict[str, Any]:
    room = room_required(values.get("room"), user=actor)
    jackpot = jackpot_named(values["jackpot"], room=room)
    table = table_named(values["table"], room=room)
    dealer = _dealer_named(values["dealer"], room=room)
    if "cards" in values:
        cards = values["cards"]
    else:
        cards = high_hand_cards(game=table.game, hole=values["hole"], board=values.get("board", ""))
    entry = entry_record(
        jackpot=jackpot,
        table=table,
        seat=values["seat"],
        player_name=values["player_name"],
        player_phone=values["player_phone"],
        id_type=values["id_type"],
        id_number=values["id_number"],
        dealer=dealer,
        players_dealt_in=values["players_dealt_in"],
        pot_cents=values["pot"],
        cards=cards,
        made_at=values["made_at"],
        round=round_named(values.get("round"), user=actor),
        actor=actor,
        pin=values["pin"],
        idempotency_key=idempotency_key,
    )
    return entry_data(_entries().get(pk=entry.pk))


class EntryCreate(APIView):
    """A floorperson or above who verified a full house or better records it on the period's High Hand
    Tracking Slip and signs (§637a.16(f)). Only a hand higher than the period's high hand, or equal to
    it (a tie, ``tie: true``), is recorded; every refusal is a 400 naming the rule (``below_minimum``,
    ``not_higher``, ``period_closed``, ``too_few_players`` ...) and records nothing."""

    required_actions = {"POST": Action.HIGH_HAND_RECORD}

    @extend_schema(
        request=EntryInput,
        responses={
            201: EntryOutput,
            **errors(
                e400=[*ENTRY_CODES, *PIN_CODES], e403=ROLE_CODES, e409=["already_recorded", "idempotency_key_reused"]
            ),
        },
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request) -> Response:
        return document_post(request, input_class=EntryInput, create=_entry_record)


class EntryVoidInput(serializers.Serializer):
    reason = serializers.CharField(max_length=2000, help_text="Why the entry is void: it stays on the slip with it.")
    pin = pin_field("shift supervisor")


class EntryVoid(APIView):
    """A shift supervisor voids a wrong entry with a reason and signs; it stays on the slip, struck
    through, and the period's high hand falls back to the best entry left (``high_hand``). Never by the
    person who recorded it (400 ``segregation_of_duties``); once (409 ``already_void``); not once the
    period's pool was announced (409 ``period_announced``)."""

    required_actions = {"POST": Action.HIGH_HAND_VOID}

    @extend_schema(
        request=EntryVoidInput,
        responses={
            200: VoidedEntryOutput,
            **errors(
                e400=["reason_required", "segregation_of_duties", *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=["already_void", "period_announced"],
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        entry = document_or_404(HighHandEntry.objects.all(), pk, "High Hand entry", user=request.user)
        values = valid(EntryVoidInput, request.data)
        entry_void(entry=entry, reason=values["reason"], actor=acting_user(request), pin=values["pin"])
        voided = _entries().get(pk=pk)
        leader = slip_leader(_entries().filter(period_id=voided.period_id))
        return Response(
            {
                **entry_data(voided),
                "high_hand": None
                if leader is None
                else {"cards": leader.cards, "words": leader.words, "table": leader.table.number, "seat": leader.seat},
            }
        )


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
