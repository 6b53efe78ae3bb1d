from django import forms

PIN_WIDGET = forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off", "pattern": "[0-9]*"})


class PinChangeForm(forms.Form):
    current_password = forms.CharField(label="Your sign-in password", widget=forms.PasswordInput)
    pin = forms.CharField(label="New signing PIN (4-8 digits)", widget=PIN_WIDGET, min_length=4, max_length=8)
    pin_again = forms.CharField(label="New signing PIN again", widget=PIN_WIDGET)

    def clean(self) -> dict:
        data = super().clean()
        if data.get("pin") and data.get("pin") != data.get("pin_again"):
            self.add_error("pin_again", "The two PINs differ.")
        return data
