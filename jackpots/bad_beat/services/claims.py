"""A Bad Beat claimed at the table and the shift supervisor's verification or denial (§637a.15(f)).

'The Poker shift supervisor shall verify each Bad Beat Poker hand prior to awarding the Bad Beat
payout. Upon verification, the Poker shift supervisor shall: (1) Post a sign or otherwise provide
visible notice that the applicable Bad Beat payout display amount is pending adjustment due to a Bad
Beat payout. (2) Notify a representative from the security department or finance department to
deliver to the Poker table the applicable amount of the Bad Beat payout.'

A claim is evidence first: a floorperson or above records the hands as seen at the table and the
evaluator's verdict, qualifying or not; a claim that does not qualify is kept and can only be denied.
A verification fixes the payout from the fund's official balance at that moment, and from then on the
fund shows 'pending adjustment' (``jackpots.bad_beat.selectors.fund_positions``) and the payout is in the
queue of security and finance (``jackpots.bad_beat.selectors.payouts_to_deliver``).

The same Bad Beat is paid once: a hand (its round, or its cards at the table on the gaming day) has at
most one claim that is not denied (``claim_open``), and a claim of a hand that another claim stands
before goes no further (``claim_require_first``), should one recorded before that rule exist.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from casino_backoffice.core.idempotency import DocumentOnce, request_fingerprint
from casino_backoffice.ledger.models import Account
from casino_backoffice.ledger.services import account_locked
from casino_backoffice.poker import InvalidCards, best_high, omaha_high, parse_cards
from casino_backoffice.poker.cards import format_cards
from casino_backoffice.poker.qualifiers import QualifierResult
from casino_backoffice.staff.exceptions import SignerNotIndependent
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.services import pin_check, signature_add
from jackpots.bad_beat.exceptions import (
    AlreadyDecided,
    BadBeatErrorCode,
    ClaimDoesNotQualify,
    ClaimInvalid,
    WrongClaimStatus,
)
from jackpots.bad_beat.hand_rounds import claim_round_find, claim_round_window
from jackpots.bad_beat.models import (
    BadBeatClaim,
    BadBeatClaimRound,
    BadBeatDecision,
    ClaimStatus,
    DecisionOutcome,
    hand_cards,
)
from jackpots.bad_beat.rules import BadBeatHand, BadBeatRule
from jackpots.bad_beat.selectors import bad_beat_at_table, claim_payout_figures
from jackpots.bad_beat.services.claimed_once import (
    ClaimedHand,
    already_claimed,
    claim_require_first,
    claims_of_hand,
    hand_not_claimed,
)
from jackpots.funds.accounts import jackpot_fund_account
from jackpots.funds.exceptions import JackpotError
from jackpots.funds.hand_rounds import hand_round_lock, round_disagreement
from jackpots.funds.models import Jackpot
from jackpots.funds.selectors import local_time
from tables.models import Round, Table
from tables.selectors import gaming_day

_OMAHA = ("omaha_high", "omaha_high_low")


@dataclass(frozen=True)
class SeatedHand:
    """A player's hand at the table: seat, name as the player gave it, hole cards as text ("Ah Kd")."""

    seat: int
    name: str
    hole: str


@dataclass(frozen=True)
class SeatedPlayer:
    seat: int
    name: str


def _cards(text: str, count: int, what: str) -> tuple[int, ...]:
    try:
        cards = parse_cards(text)
    except InvalidCards as error:
        raise ClaimInvalid(f"{what.capitalize()}: {error}") from None
    if len(cards) != count:
        raise ClaimInvalid(f"{what.capitalize()} is {count} cards, not {len(cards)} ({text!r}).")
    return tuple(cards)


def _seats_check(
    *, table: Table, players_dealt_in: int, losing: SeatedHand, winning: SeatedHand, others: Sequence[SeatedPlayer]
) -> None:
    everyone = [("the losing hand", losing.seat, losing.name), ("the winning hand", winning.seat, winning.name)]
    everyone += [(f"seat {other.seat}", other.seat, other.name) for other in others]
    seen: set[int] = set()
    for who, seat, name in everyone:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seats:
            raise ClaimInvalid(f"Table {table.number} has seats 1 to {table.seats}; {who} gives seat {seat!r}.")
        if seat in seen:
            raise ClaimInvalid(f"Seat {seat} is given twice: each player dealt in has their own seat.")
        seen.add(seat)
        if not str(name).strip():
            raise ClaimInvalid(f"Give the name of the player in seat {seat} ({who}).")
    if not 2 <= players_dealt_in <= table.seats:
        raise ClaimInvalid(f"{players_dealt_in} players dealt in at a table of {table.seats} seats cannot be.")
    if len(others) != players_dealt_in - 2:
        raise ClaimInvalid(
            f"{players_dealt_in} players were dealt in: list every other player dealt in besides the losing and the "
            f"winning hand ({players_dealt_in - 2}), not {len(others)}; they share the table share."
        )


@dataclass(frozen=True)
class Verdict:
    hand: BadBeatHand
    result: QualifierResult
    losing_words: str
    winning_words: str
    reasons: tuple[str, ...]


def claim_evaluate(
    *, rule: BadBeatRule, game: str, board: str, losing_hole: str, winning_hole: str, players_dealt_in: int
) -> Verdict:
    """The evaluator's verdict on a claim under the posted hands of ``rule`` that apply to ``game``
    (§637a.15(b)(3)): the first hand, in the rules' order, that the claim qualifies for, or the first
    hand with the reasons every hand gave when none qualifies. Cards that don't exist or repeat
    across the hands and the board are refused (``ClaimInvalid``): they are not evidence of a hand."""
    hole_count = 4 if game in _OMAHA else 2
    board_cards = _cards(board, 5, "the board")
    loser = _cards(losing_hole, hole_count, "the losing hand's hole cards")
    winner = _cards(winning_hole, hole_count, "the winning hand's hole cards")
    try:
        parse_cards([*map(int, loser), *map(int, winner), *map(int, board_cards)])
    except InvalidCards as error:
        raise ClaimInvalid(f"A card is in two places: {error}") from None
    if game in _OMAHA:
        losing, winning = omaha_high(loser, board_cards), omaha_high(winner, board_cards)
    else:
        losing, winning = best_high(loser + board_cards), best_high(winner + board_cards)
    hands = rule.hands_for(game)
    results = [
        (
            hand,
            hand.qualifier_for(game).check(
                losing_hole=loser, winning_hole=winner, board=board_cards, players_dealt=players_dealt_in
            ),
        )
        for hand in hands
    ]
    for hand, result in results:
        if result.qualifies:
            return Verdict(hand, result, str(losing), str(winning), result.reasons)
    several = len(results) > 1
    reasons = tuple(
        f"{hand.name}: {reason}" if several else reason for hand, result in results for reason in result.reasons
    )
    return Verdict(results[0][0], results[0][1], str(losing), str(winning), reasons)


def claim_open(  # noqa: PLR0913 - the claim's fields, each a keyword the API and the tablet name
    *,
    jackpot: Jackpot,
    table: Table,
    players_dealt_in: int,
    board: str,
    losing: SeatedHand,
    winning: SeatedHand,
    others: Sequence[SeatedPlayer],
    actor: User,
    pin: str,
    idempotency_key: str,
    round: Round | None = None,
    pot_cents: int | None = None,
    surveillance_reference: str = "",
) -> BadBeatClaim:
    """A floorperson or above records a Bad Beat claimed at ``table`` and signs it; the evaluator's
    verdict is recorded with it, qualifying or not (a claim that does not qualify is kept as evidence,
    never paid). The hand is checked against the rules in effect when it was played: the round's end
    when the round is given, else now.

    A hand is claimed once (§637a.15(f)-(g)): a second claim of the round, or of the same cards at the
    table on the same gaming day (or within an hour across the day's start), is refused (``AlreadyClaimed``, naming the
    first) while the first is not denied. The table's hand lock orders two claims at one table: the
    second checks again once the first has committed. The partial unique indexes of the claims hold the
    same rule (for one gaming day) against any writer that skips the service.

    A claim belongs to its round (``jackpots.bad_beat.hand_rounds``): a round given must agree with
    the claim (its table, its players dealt in, the pot when one is given, and its end from 30 minutes
    before the claim to 10 minutes after), else the claim is refused naming what differs
    (``round_mismatch``). Without one, a claim that gives its pot takes the one round not claimed yet
    that agrees with it; with none yet, it is linked when its round is logged."""
    action_require(actor=actor, action=Action.BAD_BEAT_CLAIM, of=table)
    asked = _ClaimAsked(
        jackpot=jackpot,
        table=table,
        players_dealt_in=players_dealt_in,
        board=board,
        losing=losing,
        winning=winning,
        others=tuple(others),
        round=round,
        pot_cents=pot_cents,
        surveillance_reference=surveillance_reference,
    )
    once = DocumentOnce(
        model=BadBeatClaim, idempotency_key=idempotency_key, fingerprint=_claim_fingerprint(asked, actor=actor)
    )
    return once.record(lambda: _claim_write(asked, actor=actor, pin=pin, once=once))


@dataclass(frozen=True)
class _ClaimAsked:
    """What a claim asks, as ``claim_open`` was given it."""

    jackpot: Jackpot
    table: Table
    players_dealt_in: int
    board: str
    losing: SeatedHand
    winning: SeatedHand
    others: tuple[SeatedPlayer, ...]
    round: Round | None
    pot_cents: int | None
    surveillance_reference: str


def _claim_fingerprint(asked: _ClaimAsked, *, actor: User) -> str:
    return request_fingerprint(
        {
            "jackpot": asked.jackpot.pk,
            "table": asked.table.pk,
            "round": asked.round.pk if asked.round else None,
            "players_dealt_in": asked.players_dealt_in,
            "pot_cents": asked.pot_cents,
            "board": asked.board,
            "losing": [asked.losing.seat, asked.losing.name, asked.losing.hole],
            "winning": [asked.winning.seat, asked.winning.name, asked.winning.hole],
            "others": [[other.seat, other.name] for other in asked.others],
            "surveillance_reference": asked.surveillance_reference,
            "by": actor.pk,
        }
    )


def _claim_round(asked: _ClaimAsked, *, now: datetime) -> Round | None:
    """The claim's round: the one named, once it agrees with the claim (else ``round_mismatch``), or the
    one logged that agrees with it, or None while none is logged yet."""
    found = asked.round
    if found is None:
        return claim_round_find(
            table=asked.table, players_dealt_in=asked.players_dealt_in, pot_cents=asked.pot_cents, claimed_at=now
        )
    if found.voided:
        raise ClaimInvalid(f"Round {found.pk} was voided (§637a.18(i)): it has no winning hand.")
    differs = round_disagreement(
        round=found,
        table=asked.table,
        players_dealt_in=asked.players_dealt_in,
        pot_cents=asked.pot_cents,
        window=claim_round_window(now),
    )
    if differs is not None:
        raise ClaimInvalid(f"{differs} Nothing was recorded.", code=BadBeatErrorCode.ROUND_MISMATCH)
    return found


def _claim_write(asked: _ClaimAsked, *, actor: User, pin: str, once: DocumentOnce[BadBeatClaim]) -> BadBeatClaim:
    """The claim's rule, once its key is new: its round, the evaluator's verdict, a hand claimed once."""
    table, pot_cents = asked.table, asked.pot_cents
    _seats_check(
        table=table,
        players_dealt_in=asked.players_dealt_in,
        losing=asked.losing,
        winning=asked.winning,
        others=asked.others,
    )
    if pot_cents is not None and (isinstance(pot_cents, bool) or not isinstance(pot_cents, int) or pot_cents < 0):
        raise ClaimInvalid(f"A pot is a whole number of cents, not {pot_cents!r}.")
    now = timezone.now()
    found = _claim_round(asked, now=now)
    happened_at = found.ended_at if found is not None else now
    day = found.gaming_day if found is not None else gaming_day(room=table.room, at=happened_at)
    offered = bad_beat_at_table(jackpot=asked.jackpot, table=table, at=happened_at)
    verdict = claim_evaluate(
        rule=offered.rule,
        game=offered.game,
        board=asked.board,
        losing_hole=asked.losing.hole,
        winning_hole=asked.winning.hole,
        players_dealt_in=asked.players_dealt_in,
    )
    cards = hand_cards(board=asked.board, losing_hole=asked.losing.hole, winning_hole=asked.winning.hole)
    hand = ClaimedHand(
        table=table,
        round_id=found.pk if found is not None else None,
        gaming_day=day,
        happened_at=happened_at,
        cards=cards,
    )
    try:
        hand_not_claimed(hand)
        signer = pin_check(user=actor, pin=pin)
        with transaction.atomic(durable=True):
            hand_round_lock(table=table)
            hand_not_claimed(hand)
            claim = BadBeatClaim.objects.create(
                room=table.room,
                jackpot=asked.jackpot,
                table=table,
                round=found,
                rules_version=offered.version,
                hand_code=verdict.hand.code,
                hand_name=verdict.hand.name,
                game=offered.game,
                happened_at=happened_at,
                gaming_day=day,
                cards=cards,
                players_dealt_in=asked.players_dealt_in,
                pot_cents=pot_cents,
                board=format_cards(parse_cards(asked.board)),
                losing_seat=asked.losing.seat,
                losing_name=asked.losing.name.strip(),
                losing_hole=format_cards(parse_cards(asked.losing.hole)),
                winning_seat=asked.winning.seat,
                winning_name=asked.winning.name.strip(),
                winning_hole=format_cards(parse_cards(asked.winning.hole)),
                others=[{"seat": other.seat, "name": other.name.strip()} for other in sorted(asked.others, key=_seat)],
                surveillance_reference=asked.surveillance_reference.strip(),
                qualifies=verdict.result.qualifies,
                reasons=list(verdict.reasons),
                losing_hand=verdict.losing_words,
                winning_hand=verdict.winning_words,
                opened_by=actor,
                opened_at=now,
                idempotency_key=once.idempotency_key,
                request_sha256=once.fingerprint,
            )
            signature_add(document=claim, rule=BadBeatClaim.OPENER, signer=signer)
            if found is None:
                _claim_round_link(claim, asked=asked, now=now)
    except IntegrityError:
        # A claim of the same hand committed while this one waited at its insert: say which.
        first = claims_of_hand(hand)
        if not first:
            raise
        raise already_claimed(hand, first[0]) from None
    return claim


def _claim_round_link(claim: BadBeatClaim, *, asked: _ClaimAsked, now: datetime) -> None:
    """Its round, logged while the claim was being signed, is linked now (under the table's lock)."""
    arrived = claim_round_find(
        table=asked.table, players_dealt_in=asked.players_dealt_in, pot_cents=asked.pot_cents, claimed_at=now
    )
    if arrived is not None:
        BadBeatClaimRound.objects.create(claim=claim, round=arrived, linked_at=now)


def _seat(player: SeatedPlayer) -> int:
    return player.seat


def _claim_locked(claim: BadBeatClaim) -> BadBeatClaim:
    return (
        BadBeatClaim.objects.select_for_update(of=("self",))
        .select_related("jackpot__room", "rules_version")
        .get(pk=claim.pk)
    )


def _undecided(claim: BadBeatClaim) -> None:
    if claim.status != ClaimStatus.CLAIMED:
        decision = BadBeatDecision.objects.select_related("decided_by").filter(claim_id=claim.pk).first()
        said = (
            f"{decision.get_outcome_display().lower()} by {decision.decided_by} at "
            f"{local_time(decision.decided_at, claim.room.timezone)}"
            if decision is not None
            else claim.get_status_display().lower()
        )
        raise AlreadyDecided(f"Claim {claim.pk} was already {said}; nothing was changed.")


def fund_locked(jackpot: Jackpot) -> Account:
    """Lock the fund's account: every service that takes money from a fund, or promises it, holds this
    lock while it checks the balance and writes (locks: claim, then share, then fund)."""
    return account_locked(jackpot_fund_account(jackpot=jackpot))


def _not_the_opener(claim: BadBeatClaim, actor: User) -> None:
    if claim.opened_by_id == actor.pk:
        raise SignerNotIndependent(
            f"{actor} opened claim {claim.pk} and cannot also decide it (rule: "
            f"'{BadBeatDecision.VERIFIER.name}'): another shift supervisor verifies it."
        )


def claim_verify(*, claim: BadBeatClaim, actor: User, pin: str) -> BadBeatDecision:
    """The poker shift supervisor verifies a qualifying claim and signs (§637a.15(f)); refused for a
    claim whose hands do not qualify, and for the person who opened it.

    The payout is fixed now, under the fund's lock (``claim_payout_figures``: the figures the supervisor
    saw before signing, computed again on the fund as it stands when the signature lands).
    """
    action_require(actor=actor, action=Action.BAD_BEAT_VERIFY, of=claim)
    claim = BadBeatClaim.objects.get(pk=claim.pk)  # as it stands now
    _undecided(claim)
    _not_the_opener(claim, actor)
    claim_require_first(claim)
    if not claim.qualifies:
        raise ClaimDoesNotQualify(
            f"Claim {claim.pk} does not qualify: {'; '.join(claim.reasons)}. It is kept as evidence and cannot be "
            "verified; deny it with a reason."
        )
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        claim = _claim_locked(claim)
        _undecided(claim)
        claim_require_first(claim)
        fund_locked(claim.jackpot)
        figures = claim_payout_figures(claim=claim)
        decision = BadBeatDecision.objects.create(
            claim=claim,
            claim_opened_by_id=claim.opened_by_id,
            outcome=DecisionOutcome.VERIFIED,
            official_cents=figures.official_cents,
            owed_cents=figures.owed_cents,
            available_cents=figures.available_cents,
            reserve_cents=figures.reserve_cents,
            payout_cents=figures.payout_cents,
            decided_by=actor,
            decided_at=signer.verified_at,
        )
        signature_add(document=decision, rule=BadBeatDecision.VERIFIER, signer=signer)
        claim.status = ClaimStatus.VERIFIED
        claim.save(update_fields=["status"])
    return decision


def claim_deny(*, claim: BadBeatClaim, reason: str, actor: User, pin: str) -> BadBeatDecision:
    """The poker shift supervisor denies a claim with a reason and signs; the claim keeps its evidence
    (cards, surveillance reference, who said what) for a dispute or the regulator (§637a.18(a): the
    shift supervisor's decision is final)."""
    action_require(actor=actor, action=Action.BAD_BEAT_VERIFY, of=claim)
    reason = (reason or "").strip()
    if not reason:
        raise JackpotError(
            "Say why the claim is denied: the reason is kept with its evidence.", code=BadBeatErrorCode.REASON_REQUIRED
        )
    claim = BadBeatClaim.objects.get(pk=claim.pk)  # as it stands now
    _undecided(claim)
    _not_the_opener(claim, actor)
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        claim = _claim_locked(claim)
        _undecided(claim)
        decision = BadBeatDecision.objects.create(
            claim=claim,
            claim_opened_by_id=claim.opened_by_id,
            outcome=DecisionOutcome.DENIED,
            reason=reason,
            decided_by=actor,
            decided_at=signer.verified_at,
        )
        signature_add(document=decision, rule=BadBeatDecision.VERIFIER, signer=signer)
        claim.status = ClaimStatus.DENIED
        claim.save(update_fields=["status"])
    return decision


def claim_require_status(claim: BadBeatClaim, *wanted: ClaimStatus) -> None:
    """Refuse an action on a claim that is not at one of the ``wanted`` steps, saying where it is."""
    if claim.status not in wanted:
        raise WrongClaimStatus(
            f"Claim {claim.pk} is {claim.get_status_display().lower()}; this needs a claim that is "
            f"{' or '.join(ClaimStatus(status).label.lower() for status in wanted)}."
        )
