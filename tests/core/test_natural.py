"""Natural order (casino_backoffice.core.natural): tables and boxes as people count them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from casino_backoffice.core.natural import natural_key


def test_tables_and_boxes_sort_as_people_count_them() -> None:
    boxes = ["T10-bb", "T2-hh", "T1-bb", "T2-bb", "t3-drop", "T1-hh"]

    assert sorted(boxes, key=natural_key) == ["T1-bb", "T1-hh", "T2-bb", "T2-hh", "t3-drop", "T10-bb"]


@given(st.lists(st.text(alphabet="T0123456789-bh", max_size=8), max_size=20))
def test_any_codes_sort_without_error_and_numbers_compare_as_numbers(codes: list[str]) -> None:
    ordered = sorted(codes, key=natural_key)

    assert sorted(ordered) == sorted(codes)  # nothing lost or added
    assert sorted([f"T{n}" for n in (10, 9, 100, 1)], key=natural_key) == ["T1", "T9", "T10", "T100"]
