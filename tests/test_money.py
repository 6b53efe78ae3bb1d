"""The one money type: integer cents, parsed and formatted in one place."""

from __future__ import annotations

import doctest
import re
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino_backoffice import money
from casino_backoffice.money import InvalidAmount, format_cents, parse_cents, percent_floor, split_evenly
from tests.money_inputs import READ, REFUSED


def test_doctests() -> None:
    assert doctest.testmod(money).failed == 0


@pytest.mark.parametrize(
    ("text", "cents"), [("12.34", 1234), ("0.10", 10), ("5", 500), ("1,000.00", 100000), (Decimal("0.01"), 1)]
)
def test_parse(text, cents) -> None:
    assert parse_cents(text) == cents


@pytest.mark.parametrize(("text", "cents"), READ)
def test_the_table_of_typed_amounts_is_read(text: str, cents: int) -> None:
    assert parse_cents(text) == cents
    assert money.AMOUNT_PATTERN.fullmatch(text)


@pytest.mark.parametrize(("text", "says"), REFUSED)
def test_the_table_of_mistyped_amounts_is_refused_with_what_to_type(text: str, says: str) -> None:
    with pytest.raises(InvalidAmount, match=re.escape(says)):
        parse_cents(text)
    assert money.AMOUNT_PATTERN.fullmatch(text) is None


def test_a_negative_amount_where_allowed_takes_its_sign_in_front() -> None:
    assert parse_cents("-$1,250.00", allow_negative=True) == -125000
    assert parse_cents("-0.05", allow_negative=True) == -5


@given(st.text(alphabet="0123456789,.$-+ e\u0661\uff11", max_size=14))
def test_the_api_pattern_admits_exactly_what_the_parser_reads(text: str) -> None:
    try:
        parse_cents(text)
    except InvalidAmount:
        read = False
    else:
        read = True
    assert (money.AMOUNT_PATTERN.fullmatch(text) is not None) == read, text


@given(st.integers(min_value=0, max_value=money.MAX_AMOUNT_CENTS), st.booleans())
def test_an_amount_written_grouped_reads_as_written_plain(cents: int, dollar_sign: bool) -> None:
    whole, part = divmod(cents, 100)
    written = f"{'$' if dollar_sign else ''}{whole:,}.{part:02d}"
    assert parse_cents(written) == cents
    assert money.AMOUNT_PATTERN.fullmatch(written)


@pytest.mark.parametrize("bad", ["0.001", "12.345", "abc", "", "NaN", "Infinity", 1.5, True])
def test_parse_refuses_what_is_not_whole_cents(bad) -> None:
    with pytest.raises(InvalidAmount):
        parse_cents(bad)


def test_parse_refuses_negative_unless_allowed() -> None:
    with pytest.raises(InvalidAmount, match="negative"):
        parse_cents("-1.00")
    assert parse_cents("-1.00", allow_negative=True) == -100


@given(st.integers(min_value=-money.MAX_AMOUNT_CENTS, max_value=money.MAX_AMOUNT_CENTS))
def test_format_then_parse_is_identity(cents: int) -> None:
    assert parse_cents(format_cents(cents), allow_negative=True) == cents


@given(st.integers(min_value=money.MAX_AMOUNT_CENTS + 1, max_value=10**30))
def test_no_amount_beyond_the_maximum_parses(cents: int) -> None:
    with pytest.raises(InvalidAmount, match=r"more than \$10,000,000.00"):
        parse_cents(format_cents(cents))
    with pytest.raises(InvalidAmount, match=r"less than -\$10,000,000.00"):
        parse_cents(format_cents(-cents), allow_negative=True)


@given(st.integers(min_value=0, max_value=2 * money.MAX_AMOUNT_CENTS))
def test_the_api_pattern_admits_exactly_the_amounts_up_to_the_maximum(cents: int) -> None:
    text = format_cents(cents)
    assert (money.AMOUNT_PATTERN.fullmatch(text) is not None) == (cents <= money.MAX_AMOUNT_CENTS)
    dollars = cents // 100
    assert (money.AMOUNT_PATTERN.fullmatch(str(dollars)) is not None) == (dollars * 100 <= money.MAX_AMOUNT_CENTS)


@pytest.mark.parametrize("text", ["10000000", "10000000.0", "10000000.00", "0", "0.5", "9999999.99"])
def test_the_api_pattern_admits_the_maximum_itself(text: str) -> None:
    assert money.AMOUNT_PATTERN.fullmatch(text) and parse_cents(text) <= money.MAX_AMOUNT_CENTS


@pytest.mark.parametrize(
    "text", ["10000000.01", "10000001", "-1.00", "-0", "+5", "1e3", "1,00.00", " 12.00", "12.", ".5", "12.000"]
)
def test_the_api_pattern_refuses_anything_else(text: str) -> None:
    assert money.AMOUNT_PATTERN.fullmatch(text) is None


@pytest.mark.parametrize("huge", ["100000000000000000.00", "9" * 40, "999,999,999,999"])
def test_a_huge_amount_is_refused_not_overflowed(huge: str) -> None:
    with pytest.raises(InvalidAmount, match="the most any one amount may be"):
        parse_cents(huge)


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
