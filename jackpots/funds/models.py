"""The jackpot funds of each room, as its Rules Submission names them (§637a.15(a), §637a.16(a)),
and the drops each round of play put into them.

A ``Jackpot`` is created the first time a rules file names its code and is never deleted: funds
outlive rules versions (a discontinued Bad Beat is transferred, §637a.15(i)). What it collects and
how is in the rules version in effect (``jackpots.funds.rules``); its money is in the ledger (one box per
table, see ``jackpots.funds.accounts.jackpot_box_account``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from casino_backoffice.core.audit import history_user


class JackpotKind(models.TextChoices):
    BAD_BEAT = "bad_beat", "Bad Beat"
    HIGH_HAND = "high_hand", "High Hand"


class Jackpot(models.Model):
    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="jackpots")
    code = models.SlugField(max_length=30)
    kind = models.CharField(max_length=20, choices=JackpotKind.choices)
    name = models.CharField(max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords(get_user=history_user)

    class Meta:
        ordering = ["room", "code"]
        constraints = [models.UniqueConstraint(fields=["room", "code"], name="jackpots_jackpot_code_unique_in_room")]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class RoundDrop(models.Model):
    """A jackpot's contribution from one round's pot (§637a.15(c), §637a.16(c)): expected money in the
    table's box of ``jackpot``. Zero drops are kept too, so the report says a jackpot was asked and why
    it took nothing. Written by ``rake`` with its round (rake owns what leaves a pot); inserted once,
    never updated (trigger on PostgreSQL).

    ``jackpot_code`` is the code the rules named, ``jackpot.code`` (a fund's code never changes),
    kept on the row for the reports and the API that read drops by code.
    """

    round = models.ForeignKey("tables.Round", on_delete=models.PROTECT, related_name="drops")
    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="drops")
    jackpot_code = models.CharField(max_length=30)
    position = models.PositiveSmallIntegerField()
    amount_cents = models.BigIntegerField()
    rule = models.CharField(max_length=300)

    class Meta:
        ordering = ["round", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "jackpot"], name="jackpots_rounddrop_one_per_jackpot"),
            models.CheckConstraint(condition=Q(amount_cents__gte=0), name="jackpots_rounddrop_amount_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.jackpot_code} drop of round {self.round_id}"


# Where a jackpot share is paid: delivered at the table or at the cage (the Bad Beat's payments,
# §637a.15(f)(2), (g); the progressives' API offers the same two places).
class PaymentPlace(models.TextChoices):
    TABLE = "table", "Delivered at the table"
    CAGE = "cage", "Paid at the cage"
