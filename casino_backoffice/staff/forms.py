from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.utils import timezone

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


class LockoutAuthenticationForm(AuthenticationForm):
    """Sign-in with a password, refused for a while after too many wrong ones for the same person
    (``staff.signin``); every attempt is recorded. The tablet's and the admin's sign-in use it."""

    def clean(self) -> dict[str, Any]:
        from .signin import signin_locked_until, signin_record

        username = (self.cleaned_data.get("username") or "").strip()
        if username:
            until = signin_locked_until(username=username)
            if until is not None:
                signin_record(username=username, succeeded=False, request=self.request, refused_locked=True)
                minutes = max(1, round((until - timezone.now()).total_seconds() / 60))
                raise forms.ValidationError(
                    f"Too many wrong passwords for {username}: signing in as {username} is refused for "
                    f"{minutes} more minute{'s' if minutes != 1 else ''}. Another person may sign in at this "
                    "terminal; an administrator can help if you have forgotten your password.",
                    code="locked_out",
                )
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            if username:
                signin_record(username=username, succeeded=False, request=self.request)
            raise
        if username:
            signin_record(username=username, succeeded=True, request=self.request)
        return cleaned


class LockoutAdminAuthenticationForm(LockoutAuthenticationForm, AdminAuthenticationForm):
    """The admin's sign-in: the same lockout, and only staff who work in the admin."""
