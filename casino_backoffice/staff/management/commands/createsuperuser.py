"""Django's ``createsuperuser``, plus the Board credential number and the signing PIN.

Interactive: asks for the credential number (a required field) and then the PIN.
``--noinput``: reads ``DJANGO_SUPERUSER_USERNAME``, ``_EMAIL``, ``_PASSWORD``,
``_CREDENTIAL_NUMBER`` and ``_PIN`` from the environment.
"""

from __future__ import annotations

import getpass
import os
from typing import Any

from django.contrib.auth.management.commands import createsuperuser
from django.contrib.auth.models import Group
from django.core.management.base import CommandError

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.staff.models import User
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import PIN_PATTERN, pin_set


class Command(createsuperuser.Command):
    help = createsuperuser.Command.help + " Also sets the signing PIN and the administrator role."

    def handle(self, *args: Any, **options: Any) -> None:
        pin = os.environ.get("DJANGO_SUPERUSER_PIN")
        if pin is not None and not PIN_PATTERN.match(pin):
            raise CommandError("DJANGO_SUPERUSER_PIN must be 4 to 8 digits; nothing was created.")
        before = set(User.objects.values_list("pk", flat=True))
        super().handle(*args, **options)
        created = User.objects.exclude(pk__in=before).order_by("-pk").first()
        if created is None:
            return
        created.groups.add(Group.objects.get_or_create(name=Role.ADMINISTRATOR.value)[0])
        if options["interactive"] and pin is None:
            while True:
                pin = getpass.getpass("Signing PIN (4-8 digits, blank to skip): ")
                if not pin:
                    return
                if getpass.getpass("Signing PIN (again): ") != pin:
                    self.stderr.write("Error: the two PINs differ.")
                    continue
                try:
                    pin_set(user=created, pin=pin)
                except DomainError as error:
                    self.stderr.write(f"Error: {error.message}")
                    continue
                break
        elif pin:
            try:
                pin_set(user=created, pin=pin)
            except DomainError as error:
                raise CommandError(error.message) from None
        if options["verbosity"] >= 1 and pin:
            self.stdout.write("Signing PIN set.")
