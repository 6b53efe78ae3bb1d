"""``manage.py load_demo``: a demo poker room with a dozen tables and staff of every role.

Idempotent: a second run changes nothing and keeps every row. PINs are random and printed only
when a person is created (once); the demo password is in the README.
"""

from __future__ import annotations

import secrets
from datetime import time
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from casino_backoffice.staff.models import User
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import staff_create
from tables.games import Game
from tables.services import room_upsert, table_upsert

DEMO_PASSWORD = "poker-demo-2026"

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

DEMO_TABLES: list[tuple[str, Game, int]] = [
    ("T1", Game.HOLDEM, 10),
    ("T2", Game.HOLDEM, 10),
    ("T3", Game.HOLDEM, 9),
    ("T4", Game.HOLDEM, 9),
    ("T5", Game.OMAHA_HIGH, 10),
    ("T6", Game.OMAHA_HIGH_LOW, 9),
    ("T7", Game.SEVEN_CARD_STUD, 8),
    ("T8", Game.FIVE_CARD_STUD, 8),
    ("T9", Game.DRAW_HIGH, 8),
    ("T10", Game.DRAW_LOW, 7),
    ("T11", Game.MISSISSIPPI_STUD, 6),
    ("T12", Game.CRAZY_4_POKER, 6),
]


def load_rooms_and_tables() -> None:
    room = room_upsert(code="main", name="Main Poker Room", timezone_name="America/New_York", gaming_day_starts=time(6))
    for number, game, seats in DEMO_TABLES:
        table_upsert(room=room, number=number, game=game, seats=seats)


class Command(BaseCommand):
    help = "Load the demo poker room, tables and staff (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            load_rooms_and_tables()
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
        if created:
            self.stdout.write(self.style.SUCCESS("Demo staff created. Signing PINs are shown once, now:"))
            for username, role, pin in created:
                self.stdout.write(f"  {username:<13} {role.label:<26} PIN {pin}")
            self.stdout.write(f"Every demo account signs in with the password {DEMO_PASSWORD!r}.")
        else:
            self.stdout.write("Demo data already loaded; nothing changed.")
