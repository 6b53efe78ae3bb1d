"""Forms of the Bad Beat's tablet pages (§637a.15(f)-(h)): the claim at the table, the shift
supervisor's verification or denial, the payment of a share, the witness of a display adjustment,
finance's distribution and adjustment.

Forms check the shape of what is typed or picked; the services check every rule and role. Cards are
picked on the card picker, never typed. A form that creates a document carries a new idempotency key
each time it is shown, so a second tap of its button (or a resent form) records the document once."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet

from casino_backoffice.core.floor.forms import CardsField, KeyedForm, PinSignatureField
from jackpots.bad_beat.models import PayoutMethod
from jackpots.bad_beat.services.claims import SeatedHand, SeatedPlayer
from jackpots.funds.floor import ID_TYPES, RoundChoice, hole_cards_of, seat_choices
from jackpots.funds.models import PaymentPlace
from tables.models import Round, Table


class ClaimForm(KeyedForm):
    """A Bad Beat claimed at ``table`` for ``jackpot`` (§637a.15(f)): the hand as the floorperson saw
    it. The board and the hole cards are picked on the card picker (two hole cards at Hold'em, four at
    Omaha); every other player dealt in has a row of seat and name, and blank rows are ignored."""

    round = RoundChoice(
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
        seats = seat_choices(table.seats)
        for name in ("losing_seat", "winning_seat"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = seats
        dealt = self.fields["players_dealt_in"]
        assert isinstance(dealt, forms.TypedChoiceField)
        dealt.choices = [("", "How many?"), *((str(n), str(n)) for n in range(2, table.seats + 1))]
        round_field = self.fields["round"]
        assert isinstance(round_field, RoundChoice)
        round_field.queryset = rounds
        round_field.room = table.room
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


class PayForm(KeyedForm):
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


class DistributeForm(KeyedForm):
    """Finance's distribution of a verified claim's payout (§637a.15(g))."""

    method = forms.ChoiceField(label="Paid in", choices=PayoutMethod.choices, initial=PayoutMethod.CASH)
    pin = PinSignatureField()


class AdjustForm(KeyedForm):
    """Finance sets a fund's display to the finance record (§637a.15(h)(1))."""

    pin = PinSignatureField()


class WitnessForm(forms.Form):
    """The floorperson or above in whose presence the display was adjusted signs (§637a.15(h)(1))."""

    pin = PinSignatureField()
