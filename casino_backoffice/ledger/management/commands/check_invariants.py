"""``manage.py check_invariants``: is every cent where the records say it is? Exit 1 on any violation."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino_backoffice.ledger.invariants import invariants_check
from casino_backoffice.ledger.models import Account, Transfer


class Command(BaseCommand):
    help = "Check the ledger and every app's documents against each other; list each violation."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--every", type=float, default=0, help="Check again every so many seconds.")
        parser.add_argument("--for", dest="duration", type=float, default=0, help="Stop after so many seconds.")

    def handle(self, *args: Any, every: float, duration: float, **options: Any) -> None:
        started = time.monotonic()
        checks = failed = 0
        while True:
            violations = invariants_check()
            checks += 1
            transfers, accounts = Transfer.objects.count(), Account.objects.count()
            if violations:
                failed += 1
                for violation in violations:
                    self.stderr.write(violation)
            self.stdout.write(
                f"check {checks}: {len(violations)} violations over {transfers} transfers in {accounts} accounts"
            )
            if not every or (duration and time.monotonic() - started + every > duration):
                break
            time.sleep(every)
        if failed:
            raise CommandError(f"{failed} of {checks} checks found violations.")
