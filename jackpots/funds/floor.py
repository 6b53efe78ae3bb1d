"""What the jackpot products' tablet pages share: the rooms a person works in, cards drawn as cards,
and the pieces of their forms (a new idempotency key each time a form is shown, the seats and the
recent rounds of a table, a patron's identification)."""

from __future__ import annotations

from typing import Any

from django import forms

from casino_backoffice.core.clock import HOUR_MINUTE, local_text
from casino_backoffice.core.floor.forms import deck_rows
from casino_backoffice.money import display_cents
from tables.models import PokerRoom, Round
from tables.selectors import rooms_of


def floor_rooms(user: Any) -> list[PokerRoom]:
    """The rooms the person works in (``tables.selectors.rooms_of``): a page shows only theirs."""
    return list(rooms_of(user))


# --- Cards as cards -------------------------------------------------------------------------------


def _faces() -> dict[str, dict[str, str]]:
    return {
        card["code"]: {"rank": card["rank"], "symbol": row["symbol"], "suit": row["suit"], "name": card["name"]}
        for row in deck_rows()
        for card in row["cards"]
    }


def card_faces(text: str) -> list[dict[str, str]]:
    """Cards as the page draws them ("As Td" -> rank, suit symbol, suit letter and name of each)."""
    faces = _faces()
    return [faces[code] for code in text.split() if code in faces]


# Games whose players hold four hole cards; every other Bad Beat game (Hold'em) holds two.
FOUR_HOLE_CARD_GAMES = frozenset({"omaha_high", "omaha_high_low"})
# The rounds of the table offered to tie the claim to: the latest, newest first.
RECENT_ROUNDS = 15


def hole_cards_of(game: str) -> int:
    return 4 if game in FOUR_HOLE_CARD_GAMES else 2


def seat_choices(seats: int) -> list[tuple[str, str]]:
    return [("", "Seat?"), *((str(seat), f"Seat {seat}") for seat in range(1, seats + 1))]


class RoundChoice(forms.ModelChoiceField):
    """A recent round of the table, by the time it ended on the clock of ``room`` (set by the form)."""

    room: PokerRoom | None = None

    def label_from_instance(self, obj: Round) -> str:
        return (
            f"{local_text(obj.ended_at, self.room, HOUR_MINUTE)} · pot {display_cents(obj.pot_cents)} · "
            f"{obj.players_dealt_in} dealt in"
        )


# The patron's identification, as security and the cage record it (§637a.15(f)(2), (g)).
ID_TYPES = (
    ("Driver's license", "Driver's license"),
    ("State ID card", "State ID card"),
    ("Passport", "Passport"),
    ("Military ID", "Military ID"),
)


def id_type_field(*, label: str, recorded: str = "", help_text: str = "") -> forms.ChoiceField:
    """The kind of identification presented, picked from ``ID_TYPES`` on the tablet and in the admin
    alike, never typed: a typo ("Drivers licence") would be a patron's record that matches no other.
    ``recorded``: the type recorded with the hand when it is not of the list (a table system may send
    any words), offered too, so a cashier can still match it (§637a.16(b)(7))."""
    choices = [("", "Choose the document presented"), *ID_TYPES]
    if recorded and recorded.casefold() not in {value.casefold() for value, _ in ID_TYPES}:
        choices.append((recorded, recorded))
    return forms.ChoiceField(label=label, choices=choices, help_text=help_text)
