"""What every app's tablet pages answer alike: the page refusing a person an action they may not take,
and the words saying a PIN was refused by its shape before any check."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.permissions import Action, action_require


def refused_page(request: HttpRequest, template: str, action: Action, **context: Any) -> HttpResponse | None:
    """The page saying why, when the signed-in person may not take ``action``."""
    try:
        action_require(actor=acting_user(request), action=action)
    except ActionNotPermitted as refused:
        return render(request, template, {"refused": refused.message, **context}, status=403)
    return None


def pin_typo(form: Any) -> str:
    """A PIN the form refused (a letter, too short): it never reached the PIN check."""
    if "pin" in form.errors and form.data.get(form.add_prefix("pin"), "").strip():
        return " The PIN was refused by its shape; nothing was checked and it does not count as a wrong PIN."
    return ""
