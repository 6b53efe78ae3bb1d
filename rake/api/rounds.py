"""``/api/rounds/``: rounds of play, listed and logged one at a time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import F, Prefetch
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from casino_backoffice.core.api import CentsField, MoneyField, RoomTimeField
from casino_backoffice.core.api_common import AwareDateTimeField
from casino_backoffice.money import format_cents
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action
from jackpots.funds.models import RoundDrop
from tables.models import Round, Table
from tables.selectors import staff_of, visible_to

from ..models import LateRoundEntry, RoundVoid
from ..selectors import rules_version_number
from ..services import RoundRecorded, RoundRequest, round_request_record
from .common import ERRORS, IDEMPOTENCY_HEADER, Recorded, idempotent_post


class RoundInput(serializers.Serializer):
    table = serializers.CharField(max_length=10, help_text="Table number, such as T1.")
    room = serializers.SlugField(
        required=False, help_text="Room code; needed only when two rooms share a table number."
    )
    ended_at = AwareDateTimeField(
        help_text="When the round ended, ISO-8601 with offset; rates the round by the rules then in effect."
    )
    players_dealt_in = serializers.IntegerField(min_value=0, max_value=32767)
    pot = MoneyField(help_text='The whole pot, side pots included, before rake, as "120.00".')
    uncalled_bet = MoneyField(
        required=False, default=0, help_text="The uncalled final bet returned to its bettor (§637a.17(d))."
    )
    refund = MoneyField(
        required=False,
        default=0,
        help_text="Moneys refunded from the pot to a player whose protected hand the dealer collected or fouled "
        "(§637a.18(k)(3)): they leave the pot before the rake, so the rake and the drops are taken on the pot "
        "without them. Never more than the pot without the uncalled bet (400). Report the round's "
        "dealer_error_refund irregularity with it.",
    )
    flop_dealt = serializers.BooleanField(required=False, default=True)
    voided = serializers.BooleanField(
        required=False, default=False, help_text="A voided round (§637a.18(i)) takes no rake and no drops."
    )
    late_entry_by = serializers.CharField(
        max_length=150,
        required=False,
        help_text="A round logged more than the room's late_entry_minutes after it ended: the username of the "
        "poker shift supervisor who signs for it (not the person logging it). Refused without it "
        "(400 late_entry_unsigned).",
    )
    pin = serializers.CharField(
        required=False,
        help_text="With late_entry_by: that supervisor's PIN, their signature (read only with late_entry_by).",
        trim_whitespace=False,
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("late_entry_by") and not attrs.get("pin"):
            raise ValidationError({"pin": ["Give the PIN of the supervisor named in late_entry_by: their signature."]})
        return attrs


@dataclass(frozen=True)
class RoundShown:
    """A round as the API answers it: the round (its table and room read with it), its drops in the
    order the table lists them, the room's number of its rules version, its late entry if any."""

    round: Round
    drops: tuple[RoundDrop, ...]
    version_number: int
    late_entry: LateRoundEntry | None
    # The signed void of a round voided after it was logged (``rake.services.voids``), if any.
    void_id: int | None = None

    @classmethod
    def of(
        cls,
        round_: Round,
        drops: tuple[RoundDrop, ...] | list[RoundDrop],
        *,
        version_number: int | None = None,
        late_entry: LateRoundEntry | None = None,
        void_id: int | None = None,
    ) -> RoundShown:
        number = version_number if version_number is not None else round_.rules_version.number
        return cls(round_, tuple(sorted(drops, key=lambda d: d.position)), number, late_entry, void_id)

    @property
    def is_voided(self) -> bool:
        """Logged voided, or voided after it was logged."""
        return self.round.voided or self.void_id is not None

    @property
    def drop_amounts(self) -> dict[str, str]:
        return {d.jackpot_code: format_cents(d.amount_cents) for d in self.drops}

    @property
    def drop_rules(self) -> dict[str, str]:
        return {d.jackpot_code: d.rule for d in self.drops}


# The answer for a round, read from a ``RoundShown`` (no docstring: it would enter the schema).
class RoundOutput(serializers.Serializer):
    id = serializers.IntegerField(source="round.pk")
    table = serializers.CharField(source="round.table.number")
    room = serializers.CharField(source="round.table.room.code")
    ended_at = RoomTimeField(source="round.ended_at", room="round.table.room")
    gaming_day = serializers.DateField(source="round.gaming_day")
    shift = serializers.CharField(source="round.shift")
    game = serializers.CharField(source="round.game")
    players_dealt_in = serializers.IntegerField(source="round.players_dealt_in")
    pot = CentsField(source="round.pot_cents")
    uncalled_bet = CentsField(source="round.uncalled_bet_cents")
    refund = CentsField(
        source="round.refund_cents", help_text="Refunded from the pot to a player before the rake (§637a.18(k)(3))."
    )
    flop_dealt = serializers.BooleanField(source="round.flop_dealt")
    voided = serializers.BooleanField(
        source="is_voided",
        help_text="Logged voided, or voided after it was logged by a signed void (void): its pot returned, "
        "its rake and drops taken back (§637a.18(i)).",
    )
    void = serializers.IntegerField(
        source="void_id",
        allow_null=True,
        help_text="The signed void of a round voided after it was logged (POST /api/rounds/{id}/void/); null otherwise.",
    )
    rules_version = serializers.IntegerField(
        source="version_number", help_text="Number of the room's rules version that rated the round."
    )
    rake = CentsField(source="round.rake_cents")
    rake_rule = serializers.CharField(source="round.rake_rule")
    drops = serializers.DictField(
        source="drop_amounts",
        child=serializers.CharField(),
        help_text="Jackpot code to amount, in the order the table lists them.",
    )
    drop_rules = serializers.DictField(child=serializers.CharField())
    created_at = RoomTimeField(source="round.created_at", room="round.table.room")
    late_entry_by = serializers.CharField(
        source="late_entry.signed_by.username",
        allow_null=True,
        help_text="The poker shift supervisor who signed for the round as logged late; null when logged in time.",
    )
    minutes_late = serializers.IntegerField(
        source="late_entry.minutes_late",
        allow_null=True,
        help_text="Whole minutes between the round's end and its logging, when logged late.",
    )


def late_entry_of(round_: Round) -> LateRoundEntry | None:
    """The round's late entry (``select_related("late_entry__signed_by")`` reads it with the round)."""
    try:
        return round_.late_entry
    except LateRoundEntry.DoesNotExist:
        return None


def round_data(
    round_: Round,
    drops: tuple[RoundDrop, ...] | list[RoundDrop],
    *,
    version_number: int | None = None,
    late_entry: LateRoundEntry | None = None,
    void_id: int | None = None,
) -> dict[str, Any]:
    """The body answering a round: ``RoundOutput``'s."""
    shown = RoundShown.of(round_, drops, version_number=version_number, late_entry=late_entry, void_id=void_id)
    return dict(RoundOutput(shown).data)


def late_entry_named(values: dict[str, Any], *, table: Table) -> User | None:
    """The supervisor ``late_entry_by`` names, among the staff of the table's room; a 400 otherwise."""
    username = values.get("late_entry_by")
    if not username:
        return None
    supervisor = User.objects.filter(staff_of(table.room), username=username).first()
    if supervisor is None:
        raise ValidationError(
            {
                "late_entry_by": [
                    f"There is no member of staff {username} in room {table.room.code}: give the username "
                    "of a poker shift supervisor who works there."
                ]
            }
        )
    return supervisor


def round_recorded(table: Table, recorded: RoundRecorded) -> Recorded:
    """A round as the API answers it, recorded or replayed."""
    round_ = recorded.round
    round_.table = table
    number = rules_version_number(version_id=round_.rules_version_id)
    late_entry = (
        LateRoundEntry.objects.filter(round=round_).select_related("signed_by").first()
        if recorded.replayed
        else recorded.late_entry
    )
    # A replay answers what the round is now: voided since, when it was.
    void_id = RoundVoid.objects.filter(round=round_).values_list("pk", flat=True).first() if recorded.replayed else None
    return Recorded(
        data=round_data(round_, recorded.drops, version_number=number, late_entry=late_entry, void_id=void_id),
        replayed=recorded.replayed,
    )


def round_request(
    values: dict[str, Any], *, table: Table, idempotency_key: str, late_entry_by: User | None
) -> RoundRequest:
    """The ``RoundRequest`` a ``RoundInput``'s validated data asks for."""
    return RoundRequest(
        table=table,
        ended_at=values["ended_at"],
        players_dealt_in=values["players_dealt_in"],
        pot_cents=values["pot"],
        uncalled_bet_cents=values["uncalled_bet"],
        refund_cents=values["refund"],
        flop_dealt=values["flop_dealt"],
        voided=values["voided"],
        idempotency_key=idempotency_key,
        late_entry_by=late_entry_by,
        late_entry_pin=values.get("pin", ""),
    )


def _round_record(*, table: Table, values: dict[str, Any], actor: User, idempotency_key: str) -> Recorded:
    request = round_request(
        values, table=table, idempotency_key=idempotency_key, late_entry_by=late_entry_named(values, table=table)
    )
    return round_recorded(table, round_request_record(request=request, actor=actor))


class RoundListCreate(generics.ListAPIView):
    """Rounds of play. GET lists them (filters: ``table``, ``room``, ``gaming_day``); POST logs one."""

    serializer_class = RoundOutput
    required_actions = {"GET": Action.ROUNDS_READ, "POST": Action.ROUND_RECORD}

    def get_queryset(self):
        rounds = visible_to(
            self.request.user,
            Round.objects.select_related("table__room", "rules_version", "late_entry__signed_by").annotate(
                void_pk=F("void__id")
            ),
        )
        rounds = rounds.prefetch_related(Prefetch("drops", queryset=RoundDrop.objects.order_by("position")))
        params = self.request.query_params
        if table := params.get("table"):
            rounds = rounds.filter(table__number=table)
        if room := params.get("room"):
            rounds = rounds.filter(table__room__code=room)
        if day := params.get("gaming_day"):
            try:
                rounds = rounds.filter(gaming_day=date.fromisoformat(day))
            except ValueError:
                raise ValidationError({"gaming_day": ["Give the gaming day as YYYY-MM-DD."]}) from None
        return rounds

    @extend_schema(
        parameters=[
            OpenApiParameter("table", OpenApiTypes.STR, description="Table number"),
            OpenApiParameter("room", OpenApiTypes.STR, description="Room code"),
            OpenApiParameter("gaming_day", OpenApiTypes.DATE, description="Gaming day (YYYY-MM-DD)"),
        ]
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None  # every list is paginated (REST_FRAMEWORK settings)
        return self.get_paginated_response(
            [round_data(r, list(r.drops.all()), late_entry=late_entry_of(r), void_id=r.void_pk) for r in page]
        )

    @extend_schema(request=RoundInput, responses={201: RoundOutput, **ERRORS}, parameters=[IDEMPOTENCY_HEADER])
    def post(self, request: Request) -> Response:
        return idempotent_post(request, input_class=RoundInput, record=_round_record)
