"""Operational state of the service itself (not of the poker room)."""

from django.db import models


class Heartbeat(models.Model):
    """The last time each periodic process proved it was alive; ``/healthz`` reads it.

    One row per source (``beat``), updated in place: this is a liveness probe, not a record of
    money, so it is neither audited nor kept.
    """

    source = models.CharField(max_length=40, unique=True)
    beat_at = models.DateTimeField()
    hostname = models.CharField(max_length=255, blank=True)

    def __str__(self) -> str:
        return f"{self.source} at {self.beat_at:%Y-%m-%d %H:%M:%S %Z}"
