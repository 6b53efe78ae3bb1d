"""Boards at their fullest for the browser tests: /board-kit/<n>/ renders the display board of a room
with ``n`` jackpots (1 to 6) whose amounts, names and High Hand details are as long as a room shows them
(six-figure amounts, a pending adjustment, a High Hand with its leader, two tied hands and the last
period's winners, meters linked to several tables). The board is the real template, stylesheet and
script; only the state is made up, so its layout meets the worst case without a database behind it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import include, path

from casino_backoffice.money import display_cents
from jackpots.board.selectors import BoardHand, DisplayedJackpot, DisplayState, HighHandOnBoard
from tables.models import PokerRoom

ZONE = ZoneInfo("America/New_York")
NOW = datetime(2026, 12, 4, 21, 47, tzinfo=ZONE)


@dataclass(frozen=True)
class KitMeter:
    """What the board reads of a progressive meter (``MeterStanding``'s shape, without its rows)."""

    name: str
    amount_cents: int
    tables: tuple[str, ...]
    is_pending: bool = False

    @property
    def meter(self) -> KitMeter:
        return self

    @property
    def amount(self) -> str:
        return display_cents(self.amount_cents)


def _hand(table: str, seat: int, name: str, amount_cents: int | None = None) -> BoardHand:
    words = "Four of a kind, queens with a king kicker"
    return BoardHand(words, ("Qs", "Qh", "Qd", "Qc", "Ks"), table, seat, name, amount_cents)


HIGH_HAND = HighHandOnBoard(
    open=True,
    estimated_cents=1_234_567,
    ends_local=datetime(2026, 12, 4, 22, 0, tzinfo=ZONE),
    minutes_left=13,
    leader=_hand("T10", 9, "Alexandra Montgomery-Smith"),
    tied=(_hand("T12", 2, "Bartholomew Oyelaran"), _hand("T3", 7, "Chen Wei")),
    last_pool_cents=987_654,
    last_starts_local=datetime(2026, 12, 4, 20, 0, tzinfo=ZONE),
    last_ends_local=datetime(2026, 12, 4, 21, 0, tzinfo=ZONE),
    winners=(_hand("T7", 4, "Dolores Fitzgerald", 493_827), _hand("T8", 1, "Eduardo Sanchez", 493_827)),
)
CARDS: list[DisplayedJackpot | KitMeter] = [
    DisplayedJackpot("Bad Beat", "Bad Beat", 12_345_678, pending=True),
    DisplayedJackpot("High Hand", "High Hand", HIGH_HAND.estimated_cents, high_hand=HIGH_HAND),
    KitMeter("Mississippi Stud Progressive", 98_765_432, ("T11", "T12", "T13", "T14")),
    DisplayedJackpot("Mini Bad Beat (Omaha)", "Bad Beat", 4_567_890),
    KitMeter("Crazy 4 Poker Progressive", 25_000_075, ("T15",)),
    DisplayedJackpot("Royal Flush Bonus", "Bad Beat", 1_000_000),
]


def board(request: HttpRequest, count: int) -> HttpResponse:
    cards = CARDS[:count]
    state = DisplayState(
        room=PokerRoom(code="kit", name="Main Poker Room", timezone="America/New_York"),
        now_local=NOW,
        gaming_day_on=date(2026, 12, 4),
        open_tables=13,
        total_tables=15,
        jackpots=tuple(card for card in cards if isinstance(card, DisplayedJackpot)),
        meters=tuple(card for card in cards if isinstance(card, KitMeter)),  # type: ignore[misc]
    )
    # No refresh during a test: the made-up room has no panel to fetch.
    return render(request, "display/board.html", {"state": state, "refresh_ms": 3_600_000})


urlpatterns = [
    path("board-kit/<int:count>/", board),
    path("", include("casino_backoffice.urls")),
]
