"""The High Hand's qualifying periods, ``GET /api/high-hand/periods/`` (§637a.16): each period, its
pool, its high hands and its winners, answered on the room's clock."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from casino_backoffice.core.api import CentsField, RoomTimeField
from casino_backoffice.core.api_common import RESTRICTED_LIST_ERRORS
from casino_backoffice.staff.permissions import Action
from jackpots.funds.models import Jackpot
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandEntry,
    HighHandPeriod,
    PeriodStatus,
)
from jackpots.high_hand.selectors import estimated_pool_cents, high_hand_periods, slip_leader
from tables.api import room_named
from tables.selectors import visible_to

# --- What a period reads as -----------------------------------------------------------------------


# An entry as the period's high hand, read from a ``HighHandEntry`` (its table read with it).
class HighHandOutput(serializers.Serializer):
    cards = serializers.CharField(help_text='The five cards of the hand, best first, as "As Ah Ad Ks Kh".')
    words = serializers.CharField(help_text="The hand in words, such as 'Full house, aces full of kings'.")
    table = serializers.CharField(source="table.number")
    seat = serializers.IntegerField()


class _PaidField(serializers.BooleanField):
    """Whether the cage paid the award (its payment read with it)."""

    def get_attribute(self, instance: HighHandAward) -> bool:
        return hasattr(instance, "payment")


# A winning hand's award, read from a ``HighHandAward`` (its entry, table and payment read with it).
class WinnerOutput(serializers.Serializer):
    award = serializers.IntegerField(
        source="pk", help_text="The award's id: pay it at /api/high-hand/awards/{id}/pay/."
    )
    name = serializers.CharField(source="entry.player_name", help_text="The player's name, as recorded on the slip.")
    amount = CentsField(
        source="amount_cents", help_text='The award, as "12.34": the pool, or an equal part of it for a tie.'
    )
    table = serializers.CharField(source="entry.table.number")
    seat = serializers.IntegerField(source="entry.seat")
    collect_by = RoomTimeField(room="period.room", help_text="Collected at the cage by then (§637a.16(b)(6)).")
    paid = _PaidField()


@dataclass(frozen=True)
class PeriodShown:
    """A period as the API answers it: a period from ``jackpots.high_hand.selectors.high_hand_periods``
    (its room, fund, entries and awards read with it) and its high hand among those entries."""

    period: HighHandPeriod
    high_hand: HighHandEntry | None

    @classmethod
    def of(cls, period: HighHandPeriod) -> PeriodShown:
        return cls(period, slip_leader(period.entries.all()))

    @property
    def estimated_pool_cents(self) -> int | None:
        return estimated_pool_cents(self.period)


# The answer for a period, read from a ``PeriodShown`` (no docstring: it would enter the schema).
class PeriodOutput(serializers.Serializer):
    id = serializers.IntegerField(source="period.pk")
    room = serializers.CharField(source="period.room.code")
    jackpot = serializers.CharField(source="period.jackpot.code", help_text="The fund's code.")
    starts_at = RoomTimeField(
        source="period.starts_at",
        room="period.room",
        help_text="The period is [starts_at, ends_at), on the room's clock.",
    )
    ends_at = RoomTimeField(source="period.ends_at", room="period.room")
    status = serializers.ChoiceField(
        source="period.status",
        choices=PeriodStatus.choices,
        help_text="open -> closed (its end passed; its boxes to count) -> awarded or rolled_over (its pool announced).",
    )
    pool = CentsField(
        source="period.pool_cents",
        allow_null=True,
        help_text="The official pool once the period's boxes are counted and verified (§637a.16(g)): its "
        "contributions plus what rolled in; null until then.",
    )
    estimated_pool = CentsField(
        source="estimated_pool_cents",
        allow_null=True,
        help_text="Until the pool is official: the fund's drops from the pots of rounds that ended in the period, "
        "plus what rolled in. An estimate, not counted yet; null once the pool is official.",
    )
    rolled_in = CentsField(
        source="period.rolled_in_cents",
        help_text="What earlier periods without a qualifying hand rolled into this one.",
    )
    high_hand = HighHandOutput(
        allow_null=True, help_text="The period's high hand: the best entry not voided (the first among equals)."
    )
    winners = WinnerOutput(
        source="period.awards", many=True, help_text="Once awarded: each winning hand's award (several for a tie)."
    )
    close_note = serializers.CharField(
        source="period.close_note", help_text="Why the period was closed late, when it was."
    )
    waiting_note = serializers.CharField(
        source="period.waiting_note",
        help_text="Why the period, its boxes counted and verified, is not announced yet (its pool is more than "
        "the fund holds); empty otherwise.",
    )
    announced_at = RoomTimeField(source="period.announced_at", room="period.room", allow_null=True)


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
        return self.get_paginated_response(PeriodOutput([PeriodShown.of(period) for period in page], many=True).data)
