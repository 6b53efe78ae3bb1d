"""``manage.py drf_create_token USERNAME [--reset]``: an API token for a person, printed once.

The name of DRF's own command, kept for the table and cage systems' set-up notes; the token is knox's,
stored only as its digest (``services.api_token_create``), so it cannot be printed again: a lost token
is revoked in the admin and a new one made.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.staff.models import User
from casino_backoffice.staff.services import api_token_create


class Command(BaseCommand):
    help = "Make an API token for a member of staff and print it once (only its digest is kept)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "-r", "--reset", action="store_true", help="Revoke the person's other API tokens before making this one."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        username = options["username"]
        try:
            user = User.objects.get_by_natural_key(username)
        except User.DoesNotExist:
            raise CommandError(f"Cannot create the token: no member of staff is named {username}.") from None
        try:
            token = api_token_create(user=user, replace=options["reset"])
        except DomainError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"Generated token {token} for user {username}")
        self.stderr.write("Shown once: only its digest is kept. Revoke it in the admin (API tokens).")
