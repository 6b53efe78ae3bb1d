"""A winning progressive hand before it is written (``hands.progressive_hand_record``): the hand the
evaluator makes and the line it wins, read and checked before the meter's lock; its turn in the
dealer's order and what it is paid, under the lock."""

from __future__ import annotations

from dataclasses import dataclass

from casino_backoffice.money import percent_floor
from casino_backoffice.poker import InvalidCards, best_high, crazy4_best, parse_cards, winning_line
from casino_backoffice.poker.cards import format_cards
from casino_backoffice.poker.hands import HandValue
from casino_backoffice.poker.paytables import PayoutKind, PaytableLine
from jackpots.progressive.exceptions import ProgressiveErrorCode
from jackpots.progressive.models import (
    PayoutPlace,
    ProgressiveMeter,
    ProgressiveRound,
    ProgressiveRoundVoid,
    ProgressiveWager,
)
from jackpots.progressive.rules import ProgressiveRule
from jackpots.progressive.selectors import pending_hand, progressive_rule_of_version
from jackpots.progressive.services._common import _refuse
from jackpots.progressive.services.rounds import community_read
from tables.games import Game

FULL_METER_BP = 10_000


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
        raise _refuse(f"The cards cannot be read: {error}", ProgressiveErrorCode.CARDS_INVALID) from None


def _used_cards(round_: ProgressiveRound) -> set[int]:
    used: set[int] = set()
    for recorded in round_.hands.all():
        for part in recorded.cards.split("|"):
            used.update(parse_cards(part))
    return used


@dataclass(frozen=True)
class Winning:
    """A hand the dealer records, read and checked before the meter's lock (``winning_read``)."""

    round: ProgressiveRound
    rule: ProgressiveRule
    seat: int
    cards: str  # as the dealer gave them
    community: str  # the round's community cards, or those given
    folded: bool
    light_confirmed: bool
    hand: HandValue
    recorded_cards: str  # as the hand records them
    wager_cents: int
    line: PaytableLine | None  # the progressive paytable's line it wins; None: an Envy Bonus Qualifying Hand only
    envy_qualifying: bool


def winning_read(
    *, round: ProgressiveRound, seat: int, cards: str, community_cards: str, folded: bool, light_confirmed: bool
) -> Winning:
    """The hand the evaluator makes of the seat's cards and the line it wins; refused for a seat not
    of the table, community cards other than the round's, a hand that wins nothing and qualifies for
    no Envy Bonus, and a payout whose light was not confirmed (§655a.11(i)(4)(i)(B), §657a.11(e)(2))."""
    round_ = ProgressiveRound.objects.select_related("table__room", "meter", "rules_version").get(pk=round.pk)
    table = round_.table
    rule = progressive_rule_of_version(version=round_.rules_version, code=round_.meter.code)
    assert rule is not None  # the round was recorded by it
    if not 1 <= seat <= table.seats:
        raise _refuse(
            f"Seat {seat} is not a seat of table {table.number} (1-{table.seats}).", ProgressiveErrorCode.INVALID
        )
    community = community_cards or round_.community_cards
    if (
        round_.community_cards
        and community_cards
        and community_read(community_cards, table.game) != round_.community_cards
    ):
        raise _refuse(
            f"The community cards of round {round_.pk} are {round_.community_cards}, not {community_cards}.",
            ProgressiveErrorCode.CARDS_INVALID,
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
        raise _refuse(
            f"{hand} wins no progressive payout ({why}) and is no Envy Bonus Qualifying Hand.",
            ProgressiveErrorCode.NO_PAYOUT,
        )
    if line is not None and not light_confirmed:
        raise _refuse(
            "Confirm that the progressive table game system's light is illuminated for this seat before the payout "
            "is recorded (§655a.11(i)(4)(i)(B), §657a.11(e)(2)).",
            ProgressiveErrorCode.LIGHT_NOT_CONFIRMED,
        )
    return Winning(
        round=round_,
        rule=rule,
        seat=seat,
        cards=cards,
        community=community,
        folded=folded,
        light_confirmed=light_confirmed,
        hand=hand,
        recorded_cards=recorded_cards,
        wager_cents=wager_cents,
        line=line,
        envy_qualifying=envy_qualifying,
    )


def winning_in_turn(winning: Winning) -> None:
    """Under the meter's lock: the round not voided, the seat not recorded yet, paid in the dealer's
    order (from the player farthest to the dealer's right, §655a.11(i), §657a.11(c)), the community
    cards those of the round's first hand, and no card of another hand of the round."""
    round_, seat, community = winning.round, winning.seat, winning.community
    if ProgressiveRoundVoid.objects.filter(round_id=round_.pk).exists():
        raise _refuse(
            f"Progressive round {round_.pk} was voided (§655a.13, §657a.13: all hands void, all wagers returned): "
            "it has no winning hand.",
            ProgressiveErrorCode.ROUND_VOIDED,
        )
    recorded = list(round_.hands.all())
    if any(h.seat == seat for h in recorded):
        raise _refuse(f"Seat {seat} of round {round_.pk} is recorded already.", ProgressiveErrorCode.ALREADY_RECORDED)
    later = [h.seat for h in recorded if h.seat > seat]
    if len(later) != len(recorded):
        raise _refuse(
            f"Seat {seat} is paid after seat {min(h.seat for h in recorded if h.seat < seat)}: the dealer pays "
            "from the player farthest to the dealer's right, counterclockwise (§655a.11(i), §657a.11(c)); "
            "record the hands of the higher seats first.",
            ProgressiveErrorCode.OUT_OF_ORDER,
        )
    if recorded and round_.table.game == Game.MISSISSIPPI_STUD.value:
        first_community = recorded[0].cards.split("|")[1].strip()
        if first_community != format_cards(parse_cards(community)):
            raise _refuse(
                f"The community cards of round {round_.pk} were recorded as {first_community}, not {community}.",
                ProgressiveErrorCode.CARDS_INVALID,
            )
    clash = _used_cards(round_) & set(parse_cards(winning.cards))
    if clash:
        raise _refuse(
            f"{format_cards(sorted(clash))} is in another hand of this round already.",
            ProgressiveErrorCode.CARDS_INVALID,
        )


def winning_payout(winning: Winning, *, meter: ProgressiveMeter, meter_cents: int) -> tuple[int, int, str]:
    """The amount the line pays, the share of the meter it is (in basis points, 0 for a 'for 1' line),
    and where it is paid: a line of the meter pays that share of the meter as it stands (rounded down
    to the cent), through the cage at 100% of the meter or at Crazy 4 Poker; a 'for 1' line pays that
    many times the wager, at the table. Refused while the meter waits to be reset."""
    line = winning.line
    if line is None:
        return 0, 0, PayoutPlace.TABLE
    if line.payout.kind is not PayoutKind.METER:
        return line.payout.win * winning.wager_cents, 0, PayoutPlace.TABLE
    waiting = pending_hand(meter=meter)
    if waiting is not None:
        raise _refuse(
            f"{meter.name} is pending its reset after the {waiting.words} at table "
            f"{waiting.round.table.number}: a supervisor resets it before it pays again.",
            ProgressiveErrorCode.METER_PENDING,
        )
    meter_bp = line.payout.meter_bp
    amount = percent_floor(meter_cents, meter_bp)
    at_cage = meter_bp == FULL_METER_BP or winning.round.table.game == Game.CRAZY_4_POKER.value
    return amount, meter_bp, PayoutPlace.CAGE if at_cage else PayoutPlace.TABLE
