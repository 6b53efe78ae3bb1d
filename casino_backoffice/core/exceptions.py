"""The base of every domain error.

Each app defines its own subclasses (``WrongPin``, ``SeatLimitExceeded`` ...) carrying a message a
floorperson understands. One DRF exception handler maps them to 400, 403 or 409; tablet and admin views
show the same message.
"""

from __future__ import annotations


class DomainError(Exception):
    """A rule refused an action. ``code`` names the rule; ``status`` is the HTTP answer."""

    code = "refused"
    status = 400

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class Conflict(DomainError):
    """The action collides with the current state (already signed, key reused): HTTP 409."""

    code = "conflict"
    status = 409
