"""Cards in templates, drawn as cards: ``{% load jackpot_cards %}{% for card in entry.cards|card_faces %}``
gives each card's rank, suit symbol, suit letter and name, as the card picker shows them."""

from __future__ import annotations

from collections.abc import Iterable

from django import template

from casino_backoffice.core.floor.forms import deck_rows

register = template.Library()


@register.filter
def card_faces(cards: str | Iterable[str]) -> list[dict[str, str]]:
    """ "As Td" (or its codes) -> [{rank: "A", symbol: "♠", suit: "s", name: "ace of spades"}, ...]; a code
    that is not a card is left out."""
    codes = cards.split() if isinstance(cards, str) else list(cards)
    faces = {
        card["code"]: {"rank": card["rank"], "symbol": row["symbol"], "suit": row["suit"], "name": card["name"]}
        for row in deck_rows()
        for card in row["cards"]
    }
    return [faces[code] for code in codes if code in faces]
