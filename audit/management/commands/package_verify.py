"""``manage.py package_verify FILE.zip [--seal DIGEST]``: check a gaming day's package against its
manifest (and the seal a regulator kept), then say what changed in the day since its seal."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.package.build import package_since_seal, package_verify

SINCE_WORDS = {
    "changed": "changed since the seal",
    "added": "added since the seal",
    "missing": "in the seal, not in the package",
}


class Command(BaseCommand):
    help = (
        "Check a gaming day's package: every file as its manifest lists it (SHA-256, size), none added, none "
        "missing; with --seal, the day's seal is the one kept. Then list the day's data files changed since the seal."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("package", help="the package's ZIP file")
        parser.add_argument("--seal", help="the SHA-256 of the day's seal, as kept when the day was closed")

    def handle(self, *args: Any, **options: Any) -> None:
        problems = package_verify(options["package"], seal=options["seal"])
        if problems:
            for problem in problems:
                self.stdout.write(problem)
            raise CommandError(f"{len(problems)} problem(s): the package is not as it was built.")
        self.stdout.write("OK: every file is the one the manifest lists.")
        since = package_since_seal(options["package"])
        if since is None:
            self.stdout.write("The day was not sealed when the package was built (open, or closed a moment ago).")
            return
        lines = [f"{name}: {SINCE_WORDS[what]}" for what, names in since.items() for name in names]
        self.stdout.write("\n".join(lines) if lines else "Every data file is as the day's seal holds it.")
