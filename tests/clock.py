"""Moving the service's clock in a test: every service reads ``django.utils.timezone.now``, so a test
that must stand after a gaming day's end (to close it) moves that clock, not the machine's."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

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


def gaming_day_over(monkeypatch: pytest.MonkeyPatch, *, room: Any, day: date) -> None:
    """Move the clock a minute past the end of ``day`` in ``room``, and close the High Hand periods that
    ended by then, as the schedule would (without creating its count sheets): finance closes a day once
    it is over (``cage.gaming_days``)."""
    from jackpots.high_hand.services.periods import periods_run
    from tables.selectors import gaming_day_bounds

    clock_move(monkeypatch, to=gaming_day_bounds(room=room, day=day)[1] + timedelta(minutes=1))
    periods_run(room=room, at=timezone.now())
