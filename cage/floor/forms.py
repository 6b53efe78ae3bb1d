"""Forms of the cage's tablet pages: a count, the notice to compliance, the witness, custody, the
accounting of boxes at the cage and a missing-box exception.

A form that creates a document carries a new idempotency key each time it is shown, so a second tap
of its button (or a resent form) records the document once.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet

from casino_backoffice.core.clock import HOUR_MINUTE, local_text
from casino_backoffice.core.floor.forms import KeyedForm, MoneyField, PinSignatureField
from casino_backoffice.money import display_cents
from tables.models import PokerRoom

from ..models import Box, Count

# The chips a count may list, in cents: $1, $5, $25, $100, $500 and $1,000.
DENOMINATIONS = (100, 500, 2500, 10_000, 50_000, 100_000)
DESTINATIONS = (("main cage", "Main cage"), ("satellite cage", "Satellite cage"))
NOTICE_METHODS = (("phone", "Phone"), ("radio", "Radio"), ("in person", "In person"), ("e-mail", "E-mail"))


class PiecesInput(forms.TextInput):
    """Pieces of one denomination, typed on the number pad; ``cage/floor/denominations.js`` adds the
    rows up into the amount counted."""

    def __init__(self, *, cents: int) -> None:
        super().__init__(
            attrs={
                "inputmode": "numeric",
                "autocomplete": "off",
                "pattern": "[0-9]*",
                "placeholder": "0",
                "data-number-pad": "",
                "data-denomination": str(cents),
                "class": "pieces",
            }
        )

    class Media:
        js = ["floor/number_pad.js", "cage/floor/denominations.js"]


class CountForm(KeyedForm):
    """A dealer's count of one box: the amount, optionally the pieces of each chip, and the PIN."""

    box = forms.ModelChoiceField(queryset=Box.objects.all(), widget=forms.HiddenInput)
    counted = MoneyField(label="Counted in the box", required=False)
    pin = PinSignatureField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for cents in DENOMINATIONS:
            self.fields[f"chips_{cents}"] = forms.IntegerField(
                label=f"{display_cents(cents).removesuffix('.00')} chips",
                min_value=0,
                max_value=100_000,
                required=False,
                widget=PiecesInput(cents=cents),
            )
        self.order_fields(["box", "counted", *(f"chips_{cents}" for cents in DENOMINATIONS), "pin", "idempotency_key"])

    def chip_rows(self) -> list[tuple[str, forms.BoundField]]:
        """(chip, its field) for each denomination, as the page lists them."""
        return [(display_cents(cents).removesuffix(".00"), self[f"chips_{cents}"]) for cents in DENOMINATIONS]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        pieces = {str(cents): data[f"chips_{cents}"] for cents in DENOMINATIONS if data.get(f"chips_{cents}")}
        data["denominations"] = pieces
        total = sum(int(cents) * n for cents, n in pieces.items())
        if data.get("counted") is None and "counted" not in self.errors:
            if pieces:
                data["counted"] = total
            else:
                self.add_error("counted", "Enter the amount counted, or the chips of each denomination.")
        elif pieces and data.get("counted") is not None and total != data["counted"]:
            self.add_error(
                "counted",
                f"The chips add up to {display_cents(total)}, not the {display_cents(data['counted'])} entered.",
            )
        return data


class NoticeForm(KeyedForm):
    """The notice to the casino compliance representative before Bad Beat boxes are counted (§637a.15(d))."""

    room = forms.ModelChoiceField(queryset=PokerRoom.objects.all(), empty_label=None)
    notified = forms.CharField(label="Compliance representative notified", max_length=120)
    method = forms.ChoiceField(label="How", choices=NOTICE_METHODS)
    pin = PinSignatureField()


class WitnessForm(forms.Form):
    """The witness's signature on a count, with the surveillance recording reference (§637a.15(d)(1))."""

    surveillance_reference = forms.CharField(label="Surveillance recording reference", max_length=120)
    pin = PinSignatureField()


class RecountForm(KeyedForm):
    """A supervisor's recount of a count still at the table, with the reason (house control on
    §637a.15(d)(1)): the recount supersedes the count and awaits its witness."""

    counted = MoneyField(label="Recounted in the box")
    reason = forms.CharField(
        label="What was wrong with the count",
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "Typed $79.00 for $7.90"}),
        max_length=2000,
    )
    pin = PinSignatureField()


def _count_label(count: Count) -> str:
    witnessed = (
        f", witnessed {local_text(count.witnessed_at, count.box.room, HOUR_MINUTE)} by {count.witnessed_by}"
        if count.witnessed_at
        else ""
    )
    return f"{count.box.code} · counted {display_cents(count.counted_cents)}{witnessed}"


def box_name(box: Box) -> str:
    """'Bad Beat box', 'rake drop box'."""
    return f"{box.jackpot.name} box" if box.jackpot is not None else "rake drop box"


class _CountChoices(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Count) -> str:
        return _count_label(obj)


class _BoxChoices(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Box) -> str:
        return f"{obj.code} · table {obj.table.number} {box_name(obj)}"


class _Carry(KeyedForm):
    seal = forms.CharField(label="Seal number", max_length=60)
    destination = forms.ChoiceField(label="To", choices=DESTINATIONS)
    pin = PinSignatureField()

    def room_of(self, chosen: list[Any]) -> PokerRoom | None:
        """The one room of what is carried; a container holds one room's boxes."""
        rooms = {item.box.room if isinstance(item, Count) else item.room for item in chosen}
        if len(rooms) != 1:
            self.add_error(None, "A container carries the boxes of one room: choose them from one room.")
            return None
        return rooms.pop()


class ContainerForm(_Carry):
    """A locked container of witnessed table counts, with their documentation (§637a.15(d)(1))."""

    counts = _CountChoices(
        queryset=Count.objects.none(), widget=forms.CheckboxSelectMultiple, label="Witnessed counts in the container"
    )
    field_order = ["counts", "seal", "destination", "pin"]

    def __init__(self, *args: Any, counts: QuerySet[Count], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["counts"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = counts


class BoxesForm(_Carry):
    """Locked, uncounted boxes carried to the cage to be counted there (§637a.15(d)(2))."""

    boxes = _BoxChoices(queryset=Box.objects.none(), widget=forms.CheckboxSelectMultiple, label="Locked boxes carried")
    field_order = ["boxes", "seal", "destination", "pin"]

    def __init__(self, *args: Any, boxes: QuerySet[Box], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["boxes"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = boxes


class AccountForm(forms.Form):
    """At the cage, a floorperson or above ticks every box that arrived, and signs (§637a.15(d)(2))."""

    boxes = forms.MultipleChoiceField(label="Boxes that arrived", widget=forms.CheckboxSelectMultiple, required=False)
    pin = PinSignatureField()

    def __init__(self, *args: Any, codes: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["boxes"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = [(code, code) for code in codes]


class MissingBoxForm(forms.Form):
    """A supervisor's signed exception naming a box carried but missing at the cage."""

    box = forms.ChoiceField(label="Missing box")
    reason = forms.CharField(label="What is known of it", widget=forms.Textarea(attrs={"rows": 2}), max_length=500)
    pin = PinSignatureField()

    def __init__(self, *args: Any, codes: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["box"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", "Which box?"), *((code, code) for code in codes)]


class ExplainForm(forms.Form):
    """A shift supervisor's or finance's explanation of a count variance over the room's threshold,
    signed with the PIN (§637a.15(e), §637a.16(e); the room's threshold is its rules file's)."""

    reason = forms.CharField(
        label="Why the count differs",
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "A $5 chip was found under the box lid"}),
        max_length=2000,
    )
    pin = PinSignatureField()
