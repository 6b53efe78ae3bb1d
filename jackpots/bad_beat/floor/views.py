"""Tablet pages of the Bad Beat (§637a.15(f)-(h)): a floorperson or above opens a claim at the table,
the poker shift supervisor verifies or denies it, security, finance or a cage cashier pays each share,
finance prepares the distribution and adjusts the display in the presence of a floorperson or above,
who witnesses it.

Each page asks the one table of actions and roles first (``staff.permissions``) and shows a person
who may not act the table's words; each action is a service of ``jackpots.bad_beat.services``, whose refusals
the page shows in the same words, having changed nothing and kept what the person entered.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django import forms
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
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, may
from jackpots.bad_beat.exceptions import BadBeatNotOffered
from jackpots.bad_beat.floor.forms import (
    AdjustForm,
    ClaimForm,
    DenyForm,
    DistributeForm,
    PayForm,
    VerifyForm,
    WitnessForm,
)
from jackpots.bad_beat.models import (
    BadBeatClaim,
    BadBeatDistribution,
    BadBeatPayment,
    BadBeatShare,
    ClaimStatus,
    DisplayAdjustment,
)
from jackpots.bad_beat.rules import BadBeatRule
from jackpots.bad_beat.selectors import (
    adjustments_to_witness,
    bad_beat_at_table,
    claims_to_decide,
    fund_positions,
    payouts_to_deliver,
)
from jackpots.bad_beat.services.claims import claim_deny, claim_open, claim_verify
from jackpots.bad_beat.services.display import display_adjust, display_witness
from jackpots.bad_beat.services.payouts import distribution_prepare, payment_places, share_pay
from jackpots.funds.floor import RECENT_ROUNDS, card_faces, floor_rooms
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.selectors import jackpot_rule_of_version, tables_listing
from tables.games import Game
from tables.models import PokerRoom, Round, Table
from tables.selectors import rules_version_in_effect, visible_to

CLAIM_TEMPLATE = "jackpots/floor/claim.html"
CLAIM_PAGE_TEMPLATE = "jackpots/floor/claim_page.html"
CLAIMS_TEMPLATE = "jackpots/floor/claims.html"
DECIDE_TEMPLATE = "jackpots/floor/decide.html"
PAYOUTS_TEMPLATE = "jackpots/floor/payouts.html"
WITNESS_TEMPLATE = "jackpots/floor/witness.html"
FUNDS_TEMPLATE = "jackpots/floor/funds.html"

# The claims the list of claims shows, newest first.
CLAIMS_LISTED = 40


@dataclass(frozen=True)
class SeatedCards:
    """A hand of the claim as the page shows it: seat, name, hole cards as cards, the hand in words."""

    seat: int
    name: str
    cards: list[dict[str, str]]
    words: str


# How the evaluator words a condition of the posted qualifier that a hand does not meet
# (``casino_backoffice.poker.qualifiers.BadBeatQualifier.check``): the minimum, the loss, the players.
_NOT_MET = ("is below the minimum", "the qualifying hand did not lose", "are required")


@dataclass(frozen=True)
class Condition:
    """One condition of the posted qualifier as the evaluator worded it, and whether the hand met it."""

    words: str
    met: bool | None  # None: not known from the words


def conditions_of(claim: BadBeatClaim) -> list[Condition]:
    """The evaluator's reasons, each marked met or not, so that the page says which condition fails. A
    claim that does not qualify whose reasons name no unmet condition in the words above is shown
    unmarked rather than marked wrongly."""
    conditions = [Condition(reason, not any(words in reason for words in _NOT_MET)) for reason in claim.reasons]
    if not claim.qualifies and all(condition.met for condition in conditions):
        return [Condition(condition.words, None) for condition in conditions]
    return conditions


@dataclass(frozen=True)
class ClaimView:
    """A claim's evidence as every Bad Beat page shows it."""

    claim: BadBeatClaim
    board: list[dict[str, str]]
    losing: SeatedCards
    winning: SeatedCards
    round: Round | None
    game: str
    conditions: list[Condition]


def claim_view(claim: BadBeatClaim, rounds: dict[int, Round] | None = None) -> ClaimView:
    round_ = (rounds or {}).get(claim.round_id) if claim.round_id else None
    return ClaimView(
        claim=claim,
        board=card_faces(claim.board),
        losing=SeatedCards(claim.losing_seat, claim.losing_name, card_faces(claim.losing_hole), claim.losing_hand),
        winning=SeatedCards(claim.winning_seat, claim.winning_name, card_faces(claim.winning_hole), claim.winning_hand),
        round=round_,
        game=Game(claim.game).label if claim.game in Game.values else claim.game,
        conditions=conditions_of(claim),
    )


def _rounds_of(claims: Iterable[BadBeatClaim]) -> dict[int, Round]:
    return Round.objects.in_bulk([claim.round_id for claim in claims if claim.round_id])


# --- Open a claim ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Offer:
    """A table where a Bad Beat fund is offered now, with its game and the hands it pays."""

    jackpot: Jackpot
    table: Table
    game: str
    hands: str


def _offers(rooms: list[PokerRoom]) -> list[Offer]:
    """Each Bad Beat fund of each room and the tables that offer it under the rules in effect now."""
    now = timezone.now()
    funds = list(Jackpot.objects.filter(room__in=rooms, kind=JackpotKind.BAD_BEAT).order_by("room__code", "code"))
    tables = list(Table.objects.filter(room__in=rooms).order_by(Length("number"), "number"))
    offers = []
    for room in rooms:
        version = rules_version_in_effect(room=room, at=now)
        if version is None:
            continue
        for fund in (fund for fund in funds if fund.room_id == room.pk):
            rule = jackpot_rule_of_version(version=version, code=fund.code)
            if not isinstance(rule, BadBeatRule):
                continue
            listing = tables_listing(version=version, code=fund.code)
            for table in (table for table in tables if table.room_id == room.pk and table.number in listing):
                hands = rule.hands_for(listing[table.number])
                if hands:
                    offers.append(Offer(fund, table, listing[table.number], ", ".join(hand.name for hand in hands)))
    return offers


def _recent_rounds(table: Table) -> QuerySet[Round]:
    """The table's latest rounds that were not voided (a voided round has no winning hand, §637a.18(i))."""
    latest = list(
        Round.objects.filter(table=table, voided=False)
        .order_by("-ended_at", "-id")
        .values_list("pk", flat=True)[:RECENT_ROUNDS]
    )
    return Round.objects.filter(pk__in=latest).order_by("-ended_at", "-id")


@dataclass(frozen=True)
class Chosen:
    jackpot: Jackpot
    table: Table
    game: str


def _chosen(request: HttpRequest, values: Any) -> Chosen | None:
    """The fund and the table the claim is for, as the page carries them; a message when they are not
    a Bad Beat offered at that table now."""
    jackpot_id, table_id = str(values.get("jackpot", "")), str(values.get("table", ""))
    if not (jackpot_id.isdigit() and table_id.isdigit()):
        return None
    jackpot = visible_to(request.user, Jackpot.objects.select_related("room")).filter(pk=int(jackpot_id)).first()
    table = visible_to(request.user, Table.objects.select_related("room")).filter(pk=int(table_id)).first()
    if jackpot is None or table is None:
        messages.error(request, "That fund or table is not there any more: pick again.")
        return None
    try:
        offered = bad_beat_at_table(jackpot=jackpot, table=table, at=timezone.now())
    except BadBeatNotOffered as refused:
        messages.error(request, refused.message)
        return None
    return Chosen(jackpot, table, offered.game)


def _claim_form(chosen: Chosen, data: Any = None) -> ClaimForm:
    return ClaimForm(data, table=chosen.table, game=chosen.game, rounds=_recent_rounds(chosen.table))


def _claim_form_page(request: HttpRequest, chosen: Chosen, form: ClaimForm) -> HttpResponse:
    return render(request, CLAIM_TEMPLATE, {"form": form, "chosen": chosen})


@login_required
def claim_page(request: HttpRequest) -> HttpResponse:
    """A floorperson or above records a Bad Beat claimed at the table and signs (§637a.15(f)): first
    the fund and the table (those that offer it now), then the hand as seen: the board and each hand's
    hole cards on the card picker, the seat and name of everyone dealt in, the surveillance reference.

    The evaluator's verdict is recorded with the claim, qualifying or not: the page that follows shows
    it in words, and the shift supervisor decides. A refused claim records nothing and keeps what was
    entered."""
    if (refusal := refused_page(request, CLAIM_TEMPLATE, Action.BAD_BEAT_CLAIM)) is not None:
        return refusal
    values = request.POST if request.method == "POST" else request.GET
    chosen = _chosen(request, values)
    if chosen is None:
        if request.method == "POST":
            messages.error(request, "Nothing was recorded: pick the fund and the table of the claim.")
            return redirect("floor:bad-beat-claim")
        return render(request, CLAIM_TEMPLATE, {"offers": _offers(floor_rooms(request.user))})
    if request.method != "POST":
        return _claim_form_page(request, chosen, _claim_form(chosen))
    form = _claim_form(chosen, request.POST)
    if not form.is_valid():
        messages.error(request, f"Nothing was recorded: correct what is marked below.{pin_typo(form)}")
        return _claim_form_page(request, chosen, form)
    arguments = form.service_arguments()
    key = arguments["idempotency_key"]
    first = BadBeatClaim.objects.filter(idempotency_key=key).values_list("pk", flat=True).first()
    try:
        claim = claim_open(
            jackpot=chosen.jackpot,
            table=chosen.table,
            actor=acting_user(request),
            pin=form.cleaned_data["pin"],
            **arguments,
        )
    except IdempotencyKeyReused:
        messages.info(request, f"Claim {first} was already recorded by this form; it counts once.")
        return redirect("floor:bad-beat-claim-detail", claim_id=first)
    except DomainError as refused:
        messages.error(request, f"Nothing was recorded. {refused.message}")
        return _claim_form_page(request, chosen, form)
    if first is not None:
        messages.info(request, f"Claim {claim.pk} was already recorded by this form; it counts once.")
    else:
        verdict = "qualifies" if claim.qualifies else "does not qualify"
        said = (
            f"Claim {claim.pk} at table {claim.table.number} recorded and signed: it {verdict}. "
            "The poker shift supervisor decides it now."
        )
        # Recorded either way; a claim that does not qualify is said in the colour of a warning.
        if claim.qualifies:
            messages.success(request, said)
        else:
            messages.warning(request, said)
    return redirect("floor:bad-beat-claim-detail", claim_id=claim.pk)


# --- A claim and the list of claims ---------------------------------------------------------------


def _claim_with_everything() -> QuerySet[BadBeatClaim]:
    return BadBeatClaim.objects.select_related(
        "room", "jackpot", "table", "round", "opened_by", "decision__decided_by", "distribution__prepared_by"
    ).prefetch_related("distribution__shares__payment__paid_by")


@login_required
def claim_detail(request: HttpRequest, claim_id: int) -> HttpResponse:
    """A claim as recorded: the evaluator's verdict in words, the hands in words and as cards, who
    opened it, and where it is now (decision, distribution, payments)."""
    if (refusal := refused_page(request, CLAIM_PAGE_TEMPLATE, Action.BAD_BEAT_READ)) is not None:
        return refusal
    claim = visible_to(request.user, _claim_with_everything()).filter(pk=claim_id).first()
    if claim is None:
        messages.error(request, f"There is no Bad Beat claim {claim_id}.")
        return redirect("floor:bad-beat-claims")
    shares = list(claim.distribution.shares.all()) if hasattr(claim, "distribution") else []
    return render(
        request,
        CLAIM_PAGE_TEMPLATE,
        {
            "view": claim_view(claim, {claim.round.pk: claim.round} if claim.round else None),
            "shares": shares,
            "may_claim": may(acting_user(request), Action.BAD_BEAT_CLAIM),
        },
    )


@login_required
def claims_list(request: HttpRequest) -> HttpResponse:
    """The latest Bad Beat claims of every room, newest first, each with where it is."""
    if (refusal := refused_page(request, CLAIMS_TEMPLATE, Action.BAD_BEAT_READ)) is not None:
        return refusal
    claims = BadBeatClaim.objects.select_related("jackpot", "table", "opened_by").order_by("-opened_at", "-id")[
        :CLAIMS_LISTED
    ]
    return render(
        request,
        CLAIMS_TEMPLATE,
        {"claims": claims, "may_claim": may(acting_user(request), Action.BAD_BEAT_CLAIM)},
    )


# --- The shift supervisor's decision --------------------------------------------------------------


@dataclass
class ToDecide:
    view: ClaimView
    verify: VerifyForm | None
    deny: DenyForm
    opened_by_me: bool


def _decide_rows(user: User, bound: dict[int, forms.Form] | None = None) -> list[ToDecide]:
    claims = [claim for room in floor_rooms(user) for claim in claims_to_decide(room=room)]
    rounds = _rounds_of(claims)
    rows = []
    for claim in claims:
        posted = (bound or {}).get(claim.pk)
        verify = VerifyForm(auto_id=f"id_verify{claim.pk}_%s")
        deny = DenyForm(auto_id=f"id_deny{claim.pk}_%s")
        if isinstance(posted, VerifyForm):
            verify = posted
        elif isinstance(posted, DenyForm):
            deny = posted
        rows.append(
            ToDecide(
                view=claim_view(claim, rounds),
                verify=verify if claim.qualifies else None,  # a claim that does not qualify can only be denied
                deny=deny,
                opened_by_me=claim.opened_by_id == user.pk,
            )
        )
    return rows


def _decide_page(request: HttpRequest, bound: dict[int, forms.Form] | None = None) -> HttpResponse:
    return render(request, DECIDE_TEMPLATE, {"rows": _decide_rows(acting_user(request), bound)})


@login_required
def decide_page(request: HttpRequest) -> HttpResponse:
    """The claims awaiting the poker shift supervisor (§637a.15(f)), oldest first, each with its
    evidence and the evaluator's verdict: verify with the PIN, or deny with a reason and the PIN. A
    claim that does not qualify says why and can only be denied."""
    if (refusal := refused_page(request, DECIDE_TEMPLATE, Action.BAD_BEAT_VERIFY)) is not None:
        return refusal
    return _decide_page(request)


def _claim_or_back(request: HttpRequest, claim_id: int) -> BadBeatClaim | None:
    claim = visible_to(request.user, BadBeatClaim.objects.select_related("table")).filter(pk=claim_id).first()
    if claim is None:
        messages.error(request, f"There is no Bad Beat claim {claim_id}.")
    return claim


@login_required
@require_POST
def claim_verify_page(request: HttpRequest, claim_id: int) -> HttpResponse:
    if (refusal := refused_page(request, DECIDE_TEMPLATE, Action.BAD_BEAT_VERIFY)) is not None:
        return refusal
    if (claim := _claim_or_back(request, claim_id)) is None:
        return redirect("floor:bad-beat-decide")
    form = VerifyForm(request.POST, auto_id=f"id_verify{claim.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"Claim {claim.pk} was not verified: correct what is marked below.{pin_typo(form)}")
        return _decide_page(request, {claim.pk: form})
    try:
        decision = claim_verify(claim=claim, actor=acting_user(request), pin=form.cleaned_data["pin"])
    except DomainError as refused:
        messages.error(request, f"Claim {claim.pk} was not verified. {refused.message}")
        return _decide_page(request, {claim.pk: form})
    messages.success(
        request,
        f"Claim {claim.pk} at table {claim.table.number} verified: the payout is {display_cents(decision.payout_cents)} "
        f"(official {display_cents(decision.official_cents)}, owed before {display_cents(decision.owed_cents)}, "
        f"reserve {display_cents(decision.reserve_cents)}). The display board shows 'Pending adjustment' until finance "
        "adjusts it (§637a.15(f)(1)); security or finance delivers the payout (§637a.15(f)(2)).",
    )
    return redirect("floor:bad-beat-decide")


@login_required
@require_POST
def claim_deny_page(request: HttpRequest, claim_id: int) -> HttpResponse:
    if (refusal := refused_page(request, DECIDE_TEMPLATE, Action.BAD_BEAT_VERIFY)) is not None:
        return refusal
    if (claim := _claim_or_back(request, claim_id)) is None:
        return redirect("floor:bad-beat-decide")
    form = DenyForm(request.POST, auto_id=f"id_deny{claim.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"Claim {claim.pk} was not denied: correct what is marked below.{pin_typo(form)}")
        return _decide_page(request, {claim.pk: form})
    try:
        claim_deny(
            claim=claim, reason=form.cleaned_data["reason"], actor=acting_user(request), pin=form.cleaned_data["pin"]
        )
    except DomainError as refused:
        messages.error(request, f"Claim {claim.pk} was not denied. {refused.message}")
        return _decide_page(request, {claim.pk: form})
    messages.success(
        request, f"Claim {claim.pk} at table {claim.table.number} denied; it is kept with its evidence and the reason."
    )
    return redirect("floor:bad-beat-decide")


# --- The payouts to deliver -----------------------------------------------------------------------


@dataclass
class ShareRow:
    share: BadBeatShare
    payment: BadBeatPayment | None
    paid_by: User | None
    form: PayForm | None


@dataclass
class PayoutRow:
    view: ClaimView
    distribution: BadBeatDistribution | None
    shares: list[ShareRow]
    unpaid_cents: int


def _payout_rows(user: User, bound: dict[int, PayForm] | None = None) -> list[PayoutRow]:
    claims = [claim for room in floor_rooms(user) for claim in payouts_to_deliver(room=room)]
    rounds = _rounds_of(claims)
    places = sorted(payment_places(user))
    can_pay = may(user, Action.BAD_BEAT_PAY) and bool(places)
    distributions = {claim.pk: claim.distribution for claim in claims if hasattr(claim, "distribution")}
    shares_of = {claim_id: list(d.shares.all()) for claim_id, d in distributions.items()}
    payments = [share.payment for shares in shares_of.values() for share in shares if hasattr(share, "payment")]
    payers = User.objects.in_bulk({payment.paid_by_id for payment in payments})
    rows = []
    for claim in claims:
        share_rows = []
        for share in shares_of.get(claim.pk, []):
            payment = share.payment if hasattr(share, "payment") else None
            form = None
            if payment is None and can_pay:
                form = (bound or {}).get(share.pk) or PayForm(places=places, auto_id=f"id_share{share.pk}_%s")
            share_rows.append(ShareRow(share, payment, payers.get(payment.paid_by_id) if payment else None, form))
        rows.append(
            PayoutRow(
                view=claim_view(claim, rounds),
                distribution=distributions.get(claim.pk),
                shares=share_rows,
                unpaid_cents=sum(row.share.amount_cents for row in share_rows if row.payment is None),
            )
        )
    return rows


def _payouts_page(request: HttpRequest, bound: dict[int, PayForm] | None = None) -> HttpResponse:
    user = acting_user(request)
    return render(
        request,
        PAYOUTS_TEMPLATE,
        {
            "rows": _payout_rows(user, bound),
            "may_distribute": may(user, Action.BAD_BEAT_DISTRIBUTE),
        },
    )


@login_required
def payouts_page(request: HttpRequest) -> HttpResponse:
    """The verified Bad Beats not yet paid in full, oldest first (§637a.15(f)(2), (g)): each share,
    paid or to pay. Security delivers at the table, a cage cashier pays at the cage, finance either;
    each payment records the patron's identification and is signed with the PIN. A share at or above
    the tax reporting threshold is marked."""
    if (refusal := refused_page(request, PAYOUTS_TEMPLATE, Action.BAD_BEAT_PAY)) is not None:
        return refusal
    return _payouts_page(request)


@login_required
@require_POST
def share_pay_page(request: HttpRequest, share_id: int) -> HttpResponse:
    if (refusal := refused_page(request, PAYOUTS_TEMPLATE, Action.BAD_BEAT_PAY)) is not None:
        return refusal
    share = visible_to(request.user, BadBeatShare.objects.select_related("distribution")).filter(pk=share_id).first()
    if share is None:
        messages.error(request, f"There is no Bad Beat share {share_id}.")
        return redirect("floor:bad-beat-payouts")
    user = acting_user(request)
    form = PayForm(request.POST, places=sorted(payment_places(user)), auto_id=f"id_share{share.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"{share.name}'s share was not paid: correct what is marked below.{pin_typo(form)}")
        return _payouts_page(request, {share.pk: form})
    data = form.cleaned_data
    try:
        payment = share_pay(
            share=share,
            id_type=data["id_type"],
            id_number=data["id_number"],
            place=data["place"],
            actor=user,
            pin=data["pin"],
            idempotency_key=data["idempotency_key"],
        )
    except DomainError as refused:
        messages.error(request, f"{share.name}'s share was not paid. {refused.message}")
        return _payouts_page(request, {share.pk: form})
    reportable = " It is tax-reportable: complete the tax form with the patron." if payment.tax_reportable else ""
    messages.success(
        request,
        f"{display_cents(share.amount_cents)} paid to {payment.patron_name} (seat {share.seat}), "
        f"{payment.get_place_display().lower()}, {payment.id_type} {payment.id_number}.{reportable}",
    )
    return redirect("floor:bad-beat-payouts")


# --- The witness of a display adjustment ----------------------------------------------------------


def _witness_rows(
    user: Any, bound: tuple[int, WitnessForm] | None = None
) -> list[tuple[DisplayAdjustment, WitnessForm]]:
    rows = []
    for room in floor_rooms(user):
        for adjustment in adjustments_to_witness(room=room):
            if bound is not None and bound[0] == adjustment.pk:
                rows.append((adjustment, bound[1]))
            else:
                rows.append((adjustment, WitnessForm(auto_id=f"id_adjustment{adjustment.pk}_%s")))
    return rows


@login_required
def witness_page(request: HttpRequest) -> HttpResponse:
    """The display adjustments no floorperson or above has witnessed yet (§637a.15(h)(1): 'in the
    presence of a floorperson or above'): the one present signs each; never the one who adjusted."""
    if (refusal := refused_page(request, WITNESS_TEMPLATE, Action.DISPLAY_WITNESS)) is not None:
        return refusal
    return render(request, WITNESS_TEMPLATE, {"rows": _witness_rows(request.user)})


@login_required
@require_POST
def witness_sign(request: HttpRequest, adjustment_id: int) -> HttpResponse:
    if (refusal := refused_page(request, WITNESS_TEMPLATE, Action.DISPLAY_WITNESS)) is not None:
        return refusal
    adjustment = (
        visible_to(request.user, DisplayAdjustment.objects.select_related("jackpot", "witnessed_by"))
        .filter(pk=adjustment_id)
        .first()
    )
    if adjustment is None:
        messages.error(request, f"There is no display adjustment {adjustment_id}.")
        return redirect("floor:bad-beat-witness")
    form = WitnessForm(request.POST, auto_id=f"id_adjustment{adjustment.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"The adjustment was not witnessed: correct what is marked below.{pin_typo(form)}")
        return render(request, WITNESS_TEMPLATE, {"rows": _witness_rows(request.user, (adjustment.pk, form))})
    try:
        display_witness(adjustment=adjustment, actor=acting_user(request), pin=form.cleaned_data["pin"])
    except DomainError as refused:
        messages.error(request, f"The adjustment was not witnessed. {refused.message}")
        return render(request, WITNESS_TEMPLATE, {"rows": _witness_rows(request.user, (adjustment.pk, form))})
    messages.success(
        request,
        f"You witnessed the {adjustment.jackpot.name} display set to {display_cents(adjustment.amount_cents)}.",
    )
    return redirect("floor:bad-beat-witness")


# --- Finance: the funds, their display and the distributions --------------------------------------


@dataclass
class FundRow:
    position: Any  # jackpots.bad_beat.selectors.FundPosition
    form: AdjustForm


@dataclass
class DistributionRow:
    claim: BadBeatClaim
    form: DistributeForm


def _funds_page(
    request: HttpRequest,
    *,
    adjust: tuple[int, AdjustForm] | None = None,
    distribute: tuple[int, DistributeForm] | None = None,
) -> HttpResponse:
    rooms = floor_rooms(request.user)
    funds = list(
        Jackpot.objects.filter(room__in=rooms, kind=JackpotKind.BAD_BEAT)
        .select_related("room")
        .order_by("room__code", "code")
    )
    positions = fund_positions(jackpots=funds)
    fund_rows = [
        FundRow(
            positions[fund.pk],
            adjust[1] if adjust and adjust[0] == fund.pk else AdjustForm(auto_id=f"id_fund{fund.pk}_%s"),
        )
        for fund in funds
    ]
    verified = (
        BadBeatClaim.objects.filter(room__in=rooms, status=ClaimStatus.VERIFIED)
        .select_related("jackpot", "table", "decision")
        .order_by("opened_at", "pk")
    )
    distribution_rows = [
        DistributionRow(
            claim,
            distribute[1]
            if distribute and distribute[0] == claim.pk
            else DistributeForm(auto_id=f"id_claim{claim.pk}_%s"),
        )
        for claim in verified
    ]
    unwitnessed = [adjustment for room in rooms for adjustment in adjustments_to_witness(room=room)]
    return render(
        request,
        FUNDS_TEMPLATE,
        {"funds": fund_rows, "to_distribute": distribution_rows, "unwitnessed": unwitnessed},
    )


@login_required
def funds_page(request: HttpRequest) -> HttpResponse:
    """Finance on the tablet: each Bad Beat fund's official record, what verified claims owe from it,
    what is available, what the display shows and whether they match (§637a.15(h)(2)); adjust a
    display (§637a.15(h)(1)) and prepare the distribution of each verified claim (§637a.15(g))."""
    if (refusal := refused_page(request, FUNDS_TEMPLATE, Action.DISPLAY_ADJUST)) is not None:
        return refusal
    return _funds_page(request)


@login_required
@require_POST
def display_adjust_page(request: HttpRequest, jackpot_id: int) -> HttpResponse:
    if (refusal := refused_page(request, FUNDS_TEMPLATE, Action.DISPLAY_ADJUST)) is not None:
        return refusal
    jackpot = visible_to(request.user, Jackpot.objects.select_related("room")).filter(pk=jackpot_id).first()
    if jackpot is None:
        messages.error(request, f"There is no jackpot fund {jackpot_id}.")
        return redirect("floor:bad-beat-funds")
    form = AdjustForm(request.POST, auto_id=f"id_fund{jackpot.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"The display was not adjusted: correct what is marked below.{pin_typo(form)}")
        return _funds_page(request, adjust=(jackpot.pk, form))
    try:
        adjustment = display_adjust(
            jackpot=jackpot,
            actor=acting_user(request),
            pin=form.cleaned_data["pin"],
            idempotency_key=form.cleaned_data["idempotency_key"],
        )
    except DomainError as refused:
        messages.error(request, f"The display was not adjusted. {refused.message}")
        return _funds_page(request, adjust=(jackpot.pk, form))
    messages.success(
        request,
        f"The {jackpot.name} display shows {display_cents(adjustment.amount_cents)} once the floorperson or above "
        "present signs as witness on their tablet (§637a.15(h)(1)); until then it shows what it showed.",
    )
    return redirect("floor:bad-beat-funds")


@login_required
@require_POST
def distribution_prepare_page(request: HttpRequest, claim_id: int) -> HttpResponse:
    if (refusal := refused_page(request, FUNDS_TEMPLATE, Action.BAD_BEAT_DISTRIBUTE)) is not None:
        return refusal
    if (claim := _claim_or_back(request, claim_id)) is None:
        return redirect("floor:bad-beat-funds")
    form = DistributeForm(request.POST, auto_id=f"id_claim{claim.pk}_%s")
    if not form.is_valid():
        messages.error(request, f"Nothing was distributed: correct what is marked below.{pin_typo(form)}")
        return _funds_page(request, distribute=(claim.pk, form))
    try:
        distribution = distribution_prepare(
            claim=claim,
            actor=acting_user(request),
            pin=form.cleaned_data["pin"],
            idempotency_key=form.cleaned_data["idempotency_key"],
            method=form.cleaned_data["method"],
        )
    except DomainError as refused:
        messages.error(request, f"Claim {claim.pk} was not distributed. {refused.message}")
        return _funds_page(request, distribute=(claim.pk, form))
    messages.success(
        request,
        f"Distribution of claim {claim.pk} prepared: {display_cents(distribution.total_cents)} in "
        f"{distribution.shares.count()} shares, {distribution.get_method_display().lower()}. Its shares are in "
        "the payouts to deliver.",
    )
    return redirect(reverse("floor:bad-beat-funds"))
