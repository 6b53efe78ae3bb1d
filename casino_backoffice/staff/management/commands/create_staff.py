"""``manage.py create_staff USERNAME --role floorperson --credential-number PA-123 [--pin 1234]``"""

from __future__ import annotations

import getpass
import secrets
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import staff_create


class Command(BaseCommand):
    help = "Create a member of staff with a role, a Board credential number and a signing PIN."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--role", required=True, choices=[role.value for role in Role])
        parser.add_argument("--credential-number", required=True)
        parser.add_argument("--first-name", default="")
        parser.add_argument("--last-name", default="")
        parser.add_argument("--email", default="")
        parser.add_argument("--password", help="Sign-in password; asked for when omitted and interactive.")
        parser.add_argument("--pin", help="Signing PIN (4-8 digits); a random one is printed when omitted.")
        parser.add_argument("--noinput", "--no-input", action="store_false", dest="interactive")

    def handle(self, *args: Any, **options: Any) -> None:
        password = options["password"]
        if password is None:
            if not options["interactive"]:
                raise CommandError("--password is required with --noinput.")
            password = getpass.getpass("Password: ")
        pin = options["pin"]
        generated = pin is None
        if generated:
            pin = f"{secrets.randbelow(10**6):06d}"
        try:
            user = staff_create(
                username=options["username"],
                role=Role(options["role"]),
                credential_number=options["credential_number"],
                password=password,
                pin=pin,
                first_name=options["first_name"],
                last_name=options["last_name"],
                email=options["email"],
            )
        except DomainError as error:
            raise CommandError(error.message) from None
        self.stdout.write(self.style.SUCCESS(f"Created {user} as {Role(options['role']).label}."))
        if generated:
            self.stdout.write(f"Signing PIN (shown once): {pin}")
