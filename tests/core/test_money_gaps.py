"""What mutation testing of ``casino_backoffice/money.py`` found no test for (issue 23, item 13).

Database-free: ``make mutation`` runs these against every mutant of money.py.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino_backoffice.money import (
    InvalidAmount,
    display_cents,
    display_percent,
    floor_to_increment,
    format_cents,
    format_percent,
    parse_cents,
    percent_floor,
    split_evenly,
)


@pytest.mark.parametrize(
    ("cents", "plain", "shown"),
    [
        (0, "0.00", "$0.00"),
        (7, "0.07", "$0.07"),
        (-5, "-0.05", "-$0.05"),
        (100, "1.00", "$1.00"),
        (-100, "-1.00", "-$1.00"),
        (123_450, "1234.50", "$1,234.50"),
        (-123_456_789, "-1234567.89", "-$1,234,567.89"),
    ],
)
def test_amounts_are_written_with_two_decimals_and_a_sign_only_below_zero(cents: int, plain: str, shown: str) -> None:
    assert format_cents(cents) == plain
    assert display_cents(cents) == shown


def test_zero_is_shown_without_a_minus_sign() -> None:
    assert display_cents(0) == "$0.00"
    assert format_cents(0) == "0.00"


@pytest.mark.parametrize(
    ("rate_bp", "written"),
    [(0, "0"), (1, "0.01"), (5, "0.05"), (100, "1"), (250, "2.5"), (1000, "10"), (1050, "10.5"), (10_000, "100")],
)
def test_rates_are_written_in_percent_without_trailing_zeros(rate_bp: int, written: str) -> None:
    assert format_percent(rate_bp) == written
    assert display_percent(rate_bp) == f"{written}%"


@pytest.mark.parametrize(
    ("cents", "rate_bp", "share"),
    [(0, 1000, 0), (1000, 0, 0), (999, 1000, 99), (1000, 1000, 100), (10_000, 10_000, 10_000), (19_999, 1, 1)],
)
def test_percent_floor_takes_the_rate_and_drops_the_fraction_of_a_cent(cents: int, rate_bp: int, share: int) -> None:
    assert percent_floor(cents, rate_bp) == share


@pytest.mark.parametrize(("cents", "rate_bp"), [(-1, 1_000), (10_000, -1), (-10_000, -1_000)])
def test_percent_floor_refuses_a_negative_pot_or_rate(cents: int, rate_bp: int) -> None:
    with pytest.raises(InvalidAmount) as refused:
        percent_floor(cents, rate_bp)
    assert str(refused.value) == "Percentages are taken of non-negative amounts at non-negative rates."


@pytest.mark.parametrize(
    ("cents", "increment", "floored"), [(0, 100, 0), (1234, 25, 1225), (1250, 25, 1250), (1299, 100, 1200), (7, 1, 7)]
)
def test_floor_to_increment_rounds_down_to_whole_chips(cents: int, increment: int, floored: int) -> None:
    assert floor_to_increment(cents, increment) == floored


@pytest.mark.parametrize("increment", [0, -25])
def test_floor_to_increment_refuses_an_increment_of_nothing(increment: int) -> None:
    with pytest.raises(InvalidAmount) as refused:
        floor_to_increment(1000, increment)
    assert str(refused.value) == "The increment must be more than zero."


@pytest.mark.parametrize(
    ("cents", "parts", "shares"),
    [(10, 3, [4, 3, 3]), (11, 3, [4, 4, 3]), (9, 3, [3, 3, 3]), (5, 1, [5]), (2, 4, [1, 1, 0, 0]), (0, 2, [0, 0])],
)
def test_split_evenly_gives_the_odd_cents_to_the_first_shares(cents: int, parts: int, shares: list[int]) -> None:
    assert split_evenly(cents, parts) == shares


@pytest.mark.parametrize("parts", [0, -1])
def test_split_evenly_refuses_no_shares(parts: int) -> None:
    with pytest.raises(InvalidAmount) as refused:
        split_evenly(100, parts)
    assert str(refused.value) == "An amount is split into one or more shares."


# --- Reading amounts: what each refusal tells the person who typed it --------------------------


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("1,5", "1.50 or 15.00"),  # one decimal after the comma: dollars and ten cents, or fifteen dollars
        ("$1,5", "1.50 or 15.00"),
        ("12,34.56", "1,234.56"),  # the point is the last separator
        ("1,234,56", "1,234.56 or 123,456.00"),  # the last comma as a point, or every comma for thousands
        ("1,000.000.50", "1,000,000.50"),
        ("1,0000,000", "10,000,000.00"),  # three digits after the last comma are not cents
    ],
)
def test_a_mistyped_comma_is_refused_with_the_amounts_it_could_mean(typed: str, meant: str) -> None:
    with pytest.raises(InvalidAmount) as refused:
        parse_cents(typed)
    assert str(refused.value) == (
        f'"{typed}" is not an amount: a comma only separates thousands, in groups of three; write {meant}.'
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (1.5, "1.5 is not an amount; write it as a string such as 120.00, 1,250.00 or $40."),
        (True, "True is not an amount; write it as a string such as 120.00, 1,250.00 or $40."),
        ([1], "[1] is not an amount; write it as a string such as 120.00, 1,250.00 or $40."),
        (Decimal("NaN"), "Decimal('NaN') is not an amount."),
        (Decimal("0.001"), "0.001 has a fraction of a cent; amounts are whole cents."),
        ("12.3450", "12.3450 has a fraction of a cent; amounts are whole cents."),
        (Decimal("-1"), "-1 is negative; the amount must be zero or more."),
        (-5, "-5 is negative; the amount must be zero or more."),
    ],
)
def test_what_is_not_an_amount_is_refused_saying_why(value: object, message: str) -> None:
    with pytest.raises(InvalidAmount) as refused:
        parse_cents(value)  # type: ignore[arg-type]  # a form or a JSON body may hold anything
    assert str(refused.value) == message


def test_zero_is_refused_only_where_an_amount_must_be_more_than_zero() -> None:
    with pytest.raises(InvalidAmount) as refused:
        parse_cents("0.00", allow_zero=False)
    assert str(refused.value) == "The amount must be more than zero."
    assert parse_cents("0.01", allow_zero=False) == 1
    assert parse_cents("5", allow_zero=False) == 500
    assert parse_cents("0.00") == 0
