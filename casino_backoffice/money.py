"""The one money type: integer cents.

Every amount in the product is an ``int`` of cents (model fields ``BigIntegerField`` named
``*_cents``). Amounts arrive as decimal strings ("12.34") and leave formatted by ``format_cents``;
all parsing, arithmetic that rounds, and formatting live here so that a rounding rule is written
once. Floats are refused everywhere: a binary float cannot hold 0.10 exactly.

>>> parse_cents("12.34")
1234
>>> format_cents(1234)
'12.34'
>>> format_cents(-5)
'-0.05'
>>> parse_cents("0.001")
Traceback (most recent call last):
...
casino_backoffice.money.InvalidAmount: 0.001 has a fraction of a cent; amounts are whole cents.
>>> parse_cents("100000000000000000.00")
Traceback (most recent call last):
...
casino_backoffice.money.InvalidAmount: 100000000000000000.00 is more than $10,000,000.00, the most any one amount may be.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import NewType

Cents = NewType("Cents", int)

_CENT = Decimal("0.01")

# The most any one amount may be: $10,000,000.00, a pot, a fee, a contribution or a payout. Far above
# any poker pot or jackpot, far below what a 64-bit cents column holds (about $92 quadrillion), so
# a mistyped or misread amount (cents sent as dollars) is refused instead of recorded, and no sum
# of amounts overflows the database.
MAX_AMOUNT_CENTS = 1_000_000_000

# An amount as the API takes it: a string of dollars with at most two decimals ("12", "12.5",
# "12.00"), from 0 to the maximum (up to seven digits of dollars, or 10000000 itself); no sign,
# exponent, thousands separator or space. A test checks it agrees with MAX_AMOUNT_CENTS.
AMOUNT_PATTERN = re.compile(r"\d{1,7}(\.\d{1,2})?|10000000(\.0{1,2})?")


class InvalidAmount(ValueError):
    """An amount that is not a whole number of cents, or not a number at all."""


def parse_cents(value: str | int | Decimal, *, allow_negative: bool = False, allow_zero: bool = True) -> Cents:
    """Dollars as a decimal string (or ``Decimal``; an ``int`` means whole dollars) to cents.

    Refuses floats, fractions of a cent, amounts beyond ``MAX_AMOUNT_CENTS`` either side of zero,
    and negative amounts unless asked to allow them.
    """
    if isinstance(value, bool) or isinstance(value, float):
        raise InvalidAmount(f'{value!r} is not an amount; write it as a string such as "12.34".')
    try:
        amount = Decimal(str(value).strip().replace(",", "")) if not isinstance(value, Decimal) else value
    except InvalidOperation:
        raise InvalidAmount(f'{value!r} is not an amount; write it as a string such as "12.34".') from None
    if not amount.is_finite():
        raise InvalidAmount(f"{value!r} is not an amount.")
    # Before quantizing: a huge amount ("1e30") does not fit the decimal context.
    if abs(amount) * 100 > MAX_AMOUNT_CENTS:
        beyond = (
            f"less than {display_cents(-MAX_AMOUNT_CENTS)}"
            if amount < 0
            else f"more than {display_cents(MAX_AMOUNT_CENTS)}"
        )
        raise InvalidAmount(f"{value} is {beyond}, the most any one amount may be.")
    if amount != amount.quantize(_CENT):
        raise InvalidAmount(f"{value} has a fraction of a cent; amounts are whole cents.")
    cents = int(amount * 100)
    if cents < 0 and not allow_negative:
        raise InvalidAmount(f"{value} is negative; the amount must be zero or more.")
    if cents == 0 and not allow_zero:
        raise InvalidAmount("The amount must be more than zero.")
    return Cents(cents)


def format_cents(cents: int) -> str:
    """Cents as a plain decimal string with two places: the API and export format."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}{whole}.{part:02d}"


def display_cents(cents: int) -> str:
    """Cents for people: a dollar sign and thousands separators (``$1,234.50``)."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}${whole:,}.{part:02d}"


def format_percent(rate_bp: int) -> str:
    """Basis points as a plain decimal number of percent, without trailing zeros: the rules-file format.

    >>> format_percent(1000), format_percent(250), format_percent(5)
    ('10', '2.5', '0.05')
    """
    percent = Decimal(rate_bp) / 100
    return str(percent.normalize().quantize(Decimal(1)) if rate_bp % 100 == 0 else percent.normalize())


def display_percent(rate_bp: int) -> str:
    """Basis points for people: ``10%``, ``2.5%``."""
    return f"{format_percent(rate_bp)}%"


def percent_floor(cents: int, rate_bp: int) -> Cents:
    """``rate_bp`` basis points of ``cents``, rounded down to the cent (never creates a cent)."""
    if cents < 0 or rate_bp < 0:
        raise InvalidAmount("Percentages are taken of non-negative amounts at non-negative rates.")
    return Cents(cents * rate_bp // 10_000)


def floor_to_increment(cents: int, increment_cents: int) -> Cents:
    """Round down to a multiple of ``increment_cents`` (a rake taken in whole chips)."""
    if increment_cents <= 0:
        raise InvalidAmount("The increment must be more than zero.")
    return Cents(cents - cents % increment_cents)


def split_evenly(cents: int, parts: int) -> list[Cents]:
    """Split into ``parts`` shares that sum exactly to ``cents``: the first ``cents % parts`` shares
    carry one cent more. Callers order the recipients by the rule that gets the odd cents."""
    if parts <= 0:
        raise InvalidAmount("An amount is split into one or more shares.")
    base, extra = divmod(cents, parts)
    return [Cents(base + (1 if i < extra else 0)) for i in range(parts)]
