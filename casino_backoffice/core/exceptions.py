"""The base of every domain error and of the enumerations of their codes.

Each app defines its own subclasses (``WrongPin``, ``SeatLimitExceeded`` ...) carrying a message a
floorperson understands and a code from its domain's one enumeration (``StaffErrorCode``,
``CageErrorCode`` ...: Saleor's error-code enums). One DRF exception handler maps them to 400, 403 or
409 with that code; the schema lists each operation's codes from the same members
(``api_common.errors``), and tablet and admin views show the same message.

A code is a member of an ``ErrorCode`` enumeration, never a string typed at the place of the
refusal: a subclass naming a string, or a refusal raised with one, is a ``TypeError`` at once, so a
misspelt code cannot reach a table system.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    """The codes of one domain's refusals. A member is its own text (``"wrong_pin"``) in a body, the
    schema and a comparison; a code shared by two domains is written in each, as each refuses it for
    its own reason."""


class CoreErrorCode(ErrorCode):
    REFUSED = "refused"
    CONFLICT = "conflict"
    NOT_FOUND = "not_found"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"


def _checked(code: Any, where: str) -> ErrorCode:
    if not isinstance(code, ErrorCode):
        raise TypeError(f"{where}: the code {code!r} is not a member of an ErrorCode enumeration.")
    return code


class DomainError(Exception):
    """A rule refused an action. ``code`` names the rule; ``status`` is the HTTP answer."""

    code: ErrorCode = CoreErrorCode.REFUSED
    status = 400

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "code" in cls.__dict__:
            _checked(cls.__dict__["code"], cls.__qualname__)

    def __init__(self, message: str, *, code: ErrorCode | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = _checked(code, type(self).__qualname__)


class Conflict(DomainError):
    """The action collides with the current state (already signed, key reused): HTTP 409."""

    code: ErrorCode = CoreErrorCode.CONFLICT
    status = 409
