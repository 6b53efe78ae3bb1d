"""Forms of the irregularities' tablet pages: a report at a table and a ruling. Forms check the shape of
what is typed or picked; the services check every rule and role (``irregularity_check``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.html import format_html
from django.utils.safestring import SafeString

from casino_backoffice.core.clock import HOUR_MINUTE_ZONED, local_text
from casino_backoffice.core.floor.forms import CardsField, KeyedForm, PinSignatureField
from casino_backoffice.money import display_cents

from ...models import Round, Table
from ..house_kinds import KindInEffect
from ..kinds import MisdealCause, RoundNeed

# The cards involved that the picker takes: a card found face up, an exposed hole card, a hand fouled.
CARDS_PICKED_AT_MOST = 10


def kind_label(kind: KindInEffect, *, game: str) -> SafeString:
    """'Misdeal · §637a.18(g) · with its cause': the kind, its provision at the game (never broken
    across lines), what it needs."""
    needs = []
    if kind.rule.round == RoundNeed.REQUIRED:
        needs.append("with its round")
    if kind.rule.cause:
        needs.append("with its cause")
    if kind.rule.compliance_notice:
        needs.append("with who at compliance was notified")
    if kind.rule.ruled_by_supervisor:
        needs.append("ruled by a shift supervisor")
    return format_html(
        '{} · <span class="nowrap">{}</span>{}', kind.label, kind.section_at(game), "".join(f" · {n}" for n in needs)
    )


def round_label(round_: Round, *, table: Table) -> str:
    """'Round 12 · 21:14 EST · pot $120.00', on the room's clock; a void round says so."""
    void = " · void" if round_.voided else ""
    refund = f" · refund {display_cents(round_.refund_cents)}" if round_.refund_cents else ""
    return (
        f"Round {round_.pk} · {local_text(round_.ended_at, table.room, HOUR_MINUTE_ZONED)} · "
        f"pot {display_cents(round_.pot_cents)}{refund}{void}"
    )


class ReportForm(KeyedForm):
    """What went wrong at ``table``: the kind (those its game takes, each with its provision), the round
    when there is one (the table's recent rounds), a misdeal's cause, who at compliance was notified of
    a player removed, the cards involved on the card picker, what happened in words, and the PIN."""

    kind = forms.ChoiceField(label="What happened", widget=forms.RadioSelect)
    round = forms.ChoiceField(label="The round of play", required=False)
    cause = forms.ChoiceField(
        label="A misdeal's cause (§637a.18(g))",
        choices=[("", "Not a misdeal"), *MisdealCause.choices],
        required=False,
    )
    compliance_notified = forms.CharField(
        label="Removal for collusion: who at compliance was notified, and how (§637a.18(c))",
        max_length=120,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": "J. Smith, by radio"}),
    )
    cards = CardsField(count=CARDS_PICKED_AT_MOST, at_most=True, required=False, label="The cards involved")
    description = forms.CharField(
        label="What happened, in words",
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "Seat 4's first card was dealt face up."}),
    )
    pin = PinSignatureField()

    def __init__(
        self, *args: Any, table: Table, kinds: Sequence[KindInEffect], rounds: Sequence[Round], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        self.rounds = {str(round_.pk): round_ for round_ in rounds}
        kind = self.fields["kind"]
        assert isinstance(kind, forms.ChoiceField)
        kind.choices = [(found.code, kind_label(found, game=table.game)) for found in kinds]
        round_field = self.fields["round"]
        assert isinstance(round_field, forms.ChoiceField)
        round_field.choices = [
            ("", "No round: not logged yet, or none"),
            *((pk, round_label(round_, table=table)) for pk, round_ in self.rounds.items()),
        ]

    def clean_round(self) -> Round | None:
        return self.rounds.get(self.cleaned_data.get("round") or "")

    def service_arguments(self) -> dict[str, Any]:
        """What ``irregularity_report`` takes from the form (the table, the actor and the PIN aside)."""
        data = self.cleaned_data
        return {
            "kind": data["kind"],
            "round": data["round"],
            "cause": data["cause"],
            "compliance_notified": data["compliance_notified"],
            "cards": " ".join(data["cards"] or ()),
            "description": data["description"],
            "idempotency_key": data["idempotency_key"],
        }


class RulingForm(KeyedForm):
    """A floorperson's (a dispute: a shift supervisor's) ruling on an irregularity, in words, signed."""

    ruling = forms.CharField(
        label="The ruling, in words",
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "What you decided, and what was done at the table."}),
    )
    pin = PinSignatureField()
