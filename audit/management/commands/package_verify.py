"""``manage.py package_verify FILE.zip``: check a gaming day's package against its manifest."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.package.build import package_verify


class Command(BaseCommand):
    help = (
        "Check a gaming day's package: every file as its manifest lists it (SHA-256, size), none added, none missing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("package", help="the package's ZIP file")

    def handle(self, *args: Any, **options: Any) -> None:
        problems = package_verify(options["package"])
        if problems:
            for problem in problems:
                self.stdout.write(problem)
            raise CommandError(f"{len(problems)} problem(s): the package is not as it was built.")
        self.stdout.write("OK: every file is the one the manifest lists.")
