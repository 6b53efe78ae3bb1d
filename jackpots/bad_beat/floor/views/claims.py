"""Tablet pages of a Bad Beat claim (§637a.15(f)): a floorperson or above opens one at the table; a claim
and the list of claims."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.db.models.functions import Length
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.floor.pages import pin_typo, refused_page
from casino_backoffice.core.idempotency import IdempotencyKeyReused
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.bad_beat.exceptions import BadBeatNotOffered
from jackpots.bad_beat.floor.forms import ClaimForm
from jackpots.bad_beat.floor.views.common import claim_view
from jackpots.bad_beat.models import BadBeatClaim
from jackpots.bad_beat.rules import BadBeatRule
from jackpots.bad_beat.selectors import bad_beat_at_table
from jackpots.bad_beat.services.claims import claim_open
from jackpots.funds.floor import RECENT_ROUNDS, floor_rooms
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.selectors import jackpot_rule_of_version, tables_listing
from tables.models import PokerRoom, Round, Table
from tables.selectors import rules_version_in_effect, visible_to

CLAIM_TEMPLATE = "jackpots/floor/claim.html"
CLAIM_PAGE_TEMPLATE = "jackpots/floor/claim_page.html"
CLAIMS_TEMPLATE = "jackpots/floor/claims.html"


# The claims the list of claims shows, newest first.
CLAIMS_LISTED = 40


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
