"""Reads about the Bad Beat: the rules that offer it at a table, each fund's position (official, owed,
available, displayed, pending) and the queues of the shift supervisor, of security and finance, and of
who witnesses a display adjustment."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Exists, OuterRef, Q, Subquery, Sum

from casino_backoffice.ledger.models import Account
from casino_backoffice.ledger.selectors import account_balances
from casino_backoffice.money import percent_floor
from jackpots.bad_beat.exceptions import BadBeatNotOffered
from jackpots.bad_beat.models import (
    BadBeatClaim,
    BadBeatDecision,
    BadBeatShare,
    ClaimStatus,
    DecisionOutcome,
    DisplayAdjustment,
)
from jackpots.bad_beat.rules import BadBeatHand, BadBeatRule
from jackpots.funds.accounts import jackpot_fund_account
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.selectors import jackpot_rule_of_version, tables_listing
from tables.models import PokerRoom, RulesVersion, Table
from tables.selectors import rules_version_in_effect


@dataclass(frozen=True)
class BadBeatAtTable:
    """A Bad Beat as the rules in effect offer it at a table: the version, the fund's rules, the game."""

    version: RulesVersion
    rule: BadBeatRule
    game: str


def bad_beat_at_table(*, jackpot: Jackpot, table: Table, at: datetime) -> BadBeatAtTable:
    """The posted Bad Beat rules of ``jackpot`` at ``table`` at ``at`` (§637a.15(b)), or
    ``BadBeatNotOffered`` saying why not: no rules in effect, not a Bad Beat, the table does not
    offer it, or no hand of it is one the evaluator checks at the table's game."""
    if jackpot.kind != JackpotKind.BAD_BEAT:
        raise BadBeatNotOffered(f"Jackpot {jackpot.code} is a {jackpot.get_kind_display()} fund, not a Bad Beat.")
    if table.room_id != jackpot.room_id:
        raise BadBeatNotOffered(f"Table {table.number} is not in the room of jackpot {jackpot.code}.")
    version = rules_version_in_effect(room=table.room, at=at)
    if version is None:
        raise BadBeatNotOffered(f"No rules of room {table.room.code} were in effect at {at.isoformat()}.")
    rule = jackpot_rule_of_version(version=version, code=jackpot.code)
    listing = tables_listing(version=version, code=jackpot.code)
    if not isinstance(rule, BadBeatRule) or table.number not in listing:
        raise BadBeatNotOffered(
            f"Table {table.number} did not offer the {jackpot.name} ({jackpot.code}) under rules version "
            f"{version.number} in effect at {at.isoformat()}."
        )
    game = listing[table.number]
    if not rule.hands_for(game):
        raise BadBeatNotOffered(f"No Bad Beat hand of {jackpot.code} applies to {game} at table {table.number}.")
    return BadBeatAtTable(version=version, rule=rule, game=game)


# --- Each fund's position -------------------------------------------------------------------------


@dataclass(frozen=True)
class FundPosition:
    """Where a fund stands.

    ``official_cents``: the fund's balance in the ledger, what cage verifications made official less
    what was paid and transferred (§637a.15(e)). ``owed_cents``: what verified claims still owe from
    it (verified, not yet paid). ``available_cents``: the difference, the current payout amount the
    display must show (§637a.15(h)(1)). ``displayed_cents``: what the latest display adjustment that
    took effect set, signed by finance and by the floorperson or above who witnessed it (None: never
    adjusted). ``pending``: a claim was verified after that adjustment was set (§637a.15(f)(1): 'pending
    adjustment due to a Bad Beat payout'), so an adjustment awaiting its witness leaves it pending.
    """

    jackpot: Jackpot
    official_cents: int
    owed_cents: int
    displayed_cents: int | None
    pending: bool

    @property
    def available_cents(self) -> int:
        return self.official_cents - self.owed_cents

    @property
    def display_matches(self) -> bool:
        """§637a.15(h)(2): the amount the finance department keeps corresponds to the amount displayed."""
        return self.displayed_cents == self.available_cents


def fund_positions(*, jackpots: Iterable[Jackpot]) -> dict[int, FundPosition]:
    """The position of each fund, in a fixed number of queries however many funds."""
    funds = list(jackpots)
    ids = [jackpot.pk for jackpot in funds]
    codes = {jackpot.pk: jackpot_fund_account(jackpot=jackpot).code for jackpot in funds}
    accounts = {account.code: account for account in Account.objects.filter(code__in=codes.values())}
    balances = account_balances(accounts=accounts.values())
    open_claims = {"claim__status__in": (ClaimStatus.VERIFIED, ClaimStatus.DISTRIBUTED)}
    committed = (
        BadBeatDecision.objects.filter(claim__jackpot=OuterRef("pk"), outcome=DecisionOutcome.VERIFIED, **open_claims)
        .values("claim__jackpot")
        .annotate(total=Sum("payout_cents"))
        .values("total")
    )
    paid = (
        BadBeatShare.objects.filter(
            distribution__claim__jackpot=OuterRef("pk"),
            distribution__claim__status=ClaimStatus.DISTRIBUTED,
            payment__isnull=False,
        )
        .values("distribution__claim__jackpot")
        .annotate(total=Sum("amount_cents"))
        .values("total")
    )
    # What the display shows: the latest adjustment that took effect, with both signatures (§637a.15(h)(1)).
    latest = DisplayAdjustment.objects.filter(jackpot=OuterRef("pk"), witnessed_at__isnull=False).order_by(
        "-adjusted_at", "-id"
    )
    verified = BadBeatDecision.objects.filter(claim__jackpot=OuterRef("pk"), outcome=DecisionOutcome.VERIFIED).order_by(
        "-decided_at"
    )
    # One query for every fund: what verified claims committed and what was paid of it, the latest
    # adjustment and the latest verification.
    display = {
        row["pk"]: row
        for row in Jackpot.objects.filter(pk__in=ids)
        .annotate(
            committed=Subquery(committed),
            paid=Subquery(paid),
            displayed=Subquery(latest.values("amount_cents")[:1]),
            adjusted_at=Subquery(latest.values("adjusted_at")[:1]),
            verified_at=Subquery(verified.values("decided_at")[:1]),
        )
        .values("pk", "committed", "paid", "displayed", "adjusted_at", "verified_at")
    }
    positions = {}
    for jackpot in funds:
        account = accounts.get(codes[jackpot.pk])
        row = display[jackpot.pk]
        verified_at, adjusted_at = row["verified_at"], row["adjusted_at"]
        positions[jackpot.pk] = FundPosition(
            jackpot=jackpot,
            official_cents=balances[account.pk] if account is not None else 0,
            owed_cents=(row["committed"] or 0) - (row["paid"] or 0),
            displayed_cents=row["displayed"],
            pending=verified_at is not None and (adjusted_at is None or verified_at > adjusted_at),
        )
    return positions


def fund_position(*, jackpot: Jackpot) -> FundPosition:
    return fund_positions(jackpots=[jackpot])[jackpot.pk]


# --- A claim's payout ------------------------------------------------------------------------------


def bad_beat_hand_of(claim: BadBeatClaim) -> tuple[BadBeatRule, BadBeatHand]:
    """The fund's posted rules and the hand the claim was checked against, from the claim's version."""
    rule = jackpot_rule_of_version(version=claim.rules_version, code=claim.jackpot.code)
    assert isinstance(rule, BadBeatRule)
    return rule, next(hand for hand in rule.hands if hand.code == claim.hand_code)


@dataclass(frozen=True)
class PayoutFigures:
    """What verifying a claim pays, and from what: the fund's official balance, less what earlier
    verified claims still owe (``available_cents``, never below zero), less the reserve the posted rules
    keep back for the next jackpot, times the hand's posted payout percentage."""

    official_cents: int
    owed_cents: int
    available_cents: int
    reserve_bp: int
    reserve_cents: int
    payout_bp: int
    payout_cents: int


def claim_payout_figures(*, claim: BadBeatClaim, position: FundPosition | None = None) -> PayoutFigures:
    """The payout a claim's verification makes on the fund as it stands (§637a.15(f)): the reserve is
    rounded down to the cent of what stays in play, so the reserve keeps the odd cent; the payout is
    rounded down, what is left stays in the fund. The supervisor's page shows it before signing;
    ``claim_verify`` computes it again under the fund's lock, and that is the payout. ``position``: the
    fund's, when a page has read the positions of several funds at once (``fund_positions``)."""
    position = position or fund_position(jackpot=claim.jackpot)
    rule, hand = bad_beat_hand_of(claim)
    available = max(position.available_cents, 0)
    reserve = available - percent_floor(available, 10_000 - rule.reserve_bp)
    return PayoutFigures(
        official_cents=position.official_cents,
        owed_cents=position.owed_cents,
        available_cents=available,
        reserve_bp=rule.reserve_bp,
        reserve_cents=reserve,
        payout_bp=hand.payout_bp,
        payout_cents=percent_floor(available - reserve, hand.payout_bp),
    )


# --- The Bad Beat queues --------------------------------------------------------------------------


def payouts_to_deliver(*, room: PokerRoom) -> list[BadBeatClaim]:
    """The verified Bad Beats of a room not yet paid in full, oldest first: the queue of security and
    finance (§637a.15(f)(2): 'Notify a representative from the security department or finance
    department to deliver to the Poker table the applicable amount'). A claim still awaiting its
    distribution is listed too, so that who delivers sees it coming; a claim verified when the fund held
    nothing official (a payout of $0.00) has nothing to deliver and is not."""
    return list(
        BadBeatClaim.objects.filter(room=room, status__in=(ClaimStatus.VERIFIED, ClaimStatus.DISTRIBUTED))
        .exclude(decision__payout_cents=0)
        .select_related("room", "jackpot", "table", "decision", "distribution")
        .prefetch_related("distribution__shares__payment")
        .order_by("opened_at", "pk")
    )


def claims_to_decide(*, room: PokerRoom) -> list[BadBeatClaim]:
    """The claims of a room awaiting the shift supervisor, oldest first."""
    return list(
        BadBeatClaim.objects.filter(room=room, status=ClaimStatus.CLAIMED)
        .select_related("room", "jackpot", "table", "opened_by", "rules_version")
        .order_by("opened_at", "pk")
    )


def adjustments_to_witness(*, room: PokerRoom) -> list[DisplayAdjustment]:
    """Display adjustments of a room that no floorperson or above has signed as witness yet, each the
    latest of its fund: one that finance set again since is superseded and never takes effect."""
    newer = DisplayAdjustment.objects.filter(jackpot=OuterRef("jackpot")).filter(
        Q(adjusted_at__gt=OuterRef("adjusted_at")) | Q(adjusted_at=OuterRef("adjusted_at"), pk__gt=OuterRef("pk"))
    )
    return list(
        DisplayAdjustment.objects.filter(room=room, witnessed_by__isnull=True)
        .exclude(Exists(newer))
        .select_related("room", "jackpot", "adjusted_by")
        .order_by("adjusted_at", "pk")
    )
