"""The close of a gaming day and the runs of the count schedule."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from casino_backoffice.staff.permissions import Action
from casino_backoffice.staff.signing import SignableDocument, SigningRule


class GamingDayClose(SignableDocument):
    """The close of a room's gaming day by finance: refused while a variance awaits its explanation."""

    CLOSER = SigningRule(purpose="closer", action=Action.GAMING_DAY_CLOSE)

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="closed_days")
    gaming_day = models.DateField()
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField()

    class Meta:
        ordering = ["-gaming_day"]
        constraints = [models.UniqueConstraint(fields=["room", "gaming_day"], name="cage_gamingdayclose_once")]

    def signing_content(self) -> dict[str, Any]:
        return {
            "room": self.room_id,
            "gaming_day": self.gaming_day,
            "closed_by": self.closed_by_id,
            "closed_at": self.closed_at,
        }

    def __str__(self) -> str:
        return f"{self.room} gaming day {self.gaming_day} closed"


class ScheduleRun(models.Model):
    """Each moment the schedule ran at (``cage.services.schedule_run``): a moment not after the latest
    run changes nothing. Insert-only."""

    at = models.DateTimeField(unique=True)
    ran_at = models.DateTimeField()
    sheets_created = models.PositiveIntegerField(default=0)
    sheets_flagged = models.PositiveIntegerField(default=0)
    displays_flagged = models.PositiveIntegerField(
        default=0, help_text="Bad Beat displays not adjusted on a gaming day that ended (§637a.15(h))."
    )
    periods_opened = models.PositiveIntegerField(default=0, help_text="High Hand qualifying periods opened.")
    periods_closed = models.PositiveIntegerField(default=0, help_text="High Hand qualifying periods closed.")
    pools_announced = models.PositiveIntegerField(default=0, help_text="High Hand pools announced (§637a.16(g)).")

    class Meta:
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"Schedule at {self.at:%Y-%m-%d %H:%M}"
