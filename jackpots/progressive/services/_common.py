"""What the progressives' services share: a refusal with the rule it names."""

from __future__ import annotations

from jackpots.progressive.exceptions import ProgressiveErrorCode, ProgressiveRefused


def _refuse(message: str, code: ProgressiveErrorCode) -> ProgressiveRefused:
    return ProgressiveRefused(message, code=code)
