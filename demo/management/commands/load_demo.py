"""``manage.py load_demo``: a demo poker room with a dozen tables and staff of every role.

Idempotent: a second run changes nothing and keeps every row. PINs are random and printed only
when a person is created (once); the demo password is in the README.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction

from casino_backoffice.staff.models import User
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import staff_create
from rake.services import rules_load

DEMO_PASSWORD = "poker-demo-2026"  # noqa: S105 - documented in the README for the demo only

DEMO_STAFF: list[tuple[str, Role, str, str]] = [
    ("dealer", Role.DEALER, "Dana", "Dealer"),
    ("floor", Role.FLOORPERSON, "Frank", "Floor"),
    ("supervisor", Role.SHIFT_SUPERVISOR, "Sam", "Supervisor"),
    ("manager", Role.POKER_ROOM_MANAGER, "Mia", "Manager"),
    ("security", Role.SECURITY, "Sid", "Security"),
    ("surveillance", Role.SURVEILLANCE, "Sue", "Surveillance"),
    ("cashier", Role.CAGE_CASHIER, "Cass", "Cashier"),
    ("finance", Role.FINANCE, "Fin", "Ance"),
    ("compliance", Role.COMPLIANCE, "Connie", "Compliance"),
    ("admin", Role.ADMINISTRATOR, "Ada", "Admin"),
]

DEMO_RULES = Path(settings.BASE_DIR) / "demo" / "rules.yaml"
# The demo's poker room manager loads the demo rules, as ``manage.py load_rules --by manager`` would.
DEMO_RULES_LOADER = "manager"


def load_rooms_and_tables() -> None:
    """The demo room and its dozen tables come from the documented example rules file, loaded by the
    demo's poker room manager through the same service as ``manage.py load_rules`` (an identical
    file changes nothing)."""
    rules_load(
        text=DEMO_RULES.read_text(encoding="utf-8"),
        actor=User.objects.get(username=DEMO_RULES_LOADER),
        source_name="demo/rules.yaml",
    )


class Command(BaseCommand):
    help = "Load the demo poker room, tables and staff (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        created = []
        for n, (username, role, first, last) in enumerate(DEMO_STAFF, start=1):
            if User.objects.filter(username=username).exists():
                continue
            pin = f"{secrets.randbelow(10**4):04d}"
            staff_create(
                username=username,
                role=role,
                credential_number=f"PA-DEMO-{n:04d}",
                password=DEMO_PASSWORD,
                pin=pin,
                first_name=first,
                last_name=last,
            )
            created.append((username, role, pin))
        with transaction.atomic():
            load_rooms_and_tables()
        if created:
            self.stdout.write(self.style.SUCCESS("Demo staff created. Signing PINs are shown once, now:"))
            for username, role, pin in created:
                self.stdout.write(f"  {username:<13} {role.label:<26} PIN {pin}")
            self.stdout.write(f"Every demo account signs in with the password {DEMO_PASSWORD!r}.")
        else:
            self.stdout.write("Demo data already loaded; nothing changed.")
