"""The demo's gaming day (``manage.py load_demo``) for the search and package tests, beside a second room."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time
from io import StringIO

from django.core.management import call_command

from cage.models import Transport
from casino_backoffice.staff.models import User
from tables.models import PokerRoom
from tables.services import room_upsert


@dataclass
class DemoDay:
    main: PokerRoom
    other: PokerRoom
    day: date

    @staticmethod
    def person(username: str) -> User:
        return User.objects.get(username=username)


def demo_day_load(administrator: User) -> DemoDay:
    """The demo room ``main`` after its day of play (T1 counted, carried under seal DEMO-SEAL-1 and
    verified; two Bad Beat claims at T2, two shares paid by security; a progressive payout paid by the
    cashier) and an empty room ``a``."""
    call_command("load_demo", stdout=StringIO())
    main = PokerRoom.objects.get(code="main")
    other = room_upsert(
        code="a", name="Room A", timezone_name="America/New_York", gaming_day_starts=time(6), actor=administrator
    )
    return DemoDay(main=main, other=other, day=Transport.objects.get(seal="DEMO-SEAL-1").gaming_day)
