"""The boxes list (what a cashier and the API read) takes a fixed number of queries, however many
boxes and however long their histories: one for the boxes and their accounts' balances, and a few for
the High Hand boxes, whose next count covers one qualifying period's box content (§637a.16(d))."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from cage.models import Box
from cage.selectors import boxes_expected_queryset, boxes_with_expected
from cage.services import boxes_sync
from casino_backoffice.ledger.checkpoints import checkpoints_take
from tables.services import table_set_open


def _listed(room) -> tuple[int, dict[str, int]]:
    with CaptureQueriesContext(connection) as queries:
        listed = {
            c.box.code: (
                c.expected_cents,
                c.box.room.code,
                c.box.table.number,
                c.box.jackpot.code if c.box.jackpot else None,
            )
            for c in boxes_with_expected(boxes=Box.objects.filter(room=room))
        }
    return len(queries), {code: value[0] for code, value in listed.items()}


def test_the_boxes_list_takes_a_fixed_number_of_queries(rated_table, log_rounds, floorperson) -> None:
    room = rated_table.room
    boxes_sync(room=room)
    log_rounds(rated_table, 1)
    few, expected = _listed(room)
    others = {"T2-drop": 0, "T2-hh": 0, "T7-drop": 0, "T9-drop": 0}  # the other tables of the rules, no rounds
    assert expected == {"T1-bb": 100, "T1-drop": 500, "T1-hh": 200, **others}

    log_rounds(rated_table, 6)
    checkpoints_take(stride=4)
    log_rounds(rated_table, 2)
    table_set_open(table=rated_table, is_open=False, actor=floorperson)
    many, expected = _listed(room)

    assert expected == {"T1-bb": 900, "T1-drop": 4500, "T1-hh": 1800, **others}
    # The boxes and their balances, the periods, their sheets, the box contents counted or carried before
    # a period ended, the listed tables: the same number however long the history.
    assert few == many <= 6


def test_the_boxes_queryset_reads_a_page_and_plain_fields(rated_table, log_rounds, django_assert_num_queries) -> None:
    boxes_sync(room=rated_table.room)
    log_rounds(rated_table, 2)
    boxes = boxes_expected_queryset(boxes=Box.objects.filter(room=rated_table.room))

    with django_assert_num_queries(1):
        page = list(
            boxes.order_by("code").values_list(
                "code", "room__code", "table__number", "kind", "jackpot__code", "expected_cents"
            )[:3]
        )

    assert page == [
        ("T1-bb", "main", "T1", "jackpot", "bb", 200),
        ("T1-drop", "main", "T1", "rake", None, 1000),
        # A High Hand box's own account holds nothing: each period's drops have a box content of their
        # own, which ``boxes_with_expected`` reads.
        ("T1-hh", "main", "T1", "jackpot", "hh", 0),
    ]
    assert {c.box.code: c.expected_cents for c in boxes_with_expected(boxes=Box.objects.filter(table=rated_table))}[
        "T1-hh"
    ] == 400
