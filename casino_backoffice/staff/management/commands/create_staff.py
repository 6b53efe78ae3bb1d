"""``manage.py create_staff USERNAME --role floorperson --credential-number PA-123 --room main [--room b]
[--pin 1234]``, or ``--all-rooms`` in place of the rooms for property-wide staff; one of them is required."""

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
        parser.add_argument(
            "--room",
            action="append",
            default=[],
            dest="rooms",
            metavar="CODE",
            help="A poker room the person works in, by code; repeat for each room.",
        )
        parser.add_argument(
            "--all-rooms",
            action="store_true",
            help="The all-rooms grant, for property-wide staff (finance, compliance, an administrator) by choice.",
        )
        parser.add_argument("--noinput", "--no-input", action="store_false", dest="interactive")

    def handle(self, *args: Any, **options: Any) -> None:
        from django.apps import apps

        if bool(options["rooms"]) == bool(options["all_rooms"]):
            raise CommandError(
                "Give the rooms the person works in (--room CODE, repeated for each) or, for property-wide staff, "
                "--all-rooms: one or the other, never neither."
            )
        room_model = apps.get_model("tables", "PokerRoom")
        rooms = list(room_model.objects.filter(code__in=options["rooms"]))
        unknown = sorted(set(options["rooms"]) - {room.code for room in rooms})
        if unknown:
            known = ", ".join(room_model.objects.order_by("code").values_list("code", flat=True)) or "none yet"
            raise CommandError(f"There is no room {', '.join(unknown)} (rooms: {known}).")
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
                rooms=rooms,
                all_rooms=options["all_rooms"],
            )
        except DomainError as error:
            raise CommandError(error.message) from None
        where = "every room" if options["all_rooms"] else "room " + ", ".join(room.code for room in rooms)
        self.stdout.write(self.style.SUCCESS(f"Created {user} as {Role(options['role']).label}, working in {where}."))
        if generated:
            self.stdout.write(f"Signing PIN (shown once): {pin}")
