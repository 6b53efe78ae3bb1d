"""What the High Hand's services share: a refusal with the rule it names."""

from __future__ import annotations

from jackpots.high_hand.exceptions import HighHandErrorCode, HighHandRefused


def _refuse(message: str, code: HighHandErrorCode) -> HighHandRefused:
    return HighHandRefused(message, code=code)
