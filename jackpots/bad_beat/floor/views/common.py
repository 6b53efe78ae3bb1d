"""What the Bad Beat's tablet pages share: a claim as a page shows it, with its cards and its conditions;
the claim a page's address names."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpRequest

from jackpots.bad_beat.models import BadBeatClaim
from jackpots.funds.floor import card_faces
from tables.games import Game
from tables.models import Round
from tables.selectors import visible_to


@dataclass(frozen=True)
class SeatedCards:
    """A hand of the claim as the page shows it: seat, name, hole cards as cards, the hand in words."""

    seat: int
    name: str
    cards: list[dict[str, str]]
    words: str


# How the evaluator words a condition of the posted qualifier that a hand does not meet
# (``casino_backoffice.poker.qualifiers.BadBeatQualifier.check``): the minimum, the loss, the players.
_NOT_MET = ("is below the minimum", "the qualifying hand did not lose", "are required")


@dataclass(frozen=True)
class Condition:
    """One condition of the posted qualifier as the evaluator worded it, and whether the hand met it."""

    words: str
    met: bool | None  # None: not known from the words


def conditions_of(claim: BadBeatClaim) -> list[Condition]:
    """The evaluator's reasons, each marked met or not, so that the page says which condition fails. A
    claim that does not qualify whose reasons name no unmet condition in the words above is shown
    unmarked rather than marked wrongly."""
    conditions = [Condition(reason, not any(words in reason for words in _NOT_MET)) for reason in claim.reasons]
    if not claim.qualifies and all(condition.met for condition in conditions):
        return [Condition(condition.words, None) for condition in conditions]
    return conditions


@dataclass(frozen=True)
class ClaimView:
    """A claim's evidence as every Bad Beat page shows it."""

    claim: BadBeatClaim
    board: list[dict[str, str]]
    losing: SeatedCards
    winning: SeatedCards
    round: Round | None
    game: str
    conditions: list[Condition]


def claim_view(claim: BadBeatClaim, rounds: dict[int, Round] | None = None) -> ClaimView:
    round_ = (rounds or {}).get(claim.round_id) if claim.round_id else None
    return ClaimView(
        claim=claim,
        board=card_faces(claim.board),
        losing=SeatedCards(claim.losing_seat, claim.losing_name, card_faces(claim.losing_hole), claim.losing_hand),
        winning=SeatedCards(claim.winning_seat, claim.winning_name, card_faces(claim.winning_hole), claim.winning_hand),
        round=round_,
        game=Game(claim.game).label if claim.game in Game.values else claim.game,
        conditions=conditions_of(claim),
    )


def rounds_of_claims(claims: Iterable[BadBeatClaim]) -> dict[int, Round]:
    return Round.objects.in_bulk([claim.round_id for claim in claims if claim.round_id])


def claim_or_back(request: HttpRequest, claim_id: int) -> BadBeatClaim | None:
    """The claim of the page's address, as the person may see it; a message when there is none."""
    claim = visible_to(request.user, BadBeatClaim.objects.select_related("table")).filter(pk=claim_id).first()
    if claim is None:
        messages.error(request, f"There is no Bad Beat claim {claim_id}.")
    return claim
