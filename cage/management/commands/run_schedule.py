"""``manage.py run_schedule [--at ISO-8601]``: run the count schedule at a moment (now by default).

Catch-up after downtime, and tests. A moment not after the latest run changes nothing and exits 0.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cage.services import schedule_run


class Command(BaseCommand):
    help = "Create the count sheets that became due and flag overdue ones, at a moment (now by default)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--at", help="An ISO-8601 moment with its UTC offset, e.g. 2026-11-30T06:00:00-05:00.")

    def handle(self, *args: Any, **options: Any) -> None:
        at = None
        if options["at"]:
            try:
                at = datetime.fromisoformat(options["at"])
            except ValueError:
                raise CommandError(f"--at {options['at']!r} is not an ISO-8601 date and time.") from None
            if at.tzinfo is None:
                raise CommandError("--at needs its UTC offset (such as -05:00 or Z), so the moment is not ambiguous.")
        run = schedule_run(at=at)
        if run is None:
            self.stdout.write("Nothing to do: the schedule already ran at or after that moment.")
        else:
            self.stdout.write(
                f"Schedule ran at {run.at.isoformat()}: {run.sheets_created} count sheets created, "
                f"{run.sheets_flagged} flagged overdue."
            )
