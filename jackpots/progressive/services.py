"""Progressive table games (§655a.11-12, §657a.11-12): the meters, the wagers of each round, a winning
hand and its Envy Bonuses, the validation, the payment through the cage and the reset of a meter.

'(i) If a player has won the progressive payout, the dealer shall: (A) Verify that the hand is a
winning hand. (B) Verify that the appropriate light on the progressive table game system has been
illuminated. (C) Have a floorperson or above validate the progressive payout ... (D) Pay the winning
Progressive Payout Wager in accordance with § 655a.12(c)(1). If a player has won a progressive payout
that is 100% of the jackpot amount on the progressive meter, the progressive payout may not be paid
from the table inventory container. ... (E) Pay any Envy Bonus won ...' (§655a.11(i)(4)); Crazy 4
Poker's is §657a.11(e), whose amendment says 'a percentage of the jackpot amount' for (4).

The money, in the ledger (``jackpots.progressive.accounts``): each round's wagers go to the meter at the rate of
progression and the rest to the house's share; a payout of the meter moves from the meter, a fixed
'for 1' payout and each Envy Bonus from the house's funding, to the payouts to pay; the validation
(at the table) or the cashier (at the cage) moves them to paid. The house funds the meter's initial
amount when the meter is first posted and its reset amount after a 100% payout.

Seats: seat 1 is the player farthest to the dealer's left, dealt first (§655a.8(d), §657a.8(d)); the
dealer settles from the player farthest to the dealer's right, counterclockwise (§655a.11(i),
§657a.11(c)): from the highest seat down. Each meter payout is the meter as it stands at that player's
turn (§655a.12(c)(4), §657a.12(d)(4)), so a round's hands are recorded in that order.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.idempotency import document_replay, document_replay_after, request_fingerprint
from casino_backoffice.ledger.models import TransferKind
from casino_backoffice.ledger.selectors import account_balance
from casino_backoffice.ledger.services import (
    Posting,
    account_locked,
    account_open_as,
    transfers_post_within,
)
from casino_backoffice.money import display_cents
from casino_backoffice.poker import InvalidCards, best_high, crazy4_best, parse_cards, winning_line
from casino_backoffice.poker.cards import format_cards
from casino_backoffice.poker.hands import HandValue
from casino_backoffice.poker.paytables import PayoutKind
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.segregation import independent_require
from casino_backoffice.staff.services import pin_check, signature_add
from jackpots.progressive.accounts import (
    meter_account,
    meter_funding_account,
    meter_house_account,
    meter_paid_account,
    meter_wagers_account,
    meter_won_account,
)
from jackpots.progressive.exceptions import ProgressiveRefused
from jackpots.progressive.models import (
    EnvyBonus,
    FundingReason,
    MeterFunding,
    PayoutPlace,
    ProgressiveHand,
    ProgressiveMeter,
    ProgressivePayment,
    ProgressiveRound,
    ProgressiveValidation,
    ProgressiveWager,
    WagerCountException,
    WagerCountExplanation,
)
from jackpots.progressive.rules import ProgressiveRule
from jackpots.progressive.selectors import documentation_open, meter_at_table, pending_hand, progressive_rule_of_version
from tables.games import Game
from tables.locks import gaming_day_hold_open
from tables.models import PokerRoom, RulesVersion, Table
from tables.selectors import gaming_day, rules_version_in_effect

FULL_METER_BP = 10_000


def _refuse(message: str, code: str) -> ProgressiveRefused:
    return ProgressiveRefused(message, code=code)


def _lock_meter(meter: ProgressiveMeter) -> ProgressiveMeter:
    """Every change of a meter's money holds the meter's row: rounds, wins and resets of one meter are
    serialized, so a payout reads the meter as it stands."""
    return ProgressiveMeter.objects.select_for_update(of=("self",)).select_related("room").get(pk=meter.pk)


# --- The meter and its initial amount -------------------------------------------------------------


def progressive_register(
    *, room: PokerRoom, rule: ProgressiveRule, version: RulesVersion, actor: User
) -> ProgressiveMeter:
    """Create the meter a rules file names, or return it, inside the rules load's transaction (whose
    service checked the loader's role). A new meter starts at its posted initial amount, funded by the
    house (§655a.12(c)(3), §657a.12(d)(3)); the meter's game never changes (give a new meter its own code)."""
    meter, created = ProgressiveMeter.objects.get_or_create(
        room=room, code=rule.code, defaults={"name": rule.name, "game": rule.game}
    )
    if not created and meter.game != rule.game:
        raise _refuse(
            f"Meter {rule.code} is a {Game(meter.game).label} meter and cannot become a {Game(rule.game).label} one; "
            "give the new meter its own code.",
            "meter_game_changed",
        )
    if not created and meter.name != rule.name:
        meter.name = rule.name
        meter.save(update_fields=["name"])
    for spec in (meter_wagers_account, meter_house_account, meter_won_account, meter_paid_account):
        account_open_as(spec(meter=meter))
    if not MeterFunding.objects.filter(meter=meter, reason=FundingReason.INITIAL).exists():
        _meter_fund(
            meter=meter,
            reason=FundingReason.INITIAL,
            version=version,
            amount_cents=rule.initial_cents,
            actor=actor,
            at=timezone.now(),
            idempotency_key=f"progressive:{meter.pk}:initial",
            memo=f"{meter.name}: initial amount as posted in rules version {version.number}",
        )
    return meter


def _meter_fund(
    *,
    meter: ProgressiveMeter,
    reason: FundingReason,
    version: RulesVersion,
    amount_cents: int,
    actor: User,
    at: datetime,
    idempotency_key: str,
    memo: str,
    after_hand: ProgressiveHand | None = None,
) -> MeterFunding:
    """The house puts an amount on the meter (its initial or reset amount), inside the caller's
    transaction, which holds the meter's lock."""
    funding = MeterFunding.objects.create(
        meter=meter,
        reason=reason,
        after_hand=after_hand,
        rules_version=version,
        amount_cents=amount_cents,
        funded_by=actor,
        funded_at=at,
    )
    transfers_post_within(
        postings=[
            Posting(
                debit_id=account_open_as(meter_account(meter=meter)).pk,
                credit_id=account_open_as(meter_funding_account(meter=meter)).pk,
                amount_cents=amount_cents,
                kind=TransferKind.METER_FUNDING,
                idempotency_key=idempotency_key,
                memo=memo,
            )
        ],
        actor=actor,
        reference=funding,
    )
    return funding


# --- A round's wagers -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatWager:
    seat: int
    amount_cents: int


def _community(value: str, game: str) -> str:
    """Mississippi Stud's three community cards as recorded (§655a.8(d)(2)); blank when not given."""
    if not value:
        return ""
    if game != Game.MISSISSIPPI_STUD.value:
        raise _refuse("Community cards are dealt at Mississippi Stud only (§655a.8(d)(2)).", "cards_invalid")
    try:
        cards = parse_cards(value)
    except InvalidCards as error:
        raise _refuse(f"Community cards {value!r}: {error}", "cards_invalid") from None
    if len(cards) != 3:
        raise _refuse(f"Three community cards are dealt (§655a.8(d)(2)), not {len(cards)}.", "cards_invalid")
    return format_cards(cards)


def progressive_round_record(
    *,
    table: Table,
    ended_at: datetime,
    wagers: list[SeatWager],
    chips_collected: int,
    actor: User,
    idempotency_key: str,
    community_cards: str = "",
) -> ProgressiveRound:
    """Record the Progressive Payout Wagers the progressive table game system accepted in a round and
    the value chips the dealer collected (§655a.8(b), §657a.8(b)). The meter rises by the rate of
    progression of each wager; the rest of the wager is the house's share.

    A count of chips that differs from the wagers accepted is recorded with the round as an exception,
    open until a supervisor explains it (``wager_count_explain``); the meter rises by what the system
    accepted. Wager sizes are those the meter accepts (the Envy Bonus schedules, §655a.12(c)(5),
    §657a.12(d)(5)); a seat places one Progressive Payout Wager a round (§655a.7(d), §657a.7(d)(3)); a closed table records no round; a
    table whose payout through the cage is not yet validated records none either (409
    ``payout_documentation_open``: the cards stay on the table, §655a.11(i)(4)(i)(D), §657a.11(e)(4))."""
    action_require(actor=actor, action=Action.PROGRESSIVE_ROUND_RECORD, of=table)
    fingerprint = request_fingerprint(
        {
            "table": table.pk,
            "ended_at": ended_at,
            "wagers": sorted((w.seat, w.amount_cents) for w in wagers),
            "chips": chips_collected,
            "community": community_cards,
            "by": actor.pk,
        }
    )
    replayed = document_replay(model=ProgressiveRound, idempotency_key=idempotency_key, fingerprint=fingerprint)
    if replayed is not None:
        return replayed
    if timezone.is_naive(ended_at):
        raise _refuse("ended_at needs its time zone.", "invalid")
    if ended_at > timezone.now() + timedelta(minutes=5):
        raise _refuse("A round is recorded after it ended: ended_at is in the future.", "invalid")
    at = meter_at_table(table=table, at=ended_at)
    if at is None:
        raise _refuse(
            f"Table {table.number} plays into no progressive meter by the rules in effect at {ended_at.isoformat()}.",
            "not_progressive",
        )
    if not table.is_open:
        raise _refuse(
            f"Table {table.number} is closed; a floorperson opens it before rounds are recorded.", "table_closed"
        )
    community = _community(community_cards, table.game)
    seats = [w.seat for w in wagers]
    if len(set(seats)) != len(seats):
        raise _refuse("A seat places one Progressive Payout Wager a round (§655a.7(d), §657a.7(d)(3)).", "invalid")
    for wager in wagers:
        if not 1 <= wager.seat <= table.seats:
            raise _refuse(f"Seat {wager.seat} is not a seat of table {table.number} (1-{table.seats}).", "invalid")
        if wager.amount_cents not in at.rule.wagers_cents:
            sizes = " or ".join(display_cents(c) for c in at.rule.wagers_cents)
            raise _refuse(
                f"A Progressive Payout Wager of {display_cents(wager.amount_cents)} is not accepted by {at.meter.name}: "
                f"it accepts {sizes} ({at.rule.envy_section}).",
                "wager_size",
            )
    if not isinstance(chips_collected, int) or chips_collected < 0:
        raise _refuse("chips_collected is the number of value chips the dealer collected: 0 or more.", "invalid")
    if not wagers and chips_collected == 0:
        raise _refuse("The round has no Progressive Payout Wager and no chip collected: nothing to record.", "invalid")
    total = sum(w.amount_cents for w in wagers)
    increment = sum(at.rule.increment_cents(wager_cents=w.amount_cents) for w in wagers)
    try:
        with transaction.atomic(durable=True):
            meter = _lock_meter(at.meter)
            again = document_replay(model=ProgressiveRound, idempotency_key=idempotency_key, fingerprint=fingerprint)
            if again is not None:
                return again
            _table_not_held(table)
            # The banked house share is on the revenue report of its day: a closed day stays closed (§637a.17).
            day = gaming_day(room=table.room, at=ended_at)
            gaming_day_hold_open(room=table.room, day=day, what=f"Progressive round at table {table.number}")
            now = timezone.now()
            round_ = ProgressiveRound.objects.create(
                meter=meter,
                table=table,
                rules_version=at.version,
                ended_at=ended_at,
                gaming_day=day,
                wagers_accepted=len(wagers),
                chips_collected=chips_collected,
                wagers_cents=total,
                increment_cents=increment,
                house_cents=total - increment,
                community_cards=community,
                recorded_by=actor,
                recorded_at=now,
                idempotency_key=idempotency_key,
                request_sha256=fingerprint,
            )
            ProgressiveWager.objects.bulk_create(
                [ProgressiveWager(round=round_, seat=w.seat, amount_cents=w.amount_cents) for w in wagers]
            )
            if len(wagers) != chips_collected:
                WagerCountException.objects.create(
                    round=round_, wagers_accepted=len(wagers), chips_collected=chips_collected, recorded_at=now
                )
            wagers_account = account_open_as(meter_wagers_account(meter=meter)).pk
            postings = [
                Posting(
                    debit_id=account_open_as(spec(meter=meter)).pk,
                    credit_id=wagers_account,
                    amount_cents=amount,
                    kind=TransferKind.PROGRESSIVE_WAGER,
                    idempotency_key=f"progressive:round:{round_.pk}:{part}",
                    memo=f"Table {table.number}: {len(wagers)} wagers, {part}",
                )
                for spec, amount, part in (
                    (meter_account, increment, "meter"),
                    (meter_house_account, total - increment, "house"),
                )
                if amount > 0
            ]
            transfers_post_within(postings=postings, actor=actor, reference=round_)
    except (IntegrityError, DomainError) as error:
        return document_replay_after(
            error, model=ProgressiveRound, idempotency_key=idempotency_key, fingerprint=fingerprint
        )
    return round_


def _table_not_held(table: Table) -> None:
    """Refuse the next round of a table whose payout not paid from the table inventory is not yet
    validated: 'the cards of that player shall remain on the table until the necessary documentation
    has been completed' (§655a.11(i)(4)(i)(D), §657a.11(e)(4)). Read under the meter's lock, which the
    hand's record takes too. Only that player's table is held: the rule keeps the cards on the table
    where they were dealt, and says nothing of the other tables linked to the meter."""
    held = documentation_open(table=table)
    if held is not None:
        raise _refuse(
            f"Table {table.number} is held: the {held.words} at seat {held.seat} (hand {held.pk}, round "
            f"{held.round_id}) is paid through the cage and its validation is not signed. The cards stay on the "
            "table until the documentation is completed (§655a.11(i)(4)(i)(D), §657a.11(e)(4)); a floorperson "
            "or above validates the payout before the next round.",
            "payout_documentation_open",
        )


def wager_count_explain(
    *, exception: WagerCountException, explanation: str, actor: User, pin: str
) -> WagerCountExplanation:
    """A supervisor explains why the chips collected differ from the wagers accepted, and signs (a
    house control over §655a.8(b), §657a.8(b)). Once."""
    action_require(actor=actor, action=Action.PROGRESSIVE_EXPLAIN, of=exception)
    explanation = (explanation or "").strip()
    if not explanation:
        raise _refuse("Say what happened: the explanation stays with the round.", "reason_required")
    if WagerCountExplanation.objects.filter(exception_id=exception.pk).exists():
        raise _refuse("This exception is explained already.", "already_explained")
    signer = pin_check(user=actor, pin=pin)
    try:
        with transaction.atomic(durable=True):
            exception = WagerCountException.objects.select_for_update().get(pk=exception.pk)
            document = WagerCountExplanation.objects.create(
                exception=exception, explanation=explanation, explained_by=actor, explained_at=signer.verified_at
            )
            signature_add(document=document, rule=WagerCountExplanation.EXPLAINER, signer=signer)
    except IntegrityError:
        raise _refuse("This exception is explained already.", "already_explained") from None
    return document


# --- A winning hand -------------------------------------------------------------------------------


def _hand_of(*, game: str, cards: str, community: str) -> tuple[HandValue, str]:
    """The hand the evaluator makes (§655a.11(i): 'the best possible five-card Poker hand that can be
    formed using the player's two cards and the three community cards'; §657a.11(c)(2): 'the highest
    possible ranking four-card Poker hand') and the cards as recorded."""
    try:
        player = parse_cards(cards)
        if game == Game.MISSISSIPPI_STUD.value:
            board = parse_cards(community)
            if len(player) != 2 or len(board) != 3:
                raise InvalidCards(
                    f"a Mississippi Stud hand is the player's two cards and the three community cards, not "
                    f"{len(player)} and {len(board)}"
                )
            return best_high(player + board), f"{format_cards(player)} | {format_cards(board)}"
        if len(player) != 5:
            raise InvalidCards(f"a Crazy 4 Poker player holds five cards (§657a.8(d)), not {len(player)}")
        return crazy4_best(player), format_cards(player)
    except InvalidCards as error:
        raise _refuse(f"The cards cannot be read: {error}", "cards_invalid") from None


def _used_cards(round_: ProgressiveRound) -> set[int]:
    used: set[int] = set()
    for recorded in round_.hands.all():
        for part in recorded.cards.split("|"):
            used.update(parse_cards(part))
    return used


def progressive_hand_record(
    *,
    round: ProgressiveRound,
    seat: int,
    cards: str,
    actor: User,
    idempotency_key: str,
    community_cards: str = "",
    folded: bool = False,
    light_confirmed: bool = False,
) -> ProgressiveHand:
    """The dealer records a hand of the round that wins a progressive payout or is an Envy Bonus
    Qualifying Hand, having verified it and the system's light (§655a.11(i)(4)(i)(A)-(B),
    §657a.11(e)(1)-(2)).

    The evaluator names the hand and the progressive paytable line it wins ('only the highest ranking
    hand', §655a.12(c)(2), §657a.12(d)(2)). A line of the meter pays that share of the meter as it
    stands now, at this player's turn (rounded down to the cent; the rest stays on the meter), and is
    paid through the cage when it is 100% of the meter at Mississippi Stud or any share of it at Crazy 4
    Poker; a 'for 1' line pays that many times the wager, at the table. A player who folded forfeited
    the wager (§655a.11(h), §657a.11(b)(2)) and wins no payout, but their hand still gives the others
    Envy Bonuses and they keep their own. Every other player of the round with a Progressive Payout
    Wager receives an Envy Bonus for an Envy Bonus Qualifying Hand, by their own wager size; never for
    their own hand, never for the dealer's (§655a.11(i)(4)(i)(E), §657a.11(e)(5)).

    Refused: a hand that wins nothing, a payout whose light was not confirmed, cards that cannot be
    dealt with the round's others, a seat already recorded, a seat to the dealer's left of one
    recorded (paid later), and a meter payout while the meter waits to be reset."""
    action_require(actor=actor, action=Action.PROGRESSIVE_HAND_RECORD, of=round)
    fingerprint = request_fingerprint(
        {
            "round": round.pk,
            "seat": seat,
            "cards": cards,
            "community": community_cards,
            "folded": folded,
            "light": light_confirmed,
            "by": actor.pk,
        }
    )
    replayed = document_replay(model=ProgressiveHand, idempotency_key=idempotency_key, fingerprint=fingerprint)
    if replayed is not None:
        return replayed
    round_ = ProgressiveRound.objects.select_related("table__room", "meter", "rules_version").get(pk=round.pk)
    table = round_.table
    rule = progressive_rule_of_version(version=round_.rules_version, code=round_.meter.code)
    assert rule is not None  # the round was recorded by it
    if not 1 <= seat <= table.seats:
        raise _refuse(f"Seat {seat} is not a seat of table {table.number} (1-{table.seats}).", "invalid")
    community = community_cards or round_.community_cards
    if round_.community_cards and community_cards and _community(community_cards, table.game) != round_.community_cards:
        raise _refuse(
            f"The community cards of round {round_.pk} are {round_.community_cards}, not {community_cards}.",
            "cards_invalid",
        )
    hand, recorded_cards = _hand_of(game=table.game, cards=cards, community=community)
    wager = ProgressiveWager.objects.filter(round=round_, seat=seat).first()
    wager_cents = wager.amount_cents if wager else 0
    line = winning_line(rule.paytable, hand) if wager and not folded else None
    envy_qualifying = winning_line(rule.envy_paytable(wager_cents=rule.wagers_cents[0]), hand) is not None
    if line is None and not envy_qualifying:
        why = (
            "the seat made no Progressive Payout Wager"
            if wager is None
            else "the player folded and forfeited the Progressive Payout Wager"
            if folded
            else f"it is not a Progressive Payout Hand of {rule.paytable.section}"
        )
        raise _refuse(f"{hand} wins no progressive payout ({why}) and is no Envy Bonus Qualifying Hand.", "no_payout")
    if line is not None and not light_confirmed:
        raise _refuse(
            "Confirm that the progressive table game system's light is illuminated for this seat before the payout "
            "is recorded (§655a.11(i)(4)(i)(B), §657a.11(e)(2)).",
            "light_not_confirmed",
        )
    recorded_at = timezone.now()
    try:
        with transaction.atomic(durable=True):
            meter = _lock_meter(round_.meter)
            again = document_replay(model=ProgressiveHand, idempotency_key=idempotency_key, fingerprint=fingerprint)
            if again is not None:
                return again
            recorded = list(round_.hands.all())
            if any(h.seat == seat for h in recorded):
                raise _refuse(f"Seat {seat} of round {round_.pk} is recorded already.", "already_recorded")
            later = [h.seat for h in recorded if h.seat > seat]
            if len(later) != len(recorded):
                raise _refuse(
                    f"Seat {seat} is paid after seat {min(h.seat for h in recorded if h.seat < seat)}: the dealer pays "
                    "from the player farthest to the dealer's right, counterclockwise (§655a.11(i), §657a.11(c)); "
                    "record the hands of the higher seats first.",
                    "out_of_order",
                )
            if recorded and table.game == Game.MISSISSIPPI_STUD.value:
                first_community = recorded[0].cards.split("|")[1].strip()
                if first_community != format_cards(parse_cards(community)):
                    raise _refuse(
                        f"The community cards of round {round_.pk} were recorded as {first_community}, not {community}.",
                        "cards_invalid",
                    )
            clash = _used_cards(round_) & set(parse_cards(cards))
            if clash:
                raise _refuse(
                    f"{format_cards(sorted(clash))} is in another hand of this round already.", "cards_invalid"
                )
            meter_cents = account_balance(account=account_locked(meter_account(meter=meter)))
            amount, meter_bp, place = 0, 0, PayoutPlace.TABLE
            if line is not None:
                if line.payout.kind is PayoutKind.METER:
                    waiting = pending_hand(meter=meter)
                    if waiting is not None:
                        raise _refuse(
                            f"{meter.name} is pending its reset after the {waiting.words} at table "
                            f"{waiting.round.table.number}: a supervisor resets it before it pays again.",
                            "meter_pending",
                        )
                    meter_bp = line.payout.meter_bp
                    amount = meter_cents * meter_bp // FULL_METER_BP
                    if meter_bp == FULL_METER_BP or table.game == Game.CRAZY_4_POKER.value:
                        place = PayoutPlace.CAGE
                else:
                    amount = line.payout.win * wager_cents
            hand_record = ProgressiveHand.objects.create(
                round=round_,
                seat=seat,
                cards=recorded_cards,
                hand_cards=format_cards(hand.cards),
                words=str(hand),
                strength=hand[0],
                folded=folded,
                wager_cents=wager_cents,
                line=line.hand if line else "",
                payout=str(line.payout) if line else "",
                meter_bp=meter_bp,
                meter_before_cents=meter_cents,
                amount_cents=amount,
                place=place,
                light_confirmed=light_confirmed,
                envy_qualifying=envy_qualifying,
                recorded_by=actor,
                recorded_at=recorded_at,
                idempotency_key=idempotency_key,
                request_sha256=fingerprint,
            )
            bonuses = []
            if envy_qualifying:
                for other in round_.wagers.exclude(seat=seat).order_by("-seat"):
                    envy = winning_line(rule.envy_paytable(wager_cents=other.amount_cents), hand)
                    if envy is not None:
                        bonuses.append(
                            EnvyBonus(
                                hand=hand_record,
                                seat=other.seat,
                                wager_cents=other.amount_cents,
                                line=envy.hand,
                                amount_cents=envy.payout.amount_cents,
                            )
                        )
                EnvyBonus.objects.bulk_create(bonuses)
            won = account_open_as(meter_won_account(meter=meter)).pk
            funding = account_open_as(meter_funding_account(meter=meter)).pk
            postings = []
            if amount:
                source = account_open_as(meter_account(meter=meter)).pk if meter_bp else funding
                postings.append(
                    Posting(
                        debit_id=won,
                        credit_id=source,
                        amount_cents=amount,
                        kind=TransferKind.PROGRESSIVE_WIN,
                        idempotency_key=f"progressive:hand:{hand_record.pk}:won",
                        memo=f"Table {table.number} seat {seat}: {hand}, {line.payout if line else ''}"[:300],
                    )
                )
            postings.extend(
                Posting(
                    debit_id=won,
                    credit_id=funding,
                    amount_cents=bonus.amount_cents,
                    kind=TransferKind.PROGRESSIVE_WIN,
                    idempotency_key=f"progressive:hand:{hand_record.pk}:envy:{bonus.seat}",
                    memo=f"Envy Bonus to seat {bonus.seat} for {hand} at seat {seat}"[:300],
                )
                for bonus in bonuses
            )
            transfers_post_within(postings=postings, actor=actor, reference=hand_record)
    except DomainError as error:
        return document_replay_after(
            error, model=ProgressiveHand, idempotency_key=idempotency_key, fingerprint=fingerprint
        )
    except IntegrityError:
        replayed = document_replay(model=ProgressiveHand, idempotency_key=idempotency_key, fingerprint=fingerprint)
        if replayed is None:
            raise _refuse(f"Seat {seat} of round {round_.pk} is recorded already.", "already_recorded") from None
        return replayed
    return hand_record


# --- Validation, payment at the cage, reset -------------------------------------------------------


def progressive_validate(*, hand: ProgressiveHand, actor: User, pin: str) -> ProgressiveValidation:
    """A floorperson or above validates a progressive payout and its Envy Bonuses and signs
    (§655a.11(i)(4)(i)(C), §657a.11(e)(3)); not the person who recorded the hand. What is paid at the
    table (a 'for 1' payout, Mississippi Stud's 10% of the meter, every Envy Bonus) is paid with the
    validation; a payout through the cage waits for the cashier (``progressive_pay``)."""
    action_require(actor=actor, action=Action.PROGRESSIVE_VALIDATE, of=hand)
    if ProgressiveValidation.objects.filter(hand_id=hand.pk).exists():
        raise _refuse(f"The payout of {hand} is validated already.", "already_validated")
    if hand.recorded_by_id == actor.pk:
        raise _refuse(
            "The person who recorded the hand does not validate its payout: another floorperson or above does.",
            "same_person",
        )
    signer = pin_check(user=actor, pin=pin)
    try:
        with transaction.atomic(durable=True):
            hand = (
                ProgressiveHand.objects.select_for_update(of=("self",))
                .select_related("round__meter__room", "round__table")
                .get(pk=hand.pk)
            )
            meter = hand.round.meter
            validation = ProgressiveValidation.objects.create(
                hand=hand, hand_recorded_by_id=hand.recorded_by_id, validated_by=actor, validated_at=signer.verified_at
            )
            won = account_locked(meter_won_account(meter=meter)).pk
            paid = account_open_as(meter_paid_account(meter=meter)).pk
            postings = []
            if hand.amount_cents and hand.place == PayoutPlace.TABLE:
                postings.append(
                    Posting(
                        debit_id=paid,
                        credit_id=won,
                        amount_cents=hand.amount_cents,
                        kind=TransferKind.PAYOUT,
                        idempotency_key=f"progressive:hand:{hand.pk}:paid",
                        memo=f"Paid at table {hand.round.table.number}, seat {hand.seat}: {hand.words}"[:300],
                    )
                )
            postings.extend(
                Posting(
                    debit_id=paid,
                    credit_id=won,
                    amount_cents=bonus.amount_cents,
                    kind=TransferKind.PAYOUT,
                    idempotency_key=f"progressive:hand:{hand.pk}:envy:{bonus.seat}:paid",
                    memo=f"Envy Bonus paid at table {hand.round.table.number}, seat {bonus.seat}"[:300],
                )
                for bonus in hand.envy_bonuses.all()
            )
            transfers_post_within(postings=postings, actor=actor, reference=validation)
            signature_add(document=validation, rule=ProgressiveValidation.VALIDATOR, signer=signer)
    except IntegrityError:
        raise _refuse(f"The payout of {hand} is validated already.", "already_validated") from None
    return validation


def progressive_pay(
    *,
    hand: ProgressiveHand,
    patron_name: str,
    id_type: str,
    id_number: str,
    actor: User,
    pin: str,
    idempotency_key: str,
) -> ProgressivePayment:
    """A cage cashier pays a validated progressive payout that may not be paid from the table inventory
    (§655a.11(i)(4)(i)(D), §657a.11(e)(4) as amended), against the patron's identification, and signs.
    Once. Not the person who recorded the hand nor the one who validated the payout, whatever roles
    they hold: the floorperson or above validates (§655a.11(i)(4)(i)(C), §657a.11(e)(3)), someone else pays."""
    action_require(actor=actor, action=Action.PROGRESSIVE_PAY, of=hand)
    patron_name, id_type, id_number = ((value or "").strip() for value in (patron_name, id_type, id_number))
    fingerprint = request_fingerprint({"hand": hand.pk, "patron": [patron_name, id_type, id_number], "by": actor.pk})
    replayed = document_replay(model=ProgressivePayment, idempotency_key=idempotency_key, fingerprint=fingerprint)
    if replayed is not None:
        return replayed
    try:
        if not patron_name or not id_type or not id_number:
            raise _refuse(
                "The patron's name, ID type and ID number are recorded with a payment at the cage.", "id_required"
            )
        _payable_at_cage(hand)
        independent_require(
            person=actor,
            step="payment at the cage",
            earlier=[hand, ProgressiveValidation.objects.filter(hand_id=hand.pk).first()],
            section="§655a.11(i)(4)(i)(D), §657a.11(e)(4)",
        )
        signer = pin_check(user=actor, pin=pin)
        with transaction.atomic(durable=True):
            hand = (
                ProgressiveHand.objects.select_for_update(of=("self",))
                .select_related("round__meter__room")
                .get(pk=hand.pk)
            )
            again = document_replay(model=ProgressivePayment, idempotency_key=idempotency_key, fingerprint=fingerprint)
            if again is not None:
                return again
            _payable_at_cage(hand)
            meter = hand.round.meter
            payment = ProgressivePayment.objects.create(
                hand=hand,
                patron_name=patron_name,
                id_type=id_type,
                id_number=id_number,
                paid_by=actor,
                paid_at=signer.verified_at,
                idempotency_key=idempotency_key,
                request_sha256=fingerprint,
            )
            transfers_post_within(
                postings=[
                    Posting(
                        debit_id=account_open_as(meter_paid_account(meter=meter)).pk,
                        credit_id=account_locked(meter_won_account(meter=meter)).pk,
                        amount_cents=hand.amount_cents,
                        kind=TransferKind.PAYOUT,
                        idempotency_key=f"progressive:hand:{hand.pk}:paid",
                        memo=f"Paid at the cage to {patron_name}: {hand.words}"[:300],
                    )
                ],
                actor=actor,
                reference=payment,
            )
            signature_add(document=payment, rule=ProgressivePayment.PAYER, signer=signer)
    except DomainError as error:
        return document_replay_after(
            error, model=ProgressivePayment, idempotency_key=idempotency_key, fingerprint=fingerprint
        )
    except IntegrityError:
        replayed = document_replay(model=ProgressivePayment, idempotency_key=idempotency_key, fingerprint=fingerprint)
        if replayed is None:
            raise _refuse(f"The payout of {hand} is paid already; nothing was paid twice.", "already_paid") from None
        return replayed
    return payment


def _payable_at_cage(hand: ProgressiveHand) -> None:
    if hand.place != PayoutPlace.CAGE or not hand.amount_cents:
        raise _refuse(f"The payout of {hand} is paid at the table, with its validation.", "not_at_cage")
    if not ProgressiveValidation.objects.filter(hand_id=hand.pk).exists():
        raise _refuse(
            f"The payout of {hand} is not validated yet: a floorperson or above validates it first "
            "(§655a.11(i)(4)(i)(C), §657a.11(e)(3)).",
            "not_validated",
        )
    if ProgressivePayment.objects.filter(hand_id=hand.pk).exists():
        raise _refuse(f"The payout of {hand} is paid already; nothing was paid twice.", "already_paid")


def meter_reset(*, meter: ProgressiveMeter, actor: User, pin: str) -> MeterFunding:
    """After a 100% payout, a supervisor resets the meter to the reset amount of the rules in effect,
    funded by the house (§655a.12(c)(3), §657a.12(d)(3)), and signs. Until then the meter is pending:
    the display says so and it pays no share of the meter. The payout is validated first (its
    documentation complete, §655a.11(i)(4)(i)(D)). Wagers made meanwhile stay on the meter."""
    action_require(actor=actor, action=Action.PROGRESSIVE_RESET, of=meter)
    signer = pin_check(user=actor, pin=pin)
    try:
        with transaction.atomic(durable=True):
            meter = _lock_meter(meter)
            waiting = pending_hand(meter=meter)
            if waiting is None:
                raise _refuse(f"{meter.name} is not pending a reset: no 100% payout waits for one.", "not_pending")
            if not ProgressiveValidation.objects.filter(hand_id=waiting.pk).exists():
                raise _refuse(
                    f"The {waiting.words} at table {waiting.round.table.number} is not validated yet: its documentation "
                    "is completed before the meter is reset.",
                    "not_validated",
                )
            version = rules_version_in_effect(room=meter.room, at=signer.verified_at)
            rule = progressive_rule_of_version(version=version, code=meter.code) if version else None
            if version is None or rule is None:
                raise _refuse(f"The rules in effect post no reset amount for {meter.name}.", "not_progressive")
            funding = _meter_fund(
                meter=meter,
                reason=FundingReason.RESET,
                after_hand=waiting,
                version=version,
                amount_cents=rule.reset_cents,
                actor=actor,
                at=signer.verified_at,
                idempotency_key=f"progressive:hand:{waiting.pk}:reset",
                memo=f"{meter.name} reset to {display_cents(rule.reset_cents)} after hand {waiting.pk}",
            )
            signature_add(document=funding, rule=MeterFunding.RESETTER, signer=signer)
    except IntegrityError:
        raise _refuse(f"{meter.name} was reset meanwhile.", "not_pending") from None
    return funding
