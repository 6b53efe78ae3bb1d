"""Forms of the jackpots' tablet pages. The Bad Beat (§637a.15(f)-(h)): the claim at the table, the
shift supervisor's verification or denial, the payment of a share, the witness of a display
adjustment, finance's distribution and adjustment. The High Hand (§637a.16(f)): a hand recorded on
the Tracking Slip, and a shift supervisor's void of a wrong entry.

Forms check the shape of what is typed or picked; the services check every rule and role. Cards are
picked on the card picker, never typed. A form that creates a document carries a new idempotency key
each time it is shown, so a second tap of its button (or a resent form) records the document once.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.db.models import QuerySet
from django.utils import timezone

from casino_backoffice.core.floor.forms import CardsField, MoneyField, PinSignatureField
from casino_backoffice.money import display_cents
from casino_backoffice.staff.models import User
from tables.models import Round, Table

from ..high_hand_cards import dealt_at, high_hand_cards
from ..models import PaymentPlace, PayoutMethod
from ..services import SeatedHand, SeatedPlayer

# Games whose players hold four hole cards; every other Bad Beat game (Hold'em) holds two.
FOUR_HOLE_CARD_GAMES = frozenset({"omaha_high", "omaha_high_low"})
# The rounds of the table offered to tie the claim to: the latest, newest first.
RECENT_ROUNDS = 15
# The patron's identification, as security and the cage record it (§637a.15(f)(2), (g)).
ID_TYPES = (
    ("Driver's license", "Driver's license"),
    ("State ID card", "State ID card"),
    ("Passport", "Passport"),
    ("Military ID", "Military ID"),
)


def hole_cards_of(game: str) -> int:
    return 4 if game in FOUR_HOLE_CARD_GAMES else 2


class _Keyed(forms.Form):
    """A form whose posting records a document once: a new key each time it is shown."""

    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=120)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("idempotency_key", f"floor-{uuid.uuid4()}")


def _seat_choices(seats: int) -> list[tuple[str, str]]:
    return [("", "Seat?"), *((str(seat), f"Seat {seat}") for seat in range(1, seats + 1))]


class _RoundChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Round) -> str:
        return (
            f"{timezone.localtime(obj.ended_at):%H:%M} · pot {display_cents(obj.pot_cents)} · "
            f"{obj.players_dealt_in} dealt in"
        )


class ClaimForm(_Keyed):
    """A Bad Beat claimed at ``table`` for ``jackpot`` (§637a.15(f)): the hand as the floorperson saw
    it. The board and the hole cards are picked on the card picker (two hole cards at Hold'em, four at
    Omaha); every other player dealt in has a row of seat and name, and blank rows are ignored."""

    round = _RoundChoice(
        queryset=Round.objects.none(), required=False, empty_label="Not tied to a logged round", label="Round"
    )
    players_dealt_in = forms.TypedChoiceField(label="Players dealt in", coerce=int)
    board = CardsField(count=5, label="The board")
    losing_seat = forms.TypedChoiceField(label="Seat", coerce=int)
    losing_name = forms.CharField(label="Name", max_length=120)
    winning_seat = forms.TypedChoiceField(label="Seat", coerce=int)
    winning_name = forms.CharField(label="Name", max_length=120)
    surveillance_reference = forms.CharField(label="Surveillance reference", max_length=120, required=False)
    pin = PinSignatureField()

    def __init__(self, *args: Any, table: Table, game: str, rounds: QuerySet[Round], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table, self.game = table, game
        self.hole_cards = hole_cards_of(game)
        for name in ("losing_hole", "winning_hole"):
            self.fields[name] = CardsField(count=self.hole_cards, label="Hole cards")
        seats = _seat_choices(table.seats)
        for name in ("losing_seat", "winning_seat"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = seats
        dealt = self.fields["players_dealt_in"]
        assert isinstance(dealt, forms.TypedChoiceField)
        dealt.choices = [("", "How many?"), *((str(n), str(n)) for n in range(2, table.seats + 1))]
        round_field = self.fields["round"]
        assert isinstance(round_field, forms.ModelChoiceField)
        round_field.queryset = rounds
        # Every other player dealt in: one row per seat that may be left.
        self.other_rows = table.seats - 2
        for row in range(1, self.other_rows + 1):
            self.fields[f"other_seat_{row}"] = forms.TypedChoiceField(
                label=f"Other player {row}: seat", choices=seats, coerce=int, required=False
            )
            self.fields[f"other_name_{row}"] = forms.CharField(
                label=f"Other player {row}: name",
                max_length=120,
                required=False,
                widget=forms.TextInput(attrs={"placeholder": "Name", "autocomplete": "off"}),
            )

    def hands(self) -> list[tuple[str, forms.BoundField, forms.BoundField, forms.BoundField]]:
        """(title, seat, name, hole cards) of the losing and the winning hand, as the page lists them."""
        return [
            (title, self[f"{hand}_seat"], self[f"{hand}_name"], self[f"{hand}_hole"])
            for title, hand in (("The losing hand", "losing"), ("The winning hand", "winning"))
        ]

    def others_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """(seat, name) of each row of the other players, as the page lists them."""
        return [(self[f"other_seat_{row}"], self[f"other_name_{row}"]) for row in range(1, self.other_rows + 1)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        others = []
        for row in range(1, self.other_rows + 1):
            seat, name = data.get(f"other_seat_{row}"), (data.get(f"other_name_{row}") or "").strip()
            if seat in (None, "") and not name:
                continue  # a blank row
            if seat in (None, ""):
                self.add_error(f"other_seat_{row}", f"Give the seat of {name}.")
            elif not name:
                self.add_error(f"other_name_{row}", f"Give the name of the player in seat {seat}.")
            else:
                others.append(SeatedPlayer(seat=int(seat), name=name))
        data["others"] = others
        return data

    def service_arguments(self) -> dict[str, Any]:
        """What ``claim_open`` takes from the form (the fund, the table, the actor and the PIN aside)."""
        data = self.cleaned_data
        return {
            "round": data["round"],
            "players_dealt_in": data["players_dealt_in"],
            "board": " ".join(data["board"]),
            "losing": SeatedHand(
                seat=data["losing_seat"], name=data["losing_name"], hole=" ".join(data["losing_hole"])
            ),
            "winning": SeatedHand(
                seat=data["winning_seat"], name=data["winning_name"], hole=" ".join(data["winning_hole"])
            ),
            "others": data["others"],
            "surveillance_reference": data["surveillance_reference"],
            "idempotency_key": data["idempotency_key"],
        }


class VerifyForm(forms.Form):
    """The shift supervisor's signature on a claim that qualifies (§637a.15(f))."""

    pin = PinSignatureField()


class DenyForm(forms.Form):
    """The shift supervisor's denial, with the reason kept with the claim's evidence."""

    reason = forms.CharField(
        label="Why is the claim denied?", max_length=1000, widget=forms.Textarea(attrs={"rows": 2})
    )
    pin = PinSignatureField()


class PayForm(_Keyed):
    """A share paid to its patron, with their identification (§637a.15(f)(2), (g)). ``places`` are where
    the signed-in person pays: security at the table, a cage cashier at the cage, finance either."""

    id_type = forms.ChoiceField(label="Patron's ID", choices=ID_TYPES)
    id_number = forms.CharField(label="ID number", max_length=60)
    place = forms.ChoiceField(label="Paid", choices=PaymentPlace.choices)
    pin = PinSignatureField()

    def __init__(self, *args: Any, places: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["place"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(value, label) for value, label in PaymentPlace.choices if value in places]
        # One place: it is said on the page, not chosen.
        self.one_place = len(field.choices) == 1
        if self.one_place:
            field.widget = forms.HiddenInput()
            field.initial = field.choices[0][0]


class DistributeForm(_Keyed):
    """Finance's distribution of a verified claim's payout (§637a.15(g))."""

    method = forms.ChoiceField(label="Paid in", choices=PayoutMethod.choices, initial=PayoutMethod.CASH)
    pin = PinSignatureField()


class AdjustForm(_Keyed):
    """Finance sets a fund's display to the finance record (§637a.15(h)(1))."""

    pin = PinSignatureField()


class WitnessForm(forms.Form):
    """The floorperson or above in whose presence the display was adjusted signs (§637a.15(h)(1))."""

    pin = PinSignatureField()


# --- The High Hand ----------------------------------------------------------------------------------


class _DealerChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: User) -> str:
        return f"{obj.get_full_name() or obj.username} · {obj.credential_number}"


class HighHandEntryForm(_Keyed):
    """A hand a floorperson or above verified at ``table``, for the High Hand Tracking Slip
    (§637a.16(f)): the player (name, phone, seat, identification, §637a.16(b)(7)), the dealer picked
    from the dealers, the players dealt in and the pot, when the hand was made (the room's clock; a time
    later than now is yesterday's), and the cards on the card picker as the table's game deals them: the
    evaluator picks the best five."""

    seat = forms.TypedChoiceField(label="Seat", coerce=int)
    player_name = forms.CharField(label="Player's name", max_length=120)
    player_phone = forms.CharField(
        label="Phone number", max_length=40, widget=forms.TextInput(attrs={"inputmode": "tel", "autocomplete": "off"})
    )
    id_type = forms.ChoiceField(label="Player's ID", choices=ID_TYPES)
    id_number = forms.CharField(label="ID number", max_length=60, widget=forms.TextInput(attrs={"autocomplete": "off"}))
    dealer = _DealerChoice(queryset=User.objects.none(), label="Dealer", empty_label="Who dealt the hand?")
    players_dealt_in = forms.TypedChoiceField(label="Players dealt in", coerce=int)
    pot = MoneyField(label="Pot, after the rake")
    made_at = forms.TimeField(
        label="Made at", widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"), input_formats=["%H:%M"]
    )
    pin = PinSignatureField()

    def __init__(self, *args: Any, table: Table, game: str, dealers: QuerySet[User], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table, self.game = table, game
        self.zone = ZoneInfo(table.room.timezone)
        self.hole_cards, self.board_cards = dealt_at(game)
        seat = self.fields["seat"]
        assert isinstance(seat, forms.TypedChoiceField)
        seat.choices = _seat_choices(table.seats)
        dealt = self.fields["players_dealt_in"]
        assert isinstance(dealt, forms.TypedChoiceField)
        dealt.choices = [("", "How many?"), *((str(n), str(n)) for n in range(2, table.seats + 1))]
        dealer = self.fields["dealer"]
        assert isinstance(dealer, forms.ModelChoiceField)
        dealer.queryset = dealers
        self.fields["hole"] = CardsField(
            count=self.hole_cards, label="Hole cards" if self.board_cards else "The player's cards"
        )
        if self.board_cards:
            self.fields["board"] = CardsField(count=self.board_cards, label="The board")
        if not self.is_bound:
            self.initial.setdefault("made_at", timezone.now().astimezone(self.zone).strftime("%H:%M"))

    def made_at_moment(self) -> datetime:
        """The hand's moment: the time given, today by the room's clock, or yesterday when that is later
        than now (a hand recorded just after midnight)."""
        now = timezone.now().astimezone(self.zone)
        moment = datetime.combine(now.date(), self.cleaned_data["made_at"]).replace(tzinfo=self.zone)
        return moment - timedelta(days=1) if moment > now else moment

    def cards(self) -> str:
        """The five cards of the hand (``HighHandRefused`` ``cards_invalid`` when they cannot make one)."""
        board = " ".join(self.cleaned_data.get("board") or ())
        return high_hand_cards(game=self.game, hole=" ".join(self.cleaned_data["hole"]), board=board)

    def service_arguments(self) -> dict[str, Any]:
        """What ``entry_record`` takes from the form (the fund, the table, the actor and the PIN aside)."""
        data = self.cleaned_data
        return {
            "seat": data["seat"],
            "player_name": data["player_name"],
            "player_phone": data["player_phone"],
            "id_type": data["id_type"],
            "id_number": data["id_number"],
            "dealer": data["dealer"],
            "players_dealt_in": data["players_dealt_in"],
            "pot_cents": data["pot"],
            "cards": self.cards(),
            "made_at": self.made_at_moment(),
            "idempotency_key": data["idempotency_key"],
        }


class HighHandVoidForm(forms.Form):
    """A shift supervisor's void of a wrong entry: the reason stays on the slip with it."""

    reason = forms.CharField(label="Why is the entry void?", max_length=1000, widget=forms.Textarea(attrs={"rows": 2}))
    pin = PinSignatureField()
