"""Reading the values of one rules file: ``Checker`` collects every error and returns normalized values or None.

Each app validates its own section of the file with the same ``Checker`` (``rake.rules`` the rake
policies and tables, ``jackpots.funds.rules`` the jackpots), so every error reads alike and all are
reported at once.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from typing import Any

from casino_backoffice.money import InvalidAmount, parse_cents


class Checker:
    """Collects errors while reading one file; each read returns a normalized value or None."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def error(self, where: str, message: str) -> None:
        self.errors.append(f"{where}: {message}" if where else message)

    def keys(self, where: str, item: Any, required: set[str], optional: set[str]) -> bool:
        if not isinstance(item, dict):
            self.error(where, f"expected a mapping of keys, got {type(item).__name__}")
            return False
        for key in sorted(required - item.keys()):
            self.error(where, f"{key} is missing")
        for key in sorted(set(item) - required - optional, key=str):
            self.error(where, f"unknown key {key!r} (known: {', '.join(sorted(required | optional))})")
        return True

    def money(self, where: str, name: str, value: Any, *, positive: bool = False) -> int | None:
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if isinstance(value, float):
            self.error(where, f'{name} {value!r} must be written as a string of dollars and cents, such as "5.00"')
            return None
        try:
            cents = parse_cents(value, allow_zero=not positive)
        except InvalidAmount as error:
            self.error(where, f"{name} {value!r}: {error}")
            return None
        return int(cents)

    def percent_bp(self, where: str, name: str, value: Any) -> int | None:
        """A percent (10, 2.5 or "2.5") as basis points; hundredths of a percent at most."""
        if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
            self.error(where, f"{name} must be a number of percent, such as 10 or 2.5")
            return None
        try:
            percent = Decimal(str(value).strip())
        except InvalidOperation:
            self.error(where, f"{name} {value!r} is not a number of percent")
            return None
        if not percent.is_finite() or percent < 0:
            self.error(where, f"{name} {value!r} must be zero or more")
            return None
        bp = percent * 100
        if bp != bp.to_integral_value():
            self.error(where, f"{name} {value} has more than two decimal places")
            return None
        return int(bp)

    def integer(self, where: str, name: str, value: Any, *, minimum: int | None = None) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(where, f"{name} must be a whole number, got {value!r}")
            return None
        if minimum is not None and value < minimum:
            self.error(where, f"{name} must be at least {minimum}, got {value}")
            return None
        return value

    def boolean(self, where: str, name: str, value: Any) -> bool | None:
        if not isinstance(value, bool):
            self.error(where, f"{name} must be true or false, got {value!r}")
            return None
        return value

    def clock(self, where: str, name: str, value: Any) -> time | None:
        if not isinstance(value, str) or not re.fullmatch(r"\d{2}:\d{2}", value):
            self.error(where, f'{name} must be a quoted 24-hour time such as "06:00", got {value!r}')
            return None
        try:
            return time.fromisoformat(value)
        except ValueError:
            self.error(where, f"{name} {value!r} is not a time of day")
            return None

    def day(self, where: str, name: str, value: Any) -> date | None:
        """A calendar date written "2025-12-01" (YAML may read it unquoted as a date)."""
        if isinstance(value, date) and not isinstance(value, datetime):
            return value
        if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            try:
                return date.fromisoformat(value)
            except ValueError:
                self.error(where, f"{name} {value!r} is not a date of the calendar")
                return None
        self.error(where, f'{name} must be a date written as "2025-12-01", got {value!r}')
        return None

    def code(self, where: str, name: str, value: Any) -> str | None:
        if not isinstance(value, str) or not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,29}", value):
            self.error(where, f"{name} must be a short code of lower-case letters, digits, - and _, got {value!r}")
            return None
        return value


def label(section: str, index: int, item: Any, key: str) -> str:
    """Where an item of a list is, for an error: ``tables[0] (T1)``."""
    ident = item.get(key) if isinstance(item, dict) else None
    return f"{section}[{index}] ({ident})" if ident is not None else f"{section}[{index}]"


def listed(check: Checker, data: dict[str, Any], name: str, *, required: bool) -> list[Any]:
    """The list under ``name``; an empty list, and an error, when it is missing (if required) or not a list."""
    value = data.get(name)
    if value is None:
        if required:
            check.error("", f"{name} is missing")
        return []
    if not isinstance(value, list):
        check.error("", f"{name} must be a list")
        return []
    return value
