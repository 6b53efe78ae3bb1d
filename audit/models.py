"""The seal of a gaming day's package (``audit.package.seal``): the SHA-256 of each of the day's data
files as they stood once finance had closed the day, inserted once and never changed (a trigger refuses
UPDATE and DELETE, migration ``audit.0001_day_package_seal``)."""

from __future__ import annotations

from django.db import models


class DayPackageSeal(models.Model):
    """The day's data files (CSV and JSON; the PDFs print who printed them and when) as the schedule
    found them after the close: each name with its SHA-256 and size, the files themselves, and
    ``sha256``, the digest of that list (``audit.package.seal.seal_digest``), which a regulator keeps to
    check a package built later."""

    room = models.ForeignKey("tables.PokerRoom", on_delete=models.PROTECT, related_name="package_seals")
    gaming_day = models.DateField()
    close = models.OneToOneField("cage.GamingDayClose", on_delete=models.PROTECT, related_name="package_seal")
    sealed_at = models.DateTimeField()
    files = models.JSONField(help_text="Each sealed file: {name, sha256, size}, by name.")
    content = models.BinaryField(help_text="The sealed files as they were at the close, in a ZIP.")
    sha256 = models.CharField(max_length=64, help_text="The SHA-256 of the sealed files' names and digests.")

    class Meta:
        ordering = ["-gaming_day", "room"]
        constraints = [models.UniqueConstraint(fields=["room", "gaming_day"], name="audit_daypackageseal_once")]

    def __str__(self) -> str:
        return f"Package of {self.room} gaming day {self.gaming_day}, sealed {self.sha256[:12]}…"
