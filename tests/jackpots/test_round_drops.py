"""A round's drops are jackpots' rows: each points at the fund it fed, on both write paths and after
the migration that moved them from ``tables``."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import ProtectedError
from django.test import Client

from jackpots.funds.models import Jackpot, JackpotKind, RoundDrop
from rake.services import round_record
from tables.models import PokerRoom, Round, Table
from tables.services import table_set_open
from tests.rake import factories
from tests.rake.factories import recently, rules_text


@pytest.fixture(params=["one_statement", "orm"])
def write_path(request, monkeypatch) -> str:
    monkeypatch.setattr("rake.services.rounds.ONE_STATEMENT_WRITES", request.param == "one_statement")
    return request.param


def record(table: Table, actor, key: str, pot_cents: int = 12000) -> Round:
    return round_record(
        table=table,
        ended_at=recently(),
        players_dealt_in=9,
        pot_cents=pot_cents,
        uncalled_bet_cents=2000,
        flop_dealt=True,
        voided=False,
        actor=actor,
        idempotency_key=key,
    ).round


def test_each_drop_points_at_the_jackpot_it_fed(write_path, rated_table, dealer):
    round_ = record(rated_table, dealer, "r1")
    drops = RoundDrop.objects.filter(round=round_).select_related("jackpot").order_by("position")
    assert [(d.jackpot.code, d.jackpot.kind, d.jackpot.room_id, d.jackpot_code, d.amount_cents) for d in drops] == [
        ("bb", JackpotKind.BAD_BEAT, rated_table.room_id, "bb", 100),
        ("hh", JackpotKind.HIGH_HAND, rated_table.room_id, "hh", 200),
    ]
    assert list(Jackpot.objects.get(code="bb").drops.values_list("round_id", "amount_cents")) == [(round_.pk, 100)]


def test_a_replayed_round_answers_drops_that_point_at_their_jackpot(write_path, rated_table, dealer):
    first = round_record(
        table=rated_table,
        ended_at=recently(),
        players_dealt_in=9,
        pot_cents=12000,
        uncalled_bet_cents=2000,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key="same",
    )
    again = round_record(
        table=rated_table,
        ended_at=first.round.ended_at,
        players_dealt_in=9,
        pot_cents=12000,
        uncalled_bet_cents=2000,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key="same",
    )
    assert again.replayed
    assert (
        [d.jackpot_id for d in again.drops]
        == [d.jackpot_id for d in first.drops]
        == list(Jackpot.objects.order_by("code").values_list("pk", flat=True))
    )


def test_two_rooms_funds_of_one_code_each_get_their_own_rooms_drops(write_path, rated_table, dealer, floorperson):
    factories.load(rules_text(room="east", name="East Poker Room"))
    east_table = table_set_open(
        table=Table.objects.get(room__code="east", number="T1"), is_open=True, actor=floorperson
    )
    record(rated_table, dealer, "main-1")
    record(east_table, dealer, "east-1", pot_cents=5000)
    for room in PokerRoom.objects.all():
        drops = RoundDrop.objects.filter(round__table__room=room)
        assert drops.count() == 2
        assert set(drops.values_list("jackpot__room", flat=True)) == {room.pk}
        assert sorted(drops.values_list("jackpot__code", "jackpot_code")) == [("bb", "bb"), ("hh", "hh")]


def test_drops_are_never_changed_and_keep_their_jackpot(rated_table, dealer):
    record(rated_table, dealer, "r1")
    with pytest.raises(ProtectedError), transaction.atomic():
        Jackpot.objects.get(code="bb").delete()
    if connection.vendor == "postgresql":
        with pytest.raises(DatabaseError, match="UPDATE of jackpots_rounddrop is refused"), transaction.atomic():
            RoundDrop.objects.update(amount_cents=0)
    assert sorted(RoundDrop.objects.values_list("jackpot_code", "amount_cents")) == [("bb", 100), ("hh", 200)]


def test_the_round_admin_shows_its_drops(rated_table, dealer, finance):
    round_ = record(rated_table, dealer, "r1")
    browser = Client()
    browser.force_login(finance)
    page = browser.get(f"/admin/tables/round/{round_.pk}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Fixed $1.00 from pots of $20.00 or more after the rake (§637a.15(c))" in text and "$2.00" in text


# --- The migration that moved the drops -----------------------------------------------------------

BEFORE_THE_MOVE = [("tables", "0004_tables_in_natural_order"), ("jackpots", "0002_jackpot_history")]


@pytest.mark.django_db(transaction=True)
def test_drops_recorded_before_the_move_point_at_their_jackpot_after_it():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(BEFORE_THE_MOVE)
        old = executor.loader.project_state(BEFORE_THE_MOVE).apps
        dealer = old.get_model("staff", "User").objects.create(username="dealer", credential_number="PA-DEA-1")
        ended_at = datetime(2026, 11, 30, 21, 15, tzinfo=UTC)
        expected = []
        for code in ("main", "east"):  # two rooms, each with its own funds named bb and hh
            room = old.get_model("tables", "PokerRoom").objects.create(code=code, name=code)
            funds = {
                kind_code: old.get_model("jackpots", "Jackpot").objects.create(
                    room=room, code=kind_code, kind=kind, name=kind_code
                )
                for kind_code, kind in (("bb", "bad_beat"), ("hh", "high_hand"))
            }
            table = old.get_model("tables", "Table").objects.create(room=room, number="T1", game="holdem", seats=10)
            version = old.get_model("tables", "RulesVersion").objects.create(
                room=room,
                number=1,
                effective_from=ended_at - timedelta(days=1),
                loaded_at=ended_at - timedelta(days=1),
                source_text="",
                content={},
                content_sha256="0" * 64,
            )
            for n in range(2):
                round_ = old.get_model("tables", "Round").objects.create(
                    table=table,
                    ended_at=ended_at,
                    gaming_day=date(2026, 11, 30),
                    shift="grave",
                    game="holdem",
                    players_dealt_in=9,
                    pot_cents=12000,
                    rules_version=version,
                    rake_cents=500,
                    rake_rule="10%",
                    idempotency_key=f"{code}-{n}",
                    request_sha256="0" * 64,
                    created_by=dealer,
                    created_at=ended_at,
                )
                for position, (jackpot_code, amount) in enumerate((("hh", 200), ("bb", 100 + n))):
                    drop = old.get_model("tables", "RoundDrop").objects.create(
                        round=round_,
                        jackpot_code=jackpot_code,
                        position=position,
                        amount_cents=amount,
                        rule="Fixed",
                    )
                    expected.append((drop.pk, round_.pk, funds[jackpot_code].pk, jackpot_code, position, amount))
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)

    moved = RoundDrop.objects.order_by("pk").values_list(
        "pk", "round_id", "jackpot_id", "jackpot_code", "position", "amount_cents"
    )
    assert list(moved) == expected
    assert all(
        drop.jackpot.code == drop.jackpot_code and drop.jackpot.room_id == drop.round.table.room_id
        for drop in RoundDrop.objects.select_related("jackpot", "round__table")
    )
    # New drops are numbered after the moved ones.
    round_ = Round.objects.select_related("table").first()
    assert round_ is not None
    fund = Jackpot.objects.create(room_id=round_.table.room_id, code="xx", kind=JackpotKind.HIGH_HAND, name="xx")
    newer = RoundDrop.objects.create(round=round_, jackpot=fund, jackpot_code="xx", position=2, amount_cents=0, rule="")
    assert newer.pk > max(row[0] for row in expected)
