from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm

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


# The error a right password raises for a person with a second factor: the sign-in view then asks for
# the code (``staff.second_factor.views``). Any other view shows it as a refusal, so a page that cannot
# ask for the code never signs such a person in on their password alone.
SECOND_FACTOR_NEEDED = "second_factor_needed"


class LockoutAuthenticationForm(AuthenticationForm):
    """Sign-in with a password, refused for a while after too many wrong ones for the same person
    (``staff.signin``); every attempt is recorded. The tablet's and the admin's sign-in use it.

    A right password of a person with a second factor is not yet a sign-in: the form is invalid with
    ``SECOND_FACTOR_NEEDED``, ``get_user()`` names the person, and nothing is recorded until the code."""

    def clean(self) -> dict[str, Any]:
        from .second_factor.services import second_factor_device
        from .signin import signin_turn

        username = (self.cleaned_data.get("username") or "").strip()
        if not username:
            return super().clean()
        with signin_turn(username=username):
            refused = self._password_check(username)
        if refused is not None:
            raise refused
        user = self.get_user()
        if user is not None and second_factor_device(user=user) is not None:
            raise forms.ValidationError(
                "Enter the 6-digit code from your authenticator app to finish signing in.", code=SECOND_FACTOR_NEEDED
            )
        return self.cleaned_data

    def _password_check(self, username: str) -> forms.ValidationError | None:
        """Inside the username's turn: the lock, the password, the attempt recorded; the refusal is
        returned, to be raised once the turn has committed the attempt."""
        from .second_factor.services import second_factor_device
        from .signin import signin_locked_message, signin_locked_until, signin_record

        until = signin_locked_until(username=username)
        if until is not None:
            signin_record(username=username, succeeded=False, request=self.request, refused_locked=True)
            return forms.ValidationError(signin_locked_message(username=username, until=until), code="locked_out")
        try:
            super().clean()
        except forms.ValidationError as refused:
            signin_record(username=username, succeeded=False, request=self.request)
            return refused
        user = self.get_user()
        if user is None or second_factor_device(user=user) is None:
            signin_record(username=username, succeeded=True, request=self.request)
        return None


class SecondFactorCodeForm(forms.Form):
    """A code from the authenticator app: six digits, checked only when it is six digits, so a typo of
    length never counts toward the lockout."""

    code = forms.RegexField(
        label="6-digit code",
        regex=r"^[0-9]{6}$",
        error_messages={"invalid": "The code is 6 digits, as your app shows it."},
        widget=forms.TextInput(
            attrs={
                "inputmode": "numeric",
                "autocomplete": "one-time-code",
                "pattern": "[0-9]{6}",
                "maxlength": "6",
                "autofocus": True,
                "class": "code",
            }
        ),
    )

    def clean_code(self) -> str:
        return str(self.cleaned_data["code"]).strip()


class LockoutAdminAuthenticationForm(LockoutAuthenticationForm, AdminAuthenticationForm):
    """The admin's sign-in: the same lockout, and only staff who work in the admin."""
