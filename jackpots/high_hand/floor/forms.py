"""Forms of the High Hand's tablet pages (§637a.16(f)): a hand recorded on the Tracking Slip, and a
shift supervisor's void of a wrong entry. Forms check the shape of what is typed or picked; the
services check every rule and role."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils import timezone

from casino_backoffice.core.clock import HOUR_MINUTE, local, local_text, zone_of
from casino_backoffice.core.floor.forms import CardsField, KeyedForm, MoneyField, PinSignatureField
from casino_backoffice.staff.models import User
from jackpots.funds.floor import ID_TYPES, seat_choices
from jackpots.high_hand.cards import dealt_at, high_hand_cards
from tables.models import Table

# --- The High Hand ----------------------------------------------------------------------------------


class _DealerChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: User) -> str:
        return f"{obj.get_full_name() or obj.username} · {obj.credential_number}"


class HighHandEntryForm(KeyedForm):
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
        self.zone = zone_of(table.room)
        self.hole_cards, self.board_cards = dealt_at(game)
        seat = self.fields["seat"]
        assert isinstance(seat, forms.TypedChoiceField)
        seat.choices = seat_choices(table.seats)
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
            self.initial.setdefault("made_at", local_text(timezone.now(), self.zone, HOUR_MINUTE))

    def made_at_moment(self) -> datetime:
        """The hand's moment: the time given, today by the room's clock, or yesterday when that is later
        than now (a hand recorded just after midnight)."""
        now = local(timezone.now(), self.zone)
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
