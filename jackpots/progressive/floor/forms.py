"""Forms of the progressive meters' tablet pages (§655a.11-12, §657a.11-12): a round's Progressive
Payout Wagers and the chips collected, a winning hand of the round, the validation of its payout, the
reset of a meter and the explanation of a wager count exception.

Forms check the shape of what is tapped or picked; the services check every rule and role. Wager sizes
are offered only as the meter accepts them, cards are picked on the card picker, and a form that
records a round or a hand carries a new idempotency key each time it is shown, so a second tap of its
button (or a resent form) records it once.
"""

from __future__ import annotations

from typing import Any

from django import forms

from casino_backoffice.core.floor.forms import CardsField, KeyedForm, PinSignatureField
from casino_backoffice.money import display_cents
from jackpots.progressive.services.rounds import SeatWager
from tables.games import Game
from tables.models import Table

# The most value chips a dealer collects for a round: a wager each, at most six seats (§655a.2(a),
# §657a.2(a)); the field allows a miscount well beyond that, to be recorded as an exception.
MOST_CHIPS = 99


def player_cards_of(game: str) -> int:
    """The cards a player holds: two at Mississippi Stud (§655a.8(d)), five at Crazy 4 Poker (§657a.8(d))."""
    return 2 if game == Game.MISSISSIPPI_STUD.value else 5


class ChipsInput(forms.TextInput):
    """A count of value chips, typed on the page's number pad (``floor/components/number_pad.html``) or
    on the device's numeric keyboard when the pad's script has not run."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(
            attrs={
                "inputmode": "numeric",
                "autocomplete": "off",
                "pattern": "[0-9]*",
                "placeholder": "0",
                "data-number-pad": "",
                **(attrs or {}),
            }
        )

    class Media:
        js = ["floor/number_pad.js"]


class ChipCountField(forms.IntegerField):
    """How many value chips the dealer collected: the regulation compares "the number of value chips
    wagered" with "the number of Progressive Payout Wagers accepted" (§655a.8(b), §657a.8(b)), a count,
    not an amount. An amount typed here ("5.00", "$5") is refused with what to type instead, never read
    as a number of chips."""

    widget = ChipsInput

    def to_python(self, value: Any) -> int | None:
        text = str(value).strip() if value is not None else ""
        if not text.isascii() or any(sign in text for sign in ".$,"):
            raise forms.ValidationError(
                f'"{text}" is not a number of chips: type how many value chips you collected, such as 3, not dollars.',
                code="invalid",
            )
        return super().to_python(value)


def _wager_label(cents: int) -> str:
    return display_cents(cents).removesuffix(".00")


class ProgressiveRoundForm(KeyedForm):
    """A round at ``table``: each seat's Progressive Payout Wager as the progressive table game system
    accepted it, tapped among the sizes the meter accepts (none, or $1 or $5: the Envy Bonus schedules,
    §655a.12(c)(5), §657a.12(d)(5)); the value chips the dealer collected (§655a.8(b), §657a.8(b)); and
    at Mississippi Stud the three community cards, when they are known (§655a.8(d)(2))."""

    chips_collected = ChipCountField(label="Number of value chips collected", min_value=0, max_value=MOST_CHIPS)

    def __init__(self, *args: Any, table: Table, wagers_cents: tuple[int, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        choices = [("", "None"), *((str(cents), _wager_label(cents)) for cents in wagers_cents)]
        for seat in range(1, table.seats + 1):
            self.fields[f"seat_{seat}"] = forms.TypedChoiceField(
                label=f"Seat {seat}",
                choices=choices,
                coerce=int,
                empty_value=None,
                required=False,
                initial="",
                widget=forms.RadioSelect,
            )
        self.community = table.game == Game.MISSISSIPPI_STUD.value
        if self.community:
            self.fields["community"] = CardsField(count=3, label="The three community cards", required=False)

    def seat_fields(self) -> list[forms.BoundField]:
        """Each seat's wager, seat 1 (farthest to the dealer's left) first, as the layout reads."""
        return [self[f"seat_{seat}"] for seat in range(1, self.table.seats + 1)]

    def service_arguments(self) -> dict[str, Any]:
        """What ``progressive_round_record`` takes from the form (the table, the moment and the actor aside)."""
        data = self.cleaned_data
        wagers = [
            SeatWager(seat=seat, amount_cents=data[f"seat_{seat}"])
            for seat in range(1, self.table.seats + 1)
            if data.get(f"seat_{seat}") is not None
        ]
        return {
            "wagers": wagers,
            "chips_collected": data["chips_collected"],
            "community_cards": " ".join(data.get("community") or ()),
            "idempotency_key": data["idempotency_key"],
        }


class ProgressiveHandForm(KeyedForm):
    """A hand of the round the dealer verified (§655a.11(i)(4)(i)(A)-(B), §657a.11(e)(1)-(2)): the seat,
    among those still to be settled from the highest down; the player's cards on the card picker (two
    at Mississippi Stud, five at Crazy 4 Poker) and, at Mississippi Stud, the community cards when the
    round does not know them yet; whether the player folded; the light of the system seen."""

    seat = forms.TypedChoiceField(label="Seat", coerce=int)
    folded = forms.BooleanField(
        label="The player folded: the Progressive Payout Wager is forfeited (Envy Bonuses are kept)", required=False
    )
    light_confirmed = forms.BooleanField(
        label="I see the progressive table game system's light illuminated for this seat", required=False
    )

    def __init__(
        self,
        *args: Any,
        game: str,
        seats: list[int],
        wagers: dict[int, int],
        community: str,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.game, self.known_community = game, community
        self.player_cards = player_cards_of(game)
        seat = self.fields["seat"]
        assert isinstance(seat, forms.TypedChoiceField)
        seat.choices = [
            ("", "Seat?"),
            *(
                (str(s), f"Seat {s} · {_wager_label(wagers[s])} wager" if s in wagers else f"Seat {s} · no wager")
                for s in seats
            ),
        ]
        self.fields["cards"] = CardsField(
            count=self.player_cards,
            label="The player's two cards" if self.player_cards == 2 else "The player's five cards",
        )
        self.asks_community = game == Game.MISSISSIPPI_STUD.value and not community
        if self.asks_community:
            self.fields["community"] = CardsField(count=3, label="The three community cards")
        self.order_fields(["seat", "cards", "community", "folded", "light_confirmed", "idempotency_key"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        on_board = set(self.known_community.split())
        if data.get("cards") and (shared := [card for card in data["cards"] if card in on_board]):
            self.add_error("cards", f"{' '.join(shared)}: a community card, not the player's.")
        return data

    def community_cards(self) -> str:
        return " ".join(self.cleaned_data.get("community") or ()) or self.known_community

    def service_arguments(self) -> dict[str, Any]:
        """What ``progressive_hand_record`` takes from the form (the round and the actor aside)."""
        data = self.cleaned_data
        return {
            "seat": data["seat"],
            "cards": " ".join(data["cards"]),
            "community_cards": self.community_cards(),
            "folded": data["folded"],
            "light_confirmed": data["light_confirmed"],
            "idempotency_key": data["idempotency_key"],
        }


class ValidateForm(forms.Form):
    """A floorperson or above validates a progressive payout and signs (§655a.11(i)(4)(i)(C),
    §657a.11(e)(3))."""

    pin = PinSignatureField()


class ResetForm(forms.Form):
    """A supervisor resets a meter after its 100% payout and signs (§655a.12(c)(3), §657a.12(d)(3))."""

    pin = PinSignatureField()


class ExplainForm(forms.Form):
    """A supervisor's explanation of chips collected that differ from the wagers accepted."""

    explanation = forms.CharField(label="What happened?", max_length=1000, widget=forms.Textarea(attrs={"rows": 2}))
    pin = PinSignatureField()
