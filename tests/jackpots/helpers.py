"""Helpers of the Bad Beat API tests: a claim as a table system sends it, and a snapshot of everything
a refused request must leave as it was."""

from __future__ import annotations

from typing import Any

from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.models import Signature, User
from jackpots.bad_beat.models import (
    BadBeatClaim,
    BadBeatDecision,
    BadBeatDistribution,
    BadBeatPayment,
    BadBeatShare,
    DisplayAdjustment,
    FundTransfer,
)

CLAIMS = "/api/bad-beat/claims/"

# The claim of tests.jackpots.bad_beat.QUALIFYING as a table system sends it: aces full of kings with
# both hole cards, beaten by four sevens, six players dealt in.
BODY: dict[str, Any] = {
    "jackpot": "bb",
    "table": "T1",
    "players_dealt_in": 6,
    "board": "Ad Ac Kc 7s 7h",
    "losing": {"seat": 3, "name": "Ann Loser", "hole": "As Ks"},
    "winning": {"seat": 7, "name": "Walt Winner", "hole": "7d 7c"},
    "others": [
        {"seat": 1, "name": "Pat One"},
        {"seat": 2, "name": "Sam Two"},
        {"seat": 5, "name": "Lee Five"},
        {"seat": 9, "name": "Kim Nine"},
    ],
    "surveillance_reference": "CAM-12 21:14:05",
}


def snapshot() -> tuple:
    """Every Bad Beat document and its status, the ledger, the signatures and everyone's PIN count."""
    return (
        list(BadBeatClaim.objects.order_by("pk").values_list("pk", "status")),
        BadBeatDecision.objects.count(),
        BadBeatDistribution.objects.count(),
        BadBeatShare.objects.count(),
        BadBeatPayment.objects.count(),
        list(DisplayAdjustment.objects.order_by("pk").values_list("pk", "witnessed_by")),
        list(FundTransfer.objects.order_by("pk").values_list("pk", "status")),
        Transfer.objects.count(),
        Signature.objects.count(),
        list(User.objects.order_by("pk").values_list("failed_pin_attempts", flat=True)),
    )
