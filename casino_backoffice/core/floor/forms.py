"""Form fields of the tablet pages: the PIN signature, money on the number pad, cards on the card picker."""

from __future__ import annotations

import uuid
from functools import cache
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from casino_backoffice.money import InvalidAmount, parse_cents
from casino_backoffice.staff.services import PIN_MAX_DIGITS, PIN_MIN_DIGITS, PIN_PATTERN, PIN_RULE

# --- PIN signature --------------------------------------------------------------------------------


class PinInput(forms.PasswordInput):
    """A PIN typed on a tablet: the numeric keyboard, digits only, at most the longest PIN."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(
            attrs={
                "inputmode": "numeric",
                "autocomplete": "off",
                "pattern": f"[0-9]{{{PIN_MIN_DIGITS},{PIN_MAX_DIGITS}}}",
                "minlength": str(PIN_MIN_DIGITS),
                "maxlength": str(PIN_MAX_DIGITS),
                "title": PIN_RULE,
                **(attrs or {}),
            }
        )


def _pin_shape(value: str) -> None:
    if not PIN_PATTERN.match(value):
        raise ValidationError(PIN_RULE, code="pin_shape")


class PinSignatureField(forms.CharField):
    """The PIN signature: the signer re-enters their signing PIN at the moment of signing (docs/architecture.md,
    Signatures), or sets a new one.

    Anything that cannot be a PIN (a letter, too few or too many digits) is refused here, by the form,
    with the rule's words: it never reaches ``pin_check``, so a typo never counts as a wrong PIN toward
    the signing lock (``SIGNING_MAX_FAILED_PINS``).
    """

    default_validators = [_pin_shape]

    def __init__(self, *, label: str = "Your signing PIN", **kwargs: Any) -> None:
        kwargs.setdefault("widget", PinInput)
        super().__init__(label=label, **kwargs)


# --- A document recorded once ---------------------------------------------------------------------


class KeyedForm(forms.Form):
    """A form whose posting records a document once: a new idempotency key each time it is shown, so a
    second tap of its button (or a resent form) answers the first document."""

    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=120)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("idempotency_key", f"floor-{uuid.uuid4()}")


# --- Money on the number pad ----------------------------------------------------------------------


class MoneyInput(forms.TextInput):
    """Dollars and cents, typed on the page's number pad (``floor/components/number_pad.html``) or
    on the device's own keyboard when the pad's script has not run."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(
            attrs={
                "inputmode": "decimal",
                "autocomplete": "off",
                "placeholder": "0.00",
                "data-number-pad": "",
                **(attrs or {}),
            }
        )

    class Media:
        js = ["floor/number_pad.js"]


class MoneyField(forms.CharField):
    """An amount in dollars ("120.00") cleaned to integer cents by ``casino_backoffice.money``; an
    empty optional field cleans to ``None``."""

    widget = MoneyInput

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        text = super().to_python(value)
        if text is None or text in self.empty_values:
            return None
        try:
            return int(parse_cents(text))
        except InvalidAmount as error:
            raise ValidationError(str(error), code="invalid") from None


# --- Cards on the card picker ---------------------------------------------------------------------

_SUIT_SYMBOLS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}


# The hand evaluator builds its lookup tables when it is imported (about half a second): pages load it
# when they first show or clean cards, not every process at start.


@cache
def deck_rows() -> list[dict[str, Any]]:
    """The 52 cards as the picker shows them: a row per suit (spades, hearts, diamonds, clubs), aces first."""
    from casino_backoffice.poker.cards import RANK_CHARS, RANK_NAMES, SUIT_CHARS, SUIT_NAMES

    rows = []
    for suit in reversed(range(4)):
        suit_char = SUIT_CHARS[suit]
        cards = [
            {
                "code": RANK_CHARS[rank] + suit_char,
                "rank": "10" if RANK_CHARS[rank] == "T" else RANK_CHARS[rank],
                "name": f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}",
            }
            for rank in reversed(range(13))
        ]
        rows.append({"suit": suit_char, "symbol": _SUIT_SYMBOLS[suit_char], "name": SUIT_NAMES[suit], "cards": cards})
    return rows


class CardPickerInput(forms.Widget):
    """Cards chosen by touch from the 52 (``floor/components/card_picker.html`` and
    ``floor/card_picker.js``); nobody types a card code. The value is the codes in the order picked,
    separated by spaces ("As Td"). Pickers in one form share the deck: a card picked in one is
    unavailable in the others. ``at_most``: up to ``count`` cards, as many as the person picks."""

    template_name = "floor/components/card_picker.html"

    def __init__(self, *, count: int, at_most: bool = False, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs)
        self.count = count
        self.at_most = at_most

    class Media:
        js = ["floor/card_picker.js"]

    def use_required_attribute(self, initial: Any) -> bool:
        return False  # the value is a hidden input; the field says when cards are missing

    def format_value(self, value: Any) -> str:
        if isinstance(value, list | tuple):
            return " ".join(str(card) for card in value)
        return str(value or "")

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        chosen = context["widget"]["value"].split()
        context["widget"].update(count=self.count, at_most=self.at_most, deck=deck_rows(), chosen=chosen)
        return context


class CardsField(forms.Field):
    """``count`` cards picked on the card picker, cleaned to their codes ("As", "Td") by the hand
    evaluator's parser: each a real card, none twice. ``at_most``: from one card up to ``count`` (the
    cards involved in an irregularity), none when the field is not required."""

    def __init__(self, *, count: int, at_most: bool = False, **kwargs: Any) -> None:
        self.count = count
        self.at_most = at_most
        kwargs.setdefault("widget", CardPickerInput(count=count, at_most=at_most))
        super().__init__(**kwargs)
        self.error_messages["required"] = f"Pick {count} card{'s' if count != 1 else ''}."

    def to_python(self, value: Any) -> tuple[str, ...]:
        from casino_backoffice.poker.cards import InvalidCards, parse_cards

        codes = str(value or "").split()
        if not codes:
            return ()
        try:
            cards = parse_cards(codes)
        except InvalidCards as error:
            raise ValidationError(str(error), code="invalid") from None
        if len(cards) > self.count if self.at_most else len(cards) != self.count:
            raise ValidationError(
                f"Pick {'at most ' if self.at_most else ''}{self.count} card{'s' if self.count != 1 else ''}; "
                f"{len(cards)} picked.",
                code="count",
            )
        return tuple(str(card) for card in cards)
