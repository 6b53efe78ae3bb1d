"""Reads of the Bad Beat (§637a.15) for its reports: the posted rules and each table's notice of
eligibility (b), the display check (h)(2), the fund statement, and the claim file for the regulator.

Everything here reads; the words come from where the rules live (the rules version in effect, read by
``jackpot_rule_of_version``; the evaluator's own names of hands; the distribution's ``LEFTOVER_RULE``)
so that what is posted is what is applied. ``jackpots.bad_beat.exports`` turns these into CSV and XLSX, the
admin into pages and PDFs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import OuterRef, Q, QuerySet, Subquery, Sum

from casino_backoffice.ledger.models import Account, Transfer, TransferKind
from casino_backoffice.money import display_percent
from casino_backoffice.staff.selectors import SignatureLine, signature_key, signature_lines
from jackpots.bad_beat.models import (
    BadBeatClaim,
    BadBeatDecision,
    BadBeatDistribution,
    BadBeatPayment,
    BadBeatShare,
    DisplayAdjustment,
    DisplayOverdue,
)
from jackpots.bad_beat.rules import BAD_BEAT_GAMES, BadBeatHand, BadBeatRule
from jackpots.bad_beat.selectors import FundPosition, fund_positions
from jackpots.bad_beat.services.payouts import LEFTOVER_RULE
from jackpots.funds.accounts import jackpot_fund_account
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.reports import (
    card_words,
    contribution_words,
    game_words,
    maximum_contribution_cents,
    minimum_pot_words,
)
from jackpots.funds.selectors import jackpot_rule_of_version, tables_listing
from tables.models import PokerRoom, RulesVersion
from tables.selectors import gaming_day, gaming_day_bounds, rules_version_in_effect

_SHARE_WORDS = {
    "losing_hand": "the losing hand",
    "winning_hand": "the winning hand",
    "table_share": "the table share, split equally among every other player dealt in",
}


# --- The posted rules (§637a.15(b)) ----------------------------------------------------------------


@dataclass(frozen=True)
class PostedHand:
    """One Bad Beat hand as posted (§637a.15(b)(3)): what qualifies and what it pays, in words."""

    hand: BadBeatHand
    games: tuple[str, ...]  # the games' names
    minimum: str  # the evaluator's words for the lowest losing hand that qualifies
    requirements: tuple[str, ...]
    payout: str
    shares: tuple[tuple[str, str], ...]  # (who, percent)


def posted_hand(hand: BadBeatHand, rule: BadBeatRule, *, game: str | None = None) -> PostedHand:
    """The qualifying requirements and the payout of ``hand`` in words, from its qualifier; at one
    ``game`` (a table's notice), only what applies there."""
    qualifier = hand.qualifier
    minimum = str(qualifier.minimum)
    requirements = [
        f'The losing hand is at least "{minimum}" and loses to a better hand: a tie does not qualify.',
    ]
    games = hand.games if game is None else (game,)
    if "holdem" in games and qualifier.both_hole_cards_play:
        where = f"At {game_words('holdem')}, both" if game is None else "Both"
        requirements.append(f"{where} of the losing hand's hole cards play in it.")
    if any(omaha in games for omaha in BAD_BEAT_GAMES if omaha != "holdem"):
        where = "At Omaha, every" if game is None else "Every"
        requirements.append(
            f"{where} hand uses exactly two of its hole cards and three cards of the board (§637a.12(k))."
        )
    requirements.append(
        f"At least {qualifier.min_players_dealt} players dealt in, the losing and the winning hand included."
    )
    if game is None:
        requirements.append(f"Played at: {', '.join(game_words(game) for game in hand.games)}.")
    if rule.reserve_bp:
        payout = (
            f"{display_percent(hand.payout_bp)} of the current amount after {display_percent(rule.reserve_bp)} of it "
            "is kept back for the next jackpot, rounded down to the cent; what is not paid stays in the fund."
        )
    else:
        payout = (
            f"{display_percent(hand.payout_bp)} of the current amount, rounded down to the cent; what is not paid "
            "stays in the fund."
        )
    shares = tuple(
        (_SHARE_WORDS[name], display_percent(bp))
        for name, bp in sorted(hand.shares_bp.items(), key=lambda item: list(_SHARE_WORDS).index(item[0]))
    )
    return PostedHand(
        hand=hand,
        games=tuple(game_words(game) for game in hand.games),
        minimum=minimum,
        requirements=tuple(requirements),
        payout=payout,
        shares=shares,
    )


@dataclass(frozen=True)
class PostedBadBeat:
    """A Bad Beat fund's posted rules (§637a.15(b)) under one rules version, with its current amount."""

    jackpot: Jackpot
    version: RulesVersion
    rule: BadBeatRule
    tables: dict[str, str]  # table number -> the game's name
    position: FundPosition
    hands: tuple[PostedHand, ...]

    @property
    def contribution(self) -> str:
        return contribution_words(self.rule.contribution)

    @property
    def maximum_contribution_cents(self) -> int:
        return maximum_contribution_cents(self.rule.contribution)

    @property
    def minimum_pot(self) -> str:
        return minimum_pot_words(self.rule.contribution)

    @property
    def reserve(self) -> str:
        if not self.rule.reserve_bp:
            return "Nothing is kept back: a hand pays its percentage of the whole current amount."
        return (
            f"{display_percent(self.rule.reserve_bp)} of the current amount is kept back from each payout to start the "
            "next jackpot (the reserve keeps the odd cent)."
        )

    @property
    def order(self) -> str:
        """Which hand pays when a claim qualifies for more than one (``claim_evaluate``: the first, in order)."""
        if len(self.hands) < 2:
            return ""
        return "A hand that qualifies for more than one of these is paid as the first of them listed here."

    @property
    def current_cents(self) -> int | None:
        """The current amount as displayed to patrons (§637a.15(h)); None: never displayed yet."""
        return self.position.displayed_cents

    @property
    def leftover_rule(self) -> str:
        return LEFTOVER_RULE

    @property
    def display_adjustment(self) -> str:
        """§637a.15(f)(1), (h): when the display is adjusted after a verification, by the limit the rules
        post (``display_adjust_within_minutes``) or, without one, in the regulation's word."""
        minutes = self.rule.display_adjust_within_minutes
        when = (
            "immediately upon the verification"
            if minutes is None
            else f"within {minutes} minute{'s' if minutes != 1 else ''} of the verification"
        )
        return (
            "After a Bad Beat is verified the display shows 'pending adjustment' until finance adjusts it to the "
            f"current amount in the presence of a floorperson or above, {when}; and at least once every gaming day "
            "(§637a.15(f)(1), (h))."
        )

    @property
    def discontinuation(self) -> str:
        approval = self.rule.discontinuation
        if approval is None:
            return "No approval of the procedures for discontinuing it is on file: no table may offer it (§637a.15(i))."
        return (
            f"The Executive Director approved the procedures for discontinuing this Bad Beat on "
            f"{approval.approved_on.isoformat()} ({approval.reference}) (§637a.15(i))."
        )


@dataclass(frozen=True)
class PostedRules:
    """The Bad Beat rules a room posts, from the rules version in effect at ``at``."""

    room: PokerRoom
    at: datetime
    version: RulesVersion | None
    bad_beats: tuple[PostedBadBeat, ...]


def posted_rules(*, room: PokerRoom, at: datetime) -> PostedRules:
    """Every Bad Beat of the rules version in effect in ``room`` at ``at``, in the file's order, as
    posted (§637a.15(b)): the contribution and its method (b)(1), the minimum pot (b)(2), each hand's
    qualifying requirements and payout (b)(3), the reserve, how shares split and where the odd cents
    go, the current amount, when the display is adjusted after a verification (§637a.15(h)) and the
    discontinuation approval (§637a.15(i))."""
    version = rules_version_in_effect(room=room, at=at)
    if version is None:
        return PostedRules(room=room, at=at, version=None, bad_beats=())
    codes = [item["code"] for item in version.content.get("jackpots", []) if item.get("kind") == JackpotKind.BAD_BEAT]
    funds = {jackpot.code: jackpot for jackpot in Jackpot.objects.filter(room=room, code__in=codes)}
    positions = fund_positions(jackpots=funds.values())
    bad_beats = []
    for code in codes:
        rule = jackpot_rule_of_version(version=version, code=code)
        if not isinstance(rule, BadBeatRule) or code not in funds:
            continue
        bad_beats.append(
            PostedBadBeat(
                jackpot=funds[code],
                version=version,
                rule=rule,
                tables={
                    number: game_words(game)
                    for number, game in sorted(tables_listing(version=version, code=code).items())
                },
                position=positions[funds[code].pk],
                hands=tuple(posted_hand(hand, rule) for hand in rule.hands),
            )
        )
    return PostedRules(room=room, at=at, version=version, bad_beats=tuple(bad_beats))


@dataclass(frozen=True)
class TableNotice:
    """The notice of eligibility at one table (§637a.15(b)): the Bad Beats it offers and the hands
    that apply to its game."""

    number: str
    game: str
    offers: tuple[tuple[PostedBadBeat, tuple[PostedHand, ...]], ...]


def table_notices(*, rules: PostedRules) -> list[TableNotice]:
    """One notice per table that offers a Bad Beat under the rules in effect, by table number."""
    if rules.version is None:
        return []
    games = {entry["number"]: entry["game"] for entry in rules.version.content.get("tables", [])}
    offers: dict[str, list[tuple[PostedBadBeat, tuple[PostedHand, ...]]]] = defaultdict(list)
    for bad_beat in rules.bad_beats:
        for number in bad_beat.tables:
            game = games[number]
            hands = tuple(
                posted_hand(posted.hand, bad_beat.rule, game=game)
                for posted in bad_beat.hands
                if game in posted.hand.games
            )
            if hands:
                offers[number].append((bad_beat, hands))
    return [
        TableNotice(number=number, game=game_words(games[number]), offers=tuple(offers[number]))
        for number in sorted(offers)
    ]


# --- The display check (§637a.15(h)(2)) ----------------------------------------------------------

# How far back the display check lists the days flagged without an adjustment.
OVERDUE_SHOWN_DAYS = 31


@dataclass(frozen=True)
class DisplayCheckRow:
    """One Bad Beat fund: the finance record against what patrons see, the latest adjustment and the
    days flagged without one."""

    jackpot: Jackpot
    position: FundPosition
    latest: DisplayAdjustment | None
    overdue: tuple[date, ...]
    offered: bool

    @property
    def state(self) -> str:
        if self.position.displayed_cents is None:
            return "never displayed"
        if not self.position.display_matches:
            return "does not match"
        return "matches"


def display_check(*, rooms: Iterable[PokerRoom], at: datetime) -> dict[PokerRoom, list[DisplayCheckRow]]:
    """Every Bad Beat fund of each room (§637a.15(h)(2)): its official record, what verified claims
    owe, the finance record (available), the amount displayed, whether they match, the pending
    notice, the latest adjustment and the days of the last month flagged without one. A fixed number
    of queries per room."""
    rooms = list(rooms)
    funds = list(
        Jackpot.objects.filter(room__in=rooms, kind=JackpotKind.BAD_BEAT).select_related("room").order_by("code")
    )
    positions = fund_positions(jackpots=funds)
    newest = DisplayAdjustment.objects.filter(jackpot=OuterRef("pk")).order_by("-adjusted_at", "-id")
    latest_ids = Jackpot.objects.filter(pk__in=[fund.pk for fund in funds]).annotate(
        latest=Subquery(newest.values("pk")[:1])
    )
    latest = {
        adjustment.jackpot_id: adjustment
        for adjustment in DisplayAdjustment.objects.filter(
            pk__in=[pk for pk in latest_ids.values_list("latest", flat=True) if pk is not None]
        ).select_related("adjusted_by", "witnessed_by")
    }
    overdue: dict[int, list[date]] = defaultdict(list)
    since = {room.pk: gaming_day(room=room, at=at) - timedelta(days=OVERDUE_SHOWN_DAYS) for room in rooms}
    flags = DisplayOverdue.objects.filter(jackpot__in=funds, gaming_day__gte=min(since.values(), default=date.min))
    for flag in flags.select_related("jackpot").order_by("-gaming_day"):
        if flag.gaming_day >= since[flag.jackpot.room_id]:
            overdue[flag.jackpot_id].append(flag.gaming_day)
    versions = {room.pk: rules_version_in_effect(room=room, at=at) for room in rooms}
    checked: dict[PokerRoom, list[DisplayCheckRow]] = {room: [] for room in rooms}
    for jackpot in funds:
        version = versions[jackpot.room_id]
        checked[jackpot.room].append(
            DisplayCheckRow(
                jackpot=jackpot,
                position=positions[jackpot.pk],
                latest=latest.get(jackpot.pk),
                overdue=tuple(overdue[jackpot.pk]),
                offered=version is not None and bool(tables_listing(version=version, code=jackpot.code)),
            )
        )
    return checked


# --- The fund statement ---------------------------------------------------------------------------


class Movement:
    """What a movement of a fund's official money is, on the statement."""

    CONTRIBUTION = "Contribution made official"
    PAYOUT = "Payout to a patron"
    TRANSFER_IN = "Transfer in from a discontinued fund"
    TRANSFER_OUT = "Transfer out to another Bad Beat"
    OTHER = "Other movement"


@dataclass(frozen=True)
class StatementLine:
    transfer: Transfer
    gaming_day: date
    movement: str
    cents: int  # into the fund (+) or out of it (-)
    balance_cents: int  # the fund's official balance after it

    @property
    def into_cents(self) -> int | None:
        return self.cents if self.cents > 0 else None

    @property
    def out_cents(self) -> int | None:
        return -self.cents if self.cents < 0 else None

    @property
    def document(self) -> str:
        transfer = self.transfer
        if transfer.reference_type is None:
            return ""
        return f"{transfer.reference_type.name} {transfer.reference_id}"


@dataclass(frozen=True)
class FundStatement:
    """A fund's official money over the gaming days ``start`` to ``end`` (inclusive): what it held
    when the first began, each movement, what it held when the last ended; and the display's
    adjustments over the same days (§637a.15(h))."""

    jackpot: Jackpot
    account_code: str
    start: date
    end: date
    starts_at: datetime
    ends_at: datetime
    opening_cents: int
    lines: tuple[StatementLine, ...]
    adjustments: tuple[DisplayAdjustment, ...]

    def _total(self, movement: str) -> int:
        return sum(line.cents for line in self.lines if line.movement == movement)

    @property
    def contributions_cents(self) -> int:
        return self._total(Movement.CONTRIBUTION)

    @property
    def payouts_cents(self) -> int:
        return self._total(Movement.PAYOUT)

    @property
    def transfers_in_cents(self) -> int:
        return self._total(Movement.TRANSFER_IN)

    @property
    def transfers_out_cents(self) -> int:
        return self._total(Movement.TRANSFER_OUT)

    @property
    def other_cents(self) -> int:
        return self._total(Movement.OTHER)

    @property
    def movements_cents(self) -> int:
        return sum(line.cents for line in self.lines)

    @property
    def closing_cents(self) -> int:
        return self.opening_cents + self.movements_cents

    def summary(self) -> list[tuple[str, int]]:
        """The statement in one column: opening, each kind of movement, closing."""
        return [
            ("Opening balance", self.opening_cents),
            ("Contributions made official (cage verifications)", self.contributions_cents),
            ("Payouts to patrons", self.payouts_cents),
            ("Transfers in from discontinued funds", self.transfers_in_cents),
            ("Transfers out to other Bad Beats", self.transfers_out_cents),
            ("Other movements (reversals, adjustments)", self.other_cents),
            ("Closing balance", self.closing_cents),
        ]


def _movement(transfer: Transfer, account: Account) -> tuple[str, int]:
    into = transfer.debit_id == account.pk
    cents = transfer.amount_cents if into else -transfer.amount_cents
    if transfer.kind == TransferKind.VERIFICATION and into:
        return Movement.CONTRIBUTION, cents
    if transfer.kind == TransferKind.PAYOUT and not into:
        return Movement.PAYOUT, cents
    if transfer.kind == TransferKind.FUND_TRANSFER:
        return (Movement.TRANSFER_IN if into else Movement.TRANSFER_OUT), cents
    return Movement.OTHER, cents


def fund_statement(*, jackpot: Jackpot, start: date, end: date) -> FundStatement:
    """The statement of ``jackpot``'s official money (its fund account in the ledger) over the gaming
    days ``start`` to ``end``: the opening balance, every transfer into or out of the fund in order
    with the balance after it (contributions made official by cage verifications, payouts, transfers
    between funds, and anything else such as a reversal), the closing balance (opening plus the
    movements, which is the ledger's balance at the end), and the display adjustments of those days.
    Four queries."""
    room = jackpot.room
    starts_at, _ = gaming_day_bounds(room=room, day=start)
    _, ends_at = gaming_day_bounds(room=room, day=end)
    code = jackpot_fund_account(jackpot=jackpot).code
    account = Account.objects.filter(code=code).first()
    opening = 0
    lines: list[StatementLine] = []
    if account is not None:
        touching = Transfer.objects.filter(Q(debit=account) | Q(credit=account))
        before = touching.filter(posted_at__lt=starts_at).aggregate(
            into=Sum("amount_cents", filter=Q(debit=account), default=0),
            out=Sum("amount_cents", filter=Q(credit=account), default=0),
        )
        opening = int(before["into"]) - int(before["out"])
        balance = opening
        for transfer in (
            touching.filter(posted_at__gte=starts_at, posted_at__lt=ends_at)
            .select_related("debit", "credit", "posted_by", "reference_type")
            .order_by("posted_at", "pk")
        ):
            movement, cents = _movement(transfer, account)
            balance += cents
            lines.append(
                StatementLine(
                    transfer=transfer,
                    gaming_day=gaming_day(room=room, at=transfer.posted_at),
                    movement=movement,
                    cents=cents,
                    balance_cents=balance,
                )
            )
    adjustments = tuple(
        DisplayAdjustment.objects.filter(jackpot=jackpot, adjusted_at__gte=starts_at, adjusted_at__lt=ends_at)
        .select_related("adjusted_by", "witnessed_by")
        .order_by("adjusted_at", "pk")
    )
    return FundStatement(
        jackpot=jackpot,
        account_code=code,
        start=start,
        end=end,
        starts_at=starts_at,
        ends_at=ends_at,
        opening_cents=opening,
        lines=tuple(lines),
        adjustments=adjustments,
    )


# --- The claim file -------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandLine:
    """A player's hand in a claim: who, where, the hole cards and their names, the hand they made."""

    who: str
    seat: int
    name: str
    hole: str
    hole_words: str
    hand: str


@dataclass
class ClaimFile:
    """Everything about one claim, for the regulator: the evidence, the posted qualifier it was checked
    against, the verdict, the decision, the distribution and each payment, every signature (name,
    role, Board credential number, time) and the ledger transfers that paid it."""

    claim: BadBeatClaim
    posted: PostedHand | None
    hands: tuple[HandLine, ...]
    board_words: str
    decision: BadBeatDecision | None
    distribution: BadBeatDistribution | None
    shares: list[BadBeatShare]
    payments: dict[int, BadBeatPayment]  # by share id
    signatures: list[tuple[str, SignatureLine]] = field(default_factory=list)  # (step, signature)
    transfers: list[Transfer] = field(default_factory=list)

    @property
    def game(self) -> str:
        return game_words(self.claim.game)

    @property
    def rows(self) -> list[tuple[BadBeatShare, BadBeatPayment | None]]:
        """Each share with its payment (None: not paid yet), in the distribution's order."""
        return [(share, self.payments.get(share.pk)) for share in self.shares]

    @property
    def paid_cents(self) -> int:
        return sum(share.amount_cents for share in self.shares if share.pk in self.payments)

    @property
    def unpaid_cents(self) -> int:
        return sum(share.amount_cents for share in self.shares if share.pk not in self.payments)


def claim_file(*, claim: BadBeatClaim) -> ClaimFile:
    """The file of ``claim`` (§637a.15(f)-(g)): a fixed number of queries."""
    claim = BadBeatClaim.objects.select_related("room", "jackpot", "table", "round", "rules_version", "opened_by").get(
        pk=claim.pk
    )
    rule = jackpot_rule_of_version(version=claim.rules_version, code=claim.jackpot.code)
    hand = (
        next((hand for hand in rule.hands if hand.code == claim.hand_code), None)
        if isinstance(rule, BadBeatRule)
        else None
    )
    decision = BadBeatDecision.objects.filter(claim=claim).select_related("decided_by").first()
    distribution = BadBeatDistribution.objects.filter(claim=claim).select_related("prepared_by").first()
    shares = list(distribution.shares.order_by("position")) if distribution else []
    payments = {
        payment.share_id: payment
        for payment in BadBeatPayment.objects.filter(share__in=shares).select_related("paid_by")
    }
    hands = (
        HandLine(
            "Losing hand",
            claim.losing_seat,
            claim.losing_name,
            claim.losing_hole,
            card_words(claim.losing_hole),
            claim.losing_hand,
        ),
        HandLine(
            "Winning hand",
            claim.winning_seat,
            claim.winning_name,
            claim.winning_hole,
            card_words(claim.winning_hole),
            claim.winning_hand,
        ),
    )
    steps: list[tuple[str, Any]] = [("Claim opened at the table", claim)]
    if decision is not None:
        steps.append((f"Claim {decision.get_outcome_display().lower()} by the shift supervisor", decision))
    if distribution is not None:
        steps.append(("Distribution prepared by finance", distribution))
    by_share = {share.pk: share for share in shares}
    for payment in sorted(payments.values(), key=lambda payment: (payment.paid_at, payment.pk)):
        share = by_share[payment.share_id]
        steps.append((f"{share.get_share_display()} paid (seat {share.seat}, {payment.get_place_display()})", payment))
    lines = signature_lines(document for _, document in steps)
    signatures = [(step, line) for step, document in steps for line in lines.get(signature_key(document), [])]
    transfers = list(
        Transfer.objects.filter(bad_beat_payment__share__distribution__claim=claim)
        .select_related("debit", "credit", "posted_by")
        .order_by("posted_at", "pk")
    )
    return ClaimFile(
        claim=claim,
        posted=posted_hand(hand, rule, game=claim.game) if hand is not None and isinstance(rule, BadBeatRule) else None,
        hands=hands,
        board_words=card_words(claim.board),
        decision=decision,
        distribution=distribution,
        shares=shares,
        payments=payments,
        signatures=signatures,
        transfers=transfers,
    )


# --- The claims of a period -----------------------------------------------------------------------


def claims_between(*, room: PokerRoom, start: date, end: date) -> QuerySet[BadBeatClaim]:
    """The claims of ``room`` opened on the gaming days ``start`` to ``end``, oldest first, with what
    the claims list exports needs (``claims_with_amounts``)."""
    starts_at, _ = gaming_day_bounds(room=room, day=start)
    _, ends_at = gaming_day_bounds(room=room, day=end)
    return claims_with_amounts(
        BadBeatClaim.objects.filter(room=room, opened_at__gte=starts_at, opened_at__lt=ends_at).order_by(
            "opened_at", "pk"
        )
    )


def claims_with_amounts(claims: QuerySet[BadBeatClaim]) -> QuerySet[BadBeatClaim]:
    """``claims`` with their room, fund, table, opener and decision in the same query, and
    ``paid_cents`` (what their payments paid) annotated."""
    return claims.select_related(
        "room", "jackpot", "table", "opened_by", "decision__decided_by", "distribution"
    ).annotate(
        paid_cents=Sum("distribution__shares__amount_cents", filter=Q(distribution__shares__payment__isnull=False))
    )
