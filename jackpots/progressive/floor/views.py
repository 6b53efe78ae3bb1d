"""Tablet pages of the progressive meters of the banked games, Mississippi Stud (§655a.11-12) and Crazy 4
Poker (§657a.11-12): the dealer records a round's Progressive Payout Wagers and the chips collected, then
each winning hand of the round with the evaluator's verdict; a floorperson or above validates each
payout; a supervisor resets a meter after a 100% payout and explains a wager count exception.

Each page asks the one table of actions and roles first (``staff.permissions``); each action is a
service of ``jackpots.progressive.services``, whose refusals the page shows in the same words, having changed
nothing and kept what the person entered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.db.models.functions import Length
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.pages import pin_typo, refused_page
from casino_backoffice.core.idempotency import IdempotencyKeyReused
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.funds.floor import card_faces, floor_rooms
from jackpots.progressive.floor.forms import (
    ExplainForm,
    ProgressiveHandForm,
    ProgressiveRoundForm,
    ResetForm,
    ValidateForm,
)
from jackpots.progressive.models import (
    PayoutPlace,
    ProgressiveHand,
    ProgressiveMeter,
    ProgressiveRound,
    ProgressiveValidation,
    WagerCountException,
)
from jackpots.progressive.rules import PROGRESSIVE_GAMES
from jackpots.progressive.selectors import MeterAtTable, MeterStanding, meter_at_table, meters_standing
from jackpots.progressive.services.hands import progressive_hand_record, progressive_validate
from jackpots.progressive.services.meters import meter_reset
from jackpots.progressive.services.rounds import progressive_round_record, wager_count_explain
from tables.games import Game
from tables.models import PokerRoom, Table
from tables.selectors import visible_to

RECORD_TEMPLATE = "jackpots/floor/progressive_record.html"
ROUND_TEMPLATE = "jackpots/floor/progressive_round.html"
VALIDATE_TEMPLATE = "jackpots/floor/progressive_validate.html"
METERS_TEMPLATE = "jackpots/floor/progressive_meters.html"

# The latest rounds of a table the round form links to, newest first.
RECENT_ROUNDS = 5

_COUNT_SECTION = {Game.MISSISSIPPI_STUD.value: "§655a.8(b)", Game.CRAZY_4_POKER.value: "§657a.8(b)"}


# --- A hand in words ------------------------------------------------------------------------------


def _split_cards(hand: ProgressiveHand) -> tuple[str, str]:
    """The player's cards and Mississippi Stud's community cards, as recorded ("Ah Kd | Qs Js Ts")."""
    player, _, board = hand.cards.partition("|")
    return player.strip(), board.strip()


def verdict_words(hand: ProgressiveHand) -> str:
    """What the evaluator decided, as the dealer tells the player: the hand, the line and what it pays,
    where it is paid, and the Envy Bonuses it gives the others."""
    said = [f"Seat {hand.seat}: {hand.words}."]
    if hand.amount_cents:
        where = "through the cage" if hand.place == PayoutPlace.CAGE else "at the table"
        said.append(f"It wins {hand.line} ({hand.payout}): {display_cents(hand.amount_cents)}, paid {where}.")
        if hand.resets_meter:
            said.append("The meter is pending until a supervisor resets it.")
    elif hand.folded:
        said.append("The player folded: the Progressive Payout Wager is forfeited and wins nothing.")
    elif not hand.wager_cents:
        said.append("The seat made no Progressive Payout Wager: no payout.")
    bonuses = sorted(hand.envy_bonuses.all(), key=lambda bonus: -bonus.seat)
    if bonuses:
        each = ", ".join(f"seat {b.seat} {display_cents(b.amount_cents)}" for b in bonuses)
        said.append(f"Envy Bonuses, paid at the table: {each}.")
    elif hand.envy_qualifying:
        said.append("An Envy Bonus Qualifying Hand; no other seat made a Progressive Payout Wager.")
    return " ".join(said)


@dataclass(frozen=True)
class HandView:
    """A recorded hand as the round page and the validation queue show it."""

    hand: ProgressiveHand
    player: list[dict[str, str]]
    board: list[dict[str, str]]

    @property
    def envy_cents(self) -> int:
        return sum(bonus.amount_cents for bonus in self.hand.envy_bonuses.all())

    @property
    def at_table_cents(self) -> int:
        """What the validation pays at the table: the payout when it is not the cage's, and every Envy Bonus."""
        return self.envy_cents + (self.hand.amount_cents if self.hand.place == PayoutPlace.TABLE else 0)


def hand_view(hand: ProgressiveHand) -> HandView:
    player, board = _split_cards(hand)
    return HandView(hand, card_faces(player), card_faces(board))


def _hands() -> QuerySet[ProgressiveHand]:
    return ProgressiveHand.objects.select_related(
        "round__table", "round__meter", "recorded_by", "validation__validated_by", "payment"
    ).prefetch_related("envy_bonuses")


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
            f"was recorded for a supervisor to explain ({_COUNT_SECTION[round_.table.game]}).",
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
        return _COUNT_SECTION[self.round.table.game]


def _round_view(round_: ProgressiveRound) -> RoundView:
    hands = list(_hands().filter(round=round_).order_by("-seat"))
    community = round_.community_cards or next((_split_cards(h)[1] for h in hands if "|" in h.cards), "")
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


# --- Validation -----------------------------------------------------------------------------------


@dataclass
class ToValidate:
    view: HandView
    form: ValidateForm | None  # None: the person recorded the hand


def _validate_page(request: HttpRequest, bound: tuple[int, ValidateForm] | None = None) -> HttpResponse:
    user = acting_user(request)
    hands = (
        _hands()
        .filter(validation__isnull=True, round__meter__room__in=floor_rooms(request.user))
        .order_by("recorded_at", "id")
    )
    rows = []
    for hand in hands:
        form = None
        if hand.recorded_by_id != user.pk:
            form = bound[1] if bound and bound[0] == hand.pk else ValidateForm(auto_id=f"id_hand{hand.pk}_%s")
        rows.append(ToValidate(hand_view(hand), form))
    return render(request, VALIDATE_TEMPLATE, {"rows": rows})


@login_required
def validate_page(request: HttpRequest) -> HttpResponse:
    """The progressive payouts no floorperson or above has validated yet, oldest first, each with its
    amount and Envy Bonuses (§655a.11(i)(4)(i)(C), §657a.11(e)(3)): validate with the PIN; never a hand
    you recorded."""
    if (refusal := refused_page(request, VALIDATE_TEMPLATE, Action.PROGRESSIVE_VALIDATE)) is not None:
        return refusal
    return _validate_page(request)


@login_required
@require_POST
def validate_sign(request: HttpRequest, hand_id: int) -> HttpResponse:
    if (refusal := refused_page(request, VALIDATE_TEMPLATE, Action.PROGRESSIVE_VALIDATE)) is not None:
        return refusal
    hand = visible_to(request.user, _hands()).filter(pk=hand_id).first()
    if hand is None:
        messages.error(request, f"There is no progressive hand {hand_id}.")
        return redirect("floor:progressive-validate")
    where = f"{hand.words} at table {hand.round.table.number}, seat {hand.seat}"
    form = ValidateForm(request.POST, auto_id=f"id_hand{hand.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"{where} was not validated: correct what is marked below.{pin_typo(form)}")
        return _validate_page(request, (hand.pk, form))
    try:
        progressive_validate(hand=hand, actor=acting_user(request), pin=form.cleaned_data["pin"])
    except DomainError as refused:
        messages.error(request, f"{where} was not validated. {refused.message}")
        return _validate_page(request, (hand.pk, form))
    view = hand_view(hand)
    said = [f"Validated and signed: {where}. Pay {display_cents(view.at_table_cents)} at the table now."]
    if hand.place == PayoutPlace.CAGE and hand.amount_cents:
        said.append(f"The {display_cents(hand.amount_cents)} payout is paid through the cage, against the patron's ID.")
    messages.success(request, " ".join(said))
    return redirect("floor:progressive-validate")


# --- The meters: resets and wager count exceptions ------------------------------------------------


@dataclass
class MeterRow:
    standing: MeterStanding
    validated: bool
    form: ResetForm | None  # a reset when pending and validated


@dataclass
class ExceptionRow:
    exception: WagerCountException
    form: ExplainForm | None


def _meters_page(
    request: HttpRequest,
    *,
    reset: tuple[int, ResetForm] | None = None,
    explain: tuple[int, ExplainForm] | None = None,
) -> HttpResponse:
    rooms = floor_rooms(request.user)
    standing = [meter for room in rooms for meter in meters_standing(room=room)]
    waiting = [meter.pending.pk for meter in standing if meter.pending is not None]
    validated = set(ProgressiveValidation.objects.filter(hand_id__in=waiting).values_list("hand_id", flat=True))
    rows = []
    for meter in standing:
        ok = meter.pending is not None and meter.pending.pk in validated
        form = None
        if ok:
            form = (
                reset[1] if reset and reset[0] == meter.meter.pk else ResetForm(auto_id=f"id_meter{meter.meter.pk}_%s")
            )
        rows.append(MeterRow(meter, ok, form))
    may_explain = may(acting_user(request), Action.PROGRESSIVE_EXPLAIN)
    exceptions = [
        ExceptionRow(
            exception,
            (
                explain[1]
                if explain and explain[0] == exception.pk
                else ExplainForm(auto_id=f"id_exception{exception.pk}_%s")
            )
            if may_explain
            else None,
        )
        for exception in WagerCountException.objects.filter(explanation__isnull=True, round__meter__room__in=rooms)
        .select_related("round__table", "round__meter", "round__recorded_by")
        .order_by("recorded_at", "id")
    ]
    return render(request, METERS_TEMPLATE, {"meters": rows, "exceptions": exceptions})


@login_required
def meters_page(request: HttpRequest) -> HttpResponse:
    """A supervisor's view of each meter: its amount, 'Pending reset' with the 100% payout it waits on,
    and the reset with the PIN once that payout is validated (§655a.12(c)(3), §657a.12(d)(3)); and the
    wager count exceptions still to explain (§655a.8(b), §657a.8(b))."""
    if (refusal := refused_page(request, METERS_TEMPLATE, Action.PROGRESSIVE_RESET)) is not None:
        return refusal
    return _meters_page(request)


@login_required
@require_POST
def reset_page(request: HttpRequest, meter_id: int) -> HttpResponse:
    if (refusal := refused_page(request, METERS_TEMPLATE, Action.PROGRESSIVE_RESET)) is not None:
        return refusal
    meter = visible_to(request.user, ProgressiveMeter.objects.select_related("room")).filter(pk=meter_id).first()
    if meter is None:
        messages.error(request, f"There is no progressive meter {meter_id}.")
        return redirect("floor:progressive-meters")
    form = ResetForm(request.POST, auto_id=f"id_meter{meter.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"{meter.name} was not reset: correct what is marked below.{pin_typo(form)}")
        return _meters_page(request, reset=(meter.pk, form))
    try:
        funding = meter_reset(meter=meter, actor=acting_user(request), pin=form.cleaned_data["pin"])
    except DomainError as refused:
        messages.error(request, f"{meter.name} was not reset. {refused.message}")
        return _meters_page(request, reset=(meter.pk, form))
    messages.success(request, f"{meter.name} reset: {display_cents(funding.amount_cents)} put on the meter and signed.")
    return redirect("floor:progressive-meters")


@login_required
@require_POST
def explain_page(request: HttpRequest, exception_id: int) -> HttpResponse:
    if (refusal := refused_page(request, METERS_TEMPLATE, Action.PROGRESSIVE_EXPLAIN)) is not None:
        return refusal
    exception = (
        visible_to(request.user, WagerCountException.objects.select_related("round__table"))
        .filter(pk=exception_id)
        .first()
    )
    if exception is None:
        messages.error(request, f"There is no wager count exception {exception_id}.")
        return redirect("floor:progressive-meters")
    where = f"The exception of round {exception.round_id} at table {exception.round.table.number}"
    form = ExplainForm(request.POST, auto_id=f"id_exception{exception.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"{where} was not explained: correct what is marked below.{pin_typo(form)}")
        return _meters_page(request, explain=(exception.pk, form))
    try:
        wager_count_explain(
            exception=exception,
            explanation=form.cleaned_data["explanation"],
            actor=acting_user(request),
            pin=form.cleaned_data["pin"],
        )
    except DomainError as refused:
        messages.error(request, f"{where} was not explained. {refused.message}")
        return _meters_page(request, explain=(exception.pk, form))
    messages.success(request, f"{where} is explained and signed.")
    return redirect("floor:progressive-meters")
