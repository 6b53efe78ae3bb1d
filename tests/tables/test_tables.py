"""Rooms, tables, seat limits and the gaming day."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest
from django.db import IntegrityError, transaction

from tables.exceptions import SeatLimitExceeded, TableError
from tables.games import MAX_SEATS, Game
from tables.models import Table
from tables.selectors import gaming_day, gaming_day_bounds
from tables.services import room_upsert, table_set_open, table_upsert


@pytest.mark.parametrize(
    ("game", "limit"),
    [
        (Game.OMAHA_HIGH, 10),
        (Game.DRAW_LOW, 8),
        (Game.FIVE_CARD_STUD, 8),
        (Game.MISSISSIPPI_STUD, 6),
        (Game.CRAZY_4_POKER, 6),
    ],
)
def test_seat_limits_from_the_regulations(game, limit) -> None:
    assert MAX_SEATS[game] == limit


@pytest.mark.parametrize("game", list(Game))
def test_a_table_over_its_seat_limit_is_refused(room, manager, game) -> None:
    with pytest.raises(
        SeatLimitExceeded, match=f"Table X: seats {MAX_SEATS[game] + 1} is over .*'s limit of {MAX_SEATS[game]} "
    ):
        table_upsert(room=room, number="X", game=game, seats=MAX_SEATS[game] + 1, actor=manager)
    assert not Table.objects.exists()
    assert table_upsert(room=room, number="X", game=game, seats=MAX_SEATS[game], actor=manager).seats == MAX_SEATS[game]


def test_a_table_seats_at_least_two(room, manager) -> None:
    with pytest.raises(SeatLimitExceeded, match="seats 1 is under the 2 players a poker table seats"):
        table_upsert(room=room, number="X", game=Game.HOLDEM, seats=1, actor=manager)


def test_the_database_enforces_the_seat_limit(room) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(room=room, number="X", game=Game.CRAZY_4_POKER, seats=7)
    assert not Table.objects.exists()


def test_table_numbers_are_unique_in_a_room(room) -> None:
    Table.objects.create(room=room, number="T1", game=Game.HOLDEM, seats=10)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(room=room, number="T1", game=Game.OMAHA_HIGH, seats=9)


def test_an_unknown_game_is_refused(room, manager) -> None:
    with pytest.raises(TableError, match="not a game"):
        table_upsert(room=room, number="X", game="bridge", seats=4, actor=manager)


def test_an_unknown_time_zone_is_refused(manager) -> None:
    with pytest.raises(TableError, match="not a time zone"):
        room_upsert(code="x", name="X", timezone_name="Mars/Olympus", gaming_day_starts=time(6), actor=manager)


def test_open_and_close_are_audited(open_table, floorperson) -> None:
    table_set_open(table=open_table, is_open=False, actor=floorperson)
    history = list(open_table.history.order_by("history_date").values_list("is_open", "history_change_reason"))
    assert history[-1] == (False, f"closed by {floorperson}")
    assert history[-2] == (True, f"opened by {floorperson}")


@pytest.mark.parametrize(
    ("utc", "day"),
    [
        (datetime(2026, 11, 30, 10, 59, tzinfo=UTC), date(2026, 11, 29)),  # 05:59 in New York
        (datetime(2026, 11, 30, 11, 0, tzinfo=UTC), date(2026, 11, 30)),  # 06:00 in New York
        (datetime(2026, 12, 1, 4, 30, tzinfo=UTC), date(2026, 11, 30)),  # 23:30 in New York
        (datetime(2026, 7, 1, 9, 59, tzinfo=UTC), date(2026, 6, 30)),  # 05:59 EDT
        (datetime(2026, 7, 1, 10, 0, tzinfo=UTC), date(2026, 7, 1)),  # 06:00 EDT
    ],
)
def test_gaming_day_starts_at_the_room_hour_in_its_time_zone(room, utc, day) -> None:
    assert gaming_day(room=room, at=utc) == day


def test_gaming_day_bounds_are_the_room_hour(room) -> None:
    start, end = gaming_day_bounds(room=room, day=date(2026, 11, 30))
    assert start == datetime(2026, 11, 30, 11, 0, tzinfo=UTC)
    assert end == datetime(2026, 12, 1, 11, 0, tzinfo=UTC)
    assert gaming_day(room=room, at=start) == date(2026, 11, 30)
    assert gaming_day(room=room, at=end) == date(2026, 12, 1)


def test_gaming_day_refuses_a_naive_datetime(room) -> None:
    with pytest.raises(ValueError, match="aware"):
        gaming_day(room=room, at=datetime(2026, 11, 30, 12))


def test_tables_list_in_natural_order(room, manager) -> None:
    for number in ["T10", "T2", "T1", "T11", "T9"]:
        table_upsert(room=room, number=number, game=Game.HOLDEM, seats=9, actor=manager)
    assert list(Table.objects.values_list("number", flat=True)) == ["T1", "T2", "T9", "T10", "T11"]


def test_the_rooms_api_gives_the_gaming_day_start_as_the_room_s_wall_clock(room, finance) -> None:
    """The schema says "06:00:00" (a pattern), not an RFC 3339 time, which would need an offset."""
    import re

    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(finance)
    starts = api.get("/api/rooms/").json()["results"][0]["gaming_day_starts"]
    assert re.fullmatch(r"\d{2}:\d{2}:\d{2}", starts) and starts == room.gaming_day_starts.strftime("%H:%M:%S")
