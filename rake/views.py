"""Tablet pages of the rake app: the rake calculator and the verification of time charges."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models.functions import Length
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.money import InvalidAmount, display_cents, parse_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.roles import FLOORPERSON_OR_ABOVE, Role
from tables.models import Table

from .compute import uncalled_bet_problem
from .models import TimeCharge
from .selectors import pot_breakdown
from .services import time_charge_verify

CALCULATOR_ROLES = frozenset({Role.DEALER}) | FLOORPERSON_OR_ABOVE
_MONEY = {"inputmode": "decimal", "autocomplete": "off", "placeholder": "0.00"}


class CalculatorForm(forms.Form):
    table = forms.ModelChoiceField(queryset=Table.objects.none(), empty_label=None)
    pot = forms.CharField(label="Pot, side pots included", widget=forms.TextInput(attrs=_MONEY))
    uncalled_bet = forms.CharField(label="Uncalled final bet", required=False, initial="0.00", widget=forms.TextInput(attrs=_MONEY))
    # A select, not a checkbox: the floor stylesheet sizes selects for fingers.
    flop_dealt = forms.TypedChoiceField(
        label="Was a flop dealt?", choices=(("yes", "Yes"), ("no", "No")), coerce=lambda v: v == "yes", initial="yes"
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        table_field = self.fields["table"]
        assert isinstance(table_field, forms.ModelChoiceField)
        table_field.queryset = Table.objects.select_related("room").order_by("room__code", Length("number"), "number")

    def _money(self, name: str) -> int:
        try:
            return int(parse_cents(self.cleaned_data.get(name) or "0"))
        except InvalidAmount as error:
            raise forms.ValidationError(str(error)) from None

    def clean_pot(self) -> int:
        return self._money("pot")

    def clean_uncalled_bet(self) -> int:
        return self._money("uncalled_bet")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "pot" in data and "uncalled_bet" in data and (
            problem := uncalled_bet_problem(pot_cents=data["pot"], uncalled_cents=data["uncalled_bet"])
        ):
            self.add_error("uncalled_bet", problem)
        return data


@login_required
def calculator(request: HttpRequest) -> HttpResponse:
    """A dealer or floorperson enters a pot and sees the rake and each drop, with the rule for each."""
    if not acting_user(request).roles & CALCULATOR_ROLES:
        return render(request, "rake/calculator.html", {"refused": "Only a dealer or a floorperson or above uses the rake calculator."}, status=403)
    form = CalculatorForm(request.GET or None)
    result = None
    error = None
    if request.GET and form.is_valid():
        data = form.cleaned_data
        try:
            breakdown = pot_breakdown(
                table=data["table"], pot_cents=data["pot"], uncalled_cents=data["uncalled_bet"],
                flop_dealt=data["flop_dealt"], players=2, at=timezone.now(),
            )
        except DomainError as refused:
            error = refused.message
        else:
            outcome = breakdown.outcome
            result = {
                "table": breakdown.table,
                "version": breakdown.version_number,
                "rakeable": display_cents(outcome.rakeable_cents),
                "lines": [("Rake", display_cents(outcome.rake_cents), outcome.rake_rule)]
                + [(breakdown.names[d.code], display_cents(d.amount_cents), d.rule) for d in outcome.drops],
                "to_winner": display_cents(outcome.to_winner_cents),
            }
    return render(request, "rake/calculator.html", {"form": form, "result": result, "error": error})


class VerifyForm(forms.Form):
    pin = forms.CharField(label="Your signing PIN", widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}))


@login_required
def time_charges(request: HttpRequest) -> HttpResponse:
    """Time charges waiting for a floorperson's verification (§637a.17(b)(3)(v)), newest first."""
    can_verify = bool(acting_user(request).roles & FLOORPERSON_OR_ABOVE)
    pending = TimeCharge.objects.filter(verified_at__isnull=True).select_related("table", "assessed_by").order_by("-interval_starts_at")[:50]
    rows = [(charge, display_cents(charge.amount_cents)) for charge in pending]
    return render(request, "rake/time_charges.html", {"rows": rows, "can_verify": can_verify, "form": VerifyForm()})


@login_required
@require_POST
def time_charge_verify_page(request: HttpRequest, charge_id: int) -> HttpResponse:
    charge = get_object_or_404(TimeCharge, pk=charge_id)
    form = VerifyForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Enter your signing PIN to verify.")
    else:
        try:
            time_charge_verify(time_charge=charge, actor=acting_user(request), pin=form.cleaned_data["pin"])
        except DomainError as refused:
            messages.error(request, refused.message)
        else:
            messages.success(request, f"Time charge of {display_cents(charge.amount_cents)} at table {charge.table.number} verified; it is in the drop box.")
    return redirect("floor:time-charges")
