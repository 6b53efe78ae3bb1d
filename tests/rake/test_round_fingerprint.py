"""A round's idempotency fingerprint is derived from its ``RoundRequest``; rounds recorded before
store theirs as ``request_sha256``, so the hash of a request may never change: a retry of a round
recorded before must still be a replay."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from rake.services import RoundRequest
from tables.models import Table

# The hash of the request below as rounds were fingerprinted when the fields were listed by hand.
PINNED = "a6326ca92d05a4c53d87f1b9b566eaea01e30b1aaa2b360ec8adfea2b0dc5eb5"


def _request(**changes: object) -> RoundRequest:
    values: dict[str, object] = {
        "table": Table(pk=7),
        "ended_at": datetime(2026, 11, 30, 21, 14, 5, tzinfo=ZoneInfo("America/New_York")),
        "players_dealt_in": 6,
        "pot_cents": 12000,
        "uncalled_bet_cents": 500,
        "flop_dealt": True,
        "voided": False,
        "idempotency_key": "3:round-1",
    }
    return RoundRequest(**(values | changes))  # type: ignore[arg-type]


def test_the_fingerprint_of_a_request_is_the_one_rounds_already_store() -> None:
    assert _request().fingerprint() == PINNED


def test_the_key_and_the_late_signature_are_not_in_the_fingerprint_and_the_end_is_read_in_utc() -> None:
    utc = datetime(2026, 12, 1, 2, 14, 5, tzinfo=ZoneInfo("UTC"))
    assert _request(idempotency_key="another", late_entry_pin="1234", ended_at=utc).fingerprint() == PINNED
    assert _request(pot_cents=12001).fingerprint() != PINNED
