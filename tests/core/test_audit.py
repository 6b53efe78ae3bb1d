"""Audit: every change to any model is recorded (who, when, what, before/after).

Mutable models carry django-simple-history; money rows and signatures are insert-only (a PostgreSQL
trigger refuses UPDATE and DELETE), so the row itself is the record of who did what and when.
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import connection

from casino_backoffice.staff.roles import Role
from tables.services import table_upsert

OUR_APPS = {"staff", "ledger", "core", "tables", "rake", "jackpots", "cage"}
# A liveness probe, not a record of the poker room: nothing to audit.
NOT_AUDITED = {"core.heartbeat"}


def _insert_only_tables() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgrelid::regclass::text FROM pg_trigger WHERE tgname LIKE '%%_insert_only'")
        return {row[0] for row in cursor.fetchall()}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="insert-only triggers are PostgreSQL's")
def test_every_model_is_audited_or_insert_only(db) -> None:
    insert_only = _insert_only_tables()
    unaudited = []
    for model in apps.get_models():
        label = model._meta.label_lower
        if (
            model._meta.app_label not in OUR_APPS
            or label in NOT_AUDITED
            or label.split(".")[1].startswith("historical")
        ):
            continue
        if not hasattr(model, "history") and model._meta.db_table not in insert_only:
            unaudited.append(label)
    assert unaudited == []


def test_a_change_records_who_when_and_before_after(room, administrator) -> None:
    table = table_upsert(room=room, number="T5", game="holdem", seats=10, actor=administrator)
    table_upsert(room=room, number="T5", game="omaha_high", seats=9, actor=administrator)

    newest, older = table.history.order_by("-history_date")[:2]
    delta = newest.diff_against(older)
    assert {change.field: (change.old, change.new) for change in delta.changes} == {
        "game": ("holdem", "omaha_high"),
        "seats": (10, 9),
    }
    assert newest.history_type == "~" and newest.history_date is not None


def test_a_request_records_who_made_the_change(client, administrator, room) -> None:
    client.force_login(administrator)
    table = table_upsert(room=room, number="T6", game="holdem", seats=10, actor=administrator)

    response = client.post(
        f"/admin/tables/table/{table.pk}/change/",
        {"room": room.pk, "number": "T6", "game": "holdem", "seats": 8, "is_open": ""},
    )

    assert response.status_code == 302
    assert table.history.latest().history_user == administrator


def test_role_changes_are_audited(make_staff) -> None:
    person = make_staff(Role.DEALER)
    person.groups.clear()

    versions = list(person.history.order_by("history_date", "history_id"))
    assert [sorted(g.group.name for g in version.groups.all()) for version in versions][-2:] == [["dealer"], []]
