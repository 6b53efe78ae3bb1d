"""The kinds of irregularity, each with the provision it records, and what each needs.

The regulations' own list (§637a.18 for poker, §655a and §657a for the banked games): a kind is
reported at the tables of its games, with a round of play where its money is a round's (a pot returned,
a refund from a pot), and a misdeal with its cause (§637a.18(g)(1)-(4)). Rounds of play here are poker
rounds (``tables.Round``); a banked round is the progressive's, voided by its own service.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from django.db import models

from ..games import HOUSE_BANKED, Game


class IrregularityKind(models.TextChoices):
    MISDEAL = "misdeal", "Misdeal"
    INELIGIBLE_PLAYER = "ineligible_player", "Cards dealt to an ineligible player"
    MISSING_OR_EXTRA_CARDS = "missing_or_extra_cards", "Missing or extra cards: round voided, pot returned"
    CARD_FACE_UP_IN_DECK = "card_face_up_in_deck", "A card face up in the deck"
    FOULED_HAND = "fouled_hand", "A protected hand fouled and reconstructed"
    DEALER_ERROR_REFUND = "dealer_error_refund", "A player refunded from the pot for a dealer error"
    EXPOSED_HOLE_CARD = "exposed_hole_card", "A hole card exposed in the dealing"
    BANKED_CARD_ERROR = "banked_card_error", "A dealer's card error at a banked table"
    SHUFFLER_MISCOUNT = "shuffler_miscount", "A shuffler counted the wrong number of cards"
    DISPUTE = "dispute", "A dispute and its ruling"
    COLLUSION_REMOVAL = "collusion_removal", "Suspected collusion: a player removed, compliance notified"


class MisdealCause(models.TextChoices):
    """The errors that are cause for a misdeal (§637a.18(g))."""

    NOT_SHUFFLED_AND_CUT = "not_shuffled_and_cut", "(g)(1) The cards were not shuffled and cut as §635a.5 requires"
    WRONG_STARTING_POSITION = "wrong_starting_position", "(g)(2) Dealt to an incorrect starting position"
    CARDS_FACE_UP_IN_DECK = "cards_face_up_in_deck", "(g)(3) More than one card found face up in the deck"
    ELIGIBLE_PLAYER_NOT_DEALT = "eligible_player_not_dealt", "(g)(4) An eligible seated player was not dealt to"


class RoundNeed(Enum):
    """Whether a kind is reported with a round of play."""

    REQUIRED = "required"  # its money is the round's: the pot returned, a refund from the pot
    OPTIONAL = "optional"  # during a round, often before it is logged
    NONE = "none"  # a banked table's, whose rounds are the progressive's


class Tables(Enum):
    POKER = "poker"  # §637a: the poker games, which rake their pots
    BANKED = "banked"  # §655a, §657a: Mississippi Stud and Crazy 4 Poker
    ANY = "any"


@dataclass(frozen=True)
class KindRule:
    """What a kind records and needs: its provision (for each banked game its own chapter's), its
    tables, its round, whether it carries a misdeal's cause and the notice to compliance, and who rules."""

    section: str
    tables: Tables
    round: RoundNeed
    cause: bool = False
    compliance_notice: bool = False
    ruled_by_supervisor: bool = False
    banked_sections: tuple[tuple[Game, str], ...] = ()

    def section_at(self, game: str) -> str:
        """The provision for a table of ``game``: a banked kind cites its game's chapter."""
        return dict(self.banked_sections).get(Game(game), self.section)


KIND_RULES: dict[IrregularityKind, KindRule] = {
    IrregularityKind.MISDEAL: KindRule(
        section="§637a.18(g)", tables=Tables.POKER, round=RoundNeed.OPTIONAL, cause=True
    ),
    IrregularityKind.INELIGIBLE_PLAYER: KindRule(section="§637a.18(h)", tables=Tables.POKER, round=RoundNeed.OPTIONAL),
    IrregularityKind.MISSING_OR_EXTRA_CARDS: KindRule(
        section="§637a.18(i)", tables=Tables.POKER, round=RoundNeed.REQUIRED
    ),
    IrregularityKind.CARD_FACE_UP_IN_DECK: KindRule(
        section="§637a.18(j)", tables=Tables.POKER, round=RoundNeed.OPTIONAL
    ),
    IrregularityKind.FOULED_HAND: KindRule(section="§637a.18(k)(2)", tables=Tables.POKER, round=RoundNeed.OPTIONAL),
    IrregularityKind.DEALER_ERROR_REFUND: KindRule(
        section="§637a.18(k)(3)", tables=Tables.POKER, round=RoundNeed.REQUIRED
    ),
    IrregularityKind.EXPOSED_HOLE_CARD: KindRule(
        section="§637a.18(m)-(p)", tables=Tables.POKER, round=RoundNeed.OPTIONAL
    ),
    IrregularityKind.BANKED_CARD_ERROR: KindRule(
        section="§655a.13(a)-(d), §657a.13(a)-(d)",
        tables=Tables.BANKED,
        round=RoundNeed.NONE,
        banked_sections=((Game.MISSISSIPPI_STUD, "§655a.13(a)-(d)"), (Game.CRAZY_4_POKER, "§657a.13(a)-(d)")),
    ),
    IrregularityKind.SHUFFLER_MISCOUNT: KindRule(
        section="§655a.5(b), §657a.5(b)",
        tables=Tables.BANKED,
        round=RoundNeed.NONE,
        banked_sections=((Game.MISSISSIPPI_STUD, "§655a.5(b)"), (Game.CRAZY_4_POKER, "§657a.5(b)")),
    ),
    # §637a.18(a) is the poker chapter's; a dispute at a banked table is ruled the same way, a house control.
    IrregularityKind.DISPUTE: KindRule(
        section="§637a.18(a)", tables=Tables.ANY, round=RoundNeed.OPTIONAL, ruled_by_supervisor=True
    ),
    IrregularityKind.COLLUSION_REMOVAL: KindRule(
        section="§637a.18(b)-(c)", tables=Tables.POKER, round=RoundNeed.OPTIONAL, compliance_notice=True
    ),
}

# Exposed hole cards, by game: the provision of each (§637a.18(m)-(p)); another poker game's card dealt
# off the table is (o).
_EXPOSED_SECTIONS: dict[Game, str] = {
    Game.SEVEN_CARD_STUD: "§637a.18(m)",
    Game.FIVE_CARD_STUD: "§637a.18(n)",
    Game.HOLDEM: "§637a.18(p)",
    Game.OMAHA_HIGH: "§637a.18(p)",
    Game.OMAHA_HIGH_LOW: "§637a.18(p)",
}


def section_of(kind: str, *, game: str) -> str:
    """The provision an irregularity of ``kind`` at a table of ``game`` records."""
    kind = IrregularityKind(kind)
    if kind == IrregularityKind.EXPOSED_HOLE_CARD:
        return _EXPOSED_SECTIONS.get(Game(game), "§637a.18(o)")
    return KIND_RULES[kind].section_at(game)


def table_problem(kind: str, *, game: str) -> str | None:
    """Why a kind of the regulations is not reported at a table of ``game``, or None when it is."""
    kind = IrregularityKind(kind)
    return rule_table_problem(KIND_RULES[kind], label=kind.label, game=game)


def rule_table_problem(rule: KindRule, *, label: str, game: str) -> str | None:
    """Why a kind with ``rule`` (the regulations' or the room's own) is not reported at a table of
    ``game``, or None when it is."""
    banked = Game(game) in HOUSE_BANKED
    if rule.tables == Tables.POKER and banked:
        return f"{label} ({rule.section}) is a poker irregularity; {Game(game).label} is a banked game."
    if rule.tables == Tables.BANKED and not banked:
        return f"{label} ({rule.section}) is recorded at a Mississippi Stud or Crazy 4 Poker table, not {Game(game).label}."
    return None
