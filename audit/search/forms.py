"""The search form: each criterion optional, at least one asked; amounts as the project's money
inputs parse them (``casino_backoffice.money``), a bad amount or date a form error."""

from __future__ import annotations

from typing import Any

from django import forms

from casino_backoffice.core.floor.forms import MoneyField
from tables.models import PokerRoom

CRITERIA = ("gaming_day", "table", "seal", "patron", "id_last4", "amount_cents", "transfer")


class ChainSearchForm(forms.Form):
    room = forms.ModelChoiceField(queryset=PokerRoom.objects.none(), required=False, to_field_name="code")
    gaming_day = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": "Give the gaming day as YYYY-MM-DD."},
    )
    table = forms.CharField(required=False, max_length=20)
    seal = forms.CharField(required=False, max_length=60)
    patron = forms.CharField(required=False, max_length=120, label="Patron's name")
    id_last4 = forms.RegexField(
        required=False,
        regex=r"^\w{4}$",
        label="ID number, last four",
        error_messages={"invalid": "Give the last four characters of the ID number."},
    )
    amount_cents = MoneyField(required=False, label="Amount")
    transfer = forms.IntegerField(required=False, min_value=1, label="Ledger transfer id")

    def __init__(self, *args: Any, rooms: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["room"].queryset = rooms  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not self.errors and all(cleaned.get(name) in (None, "") for name in CRITERIA):
            raise forms.ValidationError(
                "Give at least one thing to look for: a day, table, seal, patron, amount or transfer."
            )
        return cleaned
