"""The one money type: integer cents, parsed and formatted in one place."""

from __future__ import annotations

import doctest
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino_backoffice import money
from casino_backoffice.money import InvalidAmount, format_cents, parse_cents, percent_floor, split_evenly


def test_doctests() -> None:
    assert doctest.testmod(money).failed == 0


@pytest.mark.parametrize(
    ("text", "cents"), [("12.34", 1234), ("0.10", 10), ("5", 500), ("1,000.00", 100000), (Decimal("0.01"), 1)]
)
def test_parse(text, cents) -> None:
    assert parse_cents(text) == cents


@pytest.mark.parametrize("bad", ["0.001", "12.345", "abc", "", "NaN", "Infinity", 1.5, True])
def test_parse_refuses_what_is_not_whole_cents(bad) -> None:
    with pytest.raises(InvalidAmount):
        parse_cents(bad)


def test_parse_refuses_negative_unless_allowed() -> None:
    with pytest.raises(InvalidAmount, match="negative"):
        parse_cents("-1.00")
    assert parse_cents("-1.00", allow_negative=True) == -100


@given(st.integers(min_value=-(10**15), max_value=10**15))
def test_format_then_parse_is_identity(cents: int) -> None:
    assert parse_cents(format_cents(cents), allow_negative=True) == cents


@given(st.integers(min_value=0, max_value=10**12), st.integers(min_value=0, max_value=10_000))
def test_percent_floor_never_rounds_up(cents: int, rate_bp: int) -> None:
    share = percent_floor(cents, rate_bp)
    assert share * 10_000 <= cents * rate_bp < (share + 1) * 10_000


@given(st.integers(min_value=0, max_value=10**12), st.integers(min_value=1, max_value=50))
def test_split_evenly_neither_creates_nor_loses_a_cent(cents: int, parts: int) -> None:
    shares = split_evenly(cents, parts)
    assert sum(shares) == cents
    assert max(shares) - min(shares) <= 1
    assert shares == sorted(shares, reverse=True)
