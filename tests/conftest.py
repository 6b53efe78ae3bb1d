"""Shared fixtures: people of every role (each with the PIN ``PIN``), a room and an open table."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from datetime import time

import pytest

from casino_backoffice.core.audit import acting_clear
from casino_backoffice.staff.models import User
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import staff_create
from tables.games import Game
from tables.models import PokerRoom, Table
from tables.services import room_upsert, table_set_open, table_upsert

# Shared fixtures of every app's tests: the rules files (``rules``, ``rated_table``), a counted table (``closed_table``).
pytest_plugins = [
    "tests.rake.factories",
    "tests.cage.fixtures",
    "tests.jackpots.bad_beat",
    "tests.jackpots.progressive_helpers",
]

PIN = "2468"
PASSWORD = "correct-horse-battery"
_serial = itertools.count(1)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    """Argon2 is deliberately slow; tests of rules, not of hashing, use a fast hasher."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _rows_read_afresh() -> None:
    """Each test reads the rules versions and accounts it makes (``core.caches``): an id seen by an
    earlier test may name another row now, and a version parsed then must not stand for a new one."""
    from casino_backoffice.core.caches import id_caches_forget

    id_caches_forget()


@pytest.fixture(autouse=True)
def _nobody_acting() -> Iterator[None]:
    """Each test starts as a new task does: no acting person left by the one before (``core.audit``)."""
    acting_clear()
    yield
    acting_clear()


@pytest.fixture(autouse=True)
def _records_hold(request) -> object:
    """After every test that touched the database, every cent is where the records say it is
    (``ledger.invariants``: double entry, derived balances, nothing below zero, each count and
    verification moved what it says; each announced High Hand pool is its period's contributions). A
    test that breaks the records on purpose is marked ``records_broken``; one that announces High Hand
    pools by hand, with official money no count made (``close_and_announce``), ``pools_by_hand``: the
    pool check does not hold there, every other does."""
    uses_db = request.node.get_closest_marker("django_db") or {"db", "transactional_db"} & set(request.fixturenames)
    if not uses_db or request.node.get_closest_marker("records_broken"):
        yield
        return
    request.getfixturevalue("_django_db_helper")
    yield
    from casino_backoffice.ledger.invariants import invariants_check

    violations = invariants_check()
    if request.node.get_closest_marker("pools_by_hand"):
        violations = [violation for violation in violations if not violation.startswith("high_hand_pools: ")]
    assert violations == []


@pytest.fixture
def make_staff(db) -> Callable[..., User]:
    """``make_staff(Role.FLOORPERSON)`` -> a new person of that role, PIN ``PIN``."""

    def make(role: Role, *, username: str | None = None, pin: str | None = PIN, **extra) -> User:
        # The tests' people work in every room unless given rooms (``rooms=[...]``): the suite's rooms
        # are made after the people who load their rules. Room isolation is tested with rooms given.
        extra.setdefault("all_rooms", not extra.get("rooms"))
        n = next(_serial)
        return staff_create(
            username=username or f"{role.value}{n}",
            role=role,
            credential_number=f"PA-{role.value[:3].upper()}-{n:05d}",
            password=PASSWORD,
            pin=pin,
            first_name=role.label.split()[0],
            last_name=f"No{n}",
            **extra,
        )

    return make


@pytest.fixture
def dealer(make_staff) -> User:
    return make_staff(Role.DEALER)


@pytest.fixture
def floorperson(make_staff) -> User:
    return make_staff(Role.FLOORPERSON)


@pytest.fixture
def supervisor(make_staff) -> User:
    return make_staff(Role.SHIFT_SUPERVISOR)


@pytest.fixture
def cashier(make_staff) -> User:
    return make_staff(Role.CAGE_CASHIER)


@pytest.fixture
def finance(make_staff) -> User:
    return make_staff(Role.FINANCE)


@pytest.fixture
def compliance(make_staff) -> User:
    return make_staff(Role.COMPLIANCE)


@pytest.fixture
def administrator(make_staff) -> User:
    return make_staff(Role.ADMINISTRATOR)


@pytest.fixture
def manager(make_staff) -> User:
    return make_staff(Role.POKER_ROOM_MANAGER)


@pytest.fixture
def room(db, manager) -> PokerRoom:
    return room_upsert(
        code="main", name="Main Poker Room", timezone_name="America/New_York", gaming_day_starts=time(6), actor=manager
    )


@pytest.fixture
def open_table(room, manager, floorperson) -> Table:
    table = table_upsert(room=room, number="T1", game=Game.HOLDEM, seats=10, actor=manager)
    return table_set_open(table=table, is_open=True, actor=floorperson)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix) -> None:
    """The suite's own connections may TRUNCATE the insert-only tables, as pytest-django empties them
    between transactional tests; the service's connections never may (``core.immutable``). They also
    commit without waiting for the disk (``synchronous_commit=off``, a setting of the session alone): a
    crash of the test server may lose the last commits of a database the suite drops anyway, and the
    transactional tests and the test databases' migrations stop waiting on every commit."""
    from django.db import connections

    for connection in connections.all():
        if connection.vendor == "postgresql":
            options = connection.settings_dict.setdefault("OPTIONS", {})
            options["options"] = (
                f"{options.get('options', '')} -c casino.allow_truncate=on -c synchronous_commit=off".strip()
            )
