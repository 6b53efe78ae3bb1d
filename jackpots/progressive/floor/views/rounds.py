"""Tablet pages of a progressive round (§655a.8(b), §657a.8(b)): the dealer records a round's Progressive
Payout Wagers and the chips collected, then each winning hand of the round with the evaluator's verdict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models.functions import Length
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.pages import refused_page
from casino_backoffice.core.idempotency import IdempotencyKeyReused
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.funds.floor import card_faces, floor_rooms
from jackpots.progressive.floor.forms import ProgressiveHandForm, ProgressiveRoundForm
from jackpots.progressive.floor.views.common import (
    COUNT_SECTION,
    HandView,
    hand_view,
    hands_shown,
    split_cards,
    verdict_words,
)
from jackpots.progressive.models import ProgressiveHand, ProgressiveRound
from jackpots.progressive.rules import PROGRESSIVE_GAMES
from jackpots.progressive.selectors import MeterAtTable, MeterStanding, meter_at_table, meters_standing
from jackpots.progressive.services.hands import progressive_hand_record
from jackpots.progressive.services.rounds import progressive_round_record
from tables.models import PokerRoom, Table
from tables.selectors import visible_to

RECORD_TEMPLATE = "jackpots/floor/progressive_record.html"
ROUND_TEMPLATE = "jackpots/floor/progressive_round.html"


# The latest rounds of a table the round form links to, newest first.
RECENT_ROUNDS = 5


# --- Record a round -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Offer:
    """A banked table that plays into a meter now, with the meter as it stands."""

    table: Table
    at: MeterAtTable
    standing: MeterStanding | None


def _offers(rooms: list[PokerRoom]) -> list[Offer]:
    now = timezone.now()
    standing = {m.meter.pk: m for room in rooms for m in meters_standing(room=room, at=now)}
    tables = Table.objects.filter(room__in=rooms, game__in=PROGRESSIVE_GAMES).select_related("room")
    offers = []
    for table in tables.order_by("room__code", Length("number"), "number"):
        if (at := meter_at_table(table=table, at=now)) is not None:
            offers.append(Offer(table, at, standing.get(at.meter.pk)))
    return offers


def _chosen(request: HttpRequest, values: Any) -> Offer | None:
    """The table of the round, as the page carries it; a message when it plays into no meter now."""
    table_id = str(values.get("table", ""))
    if not table_id.isdigit():
        return None
    table = visible_to(request.user, Table.objects.select_related("room")).filter(pk=int(table_id)).first()
    if table is None:
        messages.error(request, "That table is not there any more: pick again.")
        return None
    offer = next((offer for offer in _offers([table.room]) if offer.table.pk == table.pk), None)
    if offer is None:
        messages.error(request, f"Table {table.number} plays into no progressive meter under the rules in effect.")
    return offer


def _round_form(chosen: Offer, data: Any = None) -> ProgressiveRoundForm:
    return ProgressiveRoundForm(data, table=chosen.table, wagers_cents=chosen.at.rule.wagers_cents)


def _record_form_page(request: HttpRequest, chosen: Offer, form: ProgressiveRoundForm) -> HttpResponse:
    recent = ProgressiveRound.objects.filter(table=chosen.table).order_by("-ended_at", "-id")[:RECENT_ROUNDS]
    return render(request, RECORD_TEMPLATE, {"form": form, "chosen": chosen, "recent": recent})


def _said_recorded(request: HttpRequest, round_: ProgressiveRound) -> None:
    count = round_.wagers_accepted
    messages.success(
        request,
        f"Round {round_.pk} recorded at table {round_.table.number}: {count} Progressive Payout "
        f"Wager{'s' if count != 1 else ''}, {display_cents(round_.wagers_cents)}; "
        f"{display_cents(round_.increment_cents)} to the meter, {display_cents(round_.house_cents)} house share.",
    )
    if not round_.counts_match:
        messages.warning(
            request,
            f"The chips collected ({round_.chips_collected}) differ from the wagers accepted ({count}): the exception "
            f"was recorded for a supervisor to explain ({COUNT_SECTION[round_.table.game]}).",
        )


def _round_of_key(key: Any) -> int | None:
    """The round a form already recorded under its key."""
    if not key:
        return None
    return ProgressiveRound.objects.filter(idempotency_key=str(key)).values_list("pk", flat=True).first()


def _counted_once(request: HttpRequest, round_id: int) -> HttpResponse:
    """A second tap or a resent form: the tablet dates a round when it arrives, so a second sending
    differs from the first by its time; it records nothing and shows the round the form did record."""
    messages.info(request, f"Round {round_id} was already recorded by this form; it counts once.")
    return redirect("floor:progressive-round-detail", round_id=round_id)


@login_required
def record_page(request: HttpRequest) -> HttpResponse:
    """A dealer (or a floorperson or above) records a round at a banked table that plays into a meter:
    first the table, then each seat's Progressive Payout Wager as the system accepted it, the value chips
    collected (§655a.8(b), §657a.8(b)) and, at Mississippi Stud, the community cards when known. Chips that
    differ from the wagers are recorded as an exception for a supervisor. A refusal records nothing and
    keeps what was entered."""
    if (refusal := refused_page(request, RECORD_TEMPLATE, Action.PROGRESSIVE_ROUND_RECORD)) is not None:
        return refusal
    posted = request.method == "POST"
    values = request.POST if posted else request.GET
    if posted and (first := _round_of_key(values.get("idempotency_key"))) is not None:
        return _counted_once(request, first)
    chosen = _chosen(request, values)
    if chosen is None and posted:
        messages.error(request, "Nothing was recorded: pick the table of the round.")
        return redirect("floor:progressive-round")
    if chosen is None:
        return render(request, RECORD_TEMPLATE, {"offers": _offers(floor_rooms(request.user))})
    if not posted:
        return _record_form_page(request, chosen, _round_form(chosen))
    return _round_recorded(request, chosen)


def _round_recorded(request: HttpRequest, chosen: Offer) -> HttpResponse:
    """The round the form posted, recorded, and its page; or the form again with what refused it."""
    form = _round_form(chosen, request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing was recorded: correct what is marked below.")
        return _record_form_page(request, chosen, form)
    arguments = form.service_arguments()
    try:
        round_ = progressive_round_record(
            table=chosen.table, ended_at=timezone.now(), actor=acting_user(request), **arguments
        )
    except IdempotencyKeyReused:
        first = _round_of_key(arguments["idempotency_key"])
        assert first is not None  # the key was used, by the round this form recorded
        return _counted_once(request, first)
    except DomainError as refused:
        messages.error(request, f"Nothing was recorded. {refused.message}")
        return _record_form_page(request, chosen, form)
    _said_recorded(request, round_)
    return redirect("floor:progressive-round-detail", round_id=round_.pk)


# --- The round and its hands ----------------------------------------------------------------------


@dataclass
class RoundView:
    round: ProgressiveRound
    standing: MeterStanding | None
    wagers: dict[int, int]
    hands: list[HandView]
    seats_left: list[int]  # still to be settled, the highest first
    community: str

    @property
    def community_faces(self) -> list[dict[str, str]]:
        return card_faces(self.community)

    @property
    def section(self) -> str:
        return COUNT_SECTION[self.round.table.game]


def _round_view(round_: ProgressiveRound) -> RoundView:
    hands = list(hands_shown().filter(round=round_).order_by("-seat"))
    community = round_.community_cards or next((split_cards(h)[1] for h in hands if "|" in h.cards), "")
    lowest = min((hand.seat for hand in hands), default=round_.table.seats + 1)
    standing = next((m for m in meters_standing(room=round_.table.room) if m.meter.pk == round_.meter_id), None)
    return RoundView(
        round=round_,
        standing=standing,
        wagers={wager.seat: wager.amount_cents for wager in round_.wagers.all()},
        hands=[hand_view(hand) for hand in hands],
        seats_left=list(range(lowest - 1, 0, -1)),
        community=community,
    )


def _hand_form(view: RoundView, data: Any = None) -> ProgressiveHandForm:
    return ProgressiveHandForm(
        data, game=view.round.table.game, seats=view.seats_left, wagers=view.wagers, community=view.community
    )


def _round_or_none(request: HttpRequest, round_id: int) -> ProgressiveRound | None:
    found = (
        visible_to(
            request.user,
            ProgressiveRound.objects.select_related(
                "table__room", "meter", "recorded_by", "count_exception__explanation__explained_by"
            ),
        )
        .prefetch_related("wagers")
        .filter(pk=round_id)
        .first()
    )
    if found is None:
        messages.error(request, f"There is no progressive round {round_id}.")
    return found


def _round_page(
    request: HttpRequest, round_: ProgressiveRound, form: ProgressiveHandForm | None = None
) -> HttpResponse:
    view = _round_view(round_)
    user = acting_user(request)
    if form is None and view.seats_left and may(user, Action.PROGRESSIVE_HAND_RECORD):
        form = _hand_form(view)
    return render(
        request,
        ROUND_TEMPLATE,
        {"view": view, "form": form, "may_record": may(user, Action.PROGRESSIVE_ROUND_RECORD)},
    )


def _away(request: HttpRequest) -> HttpResponse:
    if may(acting_user(request), Action.PROGRESSIVE_ROUND_RECORD):
        return redirect("floor:progressive-round")
    return redirect("floor:home")


@login_required
def round_detail(request: HttpRequest, round_id: int) -> HttpResponse:
    """A recorded round: its wagers by seat, what went to the meter and what is the house's share, the
    wager count exception if the chips differed, and its winning hands with the evaluator's verdicts.
    The dealer records each winning hand here, from the highest seat down."""
    if (refusal := refused_page(request, ROUND_TEMPLATE, Action.PROGRESSIVE_READ)) is not None:
        return refusal
    if (round_ := _round_or_none(request, round_id)) is None:
        return _away(request)
    return _round_page(request, round_)


@login_required
@require_POST
def hand_page(request: HttpRequest, round_id: int) -> HttpResponse:
    """The dealer records a hand of the round that wins a progressive payout or is an Envy Bonus
    Qualifying Hand, having verified it and the system's light (§655a.11(i)(4)(i)(A)-(B),
    §657a.11(e)(1)-(2)); the page says the evaluator's verdict, or the refusal with nothing changed."""
    if (refusal := refused_page(request, ROUND_TEMPLATE, Action.PROGRESSIVE_HAND_RECORD)) is not None:
        return refusal
    if (round_ := _round_or_none(request, round_id)) is None:
        return _away(request)
    key = str(request.POST.get("idempotency_key", ""))
    if key and (first := ProgressiveHand.objects.filter(idempotency_key=key).first()) is not None:
        messages.info(request, f"Seat {first.seat} was already recorded by this form; it counts once.")
        return redirect("floor:progressive-round-detail", round_id=first.round_id)
    form = _hand_form(_round_view(round_), request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing was recorded: correct what is marked below.")
        return _round_page(request, round_, form)
    try:
        hand = progressive_hand_record(round=round_, actor=acting_user(request), **form.service_arguments())
    except IdempotencyKeyReused:
        messages.info(request, "This hand was already recorded by this form; it counts once.")
        return redirect("floor:progressive-round-detail", round_id=round_.pk)
    except DomainError as refused:
        messages.error(request, f"Nothing was recorded. {refused.message}")
        return _round_page(request, round_, form)
    messages.success(request, f"{verdict_words(hand)} A floorperson or above validates it now.")
    return redirect(f"{reverse('floor:progressive-round-detail', args=[round_.pk])}#hand-{hand.pk}")
