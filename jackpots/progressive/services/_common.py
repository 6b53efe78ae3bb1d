"""What the progressives' services share: a refusal with the rule it names."""

from __future__ import annotations

from jackpots.progressive.exceptions import ProgressiveRefused


def _refuse(message: str, code: str) -> ProgressiveRefused:
    return ProgressiveRefused(message, code=code)
