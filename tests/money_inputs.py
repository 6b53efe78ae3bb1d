"""The one table of typed amounts that every money field of every page and API operation is walked with.

Each row: what a person or a table system typed, and either the cents it must be read as or a fragment
of the refusal it must get (the refusal says what to type instead). The same table drives the parser's
own tests (tests/test_money.py), every API serializer's and every form's money field
(tests/core/test_money_everywhere.py) and the pages end to end.
"""

from __future__ import annotations

# (typed, cents) for what is read, in the one grammar: digits 0-9, an optional "$", commas between
# groups of three only, at most two decimals.
READ: list[tuple[str, int]] = [
    ("23.90", 2390),
    ("2,390.00", 239000),
    ("1,250", 125000),
    ("1,250.00", 125000),
    ("$40", 4000),
    ("$1,250.50", 125050),
    ("0", 0),
    ("0.5", 50),
    ("12", 1200),
    ("9,999,999.99", 999999999),
    ("10,000,000", 1000000000),
]

# (typed, a fragment of the refusal) for what is refused, each with what to type instead.
REFUSED: list[tuple[str, str]] = [
    ("23,90", "write 23.90 or 2,390.00"),
    ("1,2500", "write 12,500.00"),
    ("1.234,50", "write 1,234.50"),
    ("\u0661\u0662\u0663", "digits other than 0-9"),  # Arabic-Indic ١٢٣
    ("\uff11\uff12\uff13", "digits other than 0-9"),  # full-width one, two, three
    ("\U0001d7cf\U0001d7d0\U0001d7d1", "digits other than 0-9"),  # mathematical bold one, two, three
    ("12.345", "fraction of a cent"),
    ("12.340", "write at most two, such as 12.34"),
    (".5", "write 0.50"),
    ("12.", "write 12.00"),
    ("1e3", "digits 0-9 and a point"),
    ("+5", "digits 0-9 and a point"),
    ("-5.00", "negative; the amount must be zero or more"),
    ("12 00", "digits 0-9 and a point"),
    ("$$5", "digits 0-9 and a point"),
    ("10,000,000.01", "the most any one amount may be"),
    ("abc", "digits 0-9 and a point"),
]
