"""Natural order: tables, boxes and seats as people count them, T1, T2, ..., T10, not T1, T10, T2.

A code's runs of digits compare as numbers and the rest as text without case, so "T2-bb" comes before
"T10-bb" and "t3" sits beside "T3". The database orders codes as text; lists that people read (a
count-sheet PDF, an export, a table's page) sort with ``natural_key`` after reading.
"""

from __future__ import annotations

import re

_RUNS = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """The sort key of ``text`` in natural order.

    >>> sorted(["T10", "T2", "T1", "t3"], key=natural_key)
    ['T1', 'T2', 't3', 'T10']
    >>> sorted(["T1-hh", "T1-bb", "T10-bb", "T2-bb"], key=natural_key)
    ['T1-bb', 'T1-hh', 'T2-bb', 'T10-bb']
    """
    # Each part is tagged (0 number, 1 text) so a number never meets a string in a comparison.
    return tuple((0, int(part)) if part.isdigit() else (1, part.casefold()) for part in _RUNS.split(text) if part)
