"""``manage.py load_rules FILE --by USERNAME``: apply a Rules Submission file as a new version.

The person named loads it: they must hold a role that may load rules files, and are recorded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import ACTION_ROLES, Action, roles_in_words
from rake.services import rules_load


class Command(BaseCommand):
    help = "Load a rules file (YAML or JSON) as a new version of its room's rules; an identical file changes nothing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the rules file, YAML or JSON")
        parser.add_argument(
            "--by",
            "--user",
            dest="by",
            required=True,
            metavar="USERNAME",
            help=f"the member of staff who loads the file ({roles_in_words(ACTION_ROLES[Action.RULES_LOAD])}), recorded with it",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror}") from None
        actor = User.objects.filter(username__iexact=options["by"]).first()
        if actor is None:
            raise CommandError(f"No member of staff is called {options['by']!r}.")
        try:
            loaded = rules_load(text=text, actor=actor, source_name=path.name)
        except DomainError as error:
            raise CommandError(error.message) from None
        version = loaded.version
        if loaded.created:
            self.stdout.write(
                self.style.SUCCESS(
                    f"Loaded {path.name} as version {version.number} of room {version.room.code}, "
                    f"in effect from {version.effective_from.isoformat()}."
                )
            )
        else:
            self.stdout.write(
                f"{path.name} is identical to version {version.number} of room {version.room.code}; nothing changed."
            )
