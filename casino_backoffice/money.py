"""The one money type: integer cents.

Every amount in the product is an ``int`` of cents (model fields ``BigIntegerField`` named
``*_cents``). Amounts arrive as strings of dollars ("12.34", "1,250.00", "$40") read by the one
parser, ``parse_cents``, on every page, admin form, API field and rules file, and leave formatted by
``format_cents``; all parsing, arithmetic that rounds, and formatting live here so that a rule is
written once. Floats are refused everywhere: a binary float cannot hold 0.10 exactly.

>>> parse_cents("12.34"), parse_cents("1,250.00"), parse_cents("$40")
(1234, 125000, 4000)
>>> parse_cents("23,90")
Traceback (most recent call last):
...
casino_backoffice.money.InvalidAmount: "23,90" is not an amount: a comma only separates thousands, in groups of three; write 23.90 or 2,390.00.
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
from decimal import Decimal
from typing import NewType

Cents = NewType("Cents", int)

_CENT = Decimal("0.01")

# The most any one amount may be: $10,000,000.00, a pot, a fee, a contribution or a payout. Far above
# any poker pot or jackpot, far below what a 64-bit cents column holds (about $92 quadrillion), so
# a mistyped or misread amount (cents sent as dollars) is refused instead of recorded, and no sum
# of amounts overflows the database.
MAX_AMOUNT_CENTS = 1_000_000_000

# The one way an amount is read, on every page, admin form, API field and rules file: an optional "$",
# dollars in the ASCII digits 0-9, written plainly ("1250") or with a comma between each group of three
# ("1,250"), then at most two decimals after a point. Nothing else: no other digits (Arabic-Indic,
# full-width, mathematical), no comma as a decimal point ("23,90" is refused, not read as $2,390.00),
# no space, exponent or "+". A minus sign in front only where an amount may be negative.
_AMOUNT = re.compile(r"(?P<minus>-)?\$?(?P<dollars>[0-9]+|[1-9][0-9]{0,2}(?:,[0-9]{3})+)(?:\.(?P<decimals>[0-9]+))?")

# The same grammar over the range the API takes, as one regular expression for the OpenAPI schema:
# up to seven digits of dollars (plain or grouped), or 10,000,000 itself, no sign. A test checks that it
# admits exactly what ``parse_cents`` admits.
AMOUNT_PATTERN = re.compile(
    r"\$?(?:(?:[0-9]{1,7}|[1-9][0-9]{0,2},[0-9]{3}|[1-9],[0-9]{3},[0-9]{3})(?:\.[0-9]{1,2})?"
    r"|(?:10000000|10,000,000)(?:\.0{1,2})?)"
)

_EXAMPLES = "such as 120.00, 1,250.00 or $40"


class InvalidAmount(ValueError):
    """An amount that is not a whole number of cents, or not a number at all."""


def parse_cents(value: str | int | Decimal, *, allow_negative: bool = False, allow_zero: bool = True) -> Cents:
    """Dollars as typed or sent ("1,250.00", "$40", "23.90"; or a ``Decimal``; an ``int`` means whole
    dollars) to cents, by the one grammar above.

    Refuses floats, any character outside the grammar (with what to type instead), a comma that does
    not separate thousands, fractions of a cent and more than two decimals, amounts beyond
    ``MAX_AMOUNT_CENTS`` either side of zero, and negative amounts unless asked to allow them.
    """
    if isinstance(value, bool) or isinstance(value, float):
        raise InvalidAmount(f"{value!r} is not an amount; write it as a string {_EXAMPLES}.")
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise InvalidAmount(f"{value!r} is not an amount.")
        amount = value
    elif isinstance(value, int):
        amount = Decimal(value)
    elif isinstance(value, str):
        amount = _read(value, allow_negative=allow_negative)
    else:
        raise InvalidAmount(f"{value!r} is not an amount; write it as a string {_EXAMPLES}.")
    # Before quantizing: a huge amount does not fit the decimal context.
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


def _read(text: str, *, allow_negative: bool) -> Decimal:
    """A string by the grammar, to a ``Decimal`` of dollars; the refusal says what to type instead."""
    match = _AMOUNT.fullmatch(text)
    if match is None:
        raise InvalidAmount(_misread(text))
    if match["minus"] and not allow_negative:
        raise InvalidAmount(f"{text} is negative; the amount must be zero or more.")
    decimals = match["decimals"] or ""
    if len(decimals) > 2 and decimals.rstrip("0")[2:]:
        raise InvalidAmount(f"{text} has a fraction of a cent; amounts are whole cents.")
    if len(decimals) > 2:
        raise InvalidAmount(
            f"{text} has {len(decimals)} decimals; write at most two, such as {text[: -(len(decimals) - 2)]}."
        )
    amount = Decimal(match["dollars"].replace(",", "") + "." + (decimals or "0"))
    return -amount if match["minus"] else amount


def _misread(text: str) -> str:
    """Why ``text`` is not an amount, and the readings a person probably meant."""
    shown = f'"{text}"'
    if not text.strip():
        return f"The amount is empty; write dollars and cents {_EXAMPLES}."
    if any(character.isdigit() and not "0" <= character <= "9" for character in text):
        return f"{shown} has digits other than 0-9; type the amount with the digits 0 to 9, {_EXAMPLES}."
    if "," in text and re.fullmatch(r"-?\$?[0-9][0-9,.]*", text):
        meant = _readings(text)
        if meant:
            return (
                f"{shown} is not an amount: a comma only separates thousands, in groups of three; "
                f"write {' or '.join(meant)}."
            )
        return f"{shown} is not an amount: a comma only separates thousands, in groups of three, {_EXAMPLES}."
    point = re.fullmatch(r"-?\$?([0-9]*)\.([0-9]{0,2})", text)
    if point and (point[1] or point[2]):
        return f"{shown} is not an amount; write {_written(int(point[1] or 0) * 100 + int(point[2].ljust(2, '0')))}."
    return f"{shown} is not an amount; write dollars and cents with the digits 0-9 and a point, {_EXAMPLES}."


def _readings(text: str) -> list[str]:
    """The amounts a mistyped ``text`` could mean: its last separator as the decimal point (when one or
    two digits follow it), and every separator as a thousands separator; each written by the grammar."""
    body = text.lstrip("-$")
    readings: list[str] = []
    last = max(body.rfind(","), body.rfind("."))
    if 0 < last and 1 <= len(body) - last - 1 <= 2:
        dollars = re.sub(r"[,.]", "", body[:last])
        readings.append(_written(int(dollars or "0") * 100 + int(body[last + 1 :].ljust(2, "0"))))
    if "." not in body:
        readings.append(_written(int(body.replace(",", "") or "0") * 100))
    return [reading for index, reading in enumerate(readings) if reading not in readings[:index]]


def _written(cents: int) -> str:
    """Cents as a person would type them back: grouped dollars and two decimals, no "$"."""
    whole, part = divmod(cents, 100)
    return f"{whole:,}.{part:02d}"


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
