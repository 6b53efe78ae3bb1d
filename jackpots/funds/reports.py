"""What every jackpot product's reports say alike: cards and games in words, a contribution in words
(§637a.15(b)(1)-(2), §637a.16(b)(2)-(4)), and a patron's identification number masked."""

from __future__ import annotations

from casino_backoffice.money import display_cents, display_percent
from casino_backoffice.poker.cards import RANK_NAMES, SUIT_NAMES, parse_cards
from jackpots.funds.rules import Contribution
from tables.games import Game

# --- The patron's identification --------------------------------------------------------------------


def id_number_masked(number: str) -> str:
    """A patron's ID number as the back office shows it: only its last four characters
    ('•••••5678'). The whole number is kept with the hand (§637a.16(b)(7)); a cashier paying an award
    types the number presented and the service compares it, so no page shows it whole."""
    shown = number[-4:]
    return "•" * (len(number) - len(shown)) + shown if len(number) > 4 else "•" * len(number)


# --- Words ----------------------------------------------------------------------------------------


def card_words(cards: str) -> str:
    """Cards as a person reads them aloud: ``"As Ks"`` -> ``"ace of spades, king of spades"``."""
    return ", ".join(f"{RANK_NAMES[card.rank]} of {SUIT_NAMES[card.suit]}" for card in parse_cards(cards))


def game_words(game: str) -> str:
    """A game's name as the room posts it (``Game``'s label), or its code when it has none."""
    return str(Game(game).label) if game in Game.values else game


_BASE_WORDS = {
    "after_rake": "after the rake: the pot without the uncalled final bet, less the rake the dealer extracted",
    "before_rake": "before the rake: the pot without the uncalled final bet, as raked",
}


def contribution_words(contribution: Contribution) -> str:
    """§637a.15(b)(1): the method of calculation, its base (after the rake, §637a.15(c)) and its cap."""
    base = _BASE_WORDS[contribution.base]
    if contribution.method == "fixed":
        assert contribution.amount_cents is not None
        words = (
            f"A fixed {display_cents(contribution.amount_cents)} from each pot that reaches the minimum pot, "
            f"the pot measured {base}."
        )
    else:
        assert contribution.rate_bp is not None and contribution.max_cents is not None
        words = (
            f"{display_percent(contribution.rate_bp)} of each pot that reaches the minimum pot, the pot measured "
            f"{base}; rounded down to the cent, at most {display_cents(contribution.max_cents)} from a pot."
        )
    if contribution.no_flop_no_drop:
        words += " Nothing is taken from a pot where no flop was dealt and the rake took nothing."
    return words


def maximum_contribution_cents(contribution: Contribution) -> int:
    """§637a.15(b)(1): the most one pot contributes."""
    cents = contribution.amount_cents if contribution.method == "fixed" else contribution.max_cents
    assert cents is not None
    return cents


def minimum_pot_words(contribution: Contribution) -> str:
    """§637a.15(b)(2): the minimum pot, and what it is measured on."""
    if contribution.min_pot_cents == 0:
        return "No minimum: every pot contributes."
    return f"{display_cents(contribution.min_pot_cents)}, the pot measured {_BASE_WORDS[contribution.base]}."
