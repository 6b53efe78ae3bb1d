from typing import Any

from django import forms

PIN_WIDGET = forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off", "pattern": "[0-9]*"})


class PinChangeForm(forms.Form):
    current_password = forms.CharField(label="Your sign-in password", widget=forms.PasswordInput)
    pin = forms.CharField(label="New signing PIN (4-8 digits)", widget=PIN_WIDGET, min_length=4, max_length=8)
    pin_again = forms.CharField(label="New signing PIN again", widget=PIN_WIDGET)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        if data.get("pin") and data.get("pin") != data.get("pin_again"):
            self.add_error("pin_again", "The two PINs differ.")
        return data


class SignWithPinForm(forms.Form):
    """The PIN signature: the signer re-enters their PIN at the moment of signing (DESIGN.md)."""

    pin = forms.CharField(label="Your signing PIN", widget=PIN_WIDGET, min_length=4, max_length=8)


class CorrectionForm(SignWithPinForm):
    reason = forms.CharField(label="Why is this transfer reversed?", widget=forms.Textarea(attrs={"rows": 3}))

    field_order = ["reason", "pin"]
