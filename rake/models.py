"""Time charges: the rake of time-charge tables, assessed per interval and verified (§637a.17(b)(3)).

Rake taken from pots is on each ``tables.Round``; the rules that rate them are ``tables.RulesVersion``.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from casino_backoffice.core.audit import history_user
from casino_backoffice.staff.permissions import Action
from casino_backoffice.staff.signing import SignableDocument, SigningRule
from tables.models import Round


class TimeChargeBasis(models.TextChoices):
    PER_PLAYER = "per_player", "Per player (inactive seated players too)"
    PER_TABLE = "per_table", "Per table"


class TimeCharge(SignableDocument):
    """A time charge assessed at a table for one interval (§637a.17(b)(3)).

    "(i) May be imposed on a per-player basis or on a per-table basis. If taken on a per-player
    basis, inactive players seated at the table shall also be assessed. ... (iii) May be assessed
    fractionally every 20 or 30 minutes ... (v) Upon verification by a floorperson or above of the
    time charges collected shall be immediately placed by the dealer into the drop box."

    The amount reaches the drop box in the ledger when a floorperson or above signs (``VERIFIER``).
    """

    VERIFIER = SigningRule(
        purpose="verifier",
        action=Action.TIME_CHARGE_VERIFY,
        section="§637a.17(b)(3)(v)",
        not_same_as_fields=("assessed_by",),
    )

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="time_charges")
    interval_starts_at = models.DateTimeField()
    interval_minutes = models.PositiveSmallIntegerField()
    basis = models.CharField(max_length=20, choices=TimeChargeBasis.choices)
    players_seated = models.PositiveSmallIntegerField(null=True, blank=True)
    fee_per_interval_cents = models.BigIntegerField()
    amount_cents = models.BigIntegerField()
    rules_version = models.ForeignKey("tables.RulesVersion", on_delete=models.PROTECT, related_name="+")
    policy_code = models.CharField(max_length=30)
    gaming_day = models.DateField()
    shift = models.CharField(max_length=30)
    # A key as sent (120 characters at most) scoped to its sender (``core.idempotency.sender_key``).
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)
    assessed_by = models.ForeignKey("staff.User", on_delete=models.PROTECT, related_name="+")
    assessed_at = models.DateTimeField()
    verified_at = models.DateTimeField(null=True, blank=True)

    history = HistoricalRecords(get_user=history_user)

    class Meta:
        ordering = ["-interval_starts_at", "table"]
        constraints = [
            models.UniqueConstraint(fields=["table", "interval_starts_at"], name="rake_timecharge_once_per_interval"),
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="rake_timecharge_amount_positive"),
            models.CheckConstraint(
                condition=Q(basis="per_table", players_seated__isnull=True)
                | Q(basis="per_player", players_seated__gte=1),
                name="rake_timecharge_players_match_basis",
            ),
        ]
        indexes = [models.Index(fields=["gaming_day", "table"], name="rake_timecharge_day_table")]

    def signing_content(self) -> dict[str, Any]:
        return {
            "table": self.table_id,
            "interval_starts_at": self.interval_starts_at,
            "interval_minutes": self.interval_minutes,
            "basis": self.basis,
            "players_seated": self.players_seated,
            "amount_cents": self.amount_cents,
            "rules_version": self.rules_version_id,
        }

    def __str__(self) -> str:
        return f"Time charge {self.pk} at table {self.table_id} from {self.interval_starts_at:%Y-%m-%d %H:%M}"


class PokerRevenue(Round):
    """The admin's poker revenue report (§637a.17): a page over rounds and time charges
    (``rake.selectors.poker_revenue``), not a table of its own."""

    class Meta:
        proxy = True
        default_permissions = ("view",)
        verbose_name = "poker revenue report"
        verbose_name_plural = "poker revenue"

    def __str__(self) -> str:
        return "Poker revenue"


class LateRoundEntry(SignableDocument):
    """A round of play logged more than the room's ``late_entry_minutes`` after it ended (a house
    control of the rules file), and the poker shift supervisor who signed for it.

    §637a.17: the room's poker revenue of a gaming day is the rake of its rounds; a round that reaches
    the back office long after it ended changes a day already reported, so it is recorded only with a
    shift supervisor's signature, who is not the person who logged it, and the revenue report marks it
    late. Inserted with its round, never changed.
    """

    SUPERVISOR = SigningRule(
        purpose="late_entry",
        action=Action.LATE_ENTRY_SIGN,
        section="§637a.17",
        not_same_as_fields=("recorded_by",),
    )

    round = models.OneToOneField("tables.Round", on_delete=models.PROTECT, related_name="late_entry")
    minutes_late = models.PositiveIntegerField(help_text="Whole minutes between the round's end and its logging.")
    limit_minutes = models.PositiveIntegerField(help_text="The room's late_entry_minutes in effect at the round.")
    recorded_by = models.ForeignKey("staff.User", on_delete=models.PROTECT, related_name="+")
    signed_by = models.ForeignKey("staff.User", on_delete=models.PROTECT, related_name="+")
    signed_at = models.DateTimeField()

    class Meta:
        ordering = ["-signed_at", "-id"]
        verbose_name = "round logged late"
        verbose_name_plural = "rounds logged late"

    def signing_content(self) -> dict[str, Any]:
        # The round as logged: its table, end, pot and what it took, and the lateness signed for.
        round_ = self.round
        return {
            "round": self.round_id,
            "table": round_.table_id,
            "ended_at": round_.ended_at,
            "pot_cents": round_.pot_cents,
            "rake_cents": round_.rake_cents,
            "created_at": round_.created_at,
            "minutes_late": self.minutes_late,
            "limit_minutes": self.limit_minutes,
            "recorded_by": self.recorded_by_id,
            "signed_by": self.signed_by_id,
        }

    def __str__(self) -> str:
        return f"Round {self.round_id} logged {self.minutes_late} minutes late"


class RoundVoid(SignableDocument):
    """A round of play already recorded, voided by a floorperson or above who signs (§637a.18(i): 'If at
    any time during a round of play missing cards are discovered or additional cards are found, the
    round of play shall be voided, all value chips ... in the pot shall be returned to the appropriate
    player and the deck shall be replaced').

    The round stays as it was logged; its rake and each of its drops are reversed in the ledger by
    transfers that reference this void (``rake.services.voids``), so the drop box and the jackpot boxes
    hold what they would without the round. Its irregularity (``missing_or_extra_cards``, signed by
    the same person) is the record of what happened. One per round, inserted once, never changed.
    """

    VOIDER = SigningRule(purpose="voider", action=Action.ROUND_VOID, section="§637a.18(i)")

    round = models.OneToOneField("tables.Round", on_delete=models.PROTECT, related_name="void")
    irregularity = models.OneToOneField("tables.Irregularity", on_delete=models.PROTECT, related_name="round_void")
    reason = models.TextField()
    voided_by = models.ForeignKey("staff.User", on_delete=models.PROTECT, related_name="+")
    voided_at = models.DateTimeField()
    # A key as sent (120 characters at most) scoped to its sender (``core.idempotency.sender_key``).
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)

    class Meta:
        ordering = ["-voided_at", "-id"]
        verbose_name = "round voided"
        verbose_name_plural = "rounds voided"
        constraints = [models.CheckConstraint(condition=~Q(reason=""), name="rake_roundvoid_has_a_reason")]

    def signing_content(self) -> dict[str, Any]:
        round_ = self.round
        return {
            "round": self.round_id,
            "table": round_.table_id,
            "ended_at": round_.ended_at,
            "pot_cents": round_.pot_cents,
            "rake_cents": round_.rake_cents,
            "irregularity": self.irregularity_id,
            "reason": self.reason,
            "voided_by": self.voided_by_id,
            "voided_at": self.voided_at,
        }

    def __str__(self) -> str:
        return f"Void of round {self.round_id}"
