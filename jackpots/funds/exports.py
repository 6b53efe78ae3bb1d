"""What every jackpot product's exports write alike: who signed, by name and credential, and the span of
a report in its file name."""

from __future__ import annotations

from datetime import date

from casino_backoffice.staff.models import User


def person(user: User | None) -> str:
    return (user.get_full_name() or user.username) if user is not None else ""


def credential(user: User | None) -> str:
    return (user.credential_number or "") if user is not None else ""


def span_words(start: date, end: date) -> str:
    return f"{start}-to-{end}" if start != end else str(start)
