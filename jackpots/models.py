"""The jackpot funds of each room, as its Rules Submission names them (§637a.15(a), §637a.16(a)).

A ``Jackpot`` is created the first time a rules file names its code and is never deleted: funds
outlive rules versions (a discontinued Bad Beat is transferred, §637a.15(i)). What it collects and
how is in the rules version in effect; its money is in the ledger (one box per table, see
``jackpots.accounts.jackpot_box_account``).
"""

from __future__ import annotations

from django.db import models
from simple_history.models import HistoricalRecords


class JackpotKind(models.TextChoices):
    BAD_BEAT = "bad_beat", "Bad Beat"
    HIGH_HAND = "high_hand", "High Hand"


class Jackpot(models.Model):
    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="jackpots")
    code = models.SlugField(max_length=30)
    kind = models.CharField(max_length=20, choices=JackpotKind.choices)
    name = models.CharField(max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["room", "code"]
        constraints = [models.UniqueConstraint(fields=["room", "code"], name="jackpots_jackpot_code_unique_in_room")]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"
