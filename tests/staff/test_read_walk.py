"""Reads follow the one table of actions and roles: every GET operation of the API, as the schema is
generated, names its action (``required_actions``), and answers each person as ``ACTION_ROLES`` says.

The walk takes the demo's room ``main`` (a day played through every service) and a second room ``b``,
and asks every read, with the document of ``main`` its path names, of a person of each role working
in ``main``, a person of each role working in ``b`` only, and persons of ``main`` holding two roles
(each role beside the next): 200 exactly when a role they hold may take the operation's action (a document of another
room is a 404 as for one that does not exist), else a 403 ``not_permitted`` naming who may. Room
isolation of every list is walked in ``tests/core/test_room_isolation.py``.
"""

from __future__ import annotations

from datetime import time
from io import StringIO
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from casino_backoffice.staff.api_permissions import required_action
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import ACTION_ROLES, Action, who_may
from casino_backoffice.staff.roles import Role
from tables.games import Game
from tables.models import PokerRoom
from tables.selectors import room_path
from tables.services import room_upsert, table_upsert

# The document of room main that a read's path names, by the path as the schema writes it. A read
# naming a document that is not here fails the walk.
DOCUMENTS = {
    "/api/bad-beat/claims/{id}/": "jackpots.BadBeatClaim",
    "/api/progressive/rounds/{id}/": "jackpots.ProgressiveRound",
}

# A read that names its document in the query: the query naming main's document, by model.
QUERIES = {"/api/trace/": ("round", "tables.Round")}
# A read whose action lets a role ask, and a narrower action read the document named: whoever holds
# only the first is refused the document with this code (a cage cashier reads the trace of the
# payments they made, not of a round).
NARROWED = {"/api/trace/": (Action.TRACE_READ, "not_your_payment")}


def _reads() -> dict[str, type]:
    """Every GET operation of the schema as generated: its path, as the schema writes it, and its view."""
    generator = SchemaGenerator()
    schema = generator.get_schema(request=None, public=True)
    views = {}
    for path, _, method, callback in generator.endpoints:
        if method == "GET":
            views[generator.coerce_path(path, method, generator.create_view(callback, method))] = callback.cls
    return {path: views[path] for path, operations in schema["paths"].items() if "get" in operations}


def test_every_read_of_the_schema_names_an_action_of_the_table() -> None:
    reads = _reads()
    assert len(reads) >= 18 and "/api/rounds/" in reads and "/api/me/" in reads
    unguarded = sorted(path for path, view in reads.items() if required_action(view, "GET") is None)
    assert unguarded == [], "a GET operation names no action: give its view required_actions = {'GET': ...}"
    assert all(ACTION_ROLES[required_action(view, "GET")] for view in reads.values())
    assert {path for path in reads if "{" in path} == set(DOCUMENTS), "name the document each read's path names"


@pytest.fixture
def rooms(db, administrator) -> dict[str, PokerRoom]:
    call_command("load_demo", stdout=StringIO())
    room_b = room_upsert(
        code="b", name="Room B", timezone_name="America/New_York", gaming_day_starts=time(6), actor=administrator
    )
    table_upsert(room=room_b, number="T1", game=Game.HOLDEM, seats=10, actor=administrator)
    return {"main": PokerRoom.objects.get(code="main"), "b": room_b}


def _url(path: str, main: PokerRoom) -> str:
    if path in QUERIES:
        name, label = QUERIES[path]
        model = apps.get_model(label)
        document = model.objects.filter(**{f"{room_path(model)}__code": main.code}).order_by("pk").first()
        assert document is not None, label
        return f"{path}?{name}={document.pk}"
    if path not in DOCUMENTS:
        return path
    model = apps.get_model(DOCUMENTS[path])
    document = model.objects.filter(**{f"{room_path(model)}__code": main.code}).order_by("pk").first()
    assert document is not None, DOCUMENTS[path]
    return path.replace("{id}", str(document.pk))


def _answer(person: User, url: str) -> Any:
    client = APIClient()
    client.force_authenticate(person)
    return client.get(url)


def test_every_read_answers_each_person_as_the_table_says(rooms, make_staff) -> None:
    """Every role in the room, every role of another room, and each role held with another by one person."""
    main, room_b = rooms["main"], rooms["b"]
    people: list[tuple[User, frozenset[Role], bool]] = []  # (person, their roles, works in main)
    for role in Role:
        people.append((make_staff(role, rooms=[main]), frozenset({role}), True))
        people.append((make_staff(role, rooms=[room_b]), frozenset({role}), False))
    # Each role beside the next one (the last beside the first): every role is held with another, by a
    # person whose other role may read what theirs may not, or the reverse, for most reads.
    roles = list(Role)
    for first, second in zip(roles, roles[1:] + roles[:1], strict=True):
        people.append((make_staff(first, extra_roles=[second], rooms=[main]), frozenset({first, second}), True))
    wrong: list[tuple[str, str, int, str]] = []
    walked = 0
    for path, view in _reads().items():
        action = required_action(view, "GET")
        assert action is not None, path
        url = _url(path, main)
        for person, roles, in_main in people:
            allowed = bool(roles & ACTION_ROLES[Action(action)])
            response = _answer(person, url)
            walked += 1
            held = "+".join(sorted(roles))
            if not allowed:
                body = response.json() if response.status_code == 403 else {}
                refused = body.get("code") == "not_permitted" and body.get("detail", "").startswith(
                    f"{who_may(Action(action))}; "
                )
                if not refused:
                    wrong.append((path, held, response.status_code, "should be a 403 not_permitted"))
            elif (path in DOCUMENTS or path in QUERIES) and not in_main:
                # Another room's document is answered as one that does not exist.
                if response.status_code != 404:
                    wrong.append((path, held, response.status_code, "should be a 404 (main's document)"))
            elif path in NARROWED and not roles & ACTION_ROLES[NARROWED[path][0]]:
                code = response.json().get("code") if response.status_code == 403 else None
                if code != NARROWED[path][1]:
                    wrong.append((path, held, response.status_code, f"should be a 403 {NARROWED[path][1]}"))
            elif response.status_code != 200:
                wrong.append((path, held, response.status_code, "should be a 200"))
            elif not in_main:
                body = b"".join(response.streaming_content) if response.streaming else response.content
                if b'"main"' in body or b"Main Poker Room" in body or b",main," in body:
                    wrong.append((path, held, response.status_code, "shows room main to room b"))
    assert wrong == []
    assert walked == len(_reads()) * 3 * len(Role)
