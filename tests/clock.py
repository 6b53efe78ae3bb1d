"""Moving the service's clock in a test: every service reads ``django.utils.timezone.now``, so a test
that must stand after a gaming day's end (to close it) moves that clock, not the machine's."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.utils import timezone


def clock_move(monkeypatch: pytest.MonkeyPatch, *, to: datetime) -> None:
    """From now on ``timezone.now()`` answers ``to`` plus the time that passes."""
    real = timezone.now.__wrapped__ if hasattr(timezone.now, "__wrapped__") else timezone.now
    offset = to - real()

    def now() -> datetime:
        return real() + offset

    now.__wrapped__ = real  # type: ignore[attr-defined]
    monkeypatch.setattr(timezone, "now", now)
