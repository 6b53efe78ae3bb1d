"""The signed-in member of staff of a request, typed."""

from __future__ import annotations

from django.http import HttpRequest
from rest_framework.request import Request

from .models import User


def acting_user(request: HttpRequest | Request) -> User:
    """The person acting in a request that passed authentication (views behind ``login_required``
    or DRF's ``IsAuthenticated``); anything else is a programming error, not a user error."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionError("this view runs only for a signed-in member of staff")
    return user
