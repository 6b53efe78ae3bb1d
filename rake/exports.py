"""The columns of rake's reports, for the kernel's CSV and XLSX (``casino_backoffice.core.exports``).

The poker revenue report (``rake.selectors.revenue_table``) answers plain keys and cells; here each
key gets its kind, so that XLSX writes money as numbers and gaming days as dates.
"""

from __future__ import annotations

from collections.abc import Sequence

from casino_backoffice.core import exports
from casino_backoffice.core.exports import Column, Kind

_REVENUE_KINDS = {
    "gaming_day": Kind.DATE,
    "rounds": Kind.INTEGER,
    "late_rounds": Kind.INTEGER,
    "voided_rounds": Kind.INTEGER,
    "rake": Kind.MONEY,
    "time_charges": Kind.MONEY,
    "reversed": Kind.MONEY,
    "expected": Kind.MONEY,
    "counted": Kind.MONEY,
    "variance": Kind.MONEY,
    "banked_house_share": Kind.MONEY,
}


def revenue_columns(header: Sequence[str]) -> list[Column]:
    """The revenue report's columns: the grouping keys, the counts and amounts, a drop per jackpot."""
    return [
        Column(key, Kind.MONEY if key.startswith("drop_") else _REVENUE_KINDS.get(key, Kind.TEXT)) for key in header
    ]


class CSVRenderer(exports.CSVRenderer):
    """The poker revenue report as CSV (``/api/revenue/?format=csv``)."""

    columns = staticmethod(revenue_columns)


class XLSXRenderer(exports.XLSXRenderer):
    """The poker revenue report as XLSX (``/api/revenue/?format=xlsx``)."""

    columns = staticmethod(revenue_columns)
