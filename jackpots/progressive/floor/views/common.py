"""What the progressive tablet pages share: a hand in words, with the evaluator's verdict."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from casino_backoffice.money import display_cents
from jackpots.funds.floor import card_faces
from jackpots.progressive.models import PayoutPlace, ProgressiveHand
from tables.games import Game

COUNT_SECTION = {Game.MISSISSIPPI_STUD.value: "§655a.8(b)", Game.CRAZY_4_POKER.value: "§657a.8(b)"}


# --- A hand in words ------------------------------------------------------------------------------


def split_cards(hand: ProgressiveHand) -> tuple[str, str]:
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
    player, board = split_cards(hand)
    return HandView(hand, card_faces(player), card_faces(board))


def hands_shown() -> QuerySet[ProgressiveHand]:
    return ProgressiveHand.objects.select_related(
        "round__table", "round__meter", "recorded_by", "validation__validated_by", "payment"
    ).prefetch_related("envy_bonuses")
