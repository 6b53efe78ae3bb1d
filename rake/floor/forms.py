"""Forms of the rake app's tablet pages: a pot for the calculator, a round of play to log."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.db.models.functions import Length

from casino_backoffice.core.floor.forms import KeyedForm, MoneyField, PinSignatureField
from tables.games import MAX_SEATS, MIN_SEATS
from tables.models import Table

from ..compute import refund_problem, uncalled_bet_problem

_YES_NO = (("yes", "Yes"), ("no", "No"))


def _yes(value: str) -> bool:
    return value == "yes"


def _tables() -> QuerySet[Table]:
    return Table.objects.select_related("room").order_by("room__code", Length("number"), "number")


class PotForm(forms.Form):
    """A pot at a table: what the rake calculator asks."""

    table = forms.ModelChoiceField(queryset=Table.objects.none(), empty_label=None)
    pot = MoneyField(label="Pot, side pots included")
    uncalled_bet = MoneyField(label="Uncalled final bet", required=False, initial="0.00")
    # Selects, not checkboxes: the floor stylesheet sizes selects for fingers.
    flop_dealt = forms.TypedChoiceField(label="Was a flop dealt?", choices=_YES_NO, coerce=_yes, initial="yes")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        table_field = self.fields["table"]
        assert isinstance(table_field, forms.ModelChoiceField)
        table_field.queryset = _tables()

    def clean_uncalled_bet(self) -> int:
        return self.cleaned_data.get("uncalled_bet") or 0

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (
            data.get("pot") is not None
            and data.get("uncalled_bet") is not None
            and (problem := uncalled_bet_problem(pot_cents=data["pot"], uncalled_cents=data["uncalled_bet"]))
        ):
            self.add_error("uncalled_bet", problem)
        return data


class RoundLogForm(PotForm):
    """A round of play at an open table, as the dealer logs it. The idempotency key is new with each
    form shown, so a second tap of Record (or a resent form) records the round once."""

    field_order = ["table", "pot", "uncalled_bet", "refund", "players_dealt_in", "flop_dealt", "voided"]

    refund = MoneyField(
        label="Refunded from the pot to a player whose protected hand was killed (§637a.18(k)(3))",
        required=False,
        initial="0.00",
    )

    players_dealt_in = forms.TypedChoiceField(
        label="Players dealt in",
        choices=[("", "How many?"), *((str(n), str(n)) for n in range(MIN_SEATS, max(MAX_SEATS.values()) + 1))],
        coerce=int,
    )
    voided = forms.TypedChoiceField(
        label="Was the round voided? (no rake, no drops: §637a.18(i))", choices=_YES_NO, coerce=_yes, initial="no"
    )
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=120)

    def clean_refund(self) -> int:
        return self.cleaned_data.get("refund") or 0

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if (
            "uncalled_bet" not in self.errors
            and data.get("pot") is not None
            and data.get("refund") is not None
            and (
                problem := refund_problem(
                    pot_cents=data["pot"],
                    uncalled_cents=data.get("uncalled_bet") or 0,
                    refund_cents=data["refund"],
                    voided=bool(data.get("voided")),
                )
            )
        ):
            self.add_error("refund", problem)
        return data

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("idempotency_key", f"floor-{uuid.uuid4()}")
        # Only open tables are offered; a table closed since the form was shown is refused by
        # ``round_record`` with its own words.
        table_field = self.fields["table"]
        assert isinstance(table_field, forms.ModelChoiceField)
        self.open_tables = list(_tables().filter(is_open=True))
        table_field.widget.choices = [(table.pk, table_field.label_from_instance(table)) for table in self.open_tables]


class VoidForm(KeyedForm):
    """A floorperson's void of a round already recorded, with what was found, signed (§637a.18(i))."""

    reason = forms.CharField(
        label="What was found: the missing or extra cards",
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "51 cards at the count-down: the 7 of clubs missing."}),
    )
    pin = PinSignatureField()
