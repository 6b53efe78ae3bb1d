from typing import Any

from django import forms

from casino_backoffice.core.floor.forms import PinSignatureField

from .services import PIN_MAX_DIGITS, PIN_MIN_DIGITS


class PinChangeForm(forms.Form):
    current_password = forms.CharField(label="Your sign-in password", widget=forms.PasswordInput)
    # Both PIN fields take the same digits up to the same length, so the second can only differ from
    # the first when the person typed another PIN.
    pin = PinSignatureField(label=f"New signing PIN ({PIN_MIN_DIGITS}-{PIN_MAX_DIGITS} digits)")
    pin_again = PinSignatureField(label="New signing PIN again")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        if data.get("pin") and data.get("pin_again") and data["pin"] != data["pin_again"]:
            self.add_error("pin_again", "The two PINs differ.")
        return data


class SignWithPinForm(forms.Form):
    """The PIN signature: the signer re-enters their PIN at the moment of signing (docs/architecture.md, Signatures)."""

    pin = PinSignatureField()


class CorrectionForm(SignWithPinForm):
    reason = forms.CharField(label="Why is this transfer reversed?", widget=forms.Textarea(attrs={"rows": 3}))

    field_order = ["reason", "pin"]
