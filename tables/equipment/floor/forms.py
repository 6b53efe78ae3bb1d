"""Forms of the devices' and decks' tablet pages. Forms check the shape of what is typed or picked; the
services check every rule, role and device state (``tables.equipment.services``)."""

from __future__ import annotations

from typing import Any

from django import forms

from casino_backoffice.core.floor.forms import KeyedForm, PinSignatureField

from ..models import DealtFrom, DeviceStep, Failure, Marking

_DESCRIPTIONS = {
    DeviceStep.FAILED: "It jammed during the shuffle; the cards were reshuffled.",
    DeviceStep.OUT_OF_ORDER: "Does not power on; covered, the dealer shuffles by hand.",
    DeviceStep.RETURNED: "Serviced by the technician and tested.",
}
_YES_NO = (("no", "No: the dealer inspects it"), ("yes", "Yes: received preinspected and preshuffled"))


class DeviceStepForm(KeyedForm):
    """One step of a device, signed: how it failed (a failure), how it is marked out of order (taken
    out of order), what happened in words, and the PIN. ``step`` keeps the fields its step takes."""

    failure = forms.ChoiceField(label="How it failed", choices=Failure.choices, widget=forms.RadioSelect)
    marking = forms.ChoiceField(label="How it is shown out of order", choices=Marking.choices, widget=forms.RadioSelect)
    serial_number = forms.CharField(label="Serial or asset number", max_length=60, required=False)
    description = forms.CharField(label="What happened, in words", max_length=4000, widget=forms.Textarea)
    pin = PinSignatureField()

    def __init__(self, *args: Any, step: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.step = DeviceStep(step)
        if self.step != DeviceStep.FAILED:
            del self.fields["failure"]
        if self.step != DeviceStep.OUT_OF_ORDER:
            del self.fields["marking"]
        self.fields["description"].widget.attrs.update(rows="2", placeholder=_DESCRIPTIONS[self.step])

    def service_arguments(self) -> dict[str, Any]:
        """What the step's service takes from the form (the table, device, actor and PIN aside)."""
        data = self.cleaned_data
        found: dict[str, Any] = {key: data[key] for key in ("failure", "marking") if key in self.fields}
        return {
            **found,
            "serial_number": data["serial_number"],
            "description": data["description"],
            "idempotency_key": data["idempotency_key"],
        }


class DeckChangeForm(KeyedForm):
    """A deck the dealer inspected and puts into play at a banked table, signed (§655a.4(a), §657a.4(a)):
    how it is dealt (which sets how long it stays in play, §655a.3(c)), one deck or two with a shuffler,
    received preinspected or not (§655a.4(e)), a note, the PIN."""

    dealt_from = forms.ChoiceField(
        label="How the cards are dealt", choices=DealtFrom.choices, widget=forms.RadioSelect, initial=DealtFrom.HAND
    )
    decks = forms.TypedChoiceField(
        label="Decks", choices=(("1", "One deck"), ("2", "Two decks, with a shuffler")), coerce=int, initial="1"
    )
    preinspected = forms.TypedChoiceField(
        label="Received preinspected?", choices=_YES_NO, coerce=lambda value: value == "yes", initial="no"
    )
    note = forms.CharField(
        label="Note", max_length=1000, required=False, widget=forms.TextInput(attrs={"placeholder": "Blue backs"})
    )
    pin = PinSignatureField()


class DeckVerifyForm(KeyedForm):
    """The floorperson's verification of the dealer's inspection of a deck, signed (§655a.4(a))."""

    pin = PinSignatureField()
