"""Poker rooms and their tables.

The database enforces what it can: a table number is unique in its room, and a table never has more
seats than its game allows (``games.MAX_SEATS``, one check constraint per game).
"""

from __future__ import annotations

from datetime import time

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length
from simple_history.models import HistoricalRecords

from casino_backoffice.core.audit import history_user
from casino_backoffice.money import MAX_AMOUNT_CENTS

from .games import MAX_SEATS, MIN_SEATS, Game


class PokerRoom(models.Model):
    """A poker room: its time zone, the hour its gaming day starts, and who works in it.

    Who works in which room: a person given one or more rooms (``staff``) works only in those rooms,
    and sees and acts on nothing of another; property-wide staff hold the all-rooms grant
    (``User.all_rooms``) by choice; a person given neither works nowhere. Every face asks
    ``tables.selectors`` (``rooms_of``, ``visible_to``, ``works_in``), never this field directly.
    """

    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=120)
    timezone = models.CharField(max_length=64, default="America/New_York")
    gaming_day_starts = models.TimeField(default=time(6, 0))
    staff = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="poker_rooms",
        help_text="Who works in this room. A person given no room works in none, unless they hold the all-rooms grant.",
    )

    history = HistoricalRecords(m2m_fields=["staff"], get_user=history_user)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return self.name


def _seat_limit_condition() -> Q:
    condition = Q()
    for game, seats in MAX_SEATS.items():
        condition |= Q(game=game, seats__lte=seats)
    return condition & Q(seats__gte=MIN_SEATS)


class Table(models.Model):
    room = models.ForeignKey(PokerRoom, on_delete=models.PROTECT, related_name="tables")
    number = models.CharField(max_length=10)
    game = models.CharField(max_length=20, choices=Game.choices)
    seats = models.PositiveSmallIntegerField()
    is_open = models.BooleanField(default=False)

    history = HistoricalRecords(get_user=history_user)

    class Meta:
        # T1, T2 ... T9, T10: shorter numbers first, then by text.
        ordering = ["room", Length("number"), "number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="tables_table_number_unique_in_room"),
            models.CheckConstraint(condition=_seat_limit_condition(), name="tables_table_seats_within_game_limit"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} ({self.get_game_display()})"

    def dealt_in_problem(self, players: int) -> str | None:
        """Why ``players`` cannot be dealt in a round at this table, or None when they can: at least
        two, and no more than its seats (which are within its game's limit, ``games.seat_limit_problem``)."""
        if players < MIN_SEATS:
            return f"A round of poker deals in at least {MIN_SEATS} players."
        if players > self.seats:
            return f"Table {self.number} seats {self.seats}; {players} players cannot be dealt in."
        return None


class RulesVersion(models.Model):
    """One version of a room's Rules Submission (§601a.2): its rake policies, jackpots and tables.

    Inserted once and never changed (a trigger refuses UPDATE and DELETE, on SQLite too); a change of
    rules is a new version. ``content`` is the canonical, validated file (``rake.rules``) and
    ``content_sha256`` its hash; ``source_text`` is the file as it was reviewed. A round is rated by
    the version in effect at its ``ended_at``: the one with the latest ``effective_from`` not after
    it (the later loaded when two share a moment).
    """

    room = models.ForeignKey(PokerRoom, on_delete=models.PROTECT, related_name="rules_versions")
    number = models.PositiveIntegerField()
    effective_from = models.DateTimeField()
    loaded_at = models.DateTimeField()
    loaded_by = models.ForeignKey("staff.User", on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    source_name = models.CharField(max_length=255, blank=True)
    source_text = models.TextField()
    content = models.JSONField()
    content_sha256 = models.CharField(max_length=64, db_index=True)

    class Meta:
        ordering = ["room", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="tables_rulesversion_number_unique_in_room"),
        ]
        indexes = [models.Index(fields=["room", "effective_from", "number"], name="tables_rules_in_effect")]

    def __str__(self) -> str:
        return f"{self.room.code} rules v{self.number} (from {self.effective_from:%Y-%m-%d %H:%M})"


class Round(models.Model):
    """A round of play as the table reported it, with the rake its rules took; each jackpot's drop
    from its pot is a ``jackpots.RoundDrop`` (``round.drops``).

    Inserted once, never updated (a trigger refuses it). ``idempotency_key`` makes a retried post
    count once; ``request_sha256`` is the canonical body first posted under that key, so the same key
    with another body is refused (409).
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds")
    ended_at = models.DateTimeField()
    gaming_day = models.DateField()
    shift = models.CharField(max_length=30)
    game = models.CharField(max_length=20, choices=Game.choices, help_text="The table's game when the round ended.")
    players_dealt_in = models.PositiveSmallIntegerField()
    pot_cents = models.BigIntegerField()
    uncalled_bet_cents = models.BigIntegerField(default=0)
    # Moneys refunded from the pot to a player whose protected hand the dealer killed or fouled
    # (§637a.18(k)(3)): they leave the pot before the rake, like the uncalled bet.
    refund_cents = models.BigIntegerField(default=0, db_default=0)
    flop_dealt = models.BooleanField(default=True)
    voided = models.BooleanField(default=False)
    rules_version = models.ForeignKey(RulesVersion, on_delete=models.PROTECT, related_name="rounds")
    rake_cents = models.BigIntegerField()
    rake_rule = models.CharField(max_length=300)
    # A key as sent (120 characters at most) scoped to its sender (``core.idempotency.sender_key``).
    idempotency_key = models.CharField(max_length=200, unique=True)
    request_sha256 = models.CharField(max_length=64)
    created_by = models.ForeignKey("staff.User", on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-ended_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(pot_cents__gte=0), name="tables_round_pot_not_negative"),
            # The API and the tablet refuse a larger amount (money.MAX_AMOUNT_CENTS); so does the database.
            models.CheckConstraint(
                condition=Q(pot_cents__lte=MAX_AMOUNT_CENTS), name="tables_round_pot_within_maximum"
            ),
            models.CheckConstraint(
                condition=Q(uncalled_bet_cents__gte=0, uncalled_bet_cents__lte=models.F("pot_cents")),
                name="tables_round_uncalled_within_pot",
            ),
            models.CheckConstraint(
                condition=Q(
                    refund_cents__gte=0,
                    refund_cents__lte=models.F("pot_cents") - models.F("uncalled_bet_cents"),
                ),
                name="tables_round_refund_within_pot",
            ),
            models.CheckConstraint(condition=Q(rake_cents__gte=0), name="tables_round_rake_not_negative"),
            models.CheckConstraint(condition=Q(players_dealt_in__gte=MIN_SEATS), name="tables_round_two_players"),
        ]
        indexes = [
            models.Index(fields=["table", "gaming_day"], name="tables_round_table_day"),
            models.Index(fields=["gaming_day", "shift"], name="tables_round_day_shift"),
        ]

    def __str__(self) -> str:
        return f"Round {self.pk} at {self.table.number}"


# The irregularities of a table and their rulings are this app's models, kept in their own package
# (``tables.irregularities``); imported here so that Django's app registry finds them.
from tables.equipment.models import DeckChange, DeckMissing, DeckOverdue, DeckVerification, DeviceEvent  # noqa: E402, F401
from tables.irregularities.models import Irregularity, IrregularityRuling  # noqa: E402, F401
