"""The entries of the High Hand Tracking Slip, ``/api/high-hand/entries/`` and their void (§637a.16(f)):
serializers check shape, ``jackpots.high_hand.services.slip.entry_record`` every rule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino_backoffice.core.api import MoneyField, RoomTimeField, WholeNumberField
from casino_backoffice.core.api_common import (
    IDEMPOTENCY_HEADER,
    PIN_CODES,
    ROLE_CODES,
    AwareDateTimeField,
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
from jackpots.funds.api import (
    id_field,
    jackpot_named,
    pin_field,
    room_field,
    round_named,
    table_named,
)
from jackpots.high_hand.api.periods import HighHandOutput
from jackpots.high_hand.cards import high_hand_cards
from jackpots.high_hand.exceptions import HighHandErrorCode
from jackpots.high_hand.hand_rounds import hand_round_of_entry
from jackpots.high_hand.models import (
    HighHandEntry,
)
from jackpots.high_hand.selectors import slip_leader
from jackpots.high_hand.services.slip import entry_record, entry_void
from tables.api import room_required
from tables.models import PokerRoom
from tables.selectors import staff_of

# Seats and counts of players are small numbers; anything larger is a 400 here.
_MAX_SEAT = 32767

# The rules an entry may be refused by (``jackpots.high_hand.services.slip.entry_record``), all 400.
ENTRY_CODES = (
    HighHandErrorCode.BELOW_MINIMUM,
    HighHandErrorCode.NOT_HIGHER,
    HighHandErrorCode.PERIOD_CLOSED,
    HighHandErrorCode.TOO_FEW_PLAYERS,
    HighHandErrorCode.PLAYER_REQUIRED,
    HighHandErrorCode.ID_REQUIRED,
    HighHandErrorCode.DEALER_REQUIRED,
    HighHandErrorCode.CREDENTIAL_REQUIRED,
    HighHandErrorCode.DEALER_IS_VERIFIER,
    HighHandErrorCode.CARDS_INVALID,
    HighHandErrorCode.MADE_IN_FUTURE,
    HighHandErrorCode.NOT_OFFERED,
    HighHandErrorCode.SEAT_INVALID,
    HighHandErrorCode.ROUND_MISMATCH,
    HighHandErrorCode.ROUND_VOIDED,
)


# --- An entry of the Tracking Slip ----------------------------------------------------------------


# A void, read from a ``HighHandVoid`` (its entry, period and room read with it).
class VoidOutput(serializers.Serializer):
    reason = serializers.CharField()
    voided_by = serializers.CharField(source="voided_by.username")
    voided_at = RoomTimeField(room="entry.period.room")


@dataclass(frozen=True)
class EntryShown:
    """An entry of the Tracking Slip as the API answers it: the entry (its period, room, table, signers,
    void and round link read with it, ``_entries``) and, after a void, the period's high hand left."""

    entry: HighHandEntry
    high_hand: HighHandEntry | None = None

    @property
    def round_id(self) -> int | None:
        return hand_round_of_entry(self.entry)


# The answer for an entry, read from an ``EntryShown`` (no docstring: it would enter the schema).
class EntryOutput(serializers.Serializer):
    id = serializers.IntegerField(source="entry.pk")
    period = serializers.IntegerField(
        source="entry.period_id", help_text="The qualifying period whose slip the entry is on."
    )
    words = serializers.CharField(
        source="entry.words", help_text="The hand in words, such as 'Full house, aces full of kings'."
    )
    cards = serializers.CharField(source="entry.cards", help_text="The five cards of the hand, best first.")
    tie = serializers.BooleanField(
        source="entry.tie", help_text="The hand equals the period's high hand as it stood when recorded."
    )
    table = serializers.CharField(source="entry.table.number")
    seat = serializers.IntegerField(source="entry.seat")
    player_name = serializers.CharField(source="entry.player_name")
    made_at = RoomTimeField(source="entry.made_at", room="entry.period.room")
    round = serializers.IntegerField(
        source="round_id",
        allow_null=True,
        help_text="The logged round of the hand: named or found when it was recorded, or linked when the round "
        "arrived after it; null: no round agrees with it yet.",
    )
    recorded_by = serializers.CharField(
        source="entry.recorded_by.username", help_text="The floorperson or above who verified the hand and signed."
    )
    recorded_at = RoomTimeField(source="entry.recorded_at", room="entry.period.room")
    void = VoidOutput(
        source="entry.void", allow_null=True, help_text="The shift supervisor's void, with the reason; null: it stands."
    )


class VoidedEntryOutput(EntryOutput):
    high_hand = HighHandOutput(
        allow_null=True, help_text="The period's high hand after the void: the best entry left, or null."
    )


def _entries():
    return HighHandEntry.objects.select_related("period__room", "table", "recorded_by", "void__voided_by", "round_link")


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
    return dict(EntryOutput(EntryShown(_entries().get(pk=entry.pk))).data)


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
                e400=[*ENTRY_CODES, *PIN_CODES],
                e403=ROLE_CODES,
                e409=[HighHandErrorCode.ALREADY_RECORDED, CoreErrorCode.IDEMPOTENCY_KEY_REUSED],
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
                e400=[HighHandErrorCode.REASON_REQUIRED, StaffErrorCode.SEGREGATION_OF_DUTIES, *PIN_CODES],
                e403=ROLE_CODES,
                e404=[],
                e409=[HighHandErrorCode.ALREADY_VOID, HighHandErrorCode.PERIOD_ANNOUNCED],
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        entry = document_or_404(HighHandEntry.objects.all(), pk, "High Hand entry", user=request.user)
        values = valid(EntryVoidInput, request.data)
        entry_void(entry=entry, reason=values["reason"], actor=acting_user(request), pin=values["pin"])
        voided = _entries().get(pk=pk)
        leader = slip_leader(_entries().filter(period_id=voided.period_id))
        return Response(VoidedEntryOutput(EntryShown(voided, high_hand=leader)).data)
