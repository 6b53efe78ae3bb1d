"""No object is reachable across rooms by a person of another room (``tables.selectors.visible_to``).

Two rooms: the demo's room ``main`` with a day played through every service (its staff assigned to no
room, so they work in every room), and room ``a`` with one table, whose people of every role are
assigned to it. Every API list, walked from the URL resolver, shows a person of room a none of main's
rows; every document of main named in a path is a 404 to them (and not to main's own people); a write
naming main's tables, boxes or rounds in its body is refused as naming nothing, and changes nothing.
The tablet and the admin filter the same way.
"""

from __future__ import annotations

from datetime import time
from io import StringIO
from typing import Any

import pytest
from django.apps import apps
from django.contrib.admin import site
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from casino_backoffice.staff.models import Signature, User
from casino_backoffice.staff.permissions import ACTION_ROLES, Action
from casino_backoffice.staff.roles import Role
from tables.games import Game
from tables.models import PokerRoom, Round
from tables.selectors import room_path, rooms_of, visible_to, works_in
from tables.services import room_staff_set, room_upsert, table_upsert
from tests.conftest import PIN

# The document each path names by its id, in the API and on the tablet.
API_DOCUMENTS = {
    "api-time-charge-verify": "rake.TimeCharge",
    "api-count-witness": "cage.Count",
    "api-count-recount": "cage.Count",
    "api-transport-account": "cage.Transport",
    "api-transport-missing-boxes": "cage.Transport",
    "api-cage-verification-explain": "cage.CageVerification",
    "api-variance-explain": "cage.Variance",
    "api-bad-beat-claim": "jackpots.BadBeatClaim",
    "api-bad-beat-claim-verify": "jackpots.BadBeatClaim",
    "api-bad-beat-claim-deny": "jackpots.BadBeatClaim",
    "api-bad-beat-claim-distribution": "jackpots.BadBeatClaim",
    "api-bad-beat-share-pay": "jackpots.BadBeatShare",
    "api-display-adjustment-witness": "jackpots.DisplayAdjustment",
    "api-fund-transfer-approve": "jackpots.FundTransfer",
    "api-high-hand-entry-void": "jackpots.HighHandEntry",
    "api-high-hand-award-pay": "jackpots.HighHandAward",
    "api-high-hand-unclaimed-approve": "jackpots.HighHandUnclaimed",
    "api-progressive-meter-reset": "jackpots.ProgressiveMeter",
    "api-progressive-round": "jackpots.ProgressiveRound",
    "api-progressive-round-void": "jackpots.ProgressiveRound",
    "api-progressive-hand-validate": "jackpots.ProgressiveHand",
    "api-progressive-hand-pay": "jackpots.ProgressiveHand",
    "api-progressive-exception-explain": "jackpots.WagerCountException",
    "api-irregularity-rule": "tables.Irregularity",
    "api-round-void": "tables.Round",
    "api-deck-verify": "tables.DeckChange",
}
# Documents the demo day does not make (no time charge, no variance, no discontinued fund, no ended High
# Hand period): their
# paths are walked only by the routes' shape test.
NOT_IN_THE_DEMO = {
    "rake.TimeCharge",
    "cage.Variance",
    "jackpots.FundTransfer",
    "jackpots.HighHandAward",
    "jackpots.HighHandUnclaimed",
    "tables.Irregularity",
    "tables.DeckChange",
}
FLOOR_DOCUMENTS = {
    "floor:bad-beat-claim-detail": ("claim_id", "jackpots.BadBeatClaim"),
    "floor:high-hand-period": ("period_id", "jackpots.HighHandPeriod"),
    "floor:progressive-round-detail": ("round_id", "jackpots.ProgressiveRound"),
}


def _routes() -> list[tuple[str, str, Any]]:
    """(path, URL name, view) of every route, namespaces joined."""
    found: list[tuple[str, str, Any]] = []

    def walk(patterns: list, prefix: str, namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
            elif isinstance(pattern, URLPattern):
                found.append((prefix + str(pattern.pattern), f"{namespace}{pattern.name}", pattern.callback))

    walk(get_resolver().url_patterns, "", "")
    return found


def _api_lists() -> list[str]:
    """Every API route read with GET that names no document in its path."""
    return sorted(
        name
        for path, name, view in _routes()
        if path.startswith("api/") and "<" not in path and hasattr(getattr(view, "cls", None), "get")
    )


def _action(name: str, method: str) -> Action | None:
    view = next(view for _, n, view in _routes() if n == name)
    return getattr(view.cls, "required_actions", {}).get(method)


@pytest.fixture
def two_rooms(db, administrator) -> dict[str, Any]:
    call_command("load_demo", stdout=StringIO())
    main = PokerRoom.objects.get(code="main")
    room_a = room_upsert(
        code="a", name="Room A", timezone_name="America/New_York", gaming_day_starts=time(6), actor=administrator
    )
    # T1 in both rooms: a person of room a who names T1 means their own.
    table_upsert(room=room_a, number="T1", game=Game.HOLDEM, seats=10, actor=administrator)
    return {"main": main, "a": room_a}


@pytest.fixture
def people_of_a(two_rooms, make_staff, administrator) -> dict[Role, User]:
    people = {role: make_staff(role, rooms=[two_rooms["a"]]) for role in Role}
    room_staff_set(room=two_rooms["a"], staff=people.values(), actor=administrator)
    return people


def _main_person(role: Role) -> User:
    return User.objects.filter(groups__name=role.value, username__in=_DEMO).get()


_DEMO = {
    "dealer",
    "floor",
    "supervisor",
    "manager",
    "security",
    "surveillance",
    "cashier",
    "finance",
    "compliance",
    "admin",
}


def _api(person: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(person)
    return client


def _items(response: Any) -> list[Any]:
    body = response.json()
    return body["results"] if isinstance(body, dict) and "results" in body else body


def test_the_rule_given_rooms_works_only_there_the_all_rooms_grant_everywhere(people_of_a, two_rooms) -> None:
    floor_of_a = people_of_a[Role.FLOORPERSON]
    floor_of_main = _main_person(Role.FLOORPERSON)
    everywhere = _main_person(Role.FINANCE)  # the demo's property-wide staff hold the all-rooms grant
    assert list(rooms_of(floor_of_a)) == [two_rooms["a"]]
    assert list(rooms_of(floor_of_main)) == [two_rooms["main"]]
    assert everywhere.all_rooms and list(rooms_of(everywhere)) == [two_rooms["a"], two_rooms["main"]]
    assert works_in(floor_of_a, two_rooms["a"]) and not works_in(floor_of_a, two_rooms["main"])
    assert works_in(everywhere, two_rooms["main"]) and works_in(everywhere, two_rooms["a"])
    assert not visible_to(floor_of_a, Round.objects.all()).exists()
    assert visible_to(everywhere, Round.objects.all()).count() == Round.objects.count() > 0


def test_every_model_a_room_owns_has_a_path_to_its_room() -> None:
    paths = {model._meta.label: room_path(model) for model in apps.get_models()}
    assert paths["tables.Table"] == "room"
    assert paths["jackpots.BadBeatShare"] == "distribution__claim__room"
    assert paths["cage.Count"] == "box__room"
    owned = {label for label, path in paths.items() if path is not None}
    # Every model of an app above the kernel but its audit log and the schedule's runs is a room's.
    for model in apps.get_models():
        label = model._meta.label
        if model._meta.app_label in {"tables", "rake", "jackpots", "cage"}:
            if not model.__name__.startswith("Historical") and label != "cage.ScheduleRun":
                assert label in owned, label


def test_every_api_list_shows_a_person_of_room_a_none_of_mains_rows(people_of_a, two_rooms) -> None:
    lists = _api_lists()
    assert {"api-rounds", "api-bad-beat-claims", "api-counts", "api-boxes", "api-rooms"} <= set(lists)
    walked = 0
    for name in lists:
        if name in ("api-schema", "api-trace"):  # the trace names its document: walked below
            continue
        url = reverse(name)
        for role, person in people_of_a.items():
            control = _api(_main_person(role)).get(url, {"room": "main"})
            for query in ({}, {"room": "main"}):
                response = _api(person).get(url, query)
                walked += 1
                if response.status_code in (403, 400):
                    # Refused by role, or main named: "There is no room main", as for a room that does not exist.
                    if response.status_code == 400:
                        assert "room" in response.json(), (name, role, response.content)
                    continue
                assert response.status_code == 200, (name, role, response.status_code)
                if response["Content-Type"].startswith("application/json"):
                    text = response.content.decode()
                    assert '"main"' not in text and "Main Poker Room" not in text, (name, role, query)
                    items = _items(response)
                    for item in items if isinstance(items, list) else []:
                        if isinstance(item, dict) and "room" in item:
                            assert item["room"] == "a", (name, role, item)
                else:  # an export of a's own record
                    body = b"".join(response.streaming_content) if response.streaming else response.content
                    assert b"main" not in body, (name, role)
            if control.status_code == 200 and control["Content-Type"].startswith("application/json"):
                # The filter is what hides main: main's own people see it.
                if name in {"api-rounds", "api-bad-beat-claims", "api-counts", "api-boxes", "api-jackpots"}:
                    assert '"main"' in control.content.decode(), (name, role)
    assert walked >= 2 * len(Role) * (len(lists) - 2)  # all but the schema and the trace


def _in_room(model: Any, room: PokerRoom) -> dict[str, str]:
    path = room_path(model)
    return {"code": room.code} if path == "pk" else {f"{path}__code": room.code}


def _document_of_main(label: str, main: PokerRoom) -> Any:
    model = apps.get_model(label)
    return model.objects.filter(**_in_room(model, main)).order_by("pk").first()


def test_every_document_of_main_named_in_a_path_is_a_404_to_room_a_and_changes_nothing(people_of_a, two_rooms) -> None:
    routes = {name: path for path, name, _ in _routes() if path.startswith("api/") and "<int:pk>" in path}
    assert set(routes) == set(API_DOCUMENTS), "a route naming a document is missing from API_DOCUMENTS"
    before = _snapshot()
    checked = 0
    for name, label in API_DOCUMENTS.items():
        document = _document_of_main(label, two_rooms["main"])
        if document is None:
            assert label in NOT_IN_THE_DEMO, label
            continue
        url = reverse(name, kwargs={"pk": document.pk})
        method = "GET" if name in {"api-bad-beat-claim", "api-progressive-round"} else "POST"
        action = _action(name, method)
        assert action is not None, name
        for role, person in people_of_a.items():
            client = _api(person)
            response = client.get(url) if method == "GET" else client.post(url, {"pin": PIN}, format="json")
            expected = 404 if role in ACTION_ROLES[action] else 403
            assert response.status_code == expected, (name, role, response.status_code, response.content)
            if expected == 404:
                assert response.json()["code"] == "not_found", name
            checked += 1
        allowed = next(role for role in Role if role in ACTION_ROLES[action])
        client = _api(_main_person(allowed))
        control = client.get(url) if method == "GET" else client.post(url, {}, format="json")
        assert control.status_code != 404, (name, control.content)
    assert checked >= 15 * len(Role)
    assert _snapshot() == before


def _snapshot() -> tuple[int, ...]:
    from casino_backoffice.ledger.models import Transfer

    counts = [apps.get_model(label).objects.count() for label in sorted(set(API_DOCUMENTS.values()))]
    return (*counts, Round.objects.count(), Transfer.objects.count(), Signature.objects.count())


CLAIM = {
    "players_dealt_in": 4,
    "board": "Ad Ac Kc 7s 7h",
    "losing": {"seat": 1, "name": "A", "hole": "As Ks"},
    "winning": {"seat": 2, "name": "B", "hole": "7d 7c"},
}


def test_a_write_naming_mains_tables_boxes_or_rounds_is_refused_as_naming_nothing(people_of_a, two_rooms) -> None:
    before = _snapshot()
    main_round = Round.objects.filter(table__room=two_rooms["main"]).first()
    assert main_round is not None
    writes: list[tuple[Role, str, dict[str, Any], str]] = [
        (Role.DEALER, "api-rounds", {"table": "T2", "pot": "10.00", "players_dealt_in": 4}, "table"),
        (Role.DEALER, "api-rounds", {"table": "T2", "room": "main", "pot": "10.00", "players_dealt_in": 4}, "table"),
        (Role.DEALER, "api-rake-calculator", {"table": "T2", "pot": "10.00", "players_dealt_in": 4}, "table"),
        (Role.DEALER, "api-counts", {"box": "T2-drop", "counted": "1.00", "pin": PIN}, "box"),
        (Role.FLOORPERSON, "api-compliance-notices", {"room": "main", "notified": "J", "method": "phone"}, "room"),
        (Role.SECURITY, "api-transports", {"room": "main", "seal": "S-9", "boxes": ["T2-drop"], "pin": PIN}, "room"),
        (Role.SECURITY, "api-transports", {"seal": "S-9", "boxes": ["T2-drop"], "pin": PIN}, "boxes"),
        (Role.CAGE_CASHIER, "api-cage-verifications", {"room": "main", "seal": "S-1", "counted": "1.00"}, "room"),
        (Role.FLOORPERSON, "api-bad-beat-claims", {"room": "main", "jackpot": "bb", "table": "T2", **CLAIM}, "room"),
        (Role.FINANCE, "api-display-adjustments", {"room": "main", "jackpot": "bb", "pin": PIN}, "room"),
        (Role.FINANCE, "api-gaming-day-close", {"room": "main", "gaming_day": "2026-01-01", "pin": PIN}, "room"),
        (Role.DEALER, "api-progressive-rounds", {"room": "main", "table": "T11", "chips_collected": 1}, "room"),
        (Role.DEALER, "api-progressive-hands", {"round": 1, "seat": 1, "cards": "As Ks"}, "round"),
    ]
    for role, name, body, field in writes:
        full = {
            "ended_at": "2026-01-01T21:00:00-05:00",
            "players_dealt_in": 4,
            "wagers": [],
            "pin": PIN,
            **body,
        }
        response = _api(people_of_a[role]).post(reverse(name), full, format="json", HTTP_IDEMPOTENCY_KEY=f"x-{name}")
        assert response.status_code == 400, (name, response.status_code, response.content)
        errors = response.json()
        assert field in errors or errors.get("code"), (name, errors)
        text = response.content.decode()
        assert "exists in several rooms" not in text, name
    assert _snapshot() == before


def test_the_tablet_shows_a_person_of_room_a_only_their_room(people_of_a, two_rooms) -> None:
    browser = Client()
    browser.force_login(people_of_a[Role.FLOORPERSON])
    page = browser.get(reverse("floor:tables")).content.decode()
    assert "Room A" in page and "Main Poker Room" not in page
    main_table = two_rooms["main"].tables.get(number="T2")
    response = browser.post(reverse("floor:table-open-close", kwargs={"table_id": main_table.pk}), {"is_open": "0"})
    assert response.status_code == 404
    main_table.refresh_from_db()
    assert main_table.is_open
    for name, (kwarg, label) in FLOOR_DOCUMENTS.items():
        document = _document_of_main(label, two_rooms["main"])
        assert document is not None, label
        url = reverse(name, kwargs={kwarg: document.pk})
        assert browser.get(url).status_code in (302, 404), name
        control = Client()
        control.force_login(_main_person(Role.FLOORPERSON))
        assert control.get(url).status_code == 200, name


def test_every_admin_list_shows_a_person_of_room_a_only_their_rooms_rows(people_of_a, two_rooms) -> None:
    """The admin's lists and row pages read ``get_queryset``: for every registered model a room owns."""
    finance = people_of_a[Role.FINANCE]
    request = RequestFactory().get("/admin/")
    request.user = finance
    scoped = 0
    for model, model_admin in site._registry.items():
        path = room_path(model)
        if path is None:
            continue
        rows = model_admin.get_queryset(request)
        assert not rows.exclude(**_in_room(model, two_rooms["a"])).exists(), model._meta.label
        scoped += 1
    assert scoped >= 40
    browser = Client()
    browser.force_login(finance)
    claim = _document_of_main("jackpots.BadBeatClaim", two_rooms["main"])
    response = browser.get(reverse("admin:jackpots_badbeatclaim_change", args=[claim.pk]))
    assert response.status_code == 302  # "does not exist", back to the admin's home
    assert browser.get(reverse("admin:jackpots_badbeatclaim_changelist")).context["cl"].result_count == 0


def test_every_service_refuses_a_person_of_room_a_on_mains_documents_and_changes_nothing(
    people_of_a, two_rooms
) -> None:
    """The services check the room themselves (``action_require(..., of=...)``), so a path that does not
    filter by room (a task, a script, a page that forgot) cannot reach another room's documents."""
    from cage.models import Box
    from cage.services import count_record, notice_record
    from casino_backoffice.staff.exceptions import ActionNotPermitted
    from casino_backoffice.staff.models import RefusedAction
    from jackpots.bad_beat.models import BadBeatClaim
    from jackpots.bad_beat.services.claims import claim_verify
    from jackpots.bad_beat.services.display import display_adjust
    from jackpots.funds.models import Jackpot
    from rake.services import RoundRequest, round_record, rounds_record_batch
    from tables.models import Table
    from tables.services import table_set_open

    main = two_rooms["main"]
    table = Table.objects.get(room=main, number="T2")
    box = Box.objects.filter(room=main, code="T2-drop").get()
    bad_beat = Jackpot.objects.get(room=main, code="bb")
    claim = BadBeatClaim.objects.filter(room=main).first()
    assert claim is not None
    before, refusals = _snapshot(), RefusedAction.objects.count()
    ended_at = Round.objects.filter(table=table).latest("ended_at").ended_at
    a_round: dict[str, Any] = {
        "table": table,
        "ended_at": ended_at,
        "players_dealt_in": 4,
        "pot_cents": 1000,
        "uncalled_bet_cents": 0,
        "flop_dealt": True,
        "voided": False,
    }
    a = people_of_a
    attempts = {
        "table_set_open": lambda: table_set_open(table=table, is_open=not table.is_open, actor=a[Role.FLOORPERSON]),
        "count_record": lambda: count_record(
            box=box, counted_cents=100, actor=a[Role.DEALER], pin=PIN, idempotency_key="a-count"
        ),
        "notice_record": lambda: notice_record(
            room=main, notified="J", method="phone", actor=a[Role.FLOORPERSON], pin=PIN, idempotency_key="a-notice"
        ),
        "claim_verify": lambda: claim_verify(claim=claim, actor=a[Role.SHIFT_SUPERVISOR], pin=PIN),
        "display_adjust": lambda: display_adjust(
            jackpot=bad_beat, actor=a[Role.FINANCE], pin=PIN, idempotency_key="a-display"
        ),
        "round_record": lambda: round_record(**a_round, actor=a[Role.DEALER], idempotency_key="a-round"),
    }
    for name, attempt in attempts.items():
        with pytest.raises(ActionNotPermitted, match="does not work in the room"):
            attempt()
        assert _snapshot() == before, name

    request = RoundRequest(**a_round, idempotency_key="a-batch-round")
    [answer] = rounds_record_batch(rounds=[request], actor=a[Role.DEALER])
    assert isinstance(answer, ActionNotPermitted)
    assert _snapshot() == before
    assert RefusedAction.objects.count() == refusals + len(attempts) + 1


def test_the_ledger_and_signatures_show_a_person_of_room_a_only_their_rooms(people_of_a, two_rooms) -> None:
    """No foreign key leads from the kernel's ledger and signatures to a room: an account's room is the
    second part of its code, a transfer's and a correction's that of their account, a signature's that
    of its document. Lists and row pages in the admin and the correction services follow it."""
    from cage.services import notice_record
    from casino_backoffice.ledger.models import Account, BalanceCheckpoint, Correction, Transfer, TransferKind
    from casino_backoffice.ledger.services import account_open_as, correction_prepare, transfer_post_atomic
    from casino_backoffice.staff.exceptions import ActionNotPermitted
    from rake.services.accounts import drop_box_account, pots_account
    from tables.models import Table

    a, main = two_rooms["a"], two_rooms["main"]
    notice = notice_record(
        room=a, notified="J", method="phone", actor=people_of_a[Role.FLOORPERSON], pin=PIN, idempotency_key="a-notice"
    )
    finance = people_of_a[Role.FINANCE]
    own = transfer_post_atomic(
        debit=account_open_as(drop_box_account(table=Table.objects.get(room=a, number="T1"))),
        credit=account_open_as(pots_account(room=a)),
        amount_cents=500,
        kind=TransferKind.RAKE,
        idempotency_key="a-rake",
        actor=finance,
    )
    own_correction = correction_prepare(transfer=own, reason="posted in error", actor=finance, pin=PIN)
    request = RequestFactory().get("/admin/")
    request.user = finance
    rows = {model: site._registry[model].get_queryset(request) for model in (Account, Transfer, Correction, Signature)}
    assert Transfer.objects.filter(debit__code__startswith="table:main:").exists()
    assert set(rows[Account].values_list("code", flat=True)) == set(
        Account.objects.filter(code__contains=":a:").values_list("code", flat=True)
    )
    assert rows[Account].exists()
    assert all(code.split(":")[1] == "a" for code in rows[Account].values_list("code", flat=True))
    assert list(rows[Transfer]) == [own] and list(rows[Correction]) == [own_correction]
    assert set(rows[Signature]) == {*notice.signatures(), *own_correction.signatures()}
    assert not visible_to(finance, BalanceCheckpoint.objects.all()).exclude(account__code__contains=":a:").exists()
    everywhere = _main_person(Role.FINANCE)
    assert visible_to(everywhere, Signature.objects.all()).count() == Signature.objects.count() > 1
    assert visible_to(everywhere, Transfer.objects.all()).count() == Transfer.objects.count()

    transfer = Transfer.objects.filter(debit__code__startswith=f"table:{main.code}:").first()
    assert transfer is not None
    browser = Client()
    browser.force_login(finance)
    assert browser.get(reverse("admin:ledger_transfer_correct", args=[transfer.pk])).status_code == 404
    assert browser.get(reverse("admin:ledger_transfer_changelist")).context["cl"].result_count == 1
    assert browser.get(reverse("admin:staff_signature_changelist")).context["cl"].result_count == 2
    assert browser.get(reverse("admin:ledger_account_changelist")).status_code == 200
    before = _snapshot()
    with pytest.raises(ActionNotPermitted, match="does not work in the room"):
        correction_prepare(transfer=transfer, reason="posted in error", actor=finance, pin=PIN)
    assert _snapshot() == before and list(Correction.objects.all()) == [own_correction]


def test_a_trace_of_mains_documents_is_a_404_to_room_a_and_changes_nothing(people_of_a, two_rooms) -> None:
    """``/api/trace/?round=`` (and each document it starts from) of main's documents: a 404 to room a's
    people who may read traces, as for a document that does not exist; a 403 to the others."""
    from audit.trace.build import STARTS

    before = _snapshot()
    main = two_rooms["main"]
    named = 0
    for start, model in STARTS.items():
        if room_path(model) is None:  # a ledger transfer: its room is its accounts', walked in tests/audit
            continue
        document = model._default_manager.filter(**_in_room(model, main)).order_by("pk").first()
        if document is None:
            continue
        named += 1
        for role, person in people_of_a.items():
            response = _api(person).get("/api/trace/", {start: document.pk})
            expected = 404 if role in ACTION_ROLES[Action.TRACE_OPEN] else 403
            assert response.status_code == expected, (start, role, response.status_code, response.content)
            assert "Main Poker Room" not in response.content.decode()
    assert named >= 5
    assert _snapshot() == before
