"""Paytables of Mississippi Stud (§655a.12) and Crazy 4 Poker (§657a.12), as data.

Each table lists its lines from the top; ``winning_line`` names the first line the hand
makes, or ``None``. "to 1" odds pay the winnings and keep the wager in action; "for 1"
odds include the wager (§655a.12(c)(1), §657a.12(d)(1)); the regulations' words are kept.
The Crazy 4 Poker progressive tables are the four-card ones of §657a.12(d)(1) (the
Four-Card Progressive Payout Wager of the amended §657a.11(e)).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import ACE, RANK_CHARS
from .crazy4 import Crazy4Hand
from .hands import HandCategory, HandValue
from .high import HighHand
from .three_card import ThreeCardHand

C = HandCategory


class PayoutKind(StrEnum):
    TO_ONE = "to"
    FOR_ONE = "for"
    METER = "meter"
    FIXED = "fixed"
    PUSH = "push"


@dataclass(frozen=True)
class Payout:
    """What a line pays: ``win`` to (or for) ``stake``, a share of the meter in basis points, a fixed amount or a push."""

    kind: PayoutKind
    win: int = 0
    stake: int = 1
    meter_bp: int = 0
    amount_cents: int = 0

    def __str__(self) -> str:
        if self.kind is PayoutKind.PUSH:
            return "Push"
        if self.kind is PayoutKind.METER:
            return f"{self.meter_bp // 100}% of meter"
        if self.kind is PayoutKind.FIXED:
            return f"${self.amount_cents // 100:,}" + (
                f".{self.amount_cents % 100:02d}" if self.amount_cents % 100 else ""
            )
        return f"{self.win} {self.kind.value} {self.stake}"


def to(win: int, stake: int = 1) -> Payout:
    return Payout(PayoutKind.TO_ONE, win, stake)


def for_(win: int) -> Payout:
    return Payout(PayoutKind.FOR_ONE, win, 1)


def meter(percent: int) -> Payout:
    return Payout(PayoutKind.METER, meter_bp=percent * 100)


def dollars(amount: int) -> Payout:
    return Payout(PayoutKind.FIXED, amount_cents=amount * 100)


PUSH = Payout(PayoutKind.PUSH)


@dataclass(frozen=True)
class PaytableLine:
    """One line: its words in the regulation, the category it needs and, optionally, the rank range of the set."""

    hand: str
    category: HandCategory
    payout: Payout
    min_rank: int = 0
    max_rank: int = ACE

    def matches(self, hand: HandValue) -> bool:
        return hand.category is self.category and self.min_rank <= hand.ranks[0] <= self.max_rank

    def __str__(self) -> str:
        return f"{self.hand}: {self.payout}"


@dataclass(frozen=True)
class Paytable:
    name: str
    section: str
    hand_type: type[HandValue]
    lines: tuple[PaytableLine, ...]


def winning_line(paytable: Paytable, hand: HandValue) -> PaytableLine | None:
    """The line of ``paytable`` the hand wins, or ``None``.

    >>> from casino_backoffice.poker import best_high
    >>> str(winning_line(MISSISSIPPI_STUD, best_high('Js Jd 4c 8h 2s')))
    'Pair of jacks or better: 1 to 1'
    >>> str(winning_line(MISSISSIPPI_STUD, best_high('7s 7d 4c 8h 2s')))
    'Pair of 6s to 10s: Push'
    >>> winning_line(MISSISSIPPI_STUD, best_high('5s 5d 4c 8h 2s')) is None
    True
    """
    if not isinstance(hand, paytable.hand_type):
        raise TypeError(f"{paytable.name} pays {paytable.hand_type.__name__} values, not {type(hand).__name__}")
    return next((line for line in paytable.lines if line.matches(hand)), None)


def envy_bonuses(
    paytable: Paytable, *, player_seat: int, hands_by_seat: dict[int, HandValue]
) -> list[tuple[int, PaytableLine]]:
    """Envy Bonuses a player with a Progressive Payout Wager receives: one per other player's qualifying hand.

    §655a.11, §657a.11(e)(5) (amended): never for the player's own hand; leave the dealer's hand out.
    """
    found = []
    for seat, hand in sorted(hands_by_seat.items()):
        line = winning_line(paytable, hand) if seat != player_seat else None
        if line is not None:
            found.append((seat, line))
    return found


_J, _Q, _SIX, _TEN = (RANK_CHARS.index(r) for r in "JQ6T")

MISSISSIPPI_STUD = Paytable(
    "mississippi_stud",
    "§655a.12(a)",
    HighHand,
    (
        PaytableLine("Royal flush", C.ROYAL_FLUSH, to(500)),
        PaytableLine("Straight flush", C.STRAIGHT_FLUSH, to(100)),
        PaytableLine("Four-of-a-kind", C.FOUR_OF_A_KIND, to(40)),
        PaytableLine("Full house", C.FULL_HOUSE, to(10)),
        PaytableLine("Flush", C.FLUSH, to(6)),
        PaytableLine("Straight", C.STRAIGHT, to(4)),
        PaytableLine("Three-of-a-kind", C.THREE_OF_A_KIND, to(3)),
        PaytableLine("Two pair", C.TWO_PAIR, to(2)),
        PaytableLine("Pair of jacks or better", C.PAIR, to(1), min_rank=_J),
        PaytableLine("Pair of 6s to 10s", C.PAIR, PUSH, min_rank=_SIX, max_rank=_TEN),
    ),
)
MISSISSIPPI_STUD_PROGRESSIVE = Paytable(
    "mississippi_stud_progressive",
    "§655a.12(c)(1)",
    HighHand,
    (
        PaytableLine("Royal flush", C.ROYAL_FLUSH, meter(100)),
        PaytableLine("Straight flush", C.STRAIGHT_FLUSH, meter(10)),
        PaytableLine("Four-of-a-kind", C.FOUR_OF_A_KIND, for_(300)),
        PaytableLine("Full house", C.FULL_HOUSE, for_(50)),
        PaytableLine("Flush", C.FLUSH, for_(40)),
        PaytableLine("Straight", C.STRAIGHT, for_(30)),
        PaytableLine("Three-of-a-kind", C.THREE_OF_A_KIND, for_(9)),
    ),
)


def _ms_envy(wager: int, royal: int, straight_flush: int) -> Paytable:
    return Paytable(
        f"mississippi_stud_envy_{wager}",
        "§655a.12(c)(5)",
        HighHand,
        (
            PaytableLine("Royal flush", C.ROYAL_FLUSH, dollars(royal)),
            PaytableLine("Straight flush", C.STRAIGHT_FLUSH, dollars(straight_flush)),
        ),
    )


MISSISSIPPI_STUD_ENVY_1 = _ms_envy(1, 1_000, 300)
MISSISSIPPI_STUD_ENVY_5 = _ms_envy(5, 5_000, 1_500)


def _three_card_bonus(letter: str, mini_royal: int, straight: int, flush: int) -> Paytable:
    return Paytable(
        f"three_card_bonus_{letter}",
        "§655a.12(d)",
        ThreeCardHand,
        (
            PaytableLine("Mini-royal", C.MINI_ROYAL, to(mini_royal)),
            PaytableLine("Straight flush", C.STRAIGHT_FLUSH, to(40)),
            PaytableLine("Three-of-a-kind", C.THREE_OF_A_KIND, to(30)),
            PaytableLine("Straight", C.STRAIGHT, to(straight)),
            PaytableLine("Flush", C.FLUSH, to(flush)),
            PaytableLine("Pair", C.PAIR, to(1)),
        ),
    )


THREE_CARD_BONUS_A = _three_card_bonus("a", 40, 6, 4)
THREE_CARD_BONUS_B = _three_card_bonus("b", 40, 5, 4)
THREE_CARD_BONUS_C = _three_card_bonus("c", 50, 5, 4)
THREE_CARD_BONUS_D = _three_card_bonus("d", 50, 6, 3)

CRAZY4_SUPER_BONUS = Paytable(
    "crazy4_super_bonus",
    "§657a.12(b)",
    Crazy4Hand,
    (
        PaytableLine("Four aces", C.FOUR_OF_A_KIND, to(200), min_rank=ACE),
        PaytableLine("Four-of-a-kind", C.FOUR_OF_A_KIND, to(30)),
        PaytableLine("Straight flush", C.STRAIGHT_FLUSH, to(15)),
        PaytableLine("Three-of-a-kind", C.THREE_OF_A_KIND, to(2)),
        PaytableLine("Flush", C.FLUSH, to(3, 2)),
        PaytableLine("Straight", C.STRAIGHT, to(1)),
    ),
)


def _queens_up(letter: str, straight_flush: int, three: int) -> Paytable:
    return Paytable(
        f"crazy4_queens_up_{letter}",
        "§657a.12(c)",
        Crazy4Hand,
        (
            PaytableLine("Four-of-a-kind", C.FOUR_OF_A_KIND, to(50)),
            PaytableLine("Straight flush", C.STRAIGHT_FLUSH, to(straight_flush)),
            PaytableLine("Three-of-a-kind", C.THREE_OF_A_KIND, to(three)),
            PaytableLine("Flush", C.FLUSH, to(4)),
            PaytableLine("Straight", C.STRAIGHT, to(3)),
            PaytableLine("Two pair", C.TWO_PAIR, to(2)),
            PaytableLine("Pair of queens or better", C.PAIR, to(1), min_rank=_Q),
        ),
    )


CRAZY4_QUEENS_UP_A = _queens_up("a", 30, 9)
CRAZY4_QUEENS_UP_B = _queens_up("b", 40, 8)
CRAZY4_QUEENS_UP_C = _queens_up("c", 30, 8)
CRAZY4_QUEENS_UP_D = _queens_up("d", 40, 7)


def _crazy4_progressive(letter: str, three: int) -> Paytable:
    return Paytable(
        f"crazy4_progressive_{letter}",
        "§657a.12(d)(1)",
        Crazy4Hand,
        (
            PaytableLine("Four aces", C.FOUR_OF_A_KIND, meter(100), min_rank=ACE),
            PaytableLine("Four-of-a-kind", C.FOUR_OF_A_KIND, for_(300)),
            PaytableLine("Straight flush", C.STRAIGHT_FLUSH, for_(100)),
            PaytableLine("Three-of-a-kind", C.THREE_OF_A_KIND, for_(three)),
        ),
    )


CRAZY4_PROGRESSIVE_A = _crazy4_progressive("a", 9)
CRAZY4_PROGRESSIVE_B = _crazy4_progressive("b", 15)


def _crazy4_envy(name: str, section: str, aces: int, four: int, straight_flush: int | None) -> Paytable:
    lines = [
        PaytableLine("Four aces", C.FOUR_OF_A_KIND, dollars(aces), min_rank=ACE),
        PaytableLine("Four-of-a-kind", C.FOUR_OF_A_KIND, dollars(four)),
    ]
    if straight_flush is not None:
        lines.append(PaytableLine("Straight flush", C.STRAIGHT_FLUSH, dollars(straight_flush)))
    return Paytable(name, section, Crazy4Hand, tuple(lines))


CRAZY4_ENVY_A_1 = _crazy4_envy("crazy4_envy_a_1", "§657a.12(d)(5)(i)", 100, 10, 5)
CRAZY4_ENVY_A_5 = _crazy4_envy("crazy4_envy_a_5", "§657a.12(d)(5)(i)", 500, 50, 25)
CRAZY4_ENVY_B_1 = _crazy4_envy("crazy4_envy_b_1", "§657a.12(d)(5)(ii)", 100, 25, None)
CRAZY4_ENVY_B_5 = _crazy4_envy("crazy4_envy_b_5", "§657a.12(d)(5)(ii)", 500, 125, None)

PAYTABLES: dict[str, Paytable] = {
    table.name: table
    for table in (
        MISSISSIPPI_STUD,
        MISSISSIPPI_STUD_PROGRESSIVE,
        MISSISSIPPI_STUD_ENVY_1,
        MISSISSIPPI_STUD_ENVY_5,
        THREE_CARD_BONUS_A,
        THREE_CARD_BONUS_B,
        THREE_CARD_BONUS_C,
        THREE_CARD_BONUS_D,
        CRAZY4_SUPER_BONUS,
        CRAZY4_QUEENS_UP_A,
        CRAZY4_QUEENS_UP_B,
        CRAZY4_QUEENS_UP_C,
        CRAZY4_QUEENS_UP_D,
        CRAZY4_PROGRESSIVE_A,
        CRAZY4_PROGRESSIVE_B,
        CRAZY4_ENVY_A_1,
        CRAZY4_ENVY_A_5,
        CRAZY4_ENVY_B_1,
        CRAZY4_ENVY_B_5,
    )
}
